"""A model's check constraints validated in one query instead of one each.

Django's ``Model.validate_constraints`` (``full_clean``, and a model form's ``_post_clean``) asks the
database about each ``CheckConstraint`` in a query of its own, inside a savepoint of its own: the instance's
every field annotated, the condition compiled, a round trip. Every save of ours is validated
(``contests.audit.audited_save``), and a contest has six check constraints. ``ChecksInOneQuery`` asks about
all of a model's check constraints in one ``SELECT``, each condition a boolean column (``NULL`` counted as
satisfied, as Django counts it). What that query cannot answer the same way is left to Django's own
``CheckConstraint.validate``, so the errors, their messages and codes, and the cases Django skips are
Django's:

- a constraint the query says is violated is validated again by Django (it raises the error, as before);
- a condition naming a field left out (``exclude``) or reached through a relation is not in the query:
  Django's ``validate`` gets it (and skips it, as before);
- a database error in the query hands every constraint to Django's ``validate`` (which logs and skips it).

Unique constraints go through Django unchanged.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from django.core.exceptions import FieldError, ValidationError
from django.db import DatabaseError, connections, router, transaction
from django.db.models import BooleanField, CheckConstraint, Q, Value
from django.db.models.functions import Coalesce
from django.db.models.sql import Query
from django.db.models.sql.constants import SINGLE


def satisfied_checks(
    instance: Any, model: Any, checks: list[CheckConstraint], exclude: set[str], using: str
) -> set[int]:
    """The indexes of ``checks`` that ``instance`` satisfies, asked in one query; the others (violated, or
    not answerable in it) are left to Django's ``validate``."""
    connection = connections[using]
    features = connection.features
    if not (features.supports_comparing_boolean_expr and features.supports_boolean_expr_in_select_clause):
        return set()
    against = instance._get_field_expression_map(meta=model._meta, exclude=exclude)
    asked = [
        i
        for i, check in enumerate(checks)
        if set(Q(check.condition).referenced_base_fields) <= against.keys()
    ]
    if not asked:
        return set()
    query = Query(None)
    try:
        for name, value in against.items():
            query.add_annotation(
                value if hasattr(value, "resolve_expression") else Value(value), name, select=False
            )
        for i in asked:
            condition = Coalesce(Q(checks[i].condition), True, output_field=BooleanField())
            query.add_annotation(condition, f"_check_{i}")
    except FieldError:
        return set()  # a condition the query cannot resolve: Django's ``validate`` decides each
    compiler = query.get_compiler(using=using)
    try:
        with transaction.atomic(using=using) if connection.in_atomic_block else nullcontext():
            row = compiler.execute_sql(SINGLE)
    except DatabaseError:
        return set()  # Django's ``validate`` logs it and lets each constraint pass, as before
    if row is None:  # pragma: no cover - a SELECT without FROM returns its row
        return set()
    # The row holds the selected annotations in the order they were added.
    return {i for i, value in zip(asked, row, strict=True) if value}


class ChecksInOneQuery:
    """Mixed into a model before ``models.Model``: its check constraints validated in one query."""

    def validate_constraints(self, exclude: Any = None) -> None:
        # A mixin: ``self`` is the model instance it is mixed into.
        using = router.db_for_write(self.__class__, instance=self)  # type: ignore[arg-type]
        excluded = set(exclude or ())
        errors: dict[str, list[ValidationError]] = {}
        for model_class, model_constraints in self.get_constraints():  # type: ignore[attr-defined]
            checks = [c for c in model_constraints if isinstance(c, CheckConstraint)]
            satisfied = (
                satisfied_checks(self, model_class, checks, excluded, using) if len(checks) > 1 else set()
            )
            passed = {id(checks[i]) for i in satisfied}
            for constraint in model_constraints:
                if id(constraint) in passed:
                    continue
                # Django's ``Model.validate_constraints``, unchanged, for every constraint not known to pass.
                try:
                    constraint.validate(model_class, self, exclude=exclude, using=using)
                except ValidationError as e:
                    if getattr(e, "code", None) == "unique" and len(constraint.fields) == 1:
                        errors.setdefault(constraint.fields[0], []).append(e)
                    else:
                        errors = e.update_error_dict(errors)
        if errors:
            raise ValidationError(errors)
