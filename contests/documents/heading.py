"""The opening words of an act: the authority that acts, as a legal officer writes it ("O PRESIDENTE DA
CÂMARA MUNICIPAL DE SANTA MARIA, no uso de suas atribuições legais, torna público …"), and the law as
enacted.

PURE module: standard library and ``contests.wording`` only. The caller passes the signer's office (the
signature block's), the organisation's name and municipality, and the policy's act fields.
"""

from __future__ import annotations

import datetime

from contests.wording import contraction_of, date_in_full

# Offices whose holder is a woman by the word itself ("Prefeita", "Secretária", "Diretora"); anything else
# takes the masculine article, as acts write an office in the abstract ("O Presidente").
_FEMININE_ENDINGS = ("a",)
_FEMININE_WORDS = frozenset({"presidenta", "prefeita", "secretária", "diretora", "vereadora", "governadora"})


def _article(office: str) -> str:
    head = office.strip().split(" ", 1)[0].lower().split("-", 1)[0]
    return "A" if head in _FEMININE_WORDS or (head.endswith(_FEMININE_ENDINGS) and head != "mesa") else "O"


def _of(name: str) -> str:
    """The contraction before a body's name: "da" Câmara, Prefeitura, Mesa; "do" Município, Poder."""
    head = name.strip().split(" ", 1)[0].lower()
    return "da" if head.endswith(("a", "ão")) else "do"


def authority_heading(office: str, *, organization_name: str = "", municipality: str = "") -> str:
    """Who acts, in capitals, with the article: ``"Presidente da Câmara Municipal"`` of the Câmara
    Municipal de Santa Maria → ``"O PRESIDENTE DA CÂMARA MUNICIPAL DE SANTA MARIA"``; ``"Prefeito de Angra
    dos Reis"`` → ``"O PREFEITO DE ANGRA DOS REIS"``; ``"Prefeita Municipal"`` → ``"A PREFEITA MUNICIPAL DE
    ANGRA DOS REIS"``; ``"Diretor-Geral"`` → ``"O DIRETOR-GERAL DA CÂMARA
    MUNICIPAL DE SANTA MARIA"``. Without an office, the organisation itself (``"A CÂMARA MUNICIPAL DE
    SANTA MARIA"``)."""
    office = " ".join(office.split())
    organization = " ".join(organization_name.split())
    if not office:
        return f"{'A' if _of(organization) == 'da' else 'O'} {organization.upper()}" if organization else ""
    text = office
    if organization and (not municipality or municipality.lower() not in office.lower()):
        lowered = office.lower()
        # "Presidente da Câmara Municipal" of "Câmara Municipal de Santa Maria": complete the body's name.
        for cut in range(len(office)):
            tail = lowered[cut:]
            if (cut == 0 or lowered[cut - 1] == " ") and organization.lower().startswith(tail) and tail:
                text = office[:cut] + organization
                break
        else:
            if municipality and lowered.endswith("municipal"):  # "Prefeita Municipal" de Angra dos Reis
                text = f"{office} de {municipality}"
            else:
                text = f"{office} {_of(organization)} {organization}"
    return f"{_article(office)} {text.upper()}"


BILL = "projeto_de_lei"
# How an act of each kind is named when it is the municipality's own.
KIND_NAMES = {
    "lei": "Lei Municipal",
    "lei_complementar": "Lei Complementar Municipal",
    "decreto": "Decreto Municipal",
    "resolucao": "Resolução",
    BILL: "Projeto de Lei",
}


def law_citation(kind: str, number: str, published: datetime.date | None) -> str:
    """The law as enacted, the one home of its citation in every act (edital, lists, nomination, the
    procedure's and the commission's acts): ``"Lei Municipal nº 6.123, de 1º de dezembro de 2021"``; when
    only the bill is recorded, plainly so, never citing a bill as the law in force: ``"lei municipal
    originada do Projeto de Lei nº 9247/2021 (ainda sem número de lei registrado)"``."""
    name = KIND_NAMES.get(kind, kind)
    number = number.strip()
    if kind == BILL:
        bill = f"{name} nº {number}" if number else f"{name} sem número"
        return f"lei municipal originada do {bill} (ainda sem número de lei registrado)"
    if published and number.endswith(f"/{published.year}"):
        number = number[: -len(f"/{published.year}")]
    text = f"{name} nº {number}" if number else f"{name} (número não registrado)"
    return f"{text}, de {date_in_full(published)}" if published else text


def of_act(name: str) -> str:
    """The contraction of "de" with the article of an act's name: "da" Lei, lei municipal, Resolução,
    Emenda; "do" Projeto, Decreto (the acts' grammar is ``wording``'s)."""
    return contraction_of(name)


def law_of(kind: str, number: str, published: datetime.date | None) -> str:
    """``law_citation`` with its contraction, for "nos termos …", "o art. 3º …": ``"da Lei Municipal nº
    6.123, de 1º de dezembro de 2021"``, ``"do Decreto Municipal nº 10, de …"``."""
    citation = law_citation(kind, number, published)
    return f"{of_act(citation)} {citation}"


# "que lhe confere a Portaria", "… o Decreto": the article before the act of competence.
_COMPETENCE_ARTICLES = {
    "portaria": "a",
    "lei": "a",
    "resolução": "a",
    "emenda": "a",
    "instrução": "a",
    "constituição": "a",
    "decreto": "o",
    "regimento": "o",
    "ato": "o",
}
DELEGATION = "Por delegação de competência"


def authority_preamble(
    office: str, competence: str = "", *, organization_name: str = "", municipality: str = ""
) -> str:
    """The opening words of every act in the authority's name, the one home of this wording: who acts
    (``authority_heading``) and under which competence: "O PRESIDENTE DA CÂMARA MUNICIPAL DE SANTA MARIA, no
    uso das atribuições que lhe confere a Lei Orgânica do Município"; a delegate "…, no uso da competência
    que lhe foi delegada pelo Decreto nº 100/2025"; "…, no uso de suas atribuições legais" when no act of
    competence is recorded. ``competence`` is the signature block's line (``Authority.signature_competence``).
    """
    who = authority_heading(office, organization_name=organization_name, municipality=municipality)
    who = who or "A AUTORIDADE COMPETENTE"
    competence = " ".join(competence.split())
    if not competence:
        return f"{who}, no uso de suas atribuições legais"
    if competence.startswith(DELEGATION):
        act = competence.removeprefix(DELEGATION).lstrip(": ").strip()
        if not act:
            return f"{who}, no uso de competência delegada"
        article = _COMPETENCE_ARTICLES.get(act.split(" ", 1)[0].lower())
        by = {"a": "pela", "o": "pelo"}.get(article or "", "por")
        return f"{who}, no uso da competência que lhe foi delegada {by} {act}"
    article = _COMPETENCE_ARTICLES.get(competence.split(" ", 1)[0].lower())
    if article is None:  # a kind of act whose gender we do not know: no article to get wrong
        return f"{who}, no uso das atribuições que lhe são conferidas por {competence}"
    return f"{who}, no uso das atribuições que lhe confere {article} {competence}"
