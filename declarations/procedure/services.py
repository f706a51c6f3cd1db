"""Writes of the procedure on a false self-declaration (RULES §5): open, notify, record each act through the
state machine (``rules``), attachments, the candidate's filings through their private link (the links
themselves: ``declarations.links``), and the effects of a final decision of falsity through the candidates'
orchestration service, each effect (applied, undone) recorded as one publication that names no party.

Every write is keyword-only, atomic, locks the procedure's row (two legal officers, or the candidate and
an officer, acting at once are serialised) and names who acted in history.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import IntegrityError, transaction
from django.utils import timezone

from candidates.models import Nomination, Registration
from candidates.services.status import registration_change_status
from contests.audit import User, audited_save
from contests.documents.models import Document
from contests.models import Authority, Position, Publication
from contests.publication import contest_url, publication_record
from declarations import deadlines
from declarations.calendars import organization_calendar
from declarations.links import link_issue
from declarations.models import Procedure, ProcedureAct, ProcedureCounter, ProcedureLink
from declarations.models.procedures import policy_snapshot
from declarations.procedure import appeals, documents, finality, notices, reversals, rules
from declarations.procedure import rules_labels as labels
from declarations.procedure.attachments import attachment_add, attachment_check
from declarations.procedure.authorities import authority_refusal
from declarations.procedure.filing_bounds import link_volume_refusal
from declarations.procedure.receipts import receipt_issue
from declarations.procedure.selectors import case_state
from declarations.procedure.tasks import send_notice_email

Act = rules.Act


def _refuse(message: str, field: str | None = None) -> None:
    if message:
        raise ValidationError({field: message} if field else message)


def _locked(procedure: Procedure) -> Procedure:
    return (
        Procedure.objects.select_for_update(of=("self",)).select_related("registration").get(pk=procedure.pk)
    )


# Opening -----------------------------------------------------------------------------------------------


def _next_number(year: int) -> int:
    """The next number of ``year``, from a counter row locked until the transaction ends."""
    ProcedureCounter.objects.get_or_create(year=year)
    counter = ProcedureCounter.objects.select_for_update().get(year=year)
    counter.last += 1
    counter.save(update_fields=["last"])
    return counter.last


@transaction.atomic
def procedure_open(
    *,
    registration: Registration,
    origin: str,
    facts: str,
    complainant: str = "",
    by: User,
    today: datetime.date,
    form_token: str = "",
) -> Procedure:
    """Open a procedure on ``registration``'s self-declaration (Lei 9.784 arts. 5º–6º), numbered in the
    year of ``today`` ("PA nº 3/2026"), with the deadlines of the contest's policy.

    Idempotent: the registration's row is locked, so two openings at once are serialised; the same form
    submitted again (``form_token``) returns the procedure it opened, and a second procedure for the same
    registration and origin is refused while the first is not closed (a partial unique constraint backs it)."""
    Registration.objects.select_for_update(of=("self",)).filter(pk=registration.pk).first()
    if form_token:
        repeated = Procedure.objects.filter(form_token=form_token).first()
        if repeated is not None and repeated.registration_id == registration.pk:
            return repeated
        _refuse("" if repeated is None else "Formulário já usado: abra a página de instauração de novo.")
    running = (
        Procedure.objects.filter(registration=registration, origin=origin)
        .exclude(status=Procedure.Status.CLOSED)
        .order_by("pk")
        .first()
    )
    if running is not None:
        _refuse(
            f"A inscrição já tem um processo em andamento com esta origem ({running}): conduza-o, em vez de "
            "instaurar outro."
        )
    if not hasattr(registration, "self_declaration") and not registration.racial_reserve:
        _refuse("A inscrição não tem autodeclaração racial: não há o que apurar.")
    if not facts.strip():
        _refuse("Descreva os fatos que motivam a instauração (Lei 9.784 art. 6º III).", "facts")
    if origin == Procedure.Origin.COMPLAINT and not complainant.strip():
        _refuse("Na denúncia, identifique o denunciante (não é mostrado ao candidato).", "complainant")
    law = registration.contest.policy.procedure_law
    for attempt in range(3):
        try:
            with transaction.atomic():
                procedure = Procedure(
                    year=today.year,
                    number=_next_number(today.year),
                    registration=registration,
                    origin=origin,
                    facts=facts.strip(),
                    complainant=complainant.strip(),
                    parameters=policy_snapshot(law),
                    opened_on=today,
                    opened_by=by,
                    form_token=form_token,
                )
                audited_save(procedure, by=by, reason="Instauração")
                break
        except IntegrityError:  # the counter was created by a concurrent opening: take the next number
            if attempt == 2:
                raise
    opening = _save_act(procedure, kind=Act.OPENING, by=by, on=today, text=procedure.facts)
    documents.act_document_publish(act=opening, by=by)
    return procedure


def _save_act(procedure: Procedure, *, kind: Act, by: User | None, **fields) -> ProcedureAct:
    act = ProcedureAct(procedure=procedure, kind=kind, by=by, **fields)
    audited_save(act, by=by, reason=labels.ACT_LABELS[kind])
    return act


def _sync_status(procedure: Procedure, state_acts: Sequence[rules.ActRecord], *, by: User | None) -> None:
    outcome = rules.current_outcome(state_acts)
    status = (
        Procedure.Status.CLOSED
        if rules.is_final(state_acts)
        else Procedure.Status.DECIDED
        if outcome
        else Procedure.Status.OPEN
    )
    new_outcome = outcome.value if outcome else ""
    if (procedure.status, procedure.outcome) != (status, new_outcome):
        procedure.status, procedure.outcome = status, new_outcome
        audited_save(procedure, by=by, reason="Situação do processo")


# Acts --------------------------------------------------------------------------------------------------


@transaction.atomic
def act_record(
    *,
    procedure: Procedure,
    kind: str,
    by: User | None,
    today: datetime.date,
    text: str = "",
    outcome: str = "",
    filed_by: str = "",
    hearing_on: datetime.date | None = None,
    hearing_time: datetime.time | None = None,
    hearing_place: str = "",
    uploads: Sequence[UploadedFile] = (),
    protected: bool = False,
    authority: Authority | None = None,
    standing: str = "",
    ground: str = "",
    bad_faith: bool = False,
    publish: bool = True,
) -> ProcedureAct:
    """Record the act ``kind`` if the state machine allows it now; else a ValidationError with the reason
    (nothing is written). Deciding acts need their outcome and reasons (Lei 9.784 art. 50), and are signed
    by ``authority`` when chosen (in office on ``today``), else by the one designated for their kind; an
    appeal names its appellant's standing (art. 58), an appeal not heard its ground (art. 63); an
    annulment, whether bad faith is proven (a favourable decision over five years old, art. 54: ``finality``).
    ``publish`` False: a rehearsal (``previews``, inside a savepoint rolled back): every check and every
    effect, but the documents only as they would be (unsaved: nothing rendered, signed nor stored)."""
    procedure = _locked(procedure)
    act_kind = rules.Act(kind)
    if act_kind in rules.NOTICES:
        _refuse("As intimações são registradas pelo formulário de intimação (meio, destinatário, data).")
    state = case_state(procedure, today=today)
    chosen = rules.Outcome(outcome) if outcome else None
    _refuse(state.refusal(act_kind, outcome=chosen, has_reasons=bool(text.strip()), bad_faith=bad_faith))
    if act_kind is Act.ANNULMENT and bad_faith:
        text = f"{text.strip()}\n\nMá-fé comprovada nos autos (Lei 9.784 art. 54)."
    _refuse(
        *appeals.appeal_fields_refusal(
            act_kind,
            state.records,
            ends=state.ends,
            today=today,
            standing=standing,
            filed_by=filed_by,
            ground=ground,
        )
    )
    if (
        act_kind in rules.DECIDING_ACTS
        or act_kind in (Act.REPORT, Act.APPEAL_NOT_HEARD, *rules.AFTER_FINAL_DECIDING)
    ) and not text.strip():
        _refuse(
            "Escreva a motivação: as decisões indicam os fatos e os fundamentos jurídicos (Lei 9.784 art. 50).",
            "text",
        )
    if act_kind in rules.CANDIDATE_ACTS and not (text.strip() or uploads):
        _refuse("Escreva a manifestação ou anexe um arquivo.", "text")
    if act_kind in (Act.HEARING, Act.DILIGENCE):
        _hearing_schedule_check(
            hearing_on=hearing_on, hearing_time=hearing_time, place=hearing_place, today=today
        )
    for upload in uploads:
        attachment_check(upload)
    _refuse(authority_refusal(authority, kind=act_kind, on=today), "authority")
    act = _save_act(
        procedure,
        kind=act_kind,
        by=by,
        on=today,
        text=text.strip(),
        outcome=chosen.value if chosen else "",
        filed_by=filed_by,
        hearing_on=hearing_on,
        authority=authority,
        hearing_time=hearing_time,
        hearing_place=hearing_place.strip(),
        standing=standing if act_kind is Act.APPEAL else "",
        ground=ground if act_kind is Act.APPEAL_NOT_HEARD else "",
    )
    for upload in uploads:
        attachment_add(act=act, upload=upload, protected=protected, by=by)
    records = (*state.records, act.record())
    _sync_status(procedure, records, by=by)
    documents.act_document_publish(act=act, by=by, publish=publish)
    if rules.effects_undo_due(records, effects_applied=procedure.effects_applied_on is not None):
        _effects_undo(procedure, act=act, by=by, today=today, publish=publish)
    return act


def _hearing_schedule_check(
    *,
    hearing_on: datetime.date | None,
    hearing_time: datetime.time | None,
    place: str,
    today: datetime.date,
) -> None:
    """A hearing or diligence is designated with its date, time and place (art. 41: the notice mentions
    them), on a day to come: the three business days of notice are checked on the notice's effect."""
    if hearing_on is None:
        _refuse("Informe a data da audiência ou diligência.", "hearing_on")
        return
    if hearing_on <= today:
        _refuse(
            "A audiência ou diligência é designada para um dia futuro, com intimação prévia (art. 41).",
            "hearing_on",
        )
    if hearing_time is None:
        _refuse("Informe a hora da audiência ou diligência (Lei 9.784 art. 41).", "hearing_time")
    if not place.strip():
        _refuse("Informe o local da audiência ou diligência (Lei 9.784 art. 41).", "hearing_place")


def _art41_check(procedure: Procedure, *, effect_on: datetime.date, field: str | None = None) -> None:
    """A notice of a hearing or diligence takes effect at least k business days before it (art. 41,
    counted on the organisation's calendar): else refused, the hearing to be designated again."""
    hearing = (
        procedure.acts.filter(kind__in=[Act.HEARING, Act.DILIGENCE]).order_by("recorded_at", "pk").last()
    )
    if hearing is None or hearing.hearing_on is None:
        return
    k = procedure.policy.hearing_notice_business_days
    day = hearing.hearing_on
    latest = deadlines.latest_notice_day(day, k, organization_calendar([day.year - 1, day.year]))
    _refuse(
        notices.hearing_notice_refusal(
            notified_on=effect_on, hearing_on=day, latest_notice_on=latest, business_days=k
        ),
        field,
    )


# Notices (art. 26) -------------------------------------------------------------------------------------


@transaction.atomic
def notice_send(
    *,
    procedure: Procedure,
    by: User,
    today: datetime.date,
    means: str,
    kind: str | None = None,
    text: str = "",
    recipient: str = "",
    received_on: datetime.date | None = None,
    candidate_unreachable: bool = False,
    gazette_edition: str = "",
    gazette_page: str = "",
    published_on: datetime.date | None = None,
) -> ProcedureAct:
    """Issue today a notice of ``kind`` (any of ``rules.NOTICES``; by default the notice for the defence,
    then that of the latest decision) when the state machine allows it now.

    By e-mail with the private link (the deadline starts when the candidate acknowledges it through the
    link); by registered letter (from the date the receipt came back, once recorded); in person (today);
    by the official gazette only when the candidate cannot be found, with edition and page (art. 26 §4º),
    from the edition's date. The notice records the day it was issued (``issued_on``): its effect never
    precedes it, nor the opening (``notices.notice_effect_refusal``).
    """
    procedure = _locked(procedure)
    state = case_state(procedure, today=today)
    if not kind:
        if rules.is_final(state.records):
            kind = Act.AFTER_FINAL_NOTICE  # of the revision or annulment (finality)
        else:
            kind = Act.NOTICE if not rules.effective_notice(state.records) else Act.DECISION_NOTICE
    notice_kind = rules.Act(kind)
    if notice_kind not in rules.NOTICES:
        _refuse(f"“{labels.ACT_LABELS[notice_kind]}” não é uma intimação.")
    # The intended annulment's notice says the vice the candidate answers (``finality``, STF Tema 138).
    refusal = state.refusal(notice_kind, has_reasons=bool(text.strip()))
    _refuse(refusal, "text" if refusal == finality.ANNULMENT_NOTICE_NEEDS_REASONS else None)
    chosen = notices.Means(means)
    if any(p.kind == notice_kind and p.means == chosen for p in state.pending_notices):
        _refuse(
            "Já há uma intimação por este meio aguardando ciência: registre a ciência ou o recebimento dela, "
            "ou tente outro meio (vale a primeira que produzir efeito)."
        )
    _refuse(
        notices.notice_refusal(
            chosen,
            candidate_unreachable=candidate_unreachable,
            gazette_edition=gazette_edition,
            gazette_page=gazette_page,
        )
    )
    effective_on: datetime.date | None = None
    if chosen is notices.Means.IN_PERSON:
        effective_on = today
    elif chosen is notices.Means.LETTER:
        effective_on = received_on  # None until the receipt comes back
        if received_on and received_on > today:
            _refuse("A data do aviso de recebimento não pode ser futura.", "received_on")
    elif chosen is notices.Means.GAZETTE:
        effective_on = published_on or today
        if effective_on > today:
            _refuse("A data da publicação não pode ser futura.", "published_on")
    elif chosen is notices.Means.EMAIL:
        recipient = recipient.strip() or procedure.registration.candidate.email
        if not recipient:
            _refuse(
                "O candidato não tem e-mail cadastrado: informe o destinatário ou use outro meio.",
                "recipient",
            )
    if effective_on is not None:
        _refuse(
            notices.notice_effect_refusal(
                chosen, effect_on=effective_on, issued_on=today, opened_on=procedure.opened_on
            ),
            "published_on" if chosen is notices.Means.GAZETTE else "received_on",
        )
        if notice_kind is Act.HEARING_NOTICE:
            _art41_check(procedure, effect_on=effective_on)
    act = _save_act(
        procedure,
        kind=notice_kind,
        by=by,
        on=effective_on,
        issued_on=today,
        text=text.strip(),
        means=chosen.value,
        recipient=recipient if chosen is notices.Means.EMAIL else "",
        gazette_edition=gazette_edition.strip(),
        gazette_page=gazette_page.strip(),
        delivery=ProcedureAct.Delivery.QUEUED if chosen is notices.Means.EMAIL else "",
    )
    documents.act_document_publish(act=act, by=by)
    if chosen is notices.Means.EMAIL:
        transaction.on_commit(lambda: send_notice_email.enqueue(act_id=act.pk))
    _sync_status(procedure, (*state.records, act.record()), by=by)
    return act


LETTER_MEANS = (notices.Means.LETTER, notices.Means.IN_PERSON)


@transaction.atomic
def notice_letter_printed(
    *, act: ProcedureAct, by: User, now: datetime.datetime
) -> tuple[ProcedureLink, str]:
    """The notice ``act`` is printed as a letter (registered mail, or handed over in person): a private link
    to the case is issued for it (its token returned once, to be printed), and the act records the print,
    never a delivery: a letter takes effect only when its receipt is recorded (``notice_acknowledge``)."""
    act = (
        ProcedureAct.objects.select_for_update()
        .select_related("procedure__registration__candidate")
        .get(pk=act.pk)
    )
    if not act.is_notice or notices.Means(act.means) not in LETTER_MEANS:
        _refuse("Só uma intimação por carta registrada ou pessoal tem carta para imprimir.")
    candidate = act.procedure.registration.candidate
    link, token = link_issue(
        procedure=act.procedure,
        holder=ProcedureLink.Holder.CANDIDATE,
        name=candidate.display_name,
        by=by,
        now=now,
    )
    if act.on is None:
        act.delivery = ProcedureAct.Delivery.PRINTED
        audited_save(act, by=by, reason="Carta da intimação impressa (com link privado e código de acesso)")
    return link, token


@transaction.atomic
def notice_acknowledge(
    *, act: ProcedureAct, on: datetime.date, by: User | None, how: str = "ciência pelo link privado"
) -> ProcedureAct:
    """Record the day a pending notice took effect (acknowledgement through the link, the letter's receipt,
    the gazette's edition, or tacit acknowledgement where the policy allows it): its deadline starts then
    (art. 66). Never before the notice was issued nor before the case was opened; an e-mail's
    acknowledgement recorded by staff (``by``) never before the message was delivered
    (``notices.notice_effect_refusal``); refused with the reason, nothing written."""
    procedure = _locked(act.procedure)
    act = ProcedureAct.objects.select_for_update().get(pk=act.pk)
    if act.on is not None:
        return act  # acknowledged already: the first acknowledgement counts
    if not act.is_notice:
        _refuse("Só uma intimação recebe ciência.")
    records = [a.record() for a in procedure.acts.order_by("recorded_at", "pk")]
    if rules.is_final(records) and rules.Act(act.kind) not in finality.AFTER_FINAL_ACTS:
        _refuse(rules.CLOSED)
    if rules.notice_in_effect(rules.Act(act.kind), records):
        _refuse("A intimação já produziu efeito por outro meio: o prazo corre daquela data.")
    _refuse(
        notices.notice_effect_refusal(
            notices.Means(act.means),
            effect_on=on,
            issued_on=act.issued_day,
            opened_on=procedure.opened_on,
            delivered_on=timezone.localdate(act.delivered_at) if act.delivered_at else None,
            staff_recorded=by is not None,
        ),
        "on",
    )
    if act.kind == Act.HEARING_NOTICE and by is not None:
        _art41_check(procedure, effect_on=on, field="on")
    act.on = on
    act.text = (act.text + f"\n\nCiência em {on:%d/%m/%Y}: {how}.").strip()
    audited_save(act, by=by, reason=f"Ciência da intimação ({how})")
    return act


@transaction.atomic
def notice_acknowledge_tacitly(*, act: ProcedureAct, by: User, today: datetime.date) -> ProcedureAct:
    """Tacit acknowledgement of an e-mail notice after the policy's days, only where the policy records a
    legal basis (RULES §5); the notice takes effect on the last day of that period."""
    policy = act.procedure.policy
    if not notices.tacit_acknowledgement_offered(policy):
        _refuse(
            "A política não registra base legal para a ciência tácita (cláusula do edital ou norma municipal): "
            "a intimação só produz efeito com a ciência do candidato ou por outro meio do art. 26 §3º."
        )
    if act.means != notices.Means.EMAIL or act.delivered_at is None:
        _refuse("A ciência tácita só vale para a mensagem eletrônica efetivamente enviada.")
    sent = timezone.localdate(act.delivered_at)
    assert policy.tacit_acknowledgement_days is not None
    tacit = deadlines.deadline(
        sent,
        policy.tacit_acknowledgement_days,
        deadlines.Unit.DAYS,
        organization_calendar([sent.year, sent.year + 1]),
    )
    if today <= tacit.last_day:
        _refuse(f"A ciência tácita só ocorre depois de {tacit.last_day:%d/%m/%Y}.")
    return notice_acknowledge(
        act=act, on=tacit.last_day, by=by, how=f"ciência tácita ({policy.electronic_notice_basis})"
    )


# Effects -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EffectsResult:
    procedure: Procedure
    messages: tuple[str, ...]
    public_act: str
    document: Document | None = None


# The public record of an effect names the act's kind and the position, never the party (RULES §7): the
# act itself, which names them, is one click away (its page on /verificar/).
EFFECTS = "Efeitos de decisão em processo administrativo"


def _effects_published(
    procedure: Procedure, *, what: str, document: Document | None, by: User | None
) -> Publication:
    """Record the effect as the one publication the public sees: who is on the lists and who holds a seat
    changed (the nomination order records its own line when a seat moved), and the public act was
    published or made void."""
    registration = procedure.registration
    return publication_record(
        contest=registration.contest,
        kind=Publication.Kind.PROCEDURE_EFFECTS,
        title=f"{what} – {registration.position.title}",
        by=by,
        url=document.get_absolute_url() if document is not None else contest_url(registration.contest),
    )


def _lock_registration(procedure: Procedure) -> Registration:
    """The registration, locked after its position (the order every nomination service takes), so its
    status read here is the one the orchestration service changes."""
    Position.objects.select_for_update(of=("self",)).get(pk=procedure.registration.position_id)
    return Registration.objects.select_for_update().get(pk=procedure.registration_id)


@transaction.atomic
def effects_apply(
    *, procedure: Procedure, by: User, today: datetime.date, publish: bool = True
) -> EffectsResult:
    """Apply the effect of a decision of falsity (when final, or from the first decision where the policy
    says so, art. 61): the registration is eliminated through the orchestration service, which annuls an
    active nomination and frees its seat for the next of the same list at the next call; the public act
    ("Eliminação de NOME, inscrição X, … nos termos do PA nº Y/AAAA", RULES §7) is published and the effect
    recorded as a publication (naming the position, not the party) in the same transaction. ``publish``
    False: a rehearsal (``act_record``'s)."""
    procedure = _locked(procedure)
    if procedure.effects_applied_on:
        _refuse(f"Os efeitos já foram aplicados em {procedure.effects_applied_on:%d/%m/%Y}.")
    state = case_state(procedure, today=today)
    _refuse(state.effects_refusal)
    registration = _lock_registration(procedure)
    nominated = Nomination.objects.filter(registration=registration, status__in=Nomination.HOLDING).exists()
    previous_status = registration.status
    change = registration_change_status(
        registration=registration,
        status=Registration.Status.ELIMINATED,
        reason=f"Falsidade da autodeclaração confirmada no {procedure}",
        by=by,
        today=today,
    )
    procedure.effects_applied_on = today
    procedure.effects_previous_status = previous_status
    audited_save(procedure, by=by, reason="Efeitos da decisão de falsidade aplicados")
    document = documents.effects_publish(
        procedure=procedure, by=by, today=today, nominated=nominated, publish=publish
    )
    what = EFFECTS if document.version == 1 else f"{EFFECTS} restabelecidos"
    _effects_published(procedure, what=what, document=document if publish else None, by=by)
    return EffectsResult(
        procedure, change.messages, documents.effects_act_text(procedure, nominated=nominated), document
    )


def _effects_undo(
    procedure: Procedure, *, act: ProcedureAct, by: User | None, today: datetime.date, publish: bool = True
) -> None:
    """A later act ended the falsity after its effects were applied (from the first decision, art. 61, or on
    the final decision, then by revision or annulment): the reversal is recorded and reinstates the
    registration (``reversals``), and the public act gets a new version saying it was made void, recorded as
    a publication.
    Inside ``act_record``'s transaction, with the procedure's row locked."""
    registration = _lock_registration(procedure)
    reason = labels.effects_undone_text(rules.Act(act.kind))
    reversals.reversal_record(
        procedure=procedure, act=act, registration=registration, reason=reason, by=by, today=today
    )
    procedure.effects_applied_on = None
    procedure.effects_previous_status = ""
    audited_save(procedure, by=by, reason="Efeitos desfeitos (decisão de falsidade revertida)")
    document = documents.effects_void_publish(procedure=procedure, by=by, today=today, publish=publish)
    what = f"{EFFECTS} tornados sem efeito"
    _effects_published(procedure, what=what, document=document if publish else None, by=by)


@transaction.atomic
def prosecutor_referral_record(*, procedure: Procedure, text: str, by: User) -> Procedure:
    """Record the referral to the prosecutor's office (ofício, date, addressee)."""
    procedure = _locked(procedure)
    if procedure.outcome != rules.Outcome.FALSITY:
        _refuse("O encaminhamento ao Ministério Público segue uma decisão que confirma a falsidade.")
    if not text.strip():
        _refuse("Informe o ofício, a data e o destinatário do encaminhamento.", "prosecutor_referral")
    procedure.prosecutor_referral = text.strip()
    audited_save(procedure, by=by, reason="Encaminhamento ao Ministério Público")
    return procedure


# The candidate's filings through their private link ----------------------------------------------------


@transaction.atomic
def representative_name(
    *,
    link: ProcedureLink,
    name: str,
    email: str,
    power_of_attorney: UploadedFile,
    now: datetime.datetime,
) -> tuple[ProcedureLink, str]:
    """The candidate names a lawyer or representative (art. 3º IV): the power of attorney is joined to the
    file as an act of evidence and the representative gets a link of their own."""
    if link.holder != ProcedureLink.Holder.CANDIDATE:
        _refuse("Só o próprio candidato nomeia procurador.")
    if not name.strip():
        _refuse("Informe o nome do procurador.", "name")
    procedure = _locked(link.procedure)
    today = timezone.localdate(now)
    state = case_state(procedure, today=today)
    _refuse(rules.CLOSED if rules.is_final(state.records) else "")
    attachment_check(power_of_attorney)
    act = _save_act(
        procedure,
        kind=Act.EVIDENCE,
        by=None,
        on=today,
        text=f"Procuração: o candidato nomeia {name.strip()} seu procurador (Lei 9.784 art. 3º IV).",
        filed_by=link.name,
    )
    attachment = attachment_add(act=act, upload=power_of_attorney, protected=False, by=None)
    receipt_issue(act=act, link=link, now=now)
    return link_issue(
        procedure=procedure,
        holder=ProcedureLink.Holder.REPRESENTATIVE,
        name=name,
        email=email,
        by=None,
        now=now,
        power_of_attorney=attachment,
    )


def candidate_file(
    *,
    link: ProcedureLink,
    kind: str,
    text: str,
    uploads: Sequence[UploadedFile],
    now: datetime.datetime,
) -> ProcedureAct:
    """A filing through the private link (defence, evidence, final statement, appeal): refused after the
    deadline, with the reason and the day it ended."""
    if rules.Act(kind) not in rules.CANDIDATE_ACTS:
        _refuse(
            "Pelo link só se apresentam defesa, provas, alegações finais, recurso, alegações sobre recurso e "
            "pedido de revisão."
        )
    holder = "procurador" if link.holder == ProcedureLink.Holder.REPRESENTATIVE else "candidato"
    with transaction.atomic():  # the filing and its protocol receipt, together or not at all
        ProcedureLink.objects.select_for_update().filter(pk=link.pk).first()  # one filing of a link at a time
        _refuse(link_volume_refusal(link, f"{link.name} ({holder})", uploads, now))
        act = act_record(
            procedure=link.procedure,
            kind=kind,
            by=None,
            today=timezone.localdate(now),
            text=text,
            filed_by=f"{link.name} ({holder})",
            uploads=uploads,
        )
        receipt_issue(act=act, link=link, now=now)
    return act
