"""The report's charts (issue 23), drawn on the server as SVG by pygal (a kept plotting library, pinned in
requirements.txt), without scripts: shown as an image (``data:`` URI, allowed by the CSP's img-src; an SVG
image runs no script and its own styles apply) whose ``alt`` names it, beside a table with the same figures
(the text alternative, e-MAG 3.6). Counts of people come from the report's rows, privacy applied: a suppressed cell is not
drawn (``None``) and the table says "<5" or "X"."""

from __future__ import annotations

import base64
import datetime
import hashlib
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import pygal
from pygal.style import Style

from contests import wording
from contests.models import Policy
from monitoring import indicators, privacy, tables
from monitoring.indicators import GROUP_LABELS, GROUPS, Scope

STYLE = Style(
    title_font_size=20,
    label_font_size=16,
    major_label_font_size=16,
    legend_font_size=16,
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
    def drawn(self) -> bool:
        """False when every count is suppressed or zero: the table stands alone."""
        return bool(self.svg)

    @property
    def height(self) -> int:
        """The drawing's height for an 800-wide box (the image's ``height`` attribute: no layout shift)."""
        found = re.search(r'viewBox="0 0 800 (\d+)"', self.svg)
        return int(found.group(1)) if found else 420

    @property
    def data_uri(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode("utf-8")).decode("ascii")


def _config(chart: pygal.Graph, title: str, labels: Sequence[str]) -> None:
    """Every label horizontal, at a size that reads at the PDF's 16 cm (a rotated label is extracted by a PDF
    reader, a screen reader or the gazette's text in fragments: "insc rito s")."""
    chart.title = title
    chart.x_labels = list(labels)
    chart.js = []  # no script: the figures are in the table beside the chart
    chart.disable_xml_declaration = True
    chart.legend_at_bottom = True
    chart.legend_at_bottom_columns = 1  # one series a line: long group names never overlap
    chart.print_values = False
    chart.x_label_rotation = 0
    chart.truncate_legend = -1
    chart.truncate_label = -1


def _render(chart: pygal.Graph, content: object) -> str:
    """The chart's SVG, the same text for the same ``content`` (its title, labels and series) on the same day
    (pygal's opening comment carries the date): pygal names each chart's styles by a random id
    (``#chart-<uuid>``), so the same figures drew a different SVG, and the report a different HTML, at each
    rendering. The id is a digest of what is drawn instead: an SVG shown as an image is a document of its
    own, where no other chart's id can meet it."""
    chart.uuid = str(uuid.UUID(bytes=hashlib.sha256(repr(content).encode()).digest()[:16]))
    return str(chart.render(is_unicode=True))


def _ticks(top: int) -> list[int]:
    """Whole-number marks from 0 to at least ``top`` (people and vacancies are counted, never 0.1 of one),
    at most 11 of them, in steps of 1, 2 or 5 times a power of ten."""
    top = max(top, 1)
    magnitude = 1
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude):
            if -(-top // step) <= 10:
                return list(range(0, -(-top // step) * step + 1, step))
        magnitude *= 10


def bars(
    title: str, labels: Sequence[str], series: Sequence[tuple[str, Sequence[int | None]]], *, stacked: bool
) -> str:
    """An SVG chart of horizontal bars (their labels read across, however long): one bar (or one stack,
    ``stacked``) per label, the first label on top, one colour per series; a ``None`` value is not drawn; ""
    when no bar would be drawn (every count suppressed or zero), so that no empty grid stands for a figure."""
    drawn = [[v or 0 for v in values] for _, values in series]
    if not any(any(values) for values in drawn):
        return ""
    chart = (pygal.HorizontalStackedBar if stacked else pygal.HorizontalBar)(
        style=STYLE, width=800, height=max(260, 90 + len(labels) * (32 if stacked else 22 * len(series)))
    )
    _config(chart, title, list(reversed(labels)))  # pygal draws the first label at the bottom
    top = max(map(sum, zip(*drawn, strict=True))) if stacked else max(map(max, drawn))
    chart.y_labels = _ticks(top)  # the value axis (pygal keeps its name when the chart lies on its side)
    chart.value_formatter = lambda value: f"{value:.0f}"
    for name, values in series:
        chart.add(name, list(reversed(values)))
    return _render(
        chart, ("bars", title, list(labels), [(name, list(values)) for name, values in series], stacked)
    )


def _count(text: str) -> int | None:
    """A shown count as a number; a suppressed one ("<5", "X") is not drawn."""
    return int(text) if text.isdigit() else None


def funnel_charts(rows: Sequence[tables.Row]) -> list[Chart]:
    """T1: per position, the funnel's bars per group, from the report's rows (privacy applied: the chart
    draws what the table shows)."""
    stages = list(dict.fromkeys(r.medida for r in rows if r.indicador == "T1" and r.grupo == tables.ALL))
    shown: dict[tuple[str, str], dict[tuple[str, str], str]] = {}
    for row in rows:
        if row.indicador == "T1" and row.medida in stages:
            shown.setdefault((row.concurso, row.cargo), {})[(row.grupo, row.medida)] = row.valor
    found = []
    for (contest, code), values in shown.items():
        title = f"Funil por grupo — {contest}, cargo {code}"
        labels = [GROUP_LABELS[g] for g in GROUPS]
        cells = {label: [values.get((label, stage), "0") for stage in stages] for label in labels}
        svg = bars(
            title, stages, [(label, [_count(v) for v in cells[label]]) for label in labels], stacked=False
        )
        table = tuple((stage, *(cells[label][i] for label in labels)) for i, stage in enumerate(stages))
        found.append(
            Chart(
                title,
                f"Gráfico de barras: {title}. Os números estão na tabela a seguir.",
                svg,
                ("Etapa", *labels),
                table,
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


def lifetime_chart(policy: Policy, until: datetime.date) -> Chart | None:
    """The share of negros among the nominees of each year of the law's life against the statutory
    percentage (a share resting on a suppressed count is not drawn; one on fewer than 10 cases is marked)."""
    years = indicators.lifetime(policy, until)
    if not years or policy.percent is None:
        return None
    shares = [privacy.share(row.racial_nominees, row.nominees) for row in years]
    statutory = float(policy.percent)
    labels = [str(row.year) for row in years]
    title = (
        "Negros entre os nomeados por ano, na vigência da lei, e o percentual da lei "
        f"({wording.percent_text(policy.percent)})"
    )
    chart = pygal.Line(style=STYLE, width=800, height=420, range=(0, 100), include_x_axis=True)
    _config(chart, title, labels)
    chart.y_title = "% dos nomeados"
    chart.y_labels = list(range(0, 101, 10))
    chart.value_formatter = lambda value: f"{value:.0f}%"
    percents = [None if s.percent is None else float(s.percent) for s in shares]
    chart.add("Negros entre os nomeados (%)", percents)
    chart.add(
        f"Percentual da lei ({wording.percent_text(policy.percent)})",
        [statutory] * len(years),
        show_dots=False,
    )
    table = tuple(
        (
            label,
            str(row.nominees) if not privacy.cell(row.nominees).suppressed else privacy.SUPPRESSED_MARK,
            s.text,
        )
        for label, row, s in zip(labels, years, shares, strict=True)
    )
    return Chart(
        title,
        f"Gráfico de linhas: {title}. Os números estão na tabela a seguir.",
        _render(chart, ("line", title, labels, percents, statutory)),
        ("Ano", "Nomeados", "Negros entre os nomeados"),
        table,
    )
