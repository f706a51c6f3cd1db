"""The report's charts (issue 23), drawn on the server as SVG by pygal (a kept plotting library, pinned in
requirements.txt), without scripts: shown as an image (``data:`` URI, allowed by the CSP's img-src; an SVG
image runs no script and its own styles apply) whose ``alt`` names it, beside a table with the same figures
(the text alternative, e-MAG 3.6). Counts of people arrive with privacy applied: a suppressed cell is not
drawn (``None``) and the table says "<5"."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass

import pygal
from pygal.style import Style

from monitoring import indicators, privacy
from monitoring.indicators import GROUP_LABELS, GROUPS, Scope

STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#1b1b1b",
    foreground_strong="#1b1b1b",
    foreground_subtle="#595959",
    colors=("#1f4e79", "#b35900", "#2e7d32", "#6a1b9a"),
    font_family="sans-serif",
)


@dataclass(frozen=True)
class Chart:
    title: str
    alt: str  # the image's short text alternative
    svg: str
    columns: tuple[str, ...]  # the table beside it: header of the first column, then one per series
    rows: tuple[tuple[str, ...], ...]

    @property
    def data_uri(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode("utf-8")).decode("ascii")


def _config(chart: pygal.Graph, title: str, labels: Sequence[str]) -> None:
    chart.title = title
    chart.x_labels = list(labels)
    chart.js = []  # no script: the figures are in the table beside the chart
    chart.disable_xml_declaration = True
    chart.legend_at_bottom = True
    chart.print_values = False
    chart.x_label_rotation = 20 if len(labels) > 3 else 0
    chart.truncate_legend = -1
    chart.truncate_label = -1


def bars(
    title: str, labels: Sequence[str], series: Sequence[tuple[str, Sequence[int | None]]], *, stacked: bool
) -> str:
    """An SVG bar chart: one bar (or one stack, ``stacked``) per label, one colour per series; a ``None``
    value is not drawn."""
    chart = (pygal.StackedBar if stacked else pygal.Bar)(style=STYLE, width=800, height=420)
    _config(chart, title, labels)
    for name, values in series:
        chart.add(name, list(values))
    return str(chart.render(is_unicode=True))


def funnel_charts(scope: Scope) -> list[Chart]:
    """T1: per position, the funnel's bars per group (counts of people, privacy applied)."""
    funnel = indicators.funnel(scope)
    found = []
    by_position: dict[int, dict[str, dict[str, int]]] = {}
    positions = {}
    for row in funnel.rows:
        by_position.setdefault(row.position.pk, {})[row.group] = row.counts
        positions[row.position.pk] = row.position
    for pk, groups in by_position.items():
        position = positions[pk]
        title = f"Funil por grupo — {position.contest.slug}, cargo {position.code}"
        cells = {g: [privacy.cell(groups[g][stage]) for stage in funnel.stages] for g in GROUPS}
        svg = bars(
            title,
            funnel.stages,
            [(GROUP_LABELS[g], [c.value for c in cells[g]]) for g in GROUPS],
            stacked=False,
        )
        rows = tuple((stage, *(cells[g][i].text for g in GROUPS)) for i, stage in enumerate(funnel.stages))
        found.append(
            Chart(
                title,
                f"Gráfico de barras: {title}. Os números estão na tabela a seguir.",
                svg,
                ("Etapa", *(GROUP_LABELS[g] for g in GROUPS)),
                rows,
            )
        )
    return found


def seats_chart(scope: Scope) -> Chart | None:
    """T2: per position, the vacancies stacked as open competition, reserved (racial) and reserved reverted
    to open competition (counts of vacancies, not of people)."""
    rows = indicators.seats(scope)
    if not rows:
        return None
    labels = [f"{row.position.contest.slug} {row.position.code}" for row in rows]
    open_seats = [max(0, row.edital + row.later - row.reserved) for row in rows]
    reserved = [row.reserved - row.reverted for row in rows]
    reverted = [row.reverted for row in rows]
    names = ("Ampla concorrência", "Reservadas (reserva racial)", "Reservadas revertidas à ampla")
    title = "Vagas por cargo: ampla, reservadas e revertidas"
    svg = bars(title, labels, list(zip(names, (open_seats, reserved, reverted), strict=True)), stacked=True)
    table = tuple(
        (label, str(a), str(b), str(c))
        for label, a, b, c in zip(labels, open_seats, reserved, reverted, strict=True)
    )
    return Chart(
        title,
        f"Gráfico de barras empilhadas: {title}. Os números estão na tabela a seguir.",
        svg,
        ("Cargo", *names),
        table,
    )
