"""The documents of the procedure, one function per act that renders its HTML from a template under
``templates/declarations/documents/``. The documents pipeline (``contests/documents/``: PDF, publication,
``/verificar/``) takes this HTML when it lands; these functions are the one place to plug it in."""

from __future__ import annotations

from django.template.loader import render_to_string

from declarations.models import Procedure, ProcedureAct


def _context(procedure: Procedure, **extra) -> dict:
    from contests.models import Organization

    registration = procedure.registration
    return {
        "procedure": procedure,
        "registration": registration,
        "candidate": registration.candidate,
        "contest": registration.contest,
        "organization": Organization.current(),
        **extra,
    }


def opening_document(procedure: Procedure) -> str:
    """Portaria de instauração (Lei 9.784 arts. 5º–6º)."""
    return render_to_string("declarations/documents/opening.html", _context(procedure))


def notice_document(act: ProcedureAct) -> str:
    """Intimação with the content of Lei 9.784 art. 26 §1º, and the candidate's access code to their own
    public page (computed now: a reissued code prints the new one)."""
    from candidates.access import code_for
    from candidates.tasks import page_url

    code = code_for(act.procedure.registration)
    return render_to_string(
        "declarations/documents/notice.html",
        _context(act.procedure, act=act, access_code=code, access_url=page_url(printed=True)),
    )


def decision_document(act: ProcedureAct) -> str:
    """A reasoned decision (first instance, reconsideration or superior; Lei 9.784 art. 50)."""
    return render_to_string("declarations/documents/decision.html", _context(act.procedure, act=act))


def final_document(procedure: Procedure) -> str:
    """Certidão: the decision is final (no appeal in time, or no instance left, Lei 9.784 art. 57)."""
    return render_to_string("declarations/documents/final.html", _context(procedure))


def effects_act_text(procedure: Procedure) -> str:
    """The public act's sentence (RULES §7): name, inscription, procedure number; nothing sensitive."""
    registration = procedure.registration
    name = registration.candidate.social_name or registration.candidate.full_name
    return (
        f"Eliminação de {name}, inscrição {registration.number}, do {registration.contest}, nos termos do "
        f"{procedure}."
    )


def effects_act_document(procedure: Procedure) -> str:
    """The public act of elimination or annulment, to be published (RULES §7)."""
    return render_to_string(
        "declarations/documents/effects_act.html", _context(procedure, sentence=effects_act_text(procedure))
    )


DOCUMENT_OF_ACT = {
    "notice": notice_document,
    "decision_notice": notice_document,
    "decision": decision_document,
    "reconsideration": decision_document,
    "superior_decision": decision_document,
}


def act_document(act: ProcedureAct) -> str:
    """The document of ``act`` when it has one ('' otherwise): for the preview and the case page."""
    if act.kind == "opening":
        return opening_document(act.procedure)
    if act.kind == "final":
        return final_document(act.procedure)
    render = DOCUMENT_OF_ACT.get(act.kind)
    return render(act) if render else ""
