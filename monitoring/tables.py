"""The report's figures as one flat table of aggregates, privacy applied (``monitoring.privacy``): what the
command ``law_report``, the open data, the report's charts and the report screen print. Counts of people are
suppressed under 5 and, where they sit in a sum whose total is shown, complemented (``privacy.protect``);
shares follow their cells; counts of vacancies and days are not about people."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from monitoring import court_orders, exposure, hetero, indicators, privacy
from monitoring.indicators import GROUP_LABELS, GROUPS, LIST_LABELS, Scope
from monitoring.procedures import falsity_procedures

COLUMNS = ("indicador", "concurso", "cargo", "grupo", "medida", "valor", "nota")
DICTIONARY = {
    "indicador": "T1 funil por grupo; T2 vagas por cargo; T3 cotistas na ampla concorrência e negros entre os "
    "nomeados; T4 exposição (cargos sem reserva, cargos repartidos entre editais, concursos que reservam menos "
    "que o total); T5 heteroidentificação, por concurso; T6 processos por declaração falsa e T7 ordens judiciais "
    "(todos os concursos do recorte juntos); T8 dias da homologação à nomeação, por lista; T10 conformidade, "
    "por concurso, e os relatórios da lei entregues no prazo.",
    "concurso": "Identificador do concurso (número/ano no portal).",
    "cargo": "Código do cargo no edital.",
    "grupo": "Todos (T1: todos os inscritos do cargo na etapa), ampla concorrência (sem reserva), reserva "
    "racial, pessoas com deficiência, ou a lista de origem (T8); vazio quando a medida é do cargo.",
    "medida": "O que se conta (etapa do funil, tipo de vaga, percentual…).",
    "valor": "O número; '<5' quando a célula tem de 1 a 4 pessoas (suprimida, LGPD art. 11); 'X' quando foi "
    "suprimida também para que uma célula pequena não se deduza do total por subtração (supressão "
    "complementar); um percentual com '*' está calculado sobre menos de 10 casos.",
    "nota": "Por que o valor foi suprimido ou deve ser lido com cautela.",
}


@dataclass(frozen=True)
class Row:
    indicador: str
    concurso: str
    cargo: str
    grupo: str
    medida: str
    valor: str
    nota: str = ""

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


class Sheet:
    """The report's rows as they are built: counts of people, other numbers, and shares of two cells; the
    sums among them (``privacy.Relation``) so that ``privacy.protect`` suppresses what could be read back."""

    def __init__(self) -> None:
        self._entries: list[tuple[Row, str, int, int]] = []  # row, kind, cell keys (part and whole)
        self._values: dict[object, int] = {}
        self._people: set[object] = set()
        self.relations: list[privacy.Relation] = []

    def people(self, indicator: str, contest: str, code: str, group: str, what: str, count: int) -> int:
        key = len(self._entries)
        self._entries.append((Row(indicator, contest, code, group, what, ""), "cell", key, key))
        self._values[key] = count
        self._people.add(key)
        return key

    def number(self, indicator: str, contest: str, code: str, group: str, what: str, count: int) -> int:
        """A count that is not of people (vacancies): never suppressed for itself, but may be as a complement."""
        key = len(self._entries)
        self._entries.append((Row(indicator, contest, code, group, what, ""), "cell", key, key))
        self._values[key] = count
        return key

    def text(self, indicator: str, contest: str, code: str, group: str, what: str, value: str) -> None:
        self._entries.append((Row(indicator, contest, code, group, what, value), "text", -1, -1))

    def share_of(
        self, indicator: str, contest: str, code: str, group: str, what: str, part: int, whole: int
    ) -> None:
        """A share of two cells of the sheet: suppressed when either is."""
        self._entries.append((Row(indicator, contest, code, group, what, ""), "share", part, whole))

    def share(
        self, indicator: str, contest: str, code: str, group: str, what: str, part: int, whole: int
    ) -> None:
        """A share whose part is not a cell of the sheet (``privacy.share`` decides)."""
        shown = privacy.share(part, whole)
        self._entries.append(
            (Row(indicator, contest, code, group, what, shown.text, shown.note), "text", -1, -1)
        )

    def withheld(self, indicator: str, contest: str, code: str, group: str, what: str) -> None:
        """A number withheld because it would give a suppressed cell back."""
        row = Row(indicator, contest, code, group, what, privacy.SUPPRESSED_MARK, privacy.SUPPRESSED_NOTE)
        self._entries.append((row, "text", -1, -1))

    def relate(self, total: int, parts: list[int]) -> None:
        self.relations.append(privacy.Relation(total, tuple(parts)))

    def rows(self) -> list[Row]:
        hidden = privacy.protect(self._values, self.relations, self._people)
        found = []
        for row, kind, ref, whole in self._entries:
            if kind == "cell":
                status = hidden.get(ref)
                if status == privacy.PRIMARY:
                    row = replace(row, valor=privacy.SUPPRESSED_MARK, nota=privacy.SUPPRESSED_NOTE)
                elif status == privacy.COMPLEMENTARY:
                    row = replace(row, valor=privacy.COMPLEMENTARY_MARK, nota=privacy.COMPLEMENTARY_NOTE)
                else:
                    row = replace(row, valor=str(self._values[ref]))
            elif kind == "share":
                part = ref
                if part in hidden or whole in hidden:
                    row = replace(row, valor=privacy.SUPPRESSED_MARK, nota=privacy.SUPPRESSED_NOTE)
                else:
                    base = self._values[whole]
                    shown = privacy.Share(_percent(self._values[part], base), base, base < privacy.MIN_BASE)
                    row = replace(row, valor=shown.text, nota=shown.note)
            found.append(row)
        return found


def _percent(part: int, whole: int) -> Decimal | None:
    if whole == 0:
        return None
    return (Decimal(100) * part / whole).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)


ALL = "Todos"


def _funnel(sheet: Sheet, scope: Scope) -> None:
    """T1: per position and stage, everyone and each group, with the group's share; the groups of a stage
    sum (at least) to everyone, so the sum is protected."""
    funnel = indicators.funnel(scope)
    by_position: dict[int, dict[str, indicators.FunnelRow]] = {}
    for line in funnel.rows:
        by_position.setdefault(line.position.pk, {})[line.group] = line
    for lines in by_position.values():
        position = next(iter(lines.values())).position
        if not funnel.total(position, indicators.REGISTERED):
            continue  # no one registered: nothing to show (T2 still lists its vacancies)
        contest, code = position.contest.slug, position.code
        for stage in funnel.stages:
            total = sheet.people("T1", contest, code, ALL, stage, funnel.total(position, stage))
            parts = {}
            for group in GROUPS:
                parts[group] = sheet.people(
                    "T1", contest, code, GROUP_LABELS[group], stage, lines[group].counts[stage]
                )
            sheet.relate(total, list(parts.values()))
            for group in GROUPS:
                if stage == indicators.REGISTERED:
                    what = "inscritos: % do grupo entre os inscritos"
                else:
                    what = f"{stage}: % do grupo na etapa"
                sheet.share_of("T1", contest, code, GROUP_LABELS[group], what, parts[group], total)


def rows(scope: Scope) -> list[Row]:
    sheet = Sheet()
    _funnel(sheet, scope)
    _seats(sheet, scope)
    _nominees(sheet, scope)
    _delays(sheet, scope)
    _exposure(sheet, scope)
    _hetero(sheet, scope)
    _falsity(sheet, scope)
    _courts(sheet, scope)
    _conformance(sheet, scope)
    return sheet.rows()


def _exposure(sheet: Sheet, scope: Scope) -> None:
    """T4 (positions, vacancies and contests: not people)."""
    found = exposure.exposure(scope)
    sheet.text(
        "T4", "", "", "", "cargos com vagas e sem reserva (abaixo do mínimo)", str(len(found.below_threshold))
    )
    sheet.text("T4", "", "", "", "vagas que escaparam de qualquer reserva", str(found.escaped))
    for position in found.below_threshold:
        sheet.text("T4", position.contest.slug, position.code, "", "cargo sem reserva", position.title)
    sheet.text("T4", "", "", "", "cargos repartidos entre editais na validade", str(len(found.splits)))
    for split in found.splits:
        where = ", ".join(f"{p.contest.slug} {p.code}" for p in split.positions)
        sheet.text(
            "T4",
            "",
            "",
            "",
            f"cargo repartido: {split.title} ({where})",
            f"reservaria {split.reserved_together}, reservou {split.reserved_apart}",
        )
    sheet.text(
        "T4",
        "",
        "",
        "",
        "concursos que reservam menos que o total reservaria",
        str(len(found.short_contests)),
    )
    for short in found.short_contests:
        sheet.text(
            "T4",
            short.contest.slug,
            "",
            "",
            f"concurso com {short.vacancies} vagas: reserva somada por cargo",
            f"{short.reserved_apart} (o total reservaria {short.reserved_together})",
        )


def _hetero(sheet: Sheet, scope: Scope) -> None:
    """T5, per contest; the called are the present, the absent and those without attendance recorded; the
    present are the confirmed, the not confirmed and those without a final result."""
    labels = dict(hetero.MEASURES)
    for line in hetero.heteroidentification(scope):
        contest = line.contest.slug
        cells = {
            key: sheet.people("T5", contest, "", "", label, line.counts[key]) for key, label in labels.items()
        }
        sheet.relate(cells["called"], [cells["present"], cells["absent"], cells["unrecorded"]])
        sheet.relate(cells["present"], [cells["confirmed"], cells["not_confirmed"], cells["pending"]])


def _courts(sheet: Sheet, scope: Scope) -> None:
    """T7, for all the scope's contests together."""
    found = court_orders.court_orders(scope)
    sheet.text("T7", "", "", "", "ordens judiciais", str(found.orders))
    sheet.text("T7", "", "", "", "ordens cumpridas", str(found.complied))
    sheet.text("T7", "", "", "", "ordens revogadas ou reformadas", str(found.revoked))
    sheet.people("T7", "", "", "", "candidatos sub judice", found.sub_judice)
    for cause, count in found.by_cause.items():
        sheet.people("T7", "", "", "", f"sub judice por: {cause}", count)
    sheet.people("T7", "", "", "", "vagas mantidas por ordem judicial", found.seats_kept)


def _conformance(sheet: Sheet, scope: Scope) -> None:
    """T10, per contest; and the policy's reports due by the period's end."""
    for line in exposure.conformance(scope):
        contest = line.contest.slug
        sheet.text("T10", contest, "", "", "reserva declarada no edital publicado", line.reserve_in_edital)
        sheet.text("T10", contest, "", "", "listas separadas publicadas", line.separate_lists)
        sheet.text("T10", contest, "", "", "nomeações na ordem da regra (motor de alocação)", line.order_rule)
    for due in exposure.reports_on_time(scope):
        what = f"{due.report.label} (devido até {due.report.due_on:%d/%m/%Y}) entregue no prazo"
        sheet.text("T10", "", "", "", what, due.on_time)


def _seats(sheet: Sheet, scope: Scope) -> None:
    """T2. Still open = reserved − filled − reverted: when the cotistas who filled seats are under 5
    (suppressed), the two seat counts that would give them back by subtraction are withheld too (the reserved
    seats follow from the law and the vacancies, public: they stay)."""
    for seat in indicators.seats(scope):
        contest, code = seat.position.contest.slug, seat.position.code
        hidden = privacy.cell(seat.filled_by_cotistas).suppressed
        for what, value, derives in (
            ("vagas do edital", seat.edital, False),
            ("vagas abertas na validade", seat.later, False),
            ("reservadas à reserva racial", seat.reserved, False),
            ("reservadas a PcD", seat.reserved_pcd, False),
            ("reservadas revertidas à ampla", seat.reverted, True),
            ("reservadas ainda não preenchidas", seat.still_open, True),
        ):
            if hidden and derives:
                sheet.withheld("T2", contest, code, "", what)
            else:
                sheet.text("T2", contest, code, "", what, str(value))
        sheet.people("T2", contest, code, "", "reservadas preenchidas por cotistas", seat.filled_by_cotistas)
        sheet.text("T2", contest, code, "", "fração levada adiante", seat.carried_fraction)


def _nominees(sheet: Sheet, scope: Scope) -> None:
    for nominee in indicators.nominees(scope):
        contest, code = nominee.position.contest.slug, nominee.position.code
        sheet.people("T3", contest, code, "", "nomeados", nominee.nominees)
        sheet.people(
            "T3", contest, code, "", "cotistas nomeados na ampla concorrência", nominee.racial_in_open
        )
        sheet.share(
            "T3",
            contest,
            code,
            "",
            "% de negros entre os nomeados",
            nominee.racial_nominees,
            nominee.nominees,
        )


def _delays(sheet: Sheet, scope: Scope) -> None:
    for delay in indicators.delays(scope):
        contest, code = delay.position.contest.slug, delay.position.code
        group = LIST_LABELS[delay.source_list]
        sheet.people("T8", contest, code, group, "nomeações", delay.nominations)
        if delay.nominations >= privacy.MIN_CELL:
            median = "" if delay.median_days is None else f"{delay.median_days:g}"
            sheet.text("T8", contest, code, group, "mediana de dias", median)
            sheet.text("T8", contest, code, group, "máximo de dias", str(delay.max_days))


ORIGIN_LABELS = {"complaint": "por denúncia", "ex_officio": "de ofício", "commission": "pela comissão"}
OUTCOME_LABELS = {"falsity": "falsidade reconhecida", "dismissed": "improcedentes", "": "sem decisão"}


def _falsity(sheet: Sheet, scope: Scope) -> None:
    """T6, for all the scope's contests together (a procedure per contest would name too few people); the
    origins and the outcomes each sum to the procedures opened."""
    t6 = falsity_procedures(scope)
    opened = sheet.people("T6", "", "", "", "processos instaurados", t6.opened)
    origins = [
        sheet.people("T6", "", "", "", f"instaurados {ORIGIN_LABELS.get(origin, origin)}", count)
        for origin, count in t6.by_origin.items()
    ]
    sheet.relate(opened, origins)
    outcomes = [
        sheet.people("T6", "", "", "", f"resultado: {OUTCOME_LABELS.get(outcome, outcome)}", count)
        for outcome, count in sorted(t6.outcomes.items())
    ]
    sheet.relate(opened, outcomes)
    sheet.people("T6", "", "", "", "encerrados", t6.closed)
    if t6.closed >= privacy.MIN_CELL and t6.median_days is not None:
        sheet.text("T6", "", "", "", "mediana de dias até o último ato", f"{t6.median_days:g}")
    sheet.people("T6", "", "", "", "encaminhados ao Ministério Público", t6.referred)
