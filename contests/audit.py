"""Audited writes and the access log: the two ways the application records who did what (DESIGN.md).

``audited_save``/``audited_delete`` make the history row (django-simple-history) name the user and the
reason; ``log_access`` records that a user saw a sensitive record (LGPD: declarations, PcD condition,
procedures). Every app writes through these.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.apps import apps
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.http import HttpRequest
from simple_history.manager import HistoryDescriptor

from contests.models import AccessLog

__all__ = ["User", "assign", "audited_delete", "audited_save", "keep_history_managers", "log_access"]


class KeptHistoryDescriptor(HistoryDescriptor):
    """``Model.history`` with its manager class made once. django-simple-history's descriptor makes a new
    class (``Manager.from_queryset``, 0.11 ms of CPU) at every access, and its ``post_save`` handler reads
    ``instance.history``: every audited save paid it (38,549 accesses in half the test suite)."""

    def __get__(self, instance: Any, owner: Any) -> Any:
        manager = self.__dict__.get("manager")
        if manager is None:
            manager = self.manager = self.manager_class.from_queryset(self.queryset_class)
        return manager(self.model, instance)


def keep_history_managers() -> None:
    """Every audited model's ``history`` descriptor replaced by ``KeptHistoryDescriptor`` (the app's
    ``ready``: the models and their histories are all made by then)."""
    for model in apps.get_models():
        for name, value in list(vars(model).items()):
            if type(value) is HistoryDescriptor:
                kept = KeptHistoryDescriptor(
                    value.model, manager=value.manager_class, queryset=value.queryset_class
                )
                setattr(model, name, kept)


def audited_save(
    obj: models.Model, *, by: User | None, reason: str = "", exclude: list[str] | None = None
) -> None:
    """Validate and save ``obj`` so that its history row names ``by`` (and the reason, if any)."""
    obj.full_clean(exclude=exclude)
    obj._history_user = by  # type: ignore[attr-defined]  # read by django-simple-history
    if reason:
        obj._change_reason = reason  # type: ignore[attr-defined]
    obj.save()


def audited_delete(obj: models.Model, *, by: User | None, reason: str = "") -> None:
    obj._history_user = by  # type: ignore[attr-defined]  # read by django-simple-history
    if reason:
        obj._change_reason = reason  # type: ignore[attr-defined]
    obj.delete()


def assign(
    obj: models.Model, data: Mapping[str, Any], *, allowed: Collection[str] | None = None
) -> list[str]:
    """Set the attributes of ``obj`` from ``data``; the names of the fields that changed.

    ``allowed``: the only fields this caller may set; any other is a programming error (``ValueError``).
    """
    if allowed is not None:
        unknown = set(data) - set(allowed)
        if unknown:
            raise ValueError(f"Campos não editáveis aqui: {sorted(unknown)}")
    changed = []
    for field, value in data.items():
        # A foreign key not set yet (a new registration's position) raises AttributeError: it is a change.
        if getattr(obj, field, None) != value:
            setattr(obj, field, value)
            changed.append(field)
    return changed


def log_access(
    *,
    user: User | None,
    obj: models.Model,
    action: str = "view",
    detail: str = "",
    request: HttpRequest | None = None,
    via_link: str = "",
) -> None:
    """Record that ``user`` saw a sensitive record (declaration, PcD condition, procedure): LGPD.

    ``via_link``: who held the private link when no user is signed in ("Candidato(a)", "Procurador(a)")."""
    ip = None
    if request is not None:
        ip = request.META.get("REMOTE_ADDR") or None
    AccessLog.objects.create(
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        content_type=ContentType.objects.get_for_model(obj),
        object_id=str(obj.pk),
        object_repr=str(obj)[:200],
        detail=detail[:200],
        ip_address=ip,
        via_link=via_link[:60],
    )
