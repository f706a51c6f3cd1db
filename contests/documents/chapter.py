"""The edital's reservation chapter, written from the policy's parameters (SM art. 2; AR art. 4).

PURE module: standard library and ``contests.quotas`` only. The caller passes the policy as a ``PolicyText``
and each position's counts and reserved seat numbers (from the quota engine and the seat schedule), so the
chapter, the vacancy table and the nomination order can never disagree with what the engines compute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from contests.documents.heading import of_act
from contests.wording import in_words, percent_in_words, words_pt

SEATS_SHOWN = 25  # the edital publishes the kinds of the first 25 seats of each position

GROUP_NAMES = {"preta": "pretos", "parda": "pardos", "indigena": "indígenas", "quilombola": "quilombolas"}


@dataclass(frozen=True)
class PolicyText:
    """What the chapter needs of a policy (and of the contest's PcD reserve), as plain values."""

    # The law as enacted: "Lei Municipal nº 6.123, de 1º de dezembro de 2021"; when only the bill is recorded,
    # "lei municipal originada do Projeto de Lei nº 9247/2021 (ainda sem número de lei registrado)"
    # (``heading.law_citation``).
    law: str
    law_dates: str  # "em vigor desde …", or ""
    group_label: str  # "negros", "negros e índios"
    groups: tuple[str, ...]  # IBGE categories: "preta", "parda", "indigena", …
    percent: Fraction
    threshold: int = 0
    threshold_on_contest: bool = False
    rounding: str = "half_up"
    carries_fraction: bool = True
    order: str = "proportional"
    nth: int = 5
    pcd_first: bool = True
    open_competition_rule: str = "projected"
    dual_rule: str = "choose"
    dual_default: str = "racial"
    dual_keeps_pcd_rights: bool = True
    non_confirmation: str = "open_procedure"
    falsity_effect: str = "final"
    defence_days: int = 10
    appeal_days: int = 10
    hetero_commission_size: int = 5
    hetero_appeal_commission_size: int = 3
    hetero_appeal_days: int = 10
    hetero_no_show: str = "keep_open"
    candidate_guidance: str = ""
    citations: Mapping[str, str] = field(default_factory=dict)
    pcd_percent: Fraction | None = None
    pcd_cap_percent: Fraction | None = None
    pcd_rounding: str = "up"

    def cite(self, key: str) -> str:
        """``" (art. 1º §3º da lei)"`` or ``""`` when the policy names no article for ``key``."""
        value = self.citations.get(key, "")
        return f" ({value} da lei)" if value else ""

    @property
    def law_of(self) -> str:
        """``"da Lei Municipal nº …"`` or ``"do Projeto de Lei nº …"``: the law after a preposition."""
        return f"{of(self.law)} {self.law}"


@dataclass(frozen=True)
class PositionRow:
    """One position of the vacancy table: counts from the quota engine, seats from the schedule."""

    code: str
    title: str
    vacancies: int
    open: int
    racial: int
    pcd: int
    racial_seats: tuple[int, ...] = ()  # among the n vacancies of the edital
    pcd_seats: tuple[int, ...] = ()
    first_seats: tuple[str, ...] = ()  # kinds of the first SEATS_SHOWN seats ("open", "racial", "pcd")
    racial_explanation: str = ""
    pcd_explanation: str = ""

    @property
    def label(self) -> str:
        return f"{self.code} – {self.title}"


@dataclass(frozen=True)
class Clause:
    number: str
    text: str
    items: tuple[str, ...] = ()


of = of_act  # the contraction before an act's name, whose one home is ``heading.of_act``


def join(words: Sequence[str]) -> str:
    """``["a", "b", "c"]`` → ``"a, b e c"``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " e " + words[-1]


def ordinal_list(seats: Sequence[int]) -> str:
    """``[3, 8, 13]`` → ``"3ª, 8ª e 13ª"``."""
    return join([f"{s}ª" for s in seats])


def seats_in_words(seats: Sequence[int]) -> str:
    """The seats in nomination order as an act names them: ``[3]`` → ``"a 3ª vaga"``, ``[3, 8, 13]`` →
    ``"a 3ª, a 8ª e a 13ª vagas"``."""
    return join([f"a {s}ª" for s in seats]) + (" vaga" if len(seats) == 1 else " vagas")


def number(n: int, *, feminine: bool = True) -> str:
    """``7`` → ``"7 (sete)"``; agreeing with a feminine noun ("vagas") by default."""
    return f"{n} ({in_words(n, feminine=feminine)})"


def count(n: int, one: str, many: str, *, feminine: bool = True) -> str:
    """``count(7, "vaga", "vagas")`` → ``"7 (sete) vagas"``; ``1`` → ``"1 (uma) vaga"``."""
    return f"{number(n, feminine=feminine)} {one if n == 1 else many}"


def ordinal(n: int, *, feminine: bool = True) -> str:
    """``5`` → ``"5ª (quinta)"``, ``13`` → ``"13ª (décima terceira)"``."""
    words = words_pt(n, to="ordinal")
    if feminine:
        words = " ".join(w[:-1] + "a" if w.endswith("o") else w for w in words.split(" "))
    return f"{n}{'ª' if feminine else 'º'} ({words})"


def percent(value: Fraction) -> str:
    """``Fraction(20)`` → ``"20% (vinte por cento)"`` (a terminating decimal, as a law's percent is)."""
    return percent_in_words(Decimal(value.numerator) / Decimal(value.denominator))


def _article(policy: PolicyText, key: str) -> str:
    """``"art. 1º da "`` (to precede the law's name), or ``""``."""
    value = policy.citations.get(key, "")
    return f"{value} {of(policy.law)} " if value else ""


def _groups(policy: PolicyText, groups: Sequence[str] | None = None) -> str:
    """The groups the law covers, named as IBGE does: "pretos e pardos", "pretos, pardos e indígenas"."""
    return join([GROUP_NAMES.get(g, g) for g in (policy.groups if groups is None else groups)])


def _rounding_text(rounding: str) -> str:
    if rounding == "half_up":
        return "a fração igual ou superior a 0,5 (cinco décimos) arredonda para o número inteiro seguinte e a fração inferior a 0,5 é desprezada"
    if rounding == "up":
        return "qualquer fração arredonda para o número inteiro seguinte"
    return "a fração é desprezada"


def _reserved_seats(seats: Sequence[int], whom: str) -> str:
    """``a 3ª vaga, a negros`` or ``a 3ª, a 8ª e a 13ª vagas, a negros``."""
    return f"{seats_in_words(seats)}, a {whom}"


def _seats_text(row: PositionRow, policy: PolicyText) -> str:
    parts = []
    if row.racial_seats:
        parts.append(_reserved_seats(row.racial_seats, policy.group_label))
    if row.pcd_seats:
        parts.append(_reserved_seats(row.pcd_seats, "pessoas com deficiência"))
    if not parts:
        return f"{row.label}, com {count(row.vacancies, 'vaga', 'vagas')}: nenhuma vaga reservada."
    reserved = "reserva-se" if len(row.racial_seats) + len(row.pcd_seats) == 1 else "reservam-se"
    return f"{row.label}, com {count(row.vacancies, 'vaga', 'vagas')}: {reserved} " + "; ".join(parts) + "."


def _first_seats_text(row: PositionRow, policy: PolicyText) -> str:
    racial = [s for s, kind in enumerate(row.first_seats, start=1) if kind == "racial"]
    pcd = [s for s, kind in enumerate(row.first_seats, start=1) if kind == "pcd"]
    parts = [f"a {policy.group_label}, {seats_in_words(racial) if racial else 'nenhuma vaga'}"]
    if policy.pcd_percent:
        parts.append(f"a pessoas com deficiência, {seats_in_words(pcd) if pcd else 'nenhuma vaga'}")
    return f"{row.label}: " + "; ".join(parts) + "."


def _distribution_text(
    row: PositionRow, policy: PolicyText, *, contest_vacancies: int, threshold_item: str, rounding_item: str
) -> str:
    """A position's vacancies as the edital states them: the result, and the clause that gives it when a
    reserve is missing; never the working ("20% de 7 = 1,4 → 1")."""
    if row.vacancies == 0:
        return f"{row.label}: sem vagas neste edital (cadastro reserva)."
    parts = []
    if row.racial:
        parts.append(f"{count(row.racial, 'reservada', 'reservadas')} a {policy.group_label}")
    if row.pcd:
        parts.append(f"{count(row.pcd, 'reservada', 'reservadas')} a pessoas com deficiência")
    if row.open:
        parts.append(f"{number(row.open)} de ampla concorrência")
    if parts == [f"{number(row.open)} de ampla concorrência"]:
        text = f"{row.label}: {count(row.vacancies, 'vaga', 'vagas')} de ampla concorrência"
    else:
        text = f"{row.label}: {count(row.vacancies, 'vaga', 'vagas')}, das quais {join(parts)}"
    if not row.racial:
        basis = contest_vacancies if policy.threshold_on_contest else row.vacancies
        if policy.threshold > 1 and basis < policy.threshold:
            where = "o concurso" if policy.threshold_on_contest else "o cargo"
            text += (
                f", sem reserva a {policy.group_label} por não alcançar {where} o mínimo de vagas do item "
                f"{threshold_item}"
            )
        else:
            text += (
                f", sem reserva a {policy.group_label} por resultar o percentual em fração desprezada "
                f"(item {rounding_item})"
            )
    return text + "."


def reservation_chapter(
    policy: PolicyText, rows: Sequence[PositionRow], *, chapter: int, heteroidentification: bool = False
) -> list[Clause]:
    """The clauses of the reservation chapter, numbered ``chapter.1``, ``chapter.2``, …"""
    clauses: list[Clause] = []

    def add(text: str, items: Sequence[str] = ()) -> str:
        clauses.append(Clause(f"{chapter}.{len(clauses) + 1}", text, tuple(items)))
        return clauses[-1].number

    article = _article(policy, "reserve")  # "art. 1º da "
    reserve_item = add(
        f"Ficam reservadas a {policy.group_label} {percent(policy.percent)} das vagas oferecidas neste "
        f"concurso para cada cargo, nos termos {f'do {article}{policy.law}' if article else policy.law_of}."
    )
    add(
        f"Poderão concorrer às vagas reservadas os candidatos que se autodeclararem {_groups(policy)}, "
        "conforme o quesito cor ou raça utilizado pela Fundação Instituto Brasileiro de Geografia e "
        "Estatística (IBGE), no ato da inscrição, no formulário próprio. A autodeclaração vale somente para "
        "este concurso, presume-se verdadeira e não poderá ser feita nem acrescentada após o encerramento das "
        "inscrições. O candidato poderá renunciar à reserva, permanecendo na ampla concorrência."
    )
    threshold_item = ""
    if policy.threshold > 1:
        basis = "no concurso" if policy.threshold_on_contest else "no cargo"
        threshold_item = add(
            f"A reserva será aplicada sempre que o número de vagas oferecidas {basis} for igual ou superior "
            f"a {number(policy.threshold)}"
            + (
                f", nos termos do {policy.citations['threshold']} da lei."
                if policy.citations.get("threshold")
                else "."
            )
        )
    rounding_item = add(
        f"Na apuração do número de vagas reservadas, {_rounding_text(policy.rounding)}"
        f"{policy.cite('rounding')}."
    )
    if policy.carries_fraction:
        add(
            "As vagas que vierem a ser abertas durante o prazo de validade do concurso somam-se às deste "
            "edital, e a reserva é sempre recalculada sobre o total acumulado de vagas do cargo; a fração "
            "não aproveitada em uma nomeação é considerada nas nomeações seguintes"
            f"{policy.cite('carry')}."
        )
    contest_vacancies = sum(row.vacancies for row in rows)
    pcd_part = (
        ", bem como a reserva a pessoas com deficiência prevista neste edital" if policy.pcd_percent else ""
    )
    add(
        f"Aplicados o percentual do item {reserve_item}"
        + (f", o mínimo do item {threshold_item}" if threshold_item else "")
        + f" e o arredondamento do item {rounding_item}{pcd_part}, as vagas deste edital distribuem-se, "
        "por cargo, da seguinte forma:",
        [
            _distribution_text(
                row,
                policy,
                contest_vacancies=contest_vacancies,
                threshold_item=threshold_item,
                rounding_item=rounding_item,
            )
            for row in rows
        ],
    )
    add(
        "Os candidatos que optarem pela reserva concorrerão concomitantemente às vagas reservadas e às vagas "
        "de ampla concorrência, de acordo com a sua classificação no concurso, e figurarão na lista de "
        "classificação geral e na lista específica da reserva."
    )
    if policy.open_competition_rule == "actual":
        add(
            "Os candidatos cotistas nomeados em vagas de ampla concorrência não serão computados para o "
            "preenchimento das vagas reservadas."
        )
    else:
        add(
            "Os candidatos cotistas aprovados dentro do número de vagas oferecido para a ampla concorrência "
            "não serão computados para efeito do preenchimento das vagas reservadas."
        )
    add(
        "Em caso de desistência de candidato cotista nomeado em vaga reservada, a vaga será preenchida pelo "
        "candidato cotista posteriormente classificado na mesma lista."
    )
    add(
        "Na hipótese de não haver número suficiente de candidatos cotistas aprovados para ocupar as vagas "
        "reservadas, as vagas remanescentes serão revertidas para a ampla concorrência e preenchidas pelos "
        "demais candidatos aprovados, observada a ordem de classificação."
    )
    if policy.pcd_percent:
        default = (
            f"nas vagas reservadas a {policy.group_label}"
            if policy.dual_default == "racial"
            else "nas vagas reservadas a pessoas com deficiência"
        )
        if policy.dual_rule == "larger_only":
            dual = (
                "O candidato que concorrer às vagas reservadas a "
                f"{policy.group_label} e às reservadas a pessoas com deficiência figurará somente na lista "
                "da reserva maior."
            )
        else:
            dual = (
                f"O candidato que concorrer às vagas reservadas a {policy.group_label} e às reservadas a "
                "pessoas com deficiência e for convocado simultaneamente para ambas deverá optar por uma "
                f"delas; na ausência de opção, será nomeado {default}"
            )
            if policy.dual_keeps_pcd_rights:
                dual += ", sem prejuízo dos direitos assegurados à pessoa com deficiência"
            dual += "."
        add(dual)
    if policy.order == "every_nth":
        order = (
            "A nomeação obedecerá à ordem geral de classificação, sendo a "
            f"{ordinal(policy.nth)} vaga de cada grupo de {number(policy.nth)} destinada a candidato cotista"
            f"{policy.cite('order')}; quando o número de vagas abertas exigir reserva que essa vaga ainda "
            "não alcança, as últimas vagas completam a reserva."
        )
    else:
        order = (
            "A nomeação dos candidatos aprovados observará os critérios de alternância e proporcionalidade "
            "entre as listas de ampla concorrência e as reservadas: a cada nomeação, reserva-se a vaga sempre "
            "que a reserva calculada sobre o total de vagas providas até então o exigir"
            f"{policy.cite('order')}."
        )
        if policy.pcd_percent:
            first = "pessoas com deficiência" if policy.pcd_first else policy.group_label
            order += f" Quando a mesma vaga couber às duas reservas, terá precedência a reserva a {first}."
    order += " Na ordem de nomeação de cada cargo, ficam assim reservadas as vagas deste edital:"
    add(order, [_seats_text(row, policy) for row in rows])
    add(
        "Se novas vagas forem abertas durante a validade do concurso, as nomeações seguintes seguirão a mesma "
        f"regra; abertas {count(SEATS_SHOWN, 'vaga', 'vagas')} em um cargo, ficariam reservadas, na ordem "
        "de nomeação:",
        [_first_seats_text(row, policy) for row in rows],
    )
    effect = (
        "após decisão definitiva"
        if policy.falsity_effect == "final"
        else "desde a primeira decisão, salvo concessão de efeito suspensivo ao recurso"
    )
    add(
        "Na hipótese de constatação de declaração falsa, o candidato será eliminado do concurso e, se já "
        "tiver sido nomeado ou admitido, ficará sujeito à anulação da sua nomeação ou admissão, após "
        "procedimento administrativo em que lhe sejam assegurados o contraditório e a ampla defesa, sem "
        f"prejuízo de outras sanções cabíveis{policy.cite('falsity')}. O candidato será notificado dos fatos "
        f"e terá {count(policy.defence_days, 'dia', 'dias', feminine=False)} para apresentar defesa, "
        "podendo produzir provas e ser representado por advogado; da decisão caberá recurso no prazo de "
        f"{count(policy.appeal_days, 'dia', 'dias', feminine=False)} (Lei nº 9.784/1999, arts. 3º, 26, 44 e "
        f"59). Os efeitos da decisão de falsidade aplicam-se {effect}."
    )
    if heteroidentification:
        add(_heteroidentification_text(policy))
    if policy.candidate_guidance:
        add(policy.candidate_guidance)
    return clauses


PHENOTYPE_GROUPS = ("preta", "parda")


def _heteroidentification_text(policy: PolicyText) -> str:
    """The commission's clause, naming only the groups the law covers: the phenotype for pretos and pardos,
    belonging to a community for indígenas and quilombolas (documents)."""
    consequence = {
        "open_procedure": "a não confirmação da autodeclaração dará início ao procedimento administrativo "
        "previsto neste capítulo",
        "keep_open": "o candidato cuja autodeclaração não for confirmada deixará a lista reservada e "
        "permanecerá na ampla concorrência",
        "eliminate": "o candidato cuja autodeclaração não for confirmada será eliminado do concurso",
    }.get(policy.non_confirmation, "")
    no_show = {
        "keep_open": "deixará a lista reservada e permanecerá na ampla concorrência",
        "eliminate": "será eliminado do concurso",
    }.get(policy.hetero_no_show, "")
    phenotype = [g for g in policy.groups if g in PHENOTYPE_GROUPS]
    belonging = [g for g in policy.groups if g not in PHENOTYPE_GROUPS]
    checks = []
    if phenotype:
        checks.append(
            f"para candidatos {_groups(policy, phenotype)}, considerará exclusivamente o fenótipo do candidato, "
            "em sessão presencial ou por vídeo"
        )
    if belonging:
        checks.append(
            f"para candidatos {_groups(policy, belonging)}, verificará o pertencimento e o reconhecimento pela "
            "comunidade, mediante documentos"
        )
    return (
        "A autodeclaração será verificada por comissão de heteroidentificação de "
        f"{count(policy.hetero_commission_size, 'membro', 'membros', feminine=False)}, composta de forma "
        f"diversa quanto a gênero e cor, que, {'; '.join(checks)}, com decisão motivada por maioria. Caberá "
        f"recurso, no prazo de {count(policy.hetero_appeal_days, 'dia', 'dias', feminine=False)} da "
        "comunicação do resultado, a comissão recursal distinta, de "
        f"{count(policy.hetero_appeal_commission_size, 'membro', 'membros', feminine=False)}, sem membro em "
        f"comum com a primeira; {consequence}. O candidato convocado que não comparecer à sessão {no_show}."
    )
