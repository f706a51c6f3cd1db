"""The report's figures as one flat table of aggregates, privacy applied (``monitoring.privacy``): what the
command ``law_report``, the open data and the report screen print. Counts of people go through
``privacy.cell``, shares through ``privacy.share``; counts of vacancies and days are not about people."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from monitoring import indicators, privacy
from monitoring.indicators import GROUP_LABELS, LIST_LABELS, Scope
from monitoring.procedures import falsity_procedures

COLUMNS = ("indicador", "concurso", "cargo", "grupo", "medida", "valor", "nota")
DICTIONARY = {
    "indicador": "T1 funil por grupo; T2 vagas por cargo; T3 cotistas na ampla concorrência e negros entre os "
    "nomeados; T6 processos por declaração falsa (todos os concursos do recorte juntos); T8 dias da homologação "
    "à nomeação, por lista.",
    "concurso": "Identificador do concurso (número/ano no portal).",
    "cargo": "Código do cargo no edital.",
    "grupo": "Ampla concorrência (sem reserva), reserva racial, pessoas com deficiência, ou a lista de origem "
    "(T8); vazio quando a medida é do cargo.",
    "medida": "O que se conta (etapa do funil, tipo de vaga, percentual…).",
    "valor": "O número; '<5' quando a célula tem de 1 a 4 pessoas (suprimida, LGPD art. 11); um percentual com "
    "'*' está calculado sobre menos de 10 casos.",
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


def _people(indicator: str, contest: str, code: str, group: str, what: str, count: int) -> Row:
    shown = privacy.cell(count)
    return Row(indicator, contest, code, group, what, shown.text, shown.note)


def _share(indicator: str, contest: str, code: str, group: str, what: str, part: int, whole: int) -> Row:
    shown = privacy.share(part, whole)
    return Row(indicator, contest, code, group, what, shown.text, shown.note)


def rows(scope: Scope) -> list[Row]:
    found: list[Row] = []
    funnel = indicators.funnel(scope)
    for line in funnel.rows:
        contest, code, group = line.position.contest.slug, line.position.code, GROUP_LABELS[line.group]
        registered = line.counts[indicators.REGISTERED]
        for stage in funnel.stages:
            found.append(_people("T1", contest, code, group, stage, line.counts[stage]))
            if stage != indicators.REGISTERED:
                found.append(
                    _share(
                        "T1",
                        contest,
                        code,
                        group,
                        f"{stage}: % do grupo na etapa",
                        line.counts[stage],
                        funnel.total(line.position, stage),
                    )
                )
        found.append(
            _share(
                "T1",
                contest,
                code,
                group,
                "inscritos: % do grupo entre os inscritos",
                registered,
                funnel.total(line.position, indicators.REGISTERED),
            )
        )
    for seat in indicators.seats(scope):
        contest, code = seat.position.contest.slug, seat.position.code
        # Still open = reserved − filled − reverted: when the cotistas who filled seats are under 5 (suppressed),
        # the two seat counts that would give them back by subtraction are withheld too.
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
                found.append(
                    Row("T2", contest, code, "", what, privacy.SUPPRESSED_MARK, privacy.SUPPRESSED_NOTE)
                )
            else:
                found.append(Row("T2", contest, code, "", what, str(value)))
        found.append(
            _people("T2", contest, code, "", "reservadas preenchidas por cotistas", seat.filled_by_cotistas)
        )
        found.append(Row("T2", contest, code, "", "fração levada adiante", seat.carried_fraction))
    for nominee in indicators.nominees(scope):
        contest, code = nominee.position.contest.slug, nominee.position.code
        found.append(_people("T3", contest, code, "", "nomeados", nominee.nominees))
        found.append(
            _people(
                "T3", contest, code, "", "cotistas nomeados na ampla concorrência", nominee.racial_in_open
            )
        )
        found.append(
            _share(
                "T3",
                contest,
                code,
                "",
                "% de negros entre os nomeados",
                nominee.racial_nominees,
                nominee.nominees,
            )
        )
    for delay in indicators.delays(scope):
        contest, code, group = (
            delay.position.contest.slug,
            delay.position.code,
            LIST_LABELS[delay.source_list],
        )
        found.append(_people("T8", contest, code, group, "nomeações", delay.nominations))
        if delay.nominations >= privacy.MIN_CELL:
            median = "" if delay.median_days is None else f"{delay.median_days:g}"
            found.append(Row("T8", contest, code, group, "mediana de dias", median))
            found.append(Row("T8", contest, code, group, "máximo de dias", str(delay.max_days)))
    found.extend(_falsity_rows(scope))
    return found


ORIGIN_LABELS = {"complaint": "por denúncia", "ex_officio": "de ofício", "commission": "pela comissão"}
OUTCOME_LABELS = {"falsity": "falsidade reconhecida", "dismissed": "improcedentes", "": "sem decisão"}


def _falsity_rows(scope: Scope) -> list[Row]:
    """T6, for all the scope's contests together (a procedure per contest would name too few people)."""
    t6 = falsity_procedures(scope)
    found = [_people("T6", "", "", "", "processos instaurados", t6.opened)]
    for origin, count in t6.by_origin.items():
        found.append(_people("T6", "", "", "", f"instaurados {ORIGIN_LABELS.get(origin, origin)}", count))
    for outcome, count in sorted(t6.outcomes.items()):
        found.append(_people("T6", "", "", "", f"resultado: {OUTCOME_LABELS.get(outcome, outcome)}", count))
    found.append(_people("T6", "", "", "", "encerrados", t6.closed))
    if t6.closed >= privacy.MIN_CELL and t6.median_days is not None:
        found.append(Row("T6", "", "", "", "mediana de dias até o último ato", f"{t6.median_days:g}"))
    found.append(_people("T6", "", "", "", "encaminhados ao Ministério Público", t6.referred))
    return found
