"""Heteroidentification: the complementary check of a self-declaration by a commission (RULES §5).

PURE module: no Django, no project import but the other pure modules. Neither founding law requires the
check; the STF allowed it (ADC 41) provided due process and the dignity of the person are respected, and
a contest adopts it by its edital. This module decides what may be decided without a database:

- **Composition**: a first commission (default 5 members) and an appeal commission (default 3) of the
  sizes the contest sets; diverse in gender and colour (a warning, never a refusal: the edital may not
  find a diverse pool); the appeal commission has no member in common with the first (a refusal: the
  appeal is judged by others; Lei 9.784 art. 18 on impediment, by analogy).
- **What is checked**: for pretos and pardos (and a declaration without category, "negro"), the
  candidate's phenotype only, seen in person or by video; for indígenas and quilombolas, belonging to and
  recognition by a community, on documents, never phenotype.
- **The result** is computed from the members' reasoned opinions, never typed. Every member present
  records one opinion with its reasons. The declaration is **confirmed unless a majority of the opinions
  recorded does not confirm it**: a tie confirms. Our reading: the self-declaration is presumed true (SM
  art. 3 §2) and ADC 41 admits the check only with due process; a commission split in half has not
  overcome the presumption, and the doubt favours the candidate (the usual edital rule, after the federal
  Portaria Normativa MPDG 4/2018: in reasonable doubt the self-declaration prevails). With
  odd sizes a tie happens only when a member is absent; a session needs a majority of its members
  present (quorum).
- **The final result**: a confirmation by the first commission ends the check; a non-confirmation becomes
  final when the appeal commission decides (its result replaces the first) or when the appeal deadline
  ends with no appeal.
- **Consequence** of a final non-confirmation, per the policy's ``non_confirmation`` setting:
  ``open_procedure`` (default for SM and AR: only a falsity proven in a procedure is punished; the
  opinions are the evidence that opens it), ``keep_open`` (Lei 15.142 art. 3 §2: off the reserved lists,
  stays in open competition), ``eliminate`` (where a law so provides). A candidate **absent** from the
  session is never silently dropped: the absence is recorded and its consequence is the policy's
  ``hetero_no_show`` setting (the edital's rule), applied by an officer and shown on screen: ``keep_open``
  by default (they leave the reserved lists and stay in open competition: no falsity was shown, so no
  procedure follows from an absence alone) or ``eliminate`` where the edital so provides.

The sizes (5 and 3) and the appeal deadline are policy settings; the constants below are the defaults.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from contests.wording import plural

FIRST_COMMISSION_SIZE = 5
APPEAL_COMMISSION_SIZE = 3


class Kind(StrEnum):
    FIRST = "first"
    APPEAL = "appeal"


KIND_LABELS = {Kind.FIRST: "comissão de heteroidentificação", Kind.APPEAL: "comissão recursal"}


class Basis(StrEnum):
    PHENOTYPE = "phenotype"
    COMMUNITY = "community"


BASIS_QUESTIONS = {
    Basis.PHENOTYPE: (
        "O fenótipo do candidato (características físicas visíveis: cor da pele, textura do cabelo, traços "
        "faciais), observado na sessão, confirma a autodeclaração? Não se consideram ascendência, documentos "
        "ou fotografias anteriores."
    ),
    Basis.COMMUNITY: (
        "Os documentos apresentados comprovam o pertencimento do candidato a uma comunidade e o seu "
        "reconhecimento por ela? Não se considera o fenótipo."
    ),
}


def basis_for(category: str) -> Basis:
    """What is checked for a declared IBGE category (``""``: negro, preto or pardo not told apart)."""
    return Basis.COMMUNITY if category in {"indigena", "quilombola"} else Basis.PHENOTYPE


# IBGE's colour categories as stored (the IBGE writes them in the feminine: "cor ou raça preta"); the
# masculine and unaccented forms people type are the same category.
_COLOUR_FORMS = {
    "branca": "branca",
    "branco": "branca",
    "preta": "preta",
    "preto": "preta",
    "parda": "parda",
    "pardo": "parda",
    "amarela": "amarela",
    "amarelo": "amarela",
    "indígena": "indígena",
    "indigena": "indígena",
}


def colour_category(text: str) -> str:
    """The IBGE category of a colour as typed ("Pardo" → "parda"); text that is none of them, casefolded."""
    key = " ".join(text.split()).casefold()
    return _COLOUR_FORMS.get(key, key)


class Outcome(StrEnum):
    CONFIRMED = "confirmed"
    NOT_CONFIRMED = "not_confirmed"
    ABSENT = "absent"


OUTCOME_LABELS = {
    Outcome.CONFIRMED: "Autodeclaração confirmada",
    Outcome.NOT_CONFIRMED: "Autodeclaração não confirmada",
    Outcome.ABSENT: "Não compareceu",
}


class Consequence(StrEnum):
    NONE = "none"
    OPEN_PROCEDURE = "open_procedure"
    KEEP_OPEN = "keep_open"
    ELIMINATE = "eliminate"


CONSEQUENCE_LABELS = {
    Consequence.NONE: "Nenhuma: permanece na reserva",
    Consequence.OPEN_PROCEDURE: "Abre processo administrativo, com os pareceres como indício",
    Consequence.KEEP_OPEN: "Sai das listas reservadas e permanece na ampla concorrência",
    Consequence.ELIMINATE: "Eliminação do concurso",
}


class CommissionError(ValueError):
    """A composition, an opinion set or a step that is refused, with the reason in Portuguese."""


@dataclass(frozen=True, slots=True)
class Member:
    key: str  # a stable identifier (the member's id; for people, the same person in both commissions)
    name: str
    gender: str = ""
    colour: str = ""


@dataclass(frozen=True, slots=True)
class Composition:
    errors: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


def check_composition(
    members: Sequence[Member], *, kind: Kind, size: int, other: Sequence[Member] = ()
) -> Composition:
    """Check a commission of ``kind`` with ``size`` members; ``other``: the contest's commission of the
    other kind (none in common is allowed)."""
    errors: list[str] = []
    warnings: list[str] = []
    label = KIND_LABELS[kind]
    if size < 1:
        errors.append(f"O tamanho da {label} deve ser de ao menos 1 membro.")
    elif len(members) != size:
        errors.append(f"A {label} deve ter {size} membros; foram indicados {len(members)}.")
    repeated = sorted(key for key, count in Counter(m.key for m in members).items() if count > 1)
    if repeated:
        names = sorted({m.name for m in members if m.key in repeated})
        errors.append(f"Membro indicado mais de uma vez na {label}: {', '.join(names)}.")
    in_common = sorted({m.name for m in members if m.key in {o.key for o in other}})
    if in_common:
        errors.append(
            "A comissão recursal não pode ter membro em comum com a comissão de heteroidentificação: "
            f"{', '.join(in_common)} {'está' if len(in_common) == 1 else 'estão'} nas duas. O recurso é julgado "
            "por outras pessoas."
        )
    if len(members) > 1:
        genders = {m.gender.strip().casefold() for m in members}
        if len(genders) == 1:
            warnings.append(
                f"Todos os membros da {label} informaram o mesmo gênero: a comissão deve ser diversa em "
                "gênero, como o edital exige."
            )
        colours = {colour_category(m.colour) for m in members}
        if len(colours) == 1:
            warnings.append(
                f"Todos os membros da {label} informaram a mesma cor: a comissão deve ser diversa em cor, "
                "como o edital exige."
            )
    return Composition(errors=tuple(errors), warnings=tuple(warnings))


@dataclass(frozen=True, slots=True)
class Opinion:
    member: str  # Member.key
    confirms: bool
    reasons: str


@dataclass(frozen=True, slots=True)
class Verdict:
    outcome: Outcome
    confirming: int
    not_confirming: int
    explanation: str


def quorum(size: int) -> int:
    """A majority of the commission's members must be present for a session to decide."""
    return size // 2 + 1


def verdict(opinions: Sequence[Opinion], *, members: Sequence[str], present: Sequence[str]) -> Verdict:
    """The commission's result from its present members' opinions (``members``: the keys of all its members;
    ``present``: those present). Refused while an opinion is missing or unreasoned."""
    if len(present) < quorum(len(members)):
        raise CommissionError(
            f"Sem quórum: estão presentes {len(present)} de {len(members)} membros; são necessários "
            f"{quorum(len(members))}."
        )
    strangers = sorted(set(present) - set(members)) + sorted({o.member for o in opinions} - set(present))
    if strangers:
        raise CommissionError(
            f"Parecer ou presença de quem não é membro presente da comissão: {', '.join(strangers)}."
        )
    by_member = Counter(o.member for o in opinions)
    twice = sorted(key for key, count in by_member.items() if count > 1)
    if twice:
        raise CommissionError(f"Cada membro registra um só parecer: {', '.join(twice)} registrou mais de um.")
    missing = sorted(set(present) - set(by_member))
    if missing:
        raise CommissionError(
            f"Faltam os pareceres de {len(missing)} {'membro presente' if len(missing) == 1 else 'membros presentes'}."
        )
    if any(reasons_problem(o.reasons) for o in opinions):
        raise CommissionError(
            "Todo parecer deve ser fundamentado (as características observadas ou os documentos "
            "examinados): há parecer sem fundamentação."
        )
    yes = sum(1 for o in opinions if o.confirms)
    no = len(opinions) - yes
    if no > yes:
        outcome = Outcome.NOT_CONFIRMED
        explanation = f"Não confirmada pela maioria: {plural(no, 'parecer', 'pareceres')} contra {yes}."
    elif no == yes:
        outcome = Outcome.CONFIRMED
        explanation = (
            f"Empate ({yes} a {no}): prevalece a autodeclaração, presumida verdadeira; a dúvida favorece "
            "o candidato (STF, ADC 41/DF: heteroidentificação com respeito ao devido processo)."
        )
    else:
        outcome = Outcome.CONFIRMED
        explanation = f"Confirmada pela maioria: {plural(yes, 'parecer', 'pareceres')} contra {no}."
    return Verdict(outcome=outcome, confirming=yes, not_confirming=no, explanation=explanation)


def final_outcome(first: Outcome, appeal: Outcome | None, *, appeal_deadline_passed: bool) -> Outcome | None:
    """The final result of the check, or ``None`` while an appeal may still change it."""
    if first == Outcome.CONFIRMED:
        return Outcome.CONFIRMED
    if appeal is not None:
        return appeal
    return first if appeal_deadline_passed else None


NO_SHOW_CHOICES = (Consequence.KEEP_OPEN, Consequence.ELIMINATE)


def consequence(outcome: Outcome, non_confirmation: str, no_show: str = Consequence.KEEP_OPEN) -> Consequence:
    """What a final ``outcome`` leads to under the policy's ``non_confirmation`` and ``no_show`` settings
    (RULES §5: an absence has the consequence the edital gives it, never a silent one)."""
    if outcome == Outcome.CONFIRMED:
        return Consequence.NONE
    if outcome == Outcome.ABSENT:
        try:
            chosen_absent = Consequence(no_show)
        except ValueError:
            chosen_absent = Consequence.NONE
        if chosen_absent not in NO_SHOW_CHOICES:
            raise CommissionError(
                f"Consequência da ausência desconhecida: {no_show!r} (sai da reserva ou eliminação)."
            )
        return chosen_absent
    try:
        chosen = Consequence(non_confirmation)
    except ValueError:
        raise CommissionError(
            f"Consequência da não confirmação desconhecida: {non_confirmation!r}."
        ) from None
    if chosen == Consequence.NONE:
        raise CommissionError("A política deve definir uma consequência para a não confirmação.")
    return chosen


# The words of a bare conclusion: an opinion made only of them ("Não confirma.", "Fenótipo não compatível",
# "Não atende ao fenótipo") states the result, not the reasons. Federal courts annulled non-confirmations
# motivated like that (Lei 9.784 art. 50: explicit, clear and congruent reasons).
_CONCLUSION_TEXT = """
    sim não nao ok confirma confirmo confirmado confirmada confirmar confirmação confirmacao
    autodeclaração autodeclaracao declaração declaracao candidato candidata candidato(a) o a os as ao à
    de do da dos das com e é ser está esta por pela pelo se que compatível compativel incompatível
    incompativel atende atendeu possui apresenta fenótipo fenotipo fenotípico fenotipico fenotípica
    fenotipica características caracteristicas traços tracos negro negra pardo parda preto preta
    indígena indigena pertencimento comunidade documentos documento comprova comprovado comprovada
    parecer favorável favoravel desfavorável desfavoravel deferido indeferido conforme edital
"""
_CONCLUSION_WORDS = frozenset(_CONCLUSION_TEXT.split())


def reasons_problem(reasons: str) -> str | None:
    """Why ``reasons`` do not ground an opinion, or ``None``: they are required and must say what was
    observed (the visible traits, or the documents examined), not only the conclusion."""
    words = [w.strip(".,;:!?()[]\"'«»“”–—-").casefold() for w in reasons.split()]
    words = [w for w in words if w]
    if not words:
        return "Fundamente o parecer (fenótipo, ou documentos de pertencimento, conforme o caso)."
    if all(w in _CONCLUSION_WORDS for w in words):
        return (
            "A fundamentação não pode ser só a conclusão: descreva as características observadas na sessão "
            "(cor da pele, textura do cabelo, traços faciais) ou os documentos de pertencimento examinados."
        )
    return None


def may_edit_opinion(*, author: str, editor: str, session_closed: bool) -> str | None:
    """``None`` when ``editor`` may write the opinion of ``author``; otherwise why not, in Portuguese."""
    if session_closed:
        return "A sessão foi encerrada: os pareceres não podem mais ser alterados."
    if author != editor:
        return "Cada membro registra e altera somente o próprio parecer."
    return None


def may_read_appeal_files(*, sees_every_session: bool, judges_it: bool) -> bool:
    """Who may download the files the candidate joined to an appeal (their health, their photographs):
    whoever reads every session and its appeals (Jurídico, Auditoria: ``view_session``), and the members of
    the appeal commission that judges THAT appeal (``judges_it``: a seat on the commission of the session it
    was called to). Not the other appeal commissions' members, not before the appeal is distributed, never
    the first commission whose decision is appealed."""
    return sees_every_session or judges_it


SECOND_CALL_DONE = "O candidato já foi chamado em segunda chamada."


def second_call_refusal(
    *, allowed: bool, outcome: str, kind: str, is_second_call: bool, applied: bool, called: bool = False
) -> str | None:
    """Why a candidate cannot be called again after missing the session, or ``None`` (the session page
    offers the second call then). Our reading: a second call breaks the equality of the call unless the
    edital provides it for all alike (the policy's ``hetero_second_call``), and then only for a justified
    absence; it follows an absence of the first commission, is given once (``called``: this absence was
    already called again; ``is_second_call``: the absence is the second call's own), and not after the
    absence's consequence was applied (the result would then be applied twice)."""
    if not allowed:
        return "O edital (política do concurso) não prevê segunda chamada por ausência justificada."
    if kind != Kind.FIRST or outcome != Outcome.ABSENT:
        return "Só o candidato ausente à sessão da comissão de heteroidentificação tem segunda chamada."
    if is_second_call:
        return "A segunda chamada é única: o candidato já faltou a ela."
    if called:
        return SECOND_CALL_DONE
    if applied:
        return "A consequência da ausência já foi aplicada: não cabe mais segunda chamada."
    return None


def second_call_problem(
    *,
    allowed: bool,
    outcome: str,
    kind: str,
    justification: str,
    is_second_call: bool,
    applied: bool,
    called: bool = False,
) -> str | None:
    """``second_call_refusal``, and the justification on record (recording the second call)."""
    problem = second_call_refusal(
        allowed=allowed,
        outcome=outcome,
        kind=kind,
        is_second_call=is_second_call,
        applied=applied,
        called=called,
    )
    if problem:
        return problem
    if not justification.strip():
        return "Registre a justificativa da ausência e o documento que a comprova."
    return None
