"""Reading django-simple-history for people: who changed what and when, field by field.

Read-only helpers for the "Histórico" pages (the writes that produce history are in ``services``).
"""

from __future__ import annotations

import dataclasses
import datetime
from decimal import Decimal
from pathlib import PurePosixPath
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.utils import formats, timezone

ACTIONS = {"+": "Criação", "~": "Alteração", "-": "Exclusão"}
# The parent a row belongs to is already in its label: not repeated among a creation's values.
_PARENTS = {"contest", "position", "commission", "procedure"}
# Never shown, whoever reads: a private link's token hash would let nobody in, but is nobody's business.
_SECRET = {"token_hash"}
# Fields shown on a creation row only when filled in: the rest is noise.
_EMPTY: tuple[object, ...] = (None, "", [], {}, False)


@dataclasses.dataclass(frozen=True)
class Change:
    field: str
    old: str
    new: str


@dataclasses.dataclass(frozen=True)
class HistoryEntry:
    when: datetime.datetime
    user: str
    action: str
    history_type: str
    kind: str
    label: str
    reason: str
    changes: tuple[Change, ...]


def field_label(model: type[models.Model], name: str) -> str:
    try:
        label = str(getattr(model._meta.get_field(name), "verbose_name", name))
    except Exception:  # a field removed since the record was written
        return name
    return label[:1].upper() + label[1:]


class _RelatedLabels:
    """``str()`` of related rows by primary key, fetched once per model."""

    def __init__(self) -> None:
        self._cache: dict[tuple[type[models.Model], object], str] = {}
        self._objects: dict[tuple[type[models.Model], object], models.Model | None] = {}

    def __call__(self, model: type[models.Model], pk: object) -> str:
        key = (model, pk)
        if key not in self._cache:
            obj = self.instance(model, pk)
            self._cache[key] = str(obj) if obj is not None else f"registro nº {pk} (excluído)"
        return self._cache[key]

    def preload(self, model: type[models.Model], pks: set[object]) -> None:
        """Fetch the rows ``pks`` of ``model`` in one query (a history list names the same few parents on
        every row: one query per model instead of one per row)."""
        missing = {pk for pk in pks if (model, ("instance", pk)) not in self._objects}
        if not missing:
            return
        found = model._default_manager.in_bulk(missing)
        for pk in missing:
            self._objects[(model, ("instance", pk))] = found.get(pk)

    def instance(self, model: type[models.Model], pk: object) -> models.Model | None:
        """The row ``pk`` of ``model`` itself, fetched once and shared, so that what it points to is fetched
        once too."""
        key = (model, ("instance", pk))
        if key not in self._objects:
            self._objects[key] = model._default_manager.filter(pk=pk).first()
        return self._objects[key]

    def person(self, user_model: type[models.Model], pk: object) -> str:
        """A user by their full name (the login when they have none), fetched once."""
        key = (user_model, ("person", pk))
        if key not in self._cache:
            user = user_model._default_manager.filter(pk=pk).first()
            self._cache[key] = user_label(user) if user is not None else f"usuário nº {pk} (excluído)"  # type: ignore[arg-type]
        return self._cache[key]

    def nominee(self, registration_model: type[models.Model], pk: object) -> str:
        """The name (social where given) of the candidate of registration ``pk``, fetched once."""
        key = (registration_model, ("nominee", pk))
        if key not in self._cache:
            obj = registration_model._default_manager.select_related("candidate").filter(pk=pk).first()
            self._cache[key] = obj.candidate.display_name if obj is not None else f"inscrição nº {pk}"  # type: ignore[attr-defined]
        return self._cache[key]


def _item_display(item: object, labels: dict) -> str:
    """One item of a list field: its label, a person's name (a draw's pool), or a plain value."""
    if isinstance(item, dict):
        return str(item.get("name") or item.get("nome") or "(dados técnicos)")
    if isinstance(item, list):
        return "(dados técnicos)"
    return str(labels.get(item, item))


def value_display(
    model: type[models.Model], name: str, value: object, related: _RelatedLabels | None = None
) -> str:
    """A field's value as a person reads it: choice labels, dd/mm/aaaa, decimal comma, Sim/Não."""
    if value is None or value == "":
        return "—"
    try:
        field = model._meta.get_field(name)
    except Exception:  # a field removed since the record was written
        return str(value)
    if isinstance(value, list) and isinstance(field, models.ManyToManyField):
        # A many-to-many's history row: one dict per link, the related row under its model's name.
        linked = field.related_model
        key = linked._meta.model_name  # type: ignore[union-attr]
        lookup = related or _RelatedLabels()
        names = [lookup(linked, item.get(key)) for item in value if isinstance(item, dict)]  # type: ignore[arg-type]
        return ", ".join(names) or "—"
    if isinstance(value, list):
        choices = getattr(model, "Group", None)
        labels = dict(choices.choices) if choices is not None and name == "beneficiary_groups" else {}
        return ", ".join(_item_display(item, labels) for item in value) or "—"
    if isinstance(value, dict):
        # A structure for the machine (a run's summary, an allocation state): not a text for a person.
        return "(dados técnicos)" if value else "—"
    if isinstance(field, models.Field) and field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(value, bool):
        return "Sim" if value else "Não"
    if isinstance(value, datetime.datetime):
        # Stored in UTC: shown in the installation's time (America/Sao_Paulo), as everywhere else.
        local = timezone.localtime(value) if timezone.is_aware(value) else value
        return formats.date_format(local, "d/m/Y H:i")
    if isinstance(value, datetime.date):
        return value.strftime("%d/%m/%Y")
    if isinstance(value, Decimal):
        return formats.number_format(value, use_l10n=True, force_grouping=True)
    if isinstance(field, models.FileField):
        # A file by its name, never the storage path ("nominations/withdrawals/2026/12/…").
        return PurePosixPath(str(getattr(value, "name", value))).name or "—"
    target: object = field.related_model if field.is_relation else None
    if isinstance(target, type) and issubclass(target, models.Model):
        pk = getattr(value, "pk", value)
        if issubclass(target, AbstractBaseUser):
            return (related or _RelatedLabels()).person(target, pk)
        return (related or _RelatedLabels())(target, pk)
    return str(value)


def user_label(user: User | None) -> str:
    if user is None:
        return "Sistema"
    return user.get_full_name() or user.get_username()


def _describe(model: type[models.Model], record, related: _RelatedLabels) -> str:
    """The object a history row is about, as it was then."""
    name = model._meta.model_name
    if name == "vacancyopening":
        position = related(model._meta.get_field("position").related_model, record.position_id)  # type: ignore[arg-type]
        return f"{record.get_kind_display()} – cargo {position}"
    if name == "position":
        return f"{record.code} – {record.title}"
    if name == "contest":
        return f"Concurso {record.number}/{record.year}: {record.title}"
    if name == "nomination":
        # Named by its nominee, as on the screens ("Nomeação de Maria da Silva (vaga 3)").
        registration = model._meta.get_field("registration").related_model
        nominee = related.nominee(registration, record.registration_id)  # type: ignore[arg-type]
        return f"Nomeação de {nominee} (vaga {record.seat})"
    return _as_it_was(model, record, related)


def _parents(model: type[models.Model]) -> list[Any]:
    """The rows a row of ``model`` points to that may name it: its foreign keys, people aside (never part
    of a row's name)."""
    return [
        field
        for field in model._meta.concrete_fields
        if field.many_to_one
        and isinstance(field.related_model, type)
        and not issubclass(field.related_model, AbstractBaseUser)
    ]


def _as_it_was(model: type[models.Model], record, related: _RelatedLabels) -> str:
    """``str()`` of the object as the history row has it, the rows it points to (a procedure's act names
    its procedure, a verification its registration and session) fetched once for the whole list instead
    of once per row."""
    instance = record.instance
    for field in _parents(model):
        pk = getattr(record, field.attname)
        if pk is None:
            continue
        target = related.instance(field.related_model, pk)
        if target is not None:
            setattr(instance, field.name, target)
    try:
        return str(instance)
    except ObjectDoesNotExist:  # a row it points to was deleted since
        return f"{field_label_model(model)} nº {record.pk}"


def history_entries(*querysets: models.QuerySet[Any]) -> list[HistoryEntry]:
    """The history rows of the given historical querysets, newest first, each with its field changes.

    A change row is diffed against the previous row of the same object (``diff_against``); a creation
    row lists the values filled in.
    """
    related = _RelatedLabels()
    keyed: list[tuple[tuple, HistoryEntry]] = []
    for queryset in querysets:
        historical = queryset.model
        model = historical.instance_type
        pk_name = model._meta.pk.attname
        previous: dict[object, object] = {}
        records = list(queryset.select_related("history_user").order_by("history_date", "history_id"))
        for parent in _parents(model):
            pks = {getattr(r, parent.attname) for r in records} - {None}
            related.preload(parent.related_model, pks)
        for record in records:
            object_id = getattr(record, pk_name)
            prior = previous.get(object_id)
            previous[object_id] = record
            changes: list[Change] = []
            if record.history_type == "~" and prior is not None:
                delta = record.diff_against(prior)
                changes = [
                    Change(
                        field_label(model, change.field),
                        value_display(model, change.field, change.old, related),
                        value_display(model, change.field, change.new, related),
                    )
                    for change in delta.changes
                    if change.field not in _SECRET
                ]
            elif record.history_type == "+":
                for field in model._meta.concrete_fields:
                    if field.primary_key or not field.editable or field.name in _PARENTS | _SECRET:
                        continue
                    value = getattr(record, field.attname)
                    if value in _EMPTY and not (value == 0 and value is not False):
                        continue
                    shown = value_display(model, field.name, value, related)
                    changes.append(Change(field_label(model, field.name), "", shown))
            entry = HistoryEntry(
                when=record.history_date,
                user=user_label(record.history_user),
                action=ACTIONS.get(record.history_type, record.history_type),
                history_type=record.history_type,
                kind=field_label_model(model),
                label=_describe(model, record, related),
                reason=record.history_change_reason or "",
                changes=tuple(changes),
            )
            keyed.append(((record.history_date, record.history_id), entry))
    keyed.sort(key=lambda item: item[0], reverse=True)
    return [entry for _, entry in keyed]


def field_label_model(model: type[models.Model]) -> str:
    label = str(model._meta.verbose_name)
    return label[:1].upper() + label[1:]
