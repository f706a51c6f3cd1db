"""The documents of the procedure: each act's text from a template under ``templates/declarations/documents/``,
as HTML (the act forms' preview, and acts recorded before the PDFs existed) and as the PDF published through
the documents pipeline (``contests/documents``: rendered, stamped, hashed, verifiable at ``/verificar/``). The
preview and the PDF share the body, its place, date and signature block: the screen shows the PDF's words.

Each act has the form of an act of the authority that signs it (the preamble names the signer's office,
``authority_preamble``): the Portaria de instauração (ementa, considerandos citing the law as enacted,
RESOLVE, articles), the notices (Lei 9.784 art. 26 §1º, the period's last day by the deadline engine), the
decisions in relatório, fundamentação and dispositivo with the right to appeal, and the certificate of
finality.

The acts' PDFs are ``Document.Kind.PROCEDURE_ACT``, a restricted kind: they name the candidate and carry
procedure content, so the public site never lists nor serves them; the case page (permission-checked) and the
candidate's private page (token-checked) serve them. The act of the effects (elimination, annulment of the
nomination or admission) is public (``PROCEDURE_EFFECTS``, RULES §7): name, inscription, contest, procedure
number, the effect, nothing else.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.utils import timezone

from candidates.letters import with_code
from candidates.models import Nomination
from candidates.tasks import page_url
from contests import wording
from contests.audit import User, audited_save
from contests.documents.edital import law_citation, law_of
from contests.documents.letters import Letter
from contests.documents.models import Document
from contests.documents.render import Stamp, render_pdf
from contests.documents.services import current_version, document_publish
from contests.documents.signatures import SignatureBlock, preamble, signatory_for, signature_block
from contests.models import Organization, Policy, Signatory
from declarations.models import Procedure, ProcedureAct, ProcedureLaw
from declarations.procedure import after_final_documents, appeal_documents, notice_documents, notices, rules
from declarations.procedure.act_words import act_date, decided_text, document_title, filed_by, last_of, of

BODY_TEMPLATES = {
    rules.Act.OPENING: "declarations/documents/opening.html",
    rules.Act.NOTICE: "declarations/documents/notice.html",
    rules.Act.DECISION_NOTICE: "declarations/documents/notice.html",
    rules.Act.DECISION: "declarations/documents/decision.html",
    rules.Act.RECONSIDERATION: "declarations/documents/decision.html",
    rules.Act.SUPERIOR_DECISION: "declarations/documents/decision.html",
    rules.Act.FINAL: "declarations/documents/final.html",
    rules.Act.REVISION: "declarations/documents/revision.html",
    rules.Act.ANNULMENT: "declarations/documents/annulment.html",
    rules.Act.AFTER_FINAL_NOTICE: "declarations/documents/after_final_notice.html",
    rules.Act.APPEAL_NOTICE: "declarations/documents/appeal_notice.html",
    rules.Act.APPEAL_NOT_HEARD: "declarations/documents/appeal_not_heard.html",
    rules.Act.APPEAL_REVIEW: "declarations/documents/decision.html",
}


def body_template(kind: rules.Act) -> str | None:
    """The template of an act's body: its own, the generic notice's for any other notice, else None (an
    act without a document of its own)."""
    found = BODY_TEMPLATES.get(kind)
    if found is None and kind in rules.NOTICES:
        return notice_documents.GENERIC_TEMPLATE
    return found


# Who signs each act: the authority the organisation assigns (``contests.Signatory``), never the clerk who
# records it (``Document.published_by``, "Elaborado por" in the history). The decision on appeal is the
# superior authority's (Lei 9.784 art. 56 §1º); the reconsideration, the notices and the certificate are the
# authority's that conducts the procedure.
SIGNATORY_KINDS = {rules.Act.SUPERIOR_DECISION: Signatory.Kind.PROCEDURE_APPEAL}


def _context(procedure: Procedure, **extra) -> dict:
    registration = procedure.registration
    policy = registration.contest.policy
    law = policy.procedure_law
    signature = extra.get("signature")
    return {
        "procedure": procedure,
        "procedure_full": procedure_full_name(procedure),
        "registration": registration,
        "candidate": registration.candidate,
        "candidate_name": registration.candidate.display_name,
        "contest": registration.contest,
        "organization": Organization.current(),
        "falsity_basis": falsity_basis(policy),
        "annulment": "admissão ao serviço público"
        if law.nominee_falsity_effect == ProcedureLaw.NomineeFalsityEffect.ADMISSION
        else "nomeação",
        "authority": authority_preamble(signature) if signature else "",
        **extra,
    }


def procedure_full_name(procedure: Procedure) -> str:
    """The case as an act names it: "Processo Administrativo nº 1/2026"."""
    return f"Processo Administrativo nº {procedure.number}/{procedure.year}"


# The law and the authority as the acts write them -------------------------------------------------------


def falsity_basis(policy: Policy) -> str:
    """The article on a false declaration and its law: "art. 3º §3º da Lei nº …" (the law alone when the
    policy records no article)."""
    if policy.citation_falsity:
        return f"{policy.citation_falsity} {law_of(policy)}"
    return law_citation(policy)


def authority_preamble(signature: SignatureBlock) -> str:
    """The opening words of an act in the authority's name (``contests.documents.signatures.preamble``, the
    one home of this wording for every act)."""
    return preamble(signature)


def signer(kind: str, *, on: datetime.date) -> tuple[str, str]:
    """(name, office) of the authority that signs a procedure document of ``kind`` (a ``rules.Act``, or
    ``Signatory.Kind.PROCEDURE_EFFECTS`` for the public act of the effects) dated ``on``: the one the
    organisation assigns and in office that day. ``NoSignatory`` (a ``ValidationError``) when there is none:
    the act is not recorded until Gestão designates one."""
    if kind == Signatory.Kind.PROCEDURE_EFFECTS:
        signatory_kind = Signatory.Kind.PROCEDURE_EFFECTS
    else:
        signatory_kind = SIGNATORY_KINDS.get(rules.Act(kind), Signatory.Kind.PROCEDURE)
    block = signatory_for(signatory_kind, on=on)
    return block.name, block.office


def act_signer(act: ProcedureAct, *, on: datetime.date) -> tuple[str, str]:
    """(name, office) of whoever signs ``act``: the authority chosen on its form (a deciding act), else the
    one ``signer`` names for its kind."""
    if act.authority is not None:
        return act.authority.name, act.authority.office
    return signer(act.kind, on=on)


# HTML (previews) ---------------------------------------------------------------------------------------


def notice_document(act: ProcedureAct) -> str:
    """Intimação with the content of Lei 9.784 art. 26 §1º, and where the candidate follows their
    registration (the code itself only on the letter: ``notice_letter``)."""
    return render_to_string(body_template(rules.Act(act.kind)) or "", _act_context(act))


def act_document(act: ProcedureAct) -> str:
    """The document of ``act`` as HTML when it has one ('' otherwise): the forms' preview, and the case
    page for an act recorded before its PDF was published."""
    template = body_template(rules.Act(act.kind))
    return render_to_string(template, _act_context(act)) if template else ""


def _act_context(act: ProcedureAct, **extra) -> dict:
    """An act's context: what its kind writes (the report of a decision, the decision a notice or the
    certificate names, the deadlines), its date and its signature block (whoever ``signer`` names for the
    act's author, unless given). A notice also says where the candidate follows their registration, except
    a notice by official publication (art. 26 §4º, its text goes to the gazette). Never the access code: the
    act is stored and shown to staff (preview, case page); the code goes only on the letter
    (``notice_letter``)."""
    kind = rules.Act(act.kind)
    on = act_date(act)
    if "signature" not in extra:
        try:
            name, office = act_signer(act, on=on)
        except ValidationError:  # a preview before Gestão designates the authority: blanks to fill
            name, office = "", ""
        extra["signature"] = signature_block(name, office, on=on)
    if kind in rules.NOTICES and act.means != notices.Means.GAZETTE:
        extra = {"access_note": True, "access_url": page_url(), **extra}
    before = _acts_before(act)
    policy = act.procedure.policy
    parts: dict = {
        "issued_on": on,
        "defence_days": notice_documents.days_text(policy.defence_days, rules.Period.DEFENCE),
        "appeal_days": notice_documents.days_text(policy.appeal_days, rules.Period.APPEAL),
        "reconsideration_days": notice_documents.days_text(
            policy.reconsideration_days, rules.Period.RECONSIDERATION
        ),
    }
    if kind in rules.AFTER_FINAL_DECIDING or kind is rules.Act.AFTER_FINAL_NOTICE:
        parts.update(after_final_documents.after_final_parts(act, before))
    elif kind in rules.DECIDING_ACTS:
        parts.update(_decision_parts(act, before))
    elif kind in (rules.Act.NOTICE, rules.Act.DECISION_NOTICE):
        parts.update(_notice_parts(act, before))
    elif kind in rules.NOTICES:
        parts.update(notice_documents.notice_parts(act, before))
    elif kind is rules.Act.FINAL:
        parts.update(_final_parts(act, before))
    elif kind is rules.Act.APPEAL_NOT_HEARD:
        parts.update(appeal_parts(act, before))
    return _context(act.procedure, act=act, **parts, **extra)


def _acts_before(act: ProcedureAct) -> list[ProcedureAct]:
    """The case's acts recorded before ``act`` (all of them for a draft not yet recorded), in order."""
    acts = (
        act.procedure.acts.select_related("by").prefetch_related("attachments").order_by("recorded_at", "pk")
    )
    if act.pk is not None:
        acts = acts.filter(pk__lt=act.pk)
    return list(acts)


def _is_nominated(procedure: Procedure) -> bool:
    return Nomination.objects.filter(
        registration=procedure.registration, status__in=Nomination.HOLDING
    ).exists()


@dataclass(frozen=True)
class ReportLine:
    """One paragraph of a decision's report: what happened on a day."""

    on: datetime.date | None
    text: str


def report_lines(acts: list[ProcedureAct], procedure: Procedure) -> list[ReportLine]:
    """The report (relatório) of a decision: the case's acts before it, each in one sentence, in order;
    the defence's absence when its period ran out without one. Names no complainant (Lei 9.784 art. 46)."""
    lines: list[ReportLine] = []
    origin = {
        Procedure.Origin.COMPLAINT: "em razão de denúncia",
        Procedure.Origin.EX_OFFICIO: "de ofício",
        Procedure.Origin.COMMISSION: "em razão da não confirmação da autodeclaração pela comissão de "
        "heteroidentificação",
    }[Procedure.Origin(procedure.origin)]
    for act in acts:
        kind = rules.Act(act.kind)
        on = act.on
        if kind is rules.Act.OPENING:
            text = (
                f"O processo foi instaurado {origin}, por portaria, para apurar a veracidade da autodeclaração "
                "racial prestada no ato da inscrição."
            )
            if any(
                attached.name.startswith("pareceres-heteroidentificacao")
                for attached in act.attachments.all()
            ):
                text += " Foram juntados aos autos os pareceres da comissão de heteroidentificação."
        elif kind is rules.Act.NOTICE:
            if on is None:
                continue  # a means tried that never took effect
            text = f"O candidato foi intimado da instauração {_means(act)}, com prazo para defesa."
        elif kind is rules.Act.DEFENCE:
            text = f"Foi apresentada defesa escrita {filed_by(act)}."
        elif kind is rules.Act.EVIDENCE:
            text = "Foram juntadas provas aos autos."
        elif kind is rules.Act.HEARING:
            when = f" em {wording.date_in_full(act.hearing_on)}" if act.hearing_on else ""
            text = f"Realizou-se audiência{when}, com intimação prévia do candidato."
        elif kind is rules.Act.INSTRUCTION_CLOSED:
            if not any(other.kind == rules.Act.DEFENCE for other in acts):
                lines.append(ReportLine(None, "Decorrido o prazo, não foi apresentada defesa."))
            text = "Encerrou-se a instrução, abrindo-se prazo para alegações finais."
        elif kind is rules.Act.FINAL_STATEMENT:
            text = f"Foram apresentadas alegações finais {filed_by(act)}."
        elif kind is rules.Act.REPORT:
            if not any(other.kind == rules.Act.FINAL_STATEMENT for other in acts):
                lines.append(ReportLine(None, "Decorrido o prazo, não foram apresentadas alegações finais."))
            text = "O relatório da instrução, com proposta de decisão, foi juntado aos autos."
        elif kind is rules.Act.DECISION_EXTENSION:
            text = "O prazo para decidir foi prorrogado uma vez, motivadamente."
        elif kind in rules.DECIDING_ACTS:
            verb = "Foi proferido" if kind is rules.Act.RECONSIDERATION else "Foi proferida"
            text = f"{verb} {decided_text(act, dated=False)}."
        elif kind is rules.Act.DECISION_NOTICE:
            if on is None:
                continue
            text = f"O candidato foi intimado da decisão {_means(act)}."
        elif kind is rules.Act.APPEAL:
            # An appeal may be the complainant's as well as the candidate's: named only when recorded.
            text = (
                f"Foi interposto recurso por {act.filed_by.strip()}."
                if act.filed_by.strip()
                else "Foi interposto recurso."
            )
        elif kind is rules.Act.APPEAL_NOTICE:
            if on is None:
                continue
            text = f"O candidato foi intimado do recurso {_means(act)}, para apresentar alegações (art. 62)."
        elif kind is rules.Act.APPEAL_ANSWER:
            text = f"Foram apresentadas alegações sobre o recurso {filed_by(act)}."
        elif kind is rules.Act.APPEAL_NOT_HEARD:
            text = f"O recurso não foi conhecido: {act.get_ground_display().lower()}."
        else:
            continue
        lines.append(ReportLine(on, text))
    return lines


_MEANS_WORDS = {
    notices.Means.EMAIL: "por mensagem eletrônica",
    notices.Means.LETTER: "por carta registrada com aviso de recebimento",
    notices.Means.IN_PERSON: "pessoalmente",
    notices.Means.GAZETTE: "por publicação oficial",
}


def _means(act: ProcedureAct) -> str:
    return _MEANS_WORDS[notices.Means(act.means)] if act.means else "na forma da lei"


def _decision_parts(act: ProcedureAct, before: list[ProcedureAct]) -> dict:
    """A deciding act's report, the decision it reviews (on appeal or reconsideration), its effect and the
    appeal it allows (Lei 9.784 arts. 56–59)."""
    kind = rules.Act(act.kind)
    procedure = act.procedure
    policy = procedure.policy
    # The instance that decides with this act (a reconsideration is the reviewed instance's own): as the
    # state machine counts them, an appeal lies while it is below the policy's instances (art. 57).
    superiors = sum(1 for earlier in before if earlier.kind == rules.Act.SUPERIOR_DECISION)
    own = {
        rules.Act.DECISION: 1,
        rules.Act.RECONSIDERATION: 1 + superiors,
        rules.Act.APPEAL_REVIEW: 1 + superiors,
    }
    instance = own.get(kind, 2 + superiors)
    # The decision under review: the one the latest appeal was filed against.
    reviewed = None
    if kind is not rules.Act.DECISION:
        appeal = last_of(before, rules.Act.APPEAL)
        appealed = before[: before.index(appeal)] if appeal is not None else before
        reviewed = last_of(appealed, *rules.DECIDING_ACTS)
    outcome = rules.Outcome(act.outcome) if act.outcome else None
    maintained = reviewed is not None and reviewed.outcome == act.outcome
    return {
        "report": report_lines(before, procedure),
        "reviewed": reviewed,
        "reviewed_text": decided_text(reviewed) if reviewed else "",
        "maintained": maintained,
        "falsity": outcome is rules.Outcome.FALSITY,
        "nominated": _is_nominated(procedure),
        "effects_now": policy.effects_from_first_decision,
        # A reconsideration that maintains the decision forwards the appeal; no notice, no new appeal.
        "forwarded": kind is rules.Act.RECONSIDERATION and maintained,
        "appeal_open": instance < policy.appeal_instances,
    }


def _notice_parts(act: ProcedureAct, before: list[ProcedureAct]) -> dict:
    """What a notice names: the opening act (for the defence) or the decision (for the appeal), and the
    period's last day when the notice already took effect (in person, by publication, acknowledged)."""
    procedure = act.procedure
    policy = procedure.policy
    parts: dict = {}
    if act.kind == rules.Act.APPEAL_NOTICE:
        return appeal_parts(act, before)
    if act.kind == rules.Act.DECISION_NOTICE:
        decided = last_of(before, *rules.DECIDING_ACTS)
        parts["decided"] = decided
        parts["decided_text"] = decided_text(decided) if decided else "a decisão proferida no processo"
        parts["decided_of"] = of(parts["decided_text"])
        parts["falsity"] = decided is not None and decided.outcome == rules.Outcome.FALSITY
        period = rules.Period.APPEAL
    else:
        period = rules.Period.DEFENCE
    parts["period_ends"] = notice_documents.period_ends(act.on, period, policy) if act.on else None
    return parts


def appeal_parts(act: ProcedureAct, before: list[ProcedureAct]) -> dict:
    return appeal_documents.appeal_parts(act, before, last_of=last_of, decided_text=decided_text)


def _final_parts(act: ProcedureAct, before: list[ProcedureAct]) -> dict:
    """What the certificate of finality states: the decision, its notice, and why no appeal is left (the
    period ran out, or the last instance decided, art. 57)."""
    procedure = act.procedure
    policy = procedure.policy
    decided = last_of(before, *rules.DECIDING_ACTS)
    notice = None
    if decided is not None:
        after = before[before.index(decided) + 1 :]
        notice = next(
            (later for later in after if later.kind == rules.Act.DECISION_NOTICE and later.on), None
        )
    instances = sum(
        1 for earlier in before if earlier.kind in (rules.Act.DECISION, rules.Act.SUPERIOR_DECISION)
    )
    return {
        "decided": decided,
        "decided_text": decided_text(decided) if decided else "a decisão proferida no processo",
        "decided_of": of(decided_text(decided)) if decided else "da decisão proferida no processo",
        "decision_notice": notice,
        "appeal_ends": notice_documents.period_ends(notice.on, rules.Period.APPEAL, policy)
        if notice and notice.on
        else None,
        "last_instance": instances >= policy.appeal_instances,
        "falsity": decided is not None and decided.outcome == rules.Outcome.FALSITY,
        "nominated": _is_nominated(procedure),
    }


# The letter (personal, never stored) -------------------------------------------------------------------


def notice_letter(act: ProcedureAct, *, url: str, expires_on: datetime.date, today: datetime.date) -> Letter:
    """The notice on paper, for registered mail or delivery in person: the act's text, the private link
    ``url`` to the case (issued for this letter) and the candidate's access code, in the one letter layout
    (``candidates.letters``)."""
    registration = act.procedure.registration
    body = body_template(rules.Act(act.kind))
    return with_code(
        registration,
        title=act_title(act),
        body_template="pdf/letters/procedure_notice.html",
        context=_act_context(act, body=body, pdf=True, letter=True, access_note=False, expires_on=expires_on),
        dated=today,
        link_url=url,
        link_label="Seu link privado ao processo",
    )


# PDF (published) ---------------------------------------------------------------------------------------


def act_title(act: ProcedureAct) -> str:
    return f"{document_title(rules.Act(act.kind))} – {act.procedure}"


def act_pdf(act: ProcedureAct, stamp: Stamp, *, signer_name: str, signer_office: str) -> bytes:
    """The act's document as PDF (the same text as its preview), signed by the authority ``signer`` names."""
    kind = rules.Act(act.kind)
    context = _act_context(
        act,
        pdf=True,
        body=body_template(kind),
        signature=signature_block(signer_name, signer_office, on=act_date(act)),
    )
    return render_pdf("pdf/procedure_act.html", context, stamp, title=act_title(act))


def act_subject(act: ProcedureAct) -> str:
    return f"pa-{act.procedure.year}-{act.procedure.number}-ato-{act.pk}"


def act_document_publish(*, act: ProcedureAct, by: User | None, publish: bool = True) -> Document | None:
    """Publish ``act``'s PDF as a restricted document and link it to the act; acts without a document of
    their own (defence, evidence…) get none. Called by the services inside the act's transaction: the act
    and its document are written together or not at all. ``publish`` False (a rehearsal): the document it
    would be, unsaved and unrendered (``document_publish``), on the act in memory only."""
    if rules.Act(act.kind) not in rules.DOCUMENTED_ACTS or act.document_id is not None:
        return None
    name, office = act_signer(act, on=act_date(act))
    document = document_publish(
        contest=act.procedure.registration.contest,
        kind=Document.Kind.PROCEDURE_ACT,
        subject=act_subject(act),
        title=act_title(act),
        render=lambda stamp: act_pdf(act, stamp, signer_name=name, signer_office=office),
        by=by,
        signer_name=name,
        signer_office=office,
        gazette_edition=act.gazette_edition,
        gazette_page=act.gazette_page,
        publish=publish,
    )
    act.document = document
    if publish:
        audited_save(act, by=by, reason="Documento do ato publicado (PDF)")
    return document


# The public act of the effects (RULES §7) ----------------------------------------------------------------


def effects_heading(procedure: Procedure, *, nominated: bool) -> str:
    if not nominated:
        return "Ato de eliminação"
    law = procedure.registration.contest.policy.procedure_law
    what = "admissão" if law.nominee_falsity_effect == law.NomineeFalsityEffect.ADMISSION else "nomeação"
    return f"Ato de eliminação e anulação da {what}"


def effects_act_text(procedure: Procedure, *, nominated: bool = False) -> str:
    """The public act's sentence (RULES §7): name, inscription, contest, procedure number; for a nominee,
    the annulment of the nomination (SM art. 3º §3º) or of the admission (AR art. 2º), per the policy.
    Nothing sensitive: no CPF, no declaration, no reasons."""
    registration = procedure.registration
    name = registration.candidate.display_name
    annulment = ""
    if nominated:
        law = registration.contest.policy.procedure_law
        if law.nominee_falsity_effect == law.NomineeFalsityEffect.ADMISSION:
            annulment = " e anulação da sua admissão ao serviço público"
        else:
            annulment = " e anulação da sua nomeação"
    return (
        f"Eliminação de {name}, inscrição {registration.number}, do {registration.contest}{annulment}, nos "
        f"termos do {procedure}."
    )


def effects_subject(procedure: Procedure) -> str:
    return f"pa-{procedure.year}-{procedure.number}-efeitos"


def effects_document(procedure: Procedure) -> Document | None:
    """The current version of the procedure's public act of effects, if one was published."""
    return current_version(
        procedure.registration.contest, Document.Kind.PROCEDURE_EFFECTS, effects_subject(procedure)
    )


def effects_articles(procedure: Procedure, *, nominated: bool, restored: bool) -> list[str]:
    """The articles of the public act of the effects: only what may be published (RULES §7: name,
    inscription, contest, procedure number, the effect), never the reasons nor the declaration."""
    registration = procedure.registration
    name = registration.candidate.display_name
    full = procedure_full_name(procedure)
    articles = [
        f"Eliminar {name}, inscrição nº {registration.number}, do {registration.contest}, nos termos do {full}."
    ]
    if nominated:
        law = registration.contest.policy.procedure_law
        what = (
            "admissão ao serviço público"
            if law.nominee_falsity_effect == ProcedureLaw.NomineeFalsityEffect.ADMISSION
            else "nomeação"
        )
        articles.append(
            f"Anular a {what} de {name} no cargo {registration.position.title}; a vaga liberada será "
            "preenchida na próxima convocação pelo candidato seguinte da mesma lista."
        )
    if restored:
        articles.append(
            f"Este ato substitui a versão anterior, tornada sem efeito, restabelecidos os efeitos por nova "
            f"decisão no {full}."
        )
    articles.append("Este ato entra em vigor na data de sua publicação.")
    return articles


def effects_void_articles(procedure: Procedure, previous: Document, sentence: str) -> list[str]:
    """The articles of the act that makes the public act of the effects void."""
    registration = procedure.registration
    published = wording.date_in_full(timezone.localdate(previous.published_at))
    return [
        f"Tornar sem efeito o ato publicado em {published}, código de verificação {previous.code}: “{sentence}”",
        f"A inscrição nº {registration.number} volta à situação anterior, e as vagas seguem a ordem de "
        "classificação.",
        "Este ato entra em vigor na data de sua publicação.",
    ]


def effects_publish(
    *, procedure: Procedure, by: User | None, today: datetime.date, nominated: bool, publish: bool = True
) -> Document:
    """Publish the public act of the effects (a public kind, on ``/verificar/`` and the public portal): a
    first version, or a new version of one made void before (the effects restored by a new decision). Not
    recorded as a publication here: the service that applies the effects records it."""
    previous = effects_document(procedure)
    name, office = signer(Signatory.Kind.PROCEDURE_EFFECTS, on=today)
    heading = effects_heading(procedure, nominated=nominated)
    sentence = effects_act_text(procedure, nominated=nominated)
    context = _context(
        procedure,
        heading=heading,
        sentence=sentence,
        articles=effects_articles(procedure, nominated=nominated, restored=previous is not None),
        issued_on=today,
        signature=signature_block(name, office, on=today),
    )
    return document_publish(
        contest=procedure.registration.contest,
        kind=Document.Kind.PROCEDURE_EFFECTS,
        subject=effects_subject(procedure),
        title=sentence[:300],
        render=lambda stamp: render_pdf("pdf/procedure_effects.html", context, stamp, title=heading),
        by=by,
        signer_name=name,
        signer_office=office,
        previous=previous,
        summary=f"Efeitos restabelecidos por nova decisão de falsidade no {procedure}." if previous else "",
        record=False,  # the service records the effect's publication, naming the position
        publish=publish,
    )


def effects_void_publish(
    *, procedure: Procedure, by: User | None, today: datetime.date, publish: bool = True
) -> Document | None:
    """A new version of the public act saying it was made void ("tornado sem efeito"): a later decision
    dismissed the charge. None when no act was published."""
    previous = effects_document(procedure)
    if previous is None:
        return None
    name, office = signer(Signatory.Kind.PROCEDURE_EFFECTS, on=today)
    sentence = previous_sentence(previous, procedure)
    heading = f"{effects_heading(procedure, nominated='anulação' in sentence)} – tornado sem efeito"
    context = _context(
        procedure,
        heading=heading,
        sentence=sentence,
        undone=True,
        articles=effects_void_articles(procedure, previous, sentence),
        issued_on=today,
        signature=signature_block(name, office, on=today),
    )
    return document_publish(
        contest=procedure.registration.contest,
        kind=Document.Kind.PROCEDURE_EFFECTS,
        subject=effects_subject(procedure),
        title=f"Tornado sem efeito: {sentence}"[:300],
        render=lambda stamp: render_pdf("pdf/procedure_effects.html", context, stamp, title=heading),
        by=by,
        signer_name=name,
        signer_office=office,
        previous=previous,
        summary=f"Tornado sem efeito: decisão posterior no {procedure} julgou improcedente a apuração.",
        record=False,  # the service records the effect's publication, naming the position
        publish=publish,
    )


def previous_sentence(previous: Document, procedure: Procedure) -> str:
    """The sentence of the act made void (its title: the sentence as published)."""
    return previous.title.removeprefix("Tornado sem efeito: ")
