"""The procedure's Portuguese names for the screens, forms, documents and history: each act's label and
the article it rests on, the outcomes' and the means of notice's labels, and the note naming the act that
undid the effects of a decision (the periods' labels stay in ``rules``: its refusals name them).

PURE module, beside ``rules`` (which it names): no Django, no project import but the pure modules.
"""

from __future__ import annotations

from collections.abc import Mapping

from declarations.procedure.notices import Means
from declarations.procedure.rules import Act, Outcome

ACT_LABELS: Mapping[Act, str] = {
    Act.OPENING: "Instauração",
    Act.NOTICE: "Intimação para defesa",
    Act.DEFENCE: "Defesa",
    Act.EVIDENCE: "Prova",
    Act.HEARING: "Audiência",
    Act.INSTRUCTION_CLOSED: "Encerramento da instrução",
    Act.FINAL_STATEMENT: "Alegações finais",
    Act.REPORT: "Relatório com proposta de decisão",
    Act.DECISION: "Decisão",
    Act.DECISION_EXTENSION: "Prorrogação do prazo para decidir",
    Act.DECISION_NOTICE: "Intimação da decisão",
    Act.APPEAL: "Recurso",
    Act.APPEAL_NOTICE: "Intimação do recurso de terceiro",
    Act.APPEAL_ANSWER: "Alegações sobre o recurso",
    Act.APPEAL_NOT_HEARD: "Não conhecimento do recurso",
    Act.RECONSIDERATION: "Juízo de reconsideração",
    Act.SUPERIOR_DECISION: "Decisão da instância superior",
    Act.APPEAL_REVIEW: "Revisão de ofício após recurso não conhecido",
    Act.FINAL: "Decisão definitiva",
    Act.REVISION_REQUEST: "Pedido de revisão",
    Act.REVISION: "Revisão",
    Act.ANNULMENT: "Anulação da decisão",
    Act.AFTER_FINAL_NOTICE: "Intimação da revisão ou anulação",
    Act.CLOSING_NOTICE: "Intimação do encerramento da instrução",
    Act.DILIGENCE: "Diligência ou prova determinada",
    Act.HEARING_NOTICE: "Intimação de audiência ou diligência",
    Act.ANNULMENT_NOTICE: "Intimação da anulação pretendida",
    Act.ANNULMENT_ANSWER: "Alegações sobre a anulação pretendida",
}

ACT_CITATIONS: Mapping[Act, str] = {
    Act.OPENING: "Lei 9.784 art. 5º",
    Act.NOTICE: "Lei 9.784 art. 26",
    Act.DEFENCE: "Lei 9.784 art. 3º III",
    Act.EVIDENCE: "Lei 9.784 arts. 29 e 38",
    Act.HEARING: "Lei 9.784 art. 41",
    Act.INSTRUCTION_CLOSED: "Lei 9.784 art. 44",
    Act.FINAL_STATEMENT: "Lei 9.784 art. 44",
    Act.REPORT: "Lei 9.784 art. 47",
    Act.DECISION: "Lei 9.784 arts. 48–50",
    Act.DECISION_EXTENSION: "Lei 9.784 art. 49",
    Act.DECISION_NOTICE: "Lei 9.784 arts. 26 e 59",
    Act.APPEAL: "Lei 9.784 arts. 56, 58 e 59",
    Act.APPEAL_NOTICE: "Lei 9.784 arts. 26 e 62",
    Act.APPEAL_ANSWER: "Lei 9.784 art. 62",
    Act.APPEAL_NOT_HEARD: "Lei 9.784 arts. 48 e 63",
    Act.APPEAL_REVIEW: "Lei 9.784 art. 63 §2º",
    Act.RECONSIDERATION: "Lei 9.784 art. 56 §1º",
    Act.SUPERIOR_DECISION: "Lei 9.784 arts. 57 e 59 §1º",
    Act.FINAL: "Lei 9.784 art. 57",
    Act.REVISION_REQUEST: "Lei 9.784 art. 65",
    Act.REVISION: "Lei 9.784 art. 65",
    Act.ANNULMENT: "Lei 9.784 arts. 53 e 54",
    Act.AFTER_FINAL_NOTICE: "Lei 9.784 art. 26",
    Act.CLOSING_NOTICE: "Lei 9.784 arts. 26 e 44",
    Act.DILIGENCE: "Lei 9.784 arts. 29 e 41",
    Act.HEARING_NOTICE: "Lei 9.784 arts. 26 e 41",
    Act.ANNULMENT_NOTICE: "CF art. 5º LV; Lei 9.784 arts. 26 e 53; STF Tema 138",
    Act.ANNULMENT_ANSWER: "CF art. 5º LV; Lei 9.784 art. 53; STF Tema 138",
}

OUTCOME_LABELS: Mapping[Outcome, str] = {
    Outcome.DISMISSED: "Improcedente: a autodeclaração subsiste",
    Outcome.FALSITY: "Falsidade da autodeclaração confirmada",
}

MEANS_LABELS: Mapping[Means, str] = {
    Means.EMAIL: "Mensagem eletrônica com o link privado (ciência pelo link)",
    Means.LETTER: "Carta registrada com aviso de recebimento",
    Means.IN_PERSON: "Ciência pessoal no processo",
    Means.GAZETTE: "Publicação oficial (candidato não localizado)",
}

EFFECTS_UNDONE = (
    "Efeitos desfeitos: o ato “{act}” julgou improcedente a apuração, e os efeitos aplicados desde a primeira "
    "decisão (Lei 9.784 art. 61) caem com ela; a inscrição volta à situação anterior (art. 64)."
)


EFFECTS_UNDONE_AFTER_FINAL = {
    Act.REVISION: (
        "Efeitos desfeitos: a revisão (Lei 9.784 art. 65) julgou improcedente a apuração, e os efeitos da "
        "falsidade caem com ela; a inscrição volta à situação anterior."
    ),
    Act.ANNULMENT: (
        "Efeitos desfeitos: a decisão de falsidade foi anulada por vício de legalidade (Lei 9.784 art. 53), e "
        "os efeitos caem com ela; a inscrição volta à situação anterior."
    ),
}


def effects_undone_text(act: Act) -> str:
    """Why the effects were undone, naming the act that reversed the decision."""
    return EFFECTS_UNDONE_AFTER_FINAL.get(act) or EFFECTS_UNDONE.format(act=ACT_LABELS[act])
