"""The documents of the procedure: each act's text from a template under ``templates/declarations/documents/``,
as HTML (the act forms' preview, and acts recorded before the PDFs existed) and as the PDF published through
the documents pipeline (``contests/documents``: rendered, stamped, hashed, verifiable at ``/verificar/``).

The acts' PDFs are ``Document.Kind.PROCEDURE_ACT``, a restricted kind: they name the candidate and carry
procedure content, so the public site never lists nor serves them; the case page (permission-checked) and the
candidate's private page (token-checked) serve them. The act of the effects (elimination, annulment of the
nomination or admission) is public (``PROCEDURE_EFFECTS``, RULES §7): name, inscription, procedure number,
nothing else.
"""

from __future__ import annotations

import datetime

from django.template.loader import render_to_string
from django.utils import timezone

from candidates.letters import with_code
from candidates.tasks import page_url
from contests.audit import User, audited_save
from contests.documents.letters import Letter
from contests.documents.models import Document
from contests.documents.render import Stamp, render_pdf
from contests.documents.services import current_version, document_publish
from contests.documents.signatures import signatory_for, signature_block
from contests.models import Organization, Signatory
from declarations.models import Procedure, ProcedureAct
from declarations.procedure import rules

BODY_TEMPLATES = {
    rules.Act.OPENING: "declarations/documents/opening.html",
    rules.Act.NOTICE: "declarations/documents/notice.html",
    rules.Act.DECISION_NOTICE: "declarations/documents/notice.html",
    rules.Act.DECISION: "declarations/documents/decision.html",
    rules.Act.RECONSIDERATION: "declarations/documents/decision.html",
    rules.Act.SUPERIOR_DECISION: "declarations/documents/decision.html",
    rules.Act.FINAL: "declarations/documents/final.html",
}

DOCUMENT_TITLES = {
    rules.Act.OPENING: "Portaria de instauração",
    rules.Act.NOTICE: "Intimação para defesa",
    rules.Act.DECISION_NOTICE: "Intimação da decisão",
    rules.Act.DECISION: "Decisão",
    rules.Act.RECONSIDERATION: "Juízo de reconsideração",
    rules.Act.SUPERIOR_DECISION: "Decisão em grau de recurso",
    rules.Act.FINAL: "Certidão de decisão definitiva",
}

# Who signs each act: the authority the organisation assigns (``contests.Signatory``), never the clerk who
# records it (``Document.published_by``, "Elaborado por" in the history). The decision on appeal is the
# superior authority's (Lei 9.784 art. 56 §1º); the reconsideration, the notices and the certificate are the
# authority's that conducts the procedure.
SIGNATORY_KINDS = {rules.Act.SUPERIOR_DECISION: Signatory.Kind.PROCEDURE_APPEAL}


def _context(procedure: Procedure, **extra) -> dict:
    registration = procedure.registration
    return {
        "procedure": procedure,
        "registration": registration,
        "candidate": registration.candidate,
        "contest": registration.contest,
        "organization": Organization.current(),
        **extra,
    }


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


# HTML (previews) ---------------------------------------------------------------------------------------


def notice_document(act: ProcedureAct) -> str:
    """Intimação with the content of Lei 9.784 art. 26 §1º, and where the candidate follows their
    registration (the code itself only on the letter: ``notice_letter``)."""
    return render_to_string(BODY_TEMPLATES[rules.Act.NOTICE], _act_context(act))


def act_document(act: ProcedureAct) -> str:
    """The document of ``act`` as HTML when it has one ('' otherwise): the forms' preview, and the case
    page for an act recorded before its PDF was published."""
    template = BODY_TEMPLATES.get(rules.Act(act.kind))
    return render_to_string(template, _act_context(act)) if template else ""


def _act_context(act: ProcedureAct, **extra) -> dict:
    """An act's context; a notice also says where the candidate follows their registration, except a notice
    by official publication (art. 26 §4º, its text goes to the gazette). Never the access code: the act is
    stored and shown to staff (preview, case page); the code goes only on the letter (``notice_letter``)."""
    if rules.Act(act.kind) in rules.NOTICES and act.means != rules.Means.GAZETTE:
        extra = {"access_note": True, "access_url": page_url(), **extra}
    return _context(act.procedure, act=act, **extra)


# The letter (personal, never stored) -------------------------------------------------------------------


def notice_letter(act: ProcedureAct, *, url: str, expires_on: datetime.date, today: datetime.date) -> Letter:
    """The notice on paper, for registered mail or delivery in person: the act's text, the private link
    ``url`` to the case (issued for this letter) and the candidate's access code, in the one letter layout
    (``candidates.letters``)."""
    registration = act.procedure.registration
    body = BODY_TEMPLATES[rules.Act(act.kind)]
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
    return f"{DOCUMENT_TITLES[rules.Act(act.kind)]} – {act.procedure}"


def act_pdf(act: ProcedureAct, stamp: Stamp, *, signer_name: str, signer_office: str) -> bytes:
    """The act's document as PDF (the same text as its preview), signed by the authority ``signer`` names."""
    kind = rules.Act(act.kind)
    context = _act_context(
        act,
        pdf=True,
        body=BODY_TEMPLATES[kind],
        issued_on=act.on or timezone.localdate(act.recorded_at),
        signature=signature_block(
            signer_name, signer_office, on=act.on or timezone.localdate(act.recorded_at)
        ),
    )
    return render_pdf("pdf/procedure_act.html", context, stamp, title=act_title(act))


def act_subject(act: ProcedureAct) -> str:
    return f"pa-{act.procedure.year}-{act.procedure.number}-ato-{act.pk}"


def act_document_publish(*, act: ProcedureAct, by: User | None) -> Document | None:
    """Publish ``act``'s PDF as a restricted document and link it to the act; acts without a document of
    their own (defence, evidence…) get none. Called by the services inside the act's transaction: the act
    and its document are written together or not at all."""
    if rules.Act(act.kind) not in rules.DOCUMENTED_ACTS or act.document_id is not None:
        return None
    name, office = signer(act.kind, on=act.on or timezone.localdate(act.recorded_at))
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
    )
    act.document = document
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
    name = registration.candidate.social_name or registration.candidate.full_name
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


def _sentence_lower(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]


def effects_publish(
    *, procedure: Procedure, by: User | None, today: datetime.date, nominated: bool
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
        sentence_lower=_sentence_lower(sentence),
        restored=previous is not None,
        nominated=nominated,
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
    )


def effects_void_publish(*, procedure: Procedure, by: User | None, today: datetime.date) -> Document | None:
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
        previous=previous,
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
    )


def previous_sentence(previous: Document, procedure: Procedure) -> str:
    """The sentence of the act made void (its title: the sentence as published)."""
    return previous.title.removeprefix("Tornado sem efeito: ")
