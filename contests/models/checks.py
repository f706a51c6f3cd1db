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

from collections.abc import Sequence
from contextlib import nullcontext
from typing import Any

from django.core.exceptions import FieldError
from django.db import DatabaseError, connections, router, transaction
from django.db.models import BaseConstraint, BooleanField, CheckConstraint, Model, Q, Value
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
    """Mixed into a model before ``models.Model``: its check constraints validated in one query. Django's own
    ``validate_constraints`` then runs, its loop and its errors unchanged, over every constraint not known to
    pass (``get_constraints`` leaves out, while it runs, the checks the query found satisfied)."""

    _checks_passed: frozenset[int] = frozenset()  # ids of the constraints found satisfied, while validating

    def validate_constraints(self, exclude: Any = None) -> None:
        # A mixin: ``self`` is the model instance it is mixed into.
        using = router.db_for_write(self.__class__, instance=self)  # type: ignore[arg-type]
        excluded = set(exclude or ())
        passed: set[int] = set()
        for model_class, model_constraints in super().get_constraints():  # type: ignore[misc]
            checks = [c for c in model_constraints if isinstance(c, CheckConstraint)]
            if len(checks) > 1:
                passed.update(
                    id(checks[i]) for i in satisfied_checks(self, model_class, checks, excluded, using)
                )
        self._checks_passed = frozenset(passed)
        try:
            super().validate_constraints(exclude)  # type: ignore[misc]
        finally:
            del self._checks_passed  # the class's empty set again

    def get_constraints(self) -> list[tuple[type[Model], Sequence[BaseConstraint]]]:
        found: list[tuple[type[Model], Sequence[BaseConstraint]]] = super().get_constraints()  # type: ignore[misc]
        if not self._checks_passed:
            return found
        return [(model, [c for c in cs if id(c) not in self._checks_passed]) for model, cs in found]
