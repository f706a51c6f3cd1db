"""The procedures' and the heteroidentification's part of a contest's audit trail (``candidates.trail``,
which may not import this app: the part is registered from ``DeclarationsConfig.ready()``).

What a reader sees follows the roles (DESIGN.md): whoever may read procedures (Jurídico, Auditoria) sees every
act, attachment (by its name) and link; whoever sees only a registration's status (Secretaria, Gestão) sees
each procedure's status changes and nothing of its content. Likewise for the heteroidentification: the
commission, its members, the draws and the sessions (all published) to every reader of the trail; each
verification's result to those who see the status; opinions, appeals and links to those who may read them.
"""

from __future__ import annotations

import dataclasses

from django.contrib.auth.models import User
from django.db import models

from candidates.models import Registration
from contests.history import HistoryEntry, field_label, field_label_model, history_entries
from contests.models import Contest
from declarations.models import (
    Appeal,
    Attachment,
    Commission,
    CommissionMember,
    DrawAnnouncement,
    MemberDraw,
    Opinion,
    Procedure,
    ProcedureAct,
    ProcedureLink,
    Session,
    Verification,
    VerificationLink,
)

# What a reader who sees the status only is shown of a procedure and of a verification.
_STATUS_FIELDS = {
    Procedure: ("status",),
    Verification: ("attended", "outcome", "consequence"),
}


def _may(reader: User | None, perm: str) -> bool:
    return reader is not None and reader.has_perm(perm)


def _status_only(entries: list[HistoryEntry], model: type[models.Model]) -> list[HistoryEntry]:
    """``entries`` of ``model`` with only the status fields' changes; a row that changed none of them goes."""
    kind = field_label_model(model)
    shown = {field_label(model, name) for name in _STATUS_FIELDS[model]}
    kept = []
    for entry in entries:
        if entry.kind != kind:
            kept.append(entry)
            continue
        changes = tuple(c for c in entry.changes if c.field in shown)
        if changes or entry.history_type != "~":
            kept.append(dataclasses.replace(entry, changes=changes, reason=""))
    return kept


def _ids(queryset) -> list[int]:
    return list(queryset.values_list("id", flat=True).distinct())


def procedure_entries(contest: Contest, reader: User | None) -> list[HistoryEntry]:
    full = _may(reader, "declarations.view_procedure")
    if not full and not _may(reader, "declarations.view_procedure_status"):
        return []
    registrations = Registration.objects.filter(contest=contest).values("pk")
    procedures = Procedure.history.filter(registration_id__in=registrations)
    if not full:
        return _status_only(history_entries(procedures), Procedure)
    procedure_ids = _ids(procedures)
    acts = ProcedureAct.history.filter(procedure_id__in=procedure_ids)
    return history_entries(
        procedures,
        acts,
        Attachment.history.filter(act_id__in=_ids(acts)),
        ProcedureLink.history.filter(procedure_id__in=procedure_ids),
    )


def heteroidentification_entries(contest: Contest, reader: User | None) -> list[HistoryEntry]:
    commissions = Commission.history.filter(contest_id=contest.pk)
    commission_ids = _ids(commissions)
    sessions = Session.history.filter(commission_id__in=commission_ids)
    session_ids = _ids(sessions)
    verifications = Verification.history.filter(session_id__in=session_ids)
    public = [
        commissions,
        CommissionMember.history.filter(commission_id__in=commission_ids),
        DrawAnnouncement.history.filter(contest_id=contest.pk),
        MemberDraw.history.filter(commission_id__in=commission_ids),
        sessions,
    ]
    if _may(reader, "declarations.view_verification"):
        verification_ids = _ids(verifications)
        return history_entries(
            *public,
            verifications,
            Opinion.history.filter(verification_id__in=verification_ids),
            Appeal.history.filter(verification_id__in=verification_ids),
            VerificationLink.history.filter(verification_id__in=verification_ids),
        )
    if _may(reader, "declarations.view_heteroidentification_status"):
        return _status_only(history_entries(*public, verifications), Verification)
    return history_entries(*public)


def contest_entries(contest: Contest, reader: User | None) -> list[HistoryEntry]:
    """The declarations' part of ``contest``'s audit trail, as ``reader`` may see it."""
    return [*procedure_entries(contest, reader), *heteroidentification_entries(contest, reader)]
