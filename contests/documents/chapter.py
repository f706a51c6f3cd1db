"""The edital's reservation chapter, written from the policy's parameters (SM art. 2; AR art. 4).

PURE module: standard library and ``contests.quotas`` only. The caller passes the policy as a ``PolicyText``
and each position's counts and reserved seat numbers (from the quota engine and the seat schedule), so the
chapter, the vacancy table and the nomination order can never disagree with what the engines compute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from contests.quotas import format_percent

SEATS_SHOWN = 25  # the edital publishes the kinds of the first 25 seats of each position

GROUP_NAMES = {"preta": "pretos", "parda": "pardos", "indigena": "indígenas", "quilombola": "quilombolas"}


@dataclass(frozen=True)
class PolicyText:
    """What the chapter needs of a policy (and of the contest's PcD reserve), as plain values."""

    law: str  # "Projeto de Lei nº 9247/2021 (Santa Maria/RS)", the law as enacted
    law_dates: str  # "publicada em …; em vigor desde …", or why it is not known
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


def ordinal_list(seats: Sequence[int]) -> str:
    """``[3, 8, 13]`` → ``"3ª, 8ª e 13ª"``."""
    words = [f"{s}ª" for s in seats]
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " e " + words[-1]


def _article(policy: PolicyText, key: str) -> str:
    """``"art. 1º do "`` (to precede the law's name), or ``""``."""
    value = policy.citations.get(key, "")
    return f"{value} do " if value else ""


def _groups(policy: PolicyText) -> str:
    names = [GROUP_NAMES.get(g, g) for g in policy.groups]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " e " + names[-1]


def _rounding_text(rounding: str) -> str:
    if rounding == "half_up":
        return "a fração igual ou superior a 0,5 (cinco décimos) arredonda para o número inteiro seguinte e a fração inferior a 0,5 é desprezada"
    if rounding == "up":
        return "qualquer fração arredonda para o número inteiro seguinte"
    return "a fração é desprezada"


def _seats_text(row: PositionRow, policy: PolicyText) -> str:
    parts = []
    if row.racial_seats:
        parts.append(f"reservada(s) a {policy.group_label}: {ordinal_list(row.racial_seats)} vaga(s)")
    if row.pcd_seats:
        parts.append(f"reservada(s) a pessoas com deficiência: {ordinal_list(row.pcd_seats)} vaga(s)")
    if not parts:
        parts.append("nenhuma vaga reservada entre as vagas deste edital")
    return f"{row.label} ({row.vacancies} vaga(s)): " + "; ".join(parts) + "."


def _first_seats_text(row: PositionRow, policy: PolicyText) -> str:
    racial = [s for s, kind in enumerate(row.first_seats, start=1) if kind == "racial"]
    pcd = [s for s, kind in enumerate(row.first_seats, start=1) if kind == "pcd"]
    parts = [f"a {policy.group_label}: {ordinal_list(racial) or 'nenhuma'}"]
    if policy.pcd_percent:
        parts.append(f"a pessoas com deficiência: {ordinal_list(pcd) or 'nenhuma'}")
    return f"{row.label}, {len(row.first_seats)} primeiras nomeações, reservadas " + "; ".join(parts) + "."


def reservation_chapter(
    policy: PolicyText, rows: Sequence[PositionRow], *, chapter: int, heteroidentification: bool = False
) -> list[Clause]:
    """The clauses of the reservation chapter, numbered ``chapter.1``, ``chapter.2``, …"""
    clauses: list[Clause] = []

    def add(text: str, items: Sequence[str] = ()) -> None:
        clauses.append(Clause(f"{chapter}.{len(clauses) + 1}", text, tuple(items)))

    percent = format_percent(policy.percent)
    add(
        f"Ficam reservadas a {policy.group_label} {percent} (por cento) das vagas oferecidas neste concurso "
        f"para cada cargo, nos termos do {_article(policy, 'reserve')}{policy.law}."
    )
    add(
        f"Poderão concorrer às vagas reservadas os candidatos que se autodeclararem {_groups(policy)}, "
        "conforme o quesito cor ou raça utilizado pela Fundação Instituto Brasileiro de Geografia e "
        "Estatística (IBGE), no ato da inscrição, no formulário próprio. A autodeclaração vale somente para "
        "este concurso, presume-se verdadeira e não poderá ser feita nem acrescentada após o encerramento das "
        "inscrições. O candidato poderá renunciar à reserva, permanecendo na ampla concorrência."
    )
    if policy.threshold > 1:
        basis = "no concurso" if policy.threshold_on_contest else "no cargo"
        add(
            f"A reserva será aplicada sempre que o número de vagas oferecidas {basis} for igual ou superior "
            f"a {policy.threshold} (três){policy.cite('threshold')}."
            if policy.threshold == 3
            else f"A reserva será aplicada sempre que o número de vagas oferecidas {basis} for igual ou "
            f"superior a {policy.threshold}{policy.cite('threshold')}."
        )
    add(
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
    table_items = []
    for row in rows:
        line = f"{row.label}: {row.vacancies} vaga(s), {row.racial} reservada(s) a {policy.group_label}"
        if policy.pcd_percent:
            line += f", {row.pcd} reservada(s) a pessoas com deficiência"
        line += f" e {row.open} de ampla concorrência"
        if row.racial_explanation:
            line += f" (reserva a {policy.group_label}: {row.racial_explanation.rstrip('.')})"
        table_items.append(line + ".")
    add("A distribuição das vagas deste edital, por cargo, é a seguinte:", table_items)
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
            f"A nomeação obedecerá à ordem geral de classificação, sendo a {policy.nth}ª (quinta) vaga de "
            f"cada grupo de {policy.nth} (cinco) destinada a candidato cotista"
            if policy.nth == 5
            else f"A nomeação obedecerá à ordem geral de classificação, sendo a {policy.nth}ª vaga de cada "
            f"grupo de {policy.nth} destinada a candidato cotista"
        )
        order += (
            f"{policy.cite('order')}; quando o número de vagas abertas exigir reserva que a {policy.nth}ª "
            "vaga ainda não alcança, as últimas vagas completam a reserva."
        )
    else:
        order = (
            "A nomeação dos candidatos aprovados observará os critérios de alternância e proporcionalidade "
            "entre as listas de ampla concorrência e as reservadas, de modo que a vaga de número s seja "
            "reservada sempre que a reserva calculada sobre s vagas o exigir"
            f"{policy.cite('order')}."
        )
        if policy.pcd_percent:
            first = "pessoas com deficiência" if policy.pcd_first else policy.group_label
            order += f" Quando a mesma vaga couber às duas reservas, terá precedência a reserva a {first}."
    add(order, [_seats_text(row, policy) for row in rows])
    add(
        "Se novas vagas forem abertas durante a validade do concurso, as nomeações seguintes seguirão a mesma "
        f"regra; com {SEATS_SHOWN} vagas abertas, as {SEATS_SHOWN} primeiras nomeações de cada cargo "
        "reservariam as seguintes vagas:",
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
        f"e terá {policy.defence_days} dias para apresentar defesa, podendo produzir provas e ser "
        f"representado por advogado; da decisão caberá recurso em {policy.appeal_days} dias (Lei nº "
        f"9.784/1999, arts. 3º, 26, 44 e 59). Os efeitos da decisão de falsidade aplicam-se {effect}."
    )
    if heteroidentification:
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
        add(
            "A autodeclaração dos candidatos pretos e pardos será verificada por comissão de "
            f"heteroidentificação de {policy.hetero_commission_size} membros, composta de forma diversa "
            "quanto a gênero e cor, que considerará exclusivamente o fenótipo do candidato, em sessão "
            "presencial ou por vídeo, com decisão motivada por maioria; para candidatos indígenas, será "
            "verificado o pertencimento e o reconhecimento pela comunidade, mediante documentos. Caberá "
            f"recurso, em {policy.hetero_appeal_days} dias da comunicação do resultado, a comissão recursal "
            f"distinta, de {policy.hetero_appeal_commission_size} membros, sem membro em comum com a "
            f"primeira; {consequence}. O candidato convocado que não comparecer à sessão {no_show}."
        )
    if policy.candidate_guidance:
        add(policy.candidate_guidance)
    return clauses
