"""Writes of heteroidentification (RULES §5): form a commission (the auditable draw: ``draw_services``),
schedule a session, call the candidates, record presence and attendance, record a member's own opinion,
close the session (the result computed by ``rules``) and tell the non-confirmed candidate (by e-mail with
a private link: ``tasks``), the candidate's appeal, and the final result's consequence through the
candidates' orchestration service or a procedure (with the opinions attached as its evidence).

Every write is keyword-only and atomic, locks the row it changes (the session, or the verification) so
two members or two officers acting at once are serialised, validates with ``full_clean`` and names who
acted in history (``audited_save``).
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile, UploadedFile
from django.db import transaction
from django.utils import timezone

from candidates.models import Phase, Registration
from candidates.services.status import registration_change_status
from contests.audit import User, audited_save
from contests.models import Contest, Publication
from contests.publication import contest_url, publication_record
from declarations import deadlines
from declarations.hetero import rules
from declarations.hetero.appeal_files import appeal_files_add, appeal_files_check
from declarations.hetero.documents import opinions_extract
from declarations.hetero.periods import appeal_period_open
from declarations.hetero.selectors import appeal_of, final_state, member_for
from declarations.hetero.tasks import send_hetero_result_email
from declarations.links import hetero_link_issue
from declarations.models import (
    Appeal,
    Commission,
    CommissionMember,
    MemberDraw,
    Opinion,
    Procedure,
    SecondCall,
    Session,
    Verification,
    VerificationLink,
)
from declarations.procedure.services import attachment_add, attachment_check, procedure_open


def policy_size(contest: Contest, kind: str) -> int:
    """The commission's size the contest's policy sets (RULES §5: 5 and 3 by default)."""
    law = contest.policy.procedure_law
    if rules.Kind(kind) == rules.Kind.FIRST:
        return law.hetero_commission_size
    return law.hetero_appeal_commission_size


def _refuse(message: str | None, field: str | None = None) -> None:
    if message:
        raise ValidationError({field: message} if field else message)


@dataclass(frozen=True)
class MemberInput:
    name: str
    office: str
    gender: str
    colour: str
    user: User | None = None
    email: str = ""
    no_conflict_signed_on: datetime.date | None = None


@dataclass(frozen=True)
class Formed:
    commission: Commission
    warnings: tuple[str, ...]
    draw: MemberDraw | None


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


@transaction.atomic
def commission_form(
    *,
    contest: Contest,
    kind: str,
    pool: Sequence[MemberInput],
    size: int | None = None,
    formed_on: datetime.date,
    act_reference: str = "",
    by: User,
    now: datetime.datetime,
) -> Formed:
    """Form ``contest``'s commission of ``kind`` with the members indicated in ``pool``. A drawn commission
    is formed by ``draw_services.draw_perform`` instead, from an announced draw. The appeal
    commission with a member in common with the first is refused; a commission not diverse in gender or
    colour is formed with warnings."""
    Contest.objects.select_for_update().get(pk=contest.pk)  # two officers forming at once are serialised
    kind = rules.Kind(kind)
    size = size if size is not None else policy_size(contest, kind)
    commission, warnings = commission_create(
        contest=contest,
        kind=kind,
        chosen=pool,
        size=size,
        formed_on=formed_on,
        act_reference=act_reference,
        by=by,
    )
    return Formed(commission, warnings, None)


def commission_create(
    *,
    contest: Contest,
    kind: rules.Kind,
    chosen: Sequence[MemberInput],
    size: int,
    formed_on: datetime.date,
    act_reference: str,
    by: User,
) -> tuple[Commission, tuple[str, ...]]:
    """The commission and its members, after the checks of RULES §5 (the caller holds the contest's lock)."""
    if Commission.objects.filter(contest=contest, kind=kind).exists():
        _refuse(f"O concurso já tem {rules.KIND_LABELS[kind]}.")
    other_kind = rules.Kind.APPEAL if kind == rules.Kind.FIRST else rules.Kind.FIRST
    others = list(CommissionMember.objects.filter(commission__contest=contest, commission__kind=other_kind))
    composition = rules.check_composition(
        [rules.Member(_key(m.name), m.name, m.gender, m.colour) for m in chosen],
        kind=kind,
        size=size,
        other=[o.as_rule() for o in others],
    )
    errors = list(composition.errors)
    shared_accounts = {m.user.pk for m in chosen if m.user} & {o.user_id for o in others if o.user_id}
    if shared_accounts and not any("membro em comum" in e for e in errors):
        errors.append(
            "A comissão recursal não pode ter membro em comum com a comissão de heteroidentificação."
        )
    _refuse(" ".join(errors))
    commission = Commission(
        contest=contest, kind=kind, size=size, formed_on=formed_on, act_reference=act_reference.strip()
    )
    audited_save(commission, by=by, reason=f"Constituição da {rules.KIND_LABELS[kind]}")
    for m in chosen:
        member = CommissionMember(
            commission=commission,
            name=m.name.strip(),
            office=m.office.strip(),
            gender=m.gender.strip(),
            colour=rules.colour_category(m.colour),
            email=m.email.strip(),
            user=m.user,
            no_conflict_signed_on=m.no_conflict_signed_on,
        )
        audited_save(member, by=by)
    return commission, tuple(composition.warnings)


@transaction.atomic
def member_no_conflict_upload(
    *, member: CommissionMember, upload: UploadedFile, signed_on: datetime.date, by: User
) -> CommissionMember:
    """Keep ``member``'s signed declaration of no conflict of interest with the candidates called (a PDF,
    checked by its content; stored privately, like the procedure's attachments)."""
    member = CommissionMember.objects.select_for_update().get(pk=member.pk)
    if attachment_check(upload) != "application/pdf":
        _refuse("A declaração assinada deve ser um PDF: o conteúdo foi verificado, não o nome.", "file")
    if signed_on > timezone.localdate():
        _refuse("A data de assinatura não pode ser futura.", "signed_on")
    member.no_conflict_file.save(
        f"declaracao-{member.commission_id}-{secrets.token_hex(8)}.pdf", upload, save=False
    )
    member.no_conflict_signed_on = signed_on
    audited_save(member, by=by, reason="Declaração de ausência de conflito de interesses")
    return member


@transaction.atomic
def session_schedule(
    *,
    commission: Commission,
    starts_at: datetime.datetime,
    place: str = "",
    video_link: str = "",
    by: User,
) -> Session:
    if not place.strip() and not video_link.strip():
        _refuse("Informe o local da sessão ou o link da videoconferência.", "place")
    session = Session(
        commission=commission, starts_at=starts_at, place=place.strip(), video_link=video_link.strip()
    )
    audited_save(session, by=by, reason="Sessão agendada")
    session.present.set(commission.members.all())  # everyone, until presence is recorded
    return session


def _locked_session(session: Session) -> Session:
    return Session.objects.select_for_update().select_related("commission").get(pk=session.pk)


def _open(session: Session) -> None:
    if session.is_closed:
        _refuse("A sessão foi encerrada: nada mais pode ser alterado nela.")


def _basis(registration: Registration) -> str:
    declaration = getattr(registration, "self_declaration", None)
    return rules.basis_for(declaration.category if declaration else "").value


@transaction.atomic
def candidates_call(
    *,
    session: Session,
    by: User,
    registrations: Sequence[Registration] | None = None,
    phase: Phase | None = None,
) -> list[Verification]:
    """Call to the first commission's ``session`` every active registration of the contest that opted for
    the racial reserve not called yet: those that reached ``phase`` (took part in it: the phase the edital
    sets), or those of ``registrations``."""
    session = _locked_session(session)
    _open(session)
    if session.commission.kind != rules.Kind.FIRST:
        _refuse("Na comissão recursal são chamados somente os candidatos que recorreram.")
    contest = session.commission.contest
    eligible = Registration.objects.filter(
        contest=contest, racial_reserve=True, status=Registration.Status.ACTIVE
    ).select_related("self_declaration")
    if phase is not None:
        if phase.contest_id != contest.pk:
            _refuse("A fase não é deste concurso.", "phase")
        eligible = eligible.filter(phase_results__phase=phase, phase_results__absent=False)
    if registrations is not None:
        wanted = {r.pk for r in registrations}
        strangers = wanted - set(eligible.filter(pk__in=wanted).values_list("pk", flat=True))
        if strangers:
            _refuse("Só podem ser chamados candidatos ativos do concurso que optaram pela reserva racial.")
        eligible = eligible.filter(pk__in=wanted)
    already = Verification.objects.filter(
        session__commission=session.commission, registration__in=eligible
    ).values_list("registration_id", flat=True)
    called = []
    for registration in eligible.exclude(pk__in=already).order_by("number"):
        verification = Verification(session=session, registration=registration, basis=_basis(registration))
        audited_save(verification, by=by, reason="Convocação para a heteroidentificação")
        called.append(verification)
    if not called:
        _refuse("Não há candidatos a chamar: todos os optantes pela reserva racial já foram chamados.")
    return called


@transaction.atomic
def presence_record(*, session: Session, present: Sequence[CommissionMember], by: User) -> Session:
    session = _locked_session(session)
    _open(session)
    if any(m.commission_id != session.commission_id for m in present):
        _refuse("Só membros desta comissão podem constar como presentes.")
    session.present.set(present)
    session._history_user = by  # type: ignore[attr-defined]
    return session


@transaction.atomic
def session_recording(*, session: Session, reference: str, sha256: str, by: User) -> Session:
    """The recording's reference (where it is kept) and its SHA-256, so that the copy kept can be checked;
    also after the session closes (the hash is known only once the recording ends)."""
    session = _locked_session(session)
    digest = sha256.strip().lower()
    if digest and (len(digest) != 64 or any(ch not in "0123456789abcdef" for ch in digest)):
        _refuse("O SHA-256 tem 64 caracteres hexadecimais (0–9, a–f).", "recording_sha256")
    if digest and not reference.strip():
        _refuse("Informe onde a gravação está guardada.", "recording_reference")
    session.recording_reference = reference.strip()
    session.recording_sha256 = digest
    audited_save(session, by=by, reason="Gravação da sessão")
    return session


@transaction.atomic
def attendance_record(*, verification: Verification, attended: bool, by: User) -> Verification:
    _open(_locked_session(verification.session))
    verification = Verification.objects.select_for_update().get(pk=verification.pk)
    verification.attended = attended
    audited_save(verification, by=by, reason="Comparecimento" if attended else "Ausência registrada")
    return verification


@transaction.atomic
def attendance_record_many(*, session: Session, attended: Sequence[int], by: User) -> int:
    """Record at once who of those called to ``session`` attended (the pks in ``attended``) and who did not
    (every other one): one audited act per candidate whose attendance changes; how many changed."""
    session = _locked_session(session)
    _open(session)
    present = set(attended)
    verifications = list(Verification.objects.select_for_update().filter(session=session).order_by("pk"))
    strangers = present - {v.pk for v in verifications}
    if strangers:
        _refuse("Há candidatos marcados que não foram chamados a esta sessão.")
    changed = 0
    for verification in verifications:
        came = verification.pk in present
        if verification.attended is came:
            continue
        verification.attended = came
        audited_save(verification, by=by, reason="Comparecimento" if came else "Ausência registrada")
        changed += 1
    return changed


@transaction.atomic
def opinion_record(*, verification: Verification, user: User, confirms: bool, reasons: str) -> Opinion:
    """Record or change ``user``'s own reasoned opinion, while the session is open."""
    session = _locked_session(verification.session)
    member = member_for(session=session, user=user)
    if member is None:
        raise PermissionDenied("Só os membros desta comissão registram pareceres nesta sessão.")
    opinion = Opinion.objects.select_for_update().filter(verification=verification, member=member).first()
    _refuse(
        rules.may_edit_opinion(author=str(member.pk), editor=str(member.pk), session_closed=session.is_closed)
    )
    if not session.present.filter(pk=member.pk).exists():
        _refuse("Só os membros presentes à sessão registram pareceres.")
    if verification.attended is False:
        _refuse("O candidato não compareceu: não há parecer a registrar.")
    _refuse(rules.reasons_problem(reasons), "reasons")
    opinion = opinion or Opinion(verification=verification, member=member)
    opinion.confirms = confirms
    opinion.reasons = reasons.strip()
    audited_save(opinion, by=user, reason="Parecer registrado pelo membro")
    return opinion


@transaction.atomic
def session_close(
    *, session: Session, by: User, now: datetime.datetime, calendar: deadlines.Calendar
) -> Session:
    """Close ``session``: each attending candidate's result is the majority of the present members'
    opinions (computed; refused while one is missing); an absent candidate's absence is the result. A
    first-instance non-confirmation is communicated to the candidate, and its appeal period starts when that
    message leaves (``periods.appeal_period_open``), never before."""
    session = _locked_session(session)
    _open(session)
    members = [str(pk) for pk in session.commission.members.values_list("pk", flat=True)]
    present = [str(pk) for pk in session.present.values_list("pk", flat=True)]
    verifications = list(session.verifications.select_related("registration__contest__policy"))
    if any(v.attended is None for v in verifications):
        _refuse("Registre o comparecimento de todos os candidatos chamados antes de encerrar a sessão.")
    today = timezone.localdate(now)  # the local day (now may be UTC: 22h in Brasília is tomorrow there)
    for verification in verifications:
        if verification.attended is False:
            verification.outcome = rules.Outcome.ABSENT
            verification.explanation = "O candidato não compareceu à sessão."
        else:
            opinions = [
                rules.Opinion(member=str(o.member_id), confirms=o.confirms, reasons=o.reasons)
                for o in verification.opinions.all()
            ]
            try:
                result = rules.verdict(opinions, members=members, present=present)
            except rules.CommissionError as exc:
                raise ValidationError(f"Inscrição {verification.registration.number}: {exc}") from None
            verification.outcome = result.outcome
            verification.explanation = result.explanation
            verification.confirming = result.confirming
            verification.not_confirming = result.not_confirming
        if (
            session.commission.kind == rules.Kind.FIRST
            and verification.outcome == rules.Outcome.NOT_CONFIRMED
        ):
            # The appeal period starts when the candidate's message leaves (``periods``), not now.
            verification.notified_on = verification.appeal_deadline = None
        else:
            verification.notified_on = today
        audited_save(verification, by=by, reason="Resultado apurado no encerramento da sessão")
    session.closed_at = now
    audited_save(session, by=by, reason="Sessão encerrada")
    if session.commission.kind == rules.Kind.FIRST:
        for verification in verifications:
            if verification.outcome == rules.Outcome.NOT_CONFIRMED:
                result_notify(verification=verification)
    return session


NO_EMAIL_NOTICE = (
    "Sem e-mail cadastrado: nada foi enviado. Imprima a carta com o resultado e o link privado e entregue-a "
    "ao candidato."
)


def result_notify(*, verification: Verification) -> bool:
    """Tell the non-confirmed candidate individually: an e-mail with their private link, sent by the task
    queue once the transaction commits (the verification says "na fila" until the task records the send or
    the failure). Without an e-mail on file nothing is sent and the verification says to print the letter
    (``result_letter_printed``). Whether an e-mail was queued."""
    email = verification.registration.candidate.email
    if not email:
        verification.notice = NO_EMAIL_NOTICE
        audited_save(verification, by=None, reason="Comunicação individual pendente: sem e-mail")
        return False
    verification.notice = (
        f"E-mail com o link privado na fila de envio desde {timezone.localtime():%d/%m/%Y %H:%M} ({email})."
    )
    audited_save(verification, by=None, reason="Comunicação individual posta na fila de e-mails")
    verification_id = verification.pk
    transaction.on_commit(lambda: send_hetero_result_email.enqueue(verification_id=verification_id))
    return True


@transaction.atomic
def result_letter_printed(
    *, verification: Verification, by: User, now: datetime.datetime
) -> tuple[VerificationLink, str]:
    """The result printed as a letter for the candidate: a private link is issued for it (its token returned
    once, to be printed) and the verification notes the print, not a delivery (the paper is the legal
    office's to hand over)."""
    verification = (
        Verification.objects.select_for_update()
        .select_related("registration__candidate", "registration__contest", "session__commission")
        .get(pk=verification.pk)
    )
    if (
        verification.outcome != rules.Outcome.NOT_CONFIRMED
        or verification.session.commission.kind != rules.Kind.FIRST
    ):
        _refuse("Só se comunica individualmente a não confirmação pela comissão de heteroidentificação.")
    link, token = hetero_link_issue(verification=verification, by=by, now=now)
    appeal_period_open(verification, on=timezone.localdate(now))  # the letter is issued: it states the period
    verification.notice = (
        f"Carta com o resultado e o link privado impressa em {timezone.localtime(now):%d/%m/%Y %H:%M} "
        "(a entrega ao candidato cabe ao setor)."
    )
    audited_save(verification, by=by, reason="Resultado impresso em carta para o candidato")
    return link, token


@transaction.atomic
def appeal_file(
    *,
    verification: Verification,
    reasons: str,
    now: datetime.datetime,
    uploads: Sequence[UploadedFile] = (),
) -> Appeal:
    """The candidate's appeal (through their private link) against a non-confirmation, within the deadline,
    with the files they join to it (``appeal_files``: bounded, checked by content, hashed, private)."""
    verification = Verification.objects.select_for_update().get(pk=verification.pk)
    if (
        verification.outcome != rules.Outcome.NOT_CONFIRMED
        or verification.session.commission.kind != rules.Kind.FIRST
    ):
        _refuse("Só cabe recurso da não confirmação pela comissão de heteroidentificação.")
    if Appeal.objects.filter(verification=verification).exists():
        _refuse("O recurso já foi interposto.")
    if verification.appeal_deadline is None:
        _refuse("O prazo de recurso não foi aberto.")
    assert verification.appeal_deadline is not None
    if timezone.localdate(now) > verification.appeal_deadline:
        _refuse(
            f"O prazo de recurso terminou em {verification.appeal_deadline:%d/%m/%Y} (às 23h59): o recurso "
            "não pode mais ser recebido."
        )
    if not reasons.strip():
        _refuse("Apresente as razões do recurso.", "reasons")
    types = appeal_files_check(uploads)
    appeal = Appeal(verification=verification, reasons=reasons.strip(), filed_at=now)
    audited_save(appeal, by=None, reason="Recurso interposto pelo candidato")
    appeal_files_add(appeal=appeal, uploads=uploads, types=types)
    return appeal


@transaction.atomic
def appeal_call(*, appeal: Appeal, session: Session, by: User) -> Verification:
    """Call the appellant to a session of the appeal commission."""
    session = _locked_session(session)
    _open(session)
    if session.commission.kind != rules.Kind.APPEAL:
        _refuse("O recurso é julgado pela comissão recursal.")
    appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
    if appeal.judged_in_id:
        _refuse("O recorrente já foi chamado pela comissão recursal.")
    registration = appeal.verification.registration
    verification = Verification(session=session, registration=registration, basis=appeal.verification.basis)
    audited_save(verification, by=by, reason="Convocação do recorrente")
    appeal.judged_in = verification
    audited_save(appeal, by=by, reason="Recurso distribuído à comissão recursal")
    return verification


@dataclass(frozen=True)
class Applied:
    verification: Verification
    outcome: rules.Outcome
    consequence: rules.Consequence
    messages: tuple[str, ...]
    procedure: Procedure | None


def _opinions_text(verification: Verification) -> str:
    lines = []
    for v in [
        verification,
        *([appeal.judged_in] if (appeal := appeal_of(verification)) and appeal.judged_in else []),
    ]:
        lines.append(
            f"{rules.KIND_LABELS[rules.Kind(v.session.commission.kind)].capitalize()}: {v.explanation}"
        )
        for o in v.opinions.select_related("member").order_by("member__name"):
            lines.append(f"- {o.member.name}: {'confirma' if o.confirms else 'não confirma'}. {o.reasons}")
    return "\n".join(lines)


def opinions_attach(*, verification: Verification, procedure: Procedure, by: User) -> None:
    """Attach the opinions' extract (``documents.opinions_extract``) to the procedure's opening act, as its
    evidence (RULES §5)."""
    opening = procedure.acts.get(kind="opening")
    pdf = opinions_extract(verification)
    name = f"pareceres-heteroidentificacao-{verification.registration.number}.pdf"
    upload = SimpleUploadedFile(name, pdf, content_type="application/pdf")
    attachment_add(act=opening, upload=upload, protected=False, by=by)


# The consequences that change the registration's status (OPEN_PROCEDURE opens a procedure; NONE keeps it).
_STATUS_OF = {
    rules.Consequence.KEEP_OPEN: Registration.Status.EXCLUDED_FROM_RESERVE,
    rules.Consequence.ELIMINATE: Registration.Status.ELIMINATED,
}


@transaction.atomic
def result_apply(*, verification: Verification, by: User, today: datetime.date) -> Applied:
    """Apply the final result of the first-instance ``verification``: nothing when confirmed; otherwise the
    policy's consequence, at once, through ``registration_change_status`` (``keep_open``, an absence,
    ``eliminate``: recorded as a publication naming the position) or by opening a procedure with the
    opinions as evidence (``open_procedure``)."""
    verification = (
        Verification.objects.select_for_update()
        .select_related("registration__contest__policy", "session__commission")
        .get(pk=verification.pk)
    )
    if verification.session.commission.kind != rules.Kind.FIRST:
        _refuse("Aplique o resultado pela verificação da comissão de heteroidentificação.")
    if verification.consequence_applied_on:
        _refuse(f"O resultado já foi aplicado em {verification.consequence_applied_on:%d/%m/%Y}.")
    if SecondCall.objects.filter(absent=verification).exists():
        _refuse(
            "O candidato teve segunda chamada: o resultado é aplicado pela verificação da segunda chamada."
        )
    outcome = final_state(verification, today=today)
    if outcome is None:
        _refuse("O resultado ainda não é definitivo: aguarde o prazo de recurso ou o julgamento do recurso.")
    assert outcome is not None
    registration = verification.registration
    law = registration.contest.policy.procedure_law
    try:
        consequence = rules.consequence(outcome, law.non_confirmation, law.hetero_no_show)
    except rules.CommissionError as exc:
        raise ValidationError(str(exc)) from None
    messages: tuple[str, ...] = ()
    procedure = None
    reason = f"Heteroidentificação: {rules.OUTCOME_LABELS[outcome].lower()}"
    if consequence in _STATUS_OF:
        change = registration_change_status(
            registration=registration, status=_STATUS_OF[consequence], reason=reason, by=by, today=today
        )
        messages = change.messages
        # Who is on the lists (and, for a nominee, who holds the seat) changed: a public fact, recorded by
        # the position, never by the candidate (RULES §7). Opening a procedure is no publication: the
        # procedure stays confidential until its effects, which record their own.
        publication_record(
            contest=registration.contest,
            kind=Publication.Kind.HETEROIDENTIFICATION,
            title=f"Resultado de heteroidentificação aplicado – {registration.position.title}",
            by=by,
            url=contest_url(registration.contest),
        )
    elif consequence == rules.Consequence.OPEN_PROCEDURE:
        procedure = procedure_open(
            registration=registration,
            origin=Procedure.Origin.COMMISSION,
            facts="Autodeclaração não confirmada na heteroidentificação: indício de falsidade, a apurar neste processo "
            "com contraditório e ampla defesa. Pareceres:\n" + _opinions_text(verification),
            by=by,
            today=today,
        )
        verification.procedure = procedure
        opinions_attach(verification=verification, procedure=procedure, by=by)
    verification.consequence = consequence
    verification.consequence_applied_on = today
    audited_save(verification, by=by, reason=f"Consequência: {rules.CONSEQUENCE_LABELS[consequence]}")
    return Applied(verification, outcome, consequence, tuple(messages), procedure)


@transaction.atomic
def result_apply_many(
    *, verifications: Sequence[Verification], by: User, today: datetime.date
) -> list[Applied]:
    """Apply the final results of several first-instance verifications: one ``result_apply`` (one audited
    act) per candidate, every one or none."""
    if not verifications:
        _refuse("Marque ao menos um candidato.")
    applied = []
    for verification in verifications:
        try:
            applied.append(result_apply(verification=verification, by=by, today=today))
        except ValidationError as error:
            number = verification.registration.number
            raise ValidationError([f"Inscrição {number}: {m}" for m in error.messages]) from None
    return applied


@transaction.atomic
def no_conflict_upload_many(
    *, uploads: Sequence[tuple[CommissionMember, UploadedFile, datetime.date]], by: User
) -> list[CommissionMember]:
    """Keep several members' signed declarations at once: one audited act per member, every one or none."""
    if not uploads:
        _refuse("Escolha ao menos um arquivo.")
    done = []
    for member, upload, signed_on in uploads:
        try:
            done.append(member_no_conflict_upload(member=member, upload=upload, signed_on=signed_on, by=by))
        except ValidationError as error:
            raise ValidationError([f"{member.name}: {m}" for m in error.messages]) from None
    return done
