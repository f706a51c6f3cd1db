"""The parts of a policy version that apps above ``contests`` keep, and how the policy carries them.

A policy version is one law, but some of its parameters are read by one app above this one alone (the
procedure's and the heteroidentification commission's law: ``declarations``), which keeps them beside the
policy, one row per version (a one-to-one reached from the policy by its accessor). ``contests`` may not import
that app, so the app registers its part here from its ``AppConfig.ready()``; the policy services then create
the part with the policy, copy it to a new version and change it behind the policy's lock, in the same
transaction, and the policy screens show and edit it on the same page. The services call the parts themselves
(no signal): a bulk write or a new path cannot leave a version without them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from django import forms
from django.db import models

if TYPE_CHECKING:
    from contests.audit import User
    from contests.models import Policy


class CreatePart(Protocol):
    def __call__(
        self, *, policy: Policy, by: User | None, data: Mapping[str, Any], copy_from: Policy | None
    ) -> models.Model: ...


class UpdatePart(Protocol):
    def __call__(self, *, policy: Policy, by: User | None, data: Mapping[str, Any]) -> models.Model: ...


@dataclass(frozen=True)
class PolicyPart:
    """One app's part of every policy version."""

    accessor: str  # the one-to-one's name on Policy: ``policy.<accessor>`` is the version's row
    form_class: type[forms.ModelForm]  # edits the row under the policy's form (``fieldsets``: its sections)
    # The row of a new version: the defaults or, for a new version, a copy of ``copy_from``'s; ``data`` over it.
    create: CreatePart
    # ``data`` on the version's row; refused (ValidationError) while a published contest uses the version.
    update: UpdatePart

    def row(self, policy: Policy) -> models.Model:
        return getattr(policy, self.accessor)

    @property
    def fieldsets(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(legend, field names) of the part's form, for its sections on the policy's pages."""
        return getattr(self.form_class, "fieldsets", ())


_PARTS: dict[str, PolicyPart] = {}


def register(part: PolicyPart) -> None:
    """Called from the owning app's ``AppConfig.ready()``; registering the same accessor again replaces it."""
    _PARTS[part.accessor] = part


def parts() -> tuple[PolicyPart, ...]:
    return tuple(_PARTS.values())
