"""The acts heteroidentification publishes through the documents pipeline (``contests/documents``:
immutable, hashed, verifiable at /verificar/): the draw's record, the call list and the list of confirmed
candidates are public (inscription and name only, RULES §7); the session minutes carry opinions and are
restricted (``RESTRICTED_KINDS``: never listed or served to the public), with CPFs masked and the members
present named with a line for their signatures. A republication is a rectification (new version).

Each public act opens naming the authority who signs it (the name and office the publication form records)
and closes with its signature block; its legal basis is the edital and the STF's ADC 41/DF, with the law of
the reserve as every act cites it (``contests.documents.heading.law_citation``): never our design notes.

Also the extract of one candidate's opinions attached to the procedure a non-confirmation opens: its
evidence, without the other candidates of the session."""

from __future__ import annotations

import datetime
import shlex
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from candidates.letters import with_code
from candidates.validators import mask_cpf
from contests.audit import User
from contests.documents.edital import edital_title, law_of
from contests.documents.letters import Letter
from contests.documents.models import Document
from contests.documents.render import Stamp, render_pdf
from contests.documents.services import current_version, document_publish
from contests.documents.signatures import SignatureBlock, preamble, signature_block
from contests.models import Contest
from declarations.hetero import draw as draw_rules
from declarations.hetero import rules, selectors
from declarations.models import CommissionMember, DrawAnnouncement, MemberDraw, Session, Verification

Kind = Document.Kind


@dataclass(frozen=True)
class Signer:
    name: str
    office: str
    summary: str = ""


def basis(contest: Contest) -> str:
    """The clause every act opens with: "nos termos do Edital de Abertura nº 3/2026 e da Lei nº …"."""
    return f"nos termos do {edital_title(contest)} e {law_of(contest.policy)}"


# What the call tells a candidate who does not come, as the edital says it (``ProcedureLaw.NoShow``).
NO_SHOW_TEXT = {
    "keep_open": "deixará a lista reservada e permanecerá na ampla concorrência",
    "eliminate": "será eliminado do concurso",
}


def _publish(
    *,
    contest: Contest,
    kind: str,
    subject: str,
    title: str,
    template: str,
    context: dict,
    by: User,
    signer: Signer,
    on: datetime.date | None = None,
) -> Document:
    previous = current_version(contest, kind, subject)
    if previous is not None and not signer.summary.strip():
        raise ValidationError(
            f"O ato já foi publicado em {timezone.localtime(previous.published_at):%d/%m/%Y}: para publicá-lo de "
            "novo, resuma o que a retificação altera."
        )
    on = on or timezone.localdate()
    signature = signature_block(signer.name, signer.office, on=on)
    context = {
        "signature": signature,
        "authority": preamble(signature),
        "signed_on": on,
        "basis": basis(contest),
        "rectifies": previous,
        "rectification": signer.summary.strip() if previous is not None else "",
        **context,
    }
    return document_publish(
        contest=contest,
        kind=kind,
        subject=subject,
        title=title,
        render=lambda stamp: render_pdf(template, context, stamp, title=title),
        by=by,
        signer_name=signer.name,
        signer_office=signer.office,
        previous=previous,
        summary=signer.summary if previous is not None else "",
    )


def _person(verification: Verification) -> dict:
    registration = verification.registration
    return {"number": registration.number, "name": registration.candidate.display_name}


# Draw ----------------------------------------------------------------------------------------------------


def announcement_publish(*, announcement: DrawAnnouncement, by: User, signer: Signer) -> Document:
    """The "Aviso de sorteio": pool, k, the seed's public source and date, the algorithm, before any seed."""
    kind_label = announcement.get_kind_display().lower()
    return _publish(
        contest=announcement.contest,
        kind=Kind.HETERO_DRAW,
        subject=announcement.subject,
        title=f"Aviso de sorteio dos membros da {kind_label}",
        template="pdf/hetero_draw_announcement.html",
        context={
            "announcement": announcement,
            "contest": announcement.contest,
            "kind_label": kind_label,
            "algorithm": draw_rules.ALGORITHM_TEXTS.get(announcement.algorithm, draw_rules.ALGORITHM_TEXT),
            "replaced": announcement.replaces,
        },
        by=by,
        signer=signer,
    )


def draw_context(record: MemberDraw) -> dict:
    recomputed = selectors.draw_recompute(record)
    announcement = record.announcement
    position = {entry.member: n for n, entry in enumerate(recomputed.ranking, start=1)}
    keys = {entry.member: entry.key for entry in recomputed.ranking}
    command = (
        f"manage.py draw_check --seed {shlex.quote(record.seed)} "
        f"--pool {shlex.quote(', '.join(record.pool))} -k {record.k}"
    )
    if record.algorithm != draw_rules.ALGORITHM:  # an older record names its algorithm to the command
        command += f" --algorithm {record.algorithm}"
    return {
        "record": record,
        "announcement": announcement,
        "announcement_document": (
            selectors.announcement_document(announcement) if announcement is not None else None
        ),
        # Every notice the used one replaced, with the reason the replacing act gave (a re-roll shows here).
        "replaced": [
            {"notice": old, "by": new, "document": selectors.announcement_document(old)}
            for new, old in _replacements(announcement)
        ],
        "contest": record.commission.contest,
        "recomputed": recomputed,
        "algorithm": draw_rules.ALGORITHM_TEXTS.get(record.algorithm, draw_rules.ALGORITHM_TEXT),
        # The pool in the published order (the record's), each with its key and position in the draw.
        "pool_rows": [
            {
                "member": member,
                "key": keys[member],
                "position": position[member],
                "drawn": position[member] <= record.k,
            }
            for member in recomputed.pool
        ],
        # Quoted for a POSIX shell: a seed with a quote or "$(" must not break (or run) the copied command.
        "command": command,
        # The public page's two checks: the recomputation gives the recorded result, and the draw took the
        # announced pool and k.
        "matches": list(recomputed.drawn) == record.drawn,
        "announced_pool_matches": announcement is not None
        and announcement.k == record.k
        and announcement.pool_digest == record.pool_digest,
    }


def _replacements(announcement: DrawAnnouncement | None) -> list[tuple[DrawAnnouncement, DrawAnnouncement]]:
    """(replacing notice, replaced notice) pairs back from ``announcement``, the earliest first."""
    pairs = []
    current = announcement
    while current is not None and current.replaces is not None:
        pairs.append((current, current.replaces))
        current = current.replaces
    return pairs[::-1]


@transaction.atomic
def draw_publish(*, record: MemberDraw, by: User, signer: Signer) -> Document:
    commission = record.commission
    return _publish(
        contest=commission.contest,
        kind=Kind.HETERO_DRAW,
        subject=f"draw-{record.pk}",
        title=f"Sorteio dos membros da {commission.get_kind_display().lower()}",
        template="pdf/hetero_draw.html",
        context=draw_context(record),
        by=by,
        signer=signer,
    )


# Call ----------------------------------------------------------------------------------------------------


@transaction.atomic
def call_publish(*, session: Session, by: User, signer: Signer) -> Document:
    """The candidates called to ``session``, with date, time and place or video link."""
    called = list(
        session.verifications.select_related("registration__candidate").order_by("registration__number")
    )
    if not called:
        raise ValidationError("Nenhum candidato chamado para esta sessão: não há convocação a publicar.")
    kind_label = session.commission.get_kind_display().lower()
    return _publish(
        contest=session.commission.contest,
        kind=Kind.HETERO_CALL,
        subject=f"call-{session.pk}",
        title=f"Convocação para a {kind_label} – {timezone.localtime(session.starts_at):%d/%m/%Y}",
        template="pdf/hetero_call.html",
        context={
            "session": session,
            "contest": session.commission.contest,
            "starts_at": timezone.localtime(session.starts_at),
            "rows": [_person(v) for v in called],
            "no_show": NO_SHOW_TEXT.get(session.commission.contest.policy.procedure_law.hetero_no_show, ""),
        },
        by=by,
        signer=signer,
    )


# Result --------------------------------------------------------------------------------------------------


@transaction.atomic
def result_publish_check(*, contest: Contest, today: datetime.date) -> list[Verification]:
    """What publishing the result refuses before anything is rendered: the confirmed, in order."""
    confirmed = selectors.confirmed(contest, today=today)
    if not confirmed:
        raise ValidationError("Nenhuma autodeclaração confirmada em definitivo: não há resultado a publicar.")
    return confirmed


def result_publish(*, contest: Contest, by: User, signer: Signer, today: datetime.date) -> Document:
    """The list of candidates whose self-declaration was confirmed (inscription and name only)."""
    rows = [_person(v) for v in result_publish_check(contest=contest, today=today)]
    return _publish(
        contest=contest,
        kind=Kind.HETERO_RESULT,
        subject="result",
        title="Resultado da heteroidentificação: autodeclarações confirmadas",
        template="pdf/hetero_result.html",
        context={"contest": contest, "rows": rows, "today": today},
        by=by,
        signer=signer,
        on=today,
    )


# Minutes (restricted) --------------------------------------------------------------------------------------


def minutes_rows(verifications) -> list[dict]:
    rows = []
    for v in verifications:
        rows.append(
            {
                **_person(v),
                "cpf": mask_cpf(v.registration.candidate.cpf),
                "basis": "fenótipo" if v.basis == rules.Basis.PHENOTYPE else "pertencimento (documentos)",
                "attended": v.attended,
                "outcome": v.get_outcome_display(),
                "explanation": v.explanation,
                "opinions": list(v.opinions.select_related("member").order_by("member__name")),
            }
        )
    return rows


def member_signatures(session: Session) -> list[SignatureBlock]:
    """The minutes are signed by the members present, each in their office and as a member of the
    commission (the model records no president: every member signs as such)."""
    role = f"Membro da {session.commission.get_kind_display().lower()}"
    return [SignatureBlock(m.name, m.office, role=role) for m in session.present.order_by("name")]


def minutes_publish_check(*, session: Session, signer: Signer) -> list[CommissionMember]:
    """What publishing the minutes refuses before anything is rendered (long minutes are checked before
    they go to the task queue, and again when they are published): the members present."""
    if not session.is_closed:
        raise ValidationError("A ata é publicada depois de encerrada a sessão.")
    present = list(session.present.order_by("name"))
    if signer.name.strip().casefold() not in {m.name.casefold() for m in present}:
        names = ", ".join(m.name for m in present) or "nenhum membro presente registrado"
        raise ValidationError(
            f"A ata é assinada pelos membros presentes à sessão: em “quem assina”, informe um deles ({names})."
        )
    return present


@transaction.atomic
def minutes_publish(*, session: Session, by: User, signer: Signer) -> Document:
    """The minutes of a closed session (restricted: opinions are sensitive)."""
    present = minutes_publish_check(session=session, signer=signer)
    verifications = session.verifications.select_related("registration__candidate").order_by(
        "registration__number"
    )
    return _publish(
        contest=session.commission.contest,
        kind=Kind.HETERO_MINUTES,
        subject=f"minutes-{session.pk}",
        title=f"Ata da sessão da {session.commission.get_kind_display().lower()} de "
        f"{timezone.localtime(session.starts_at):%d/%m/%Y}",
        template="pdf/hetero_minutes.html",
        context={
            "session": session,
            "contest": session.commission.contest,
            "starts_at": timezone.localtime(session.starts_at),
            "closed_at": timezone.localtime(session.closed_at) if session.closed_at else None,
            "present": present,
            "signatures": member_signatures(session),
            "rows": minutes_rows(verifications),
        },
        by=by,
        signer=signer,
    )


# Evidence for the procedure ----------------------------------------------------------------------------------


def opinions_extract(verification: Verification) -> bytes:
    """One candidate's results and opinions (first instance and appeal): the procedure's evidence."""
    instances = [verification]
    appeal = selectors.appeal_of(verification)
    if appeal is not None and appeal.judged_in is not None:
        instances.append(appeal.judged_in)
    sections = [
        {
            "commission": v.session.commission.get_kind_display(),
            "session": v.session,
            "starts_at": timezone.localtime(v.session.starts_at),
            "present": list(v.session.present.order_by("name")),
            "row": minutes_rows([v])[0],
        }
        for v in instances
    ]
    title = f"Pareceres da heteroidentificação – inscrição {verification.registration.number}"
    return render_pdf(
        "pdf/hetero_opinions.html",
        {"contest": verification.registration.contest, "sections": sections, "appeal": appeal,
         "generated_at": timezone.localtime()},
        Stamp(draft=False),
        title=title,
    )  # fmt: skip


# The result's letter (personal, never stored) -----------------------------------------------------------


def result_letter(
    verification: Verification, *, url: str, expires_on: datetime.date, today: datetime.date
) -> Letter:
    """The non-confirmation told on paper to a candidate without e-mail: the result, the appeal deadline,
    the private link ``url`` (issued for this letter) where they read the opinions and appeal, and their
    access code, in the one letter layout. It names no member and carries no opinion's text: those are
    behind the link."""
    registration = verification.registration
    return with_code(
        registration,
        title="Resultado da heteroidentificação",
        body_template="pdf/letters/hetero_result.html",
        context={"verification": verification, "contest": registration.contest, "expires_on": expires_on},
        dated=today,
        link_url=url,
        link_label="Seu link privado: resultado e recurso",
    )
