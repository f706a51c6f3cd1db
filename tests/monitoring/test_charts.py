"""The report's charts (monitoring/charts.py): whole-number axes, horizontal labels, no empty grid."""

from __future__ import annotations

import pytest

from monitoring import charts


@pytest.mark.parametrize(
    ("top", "marks"),
    [
        (0, [0, 1]),
        (1, [0, 1]),
        (7, list(range(8))),
        (12, [0, 2, 4, 6, 8, 10, 12]),
        (95, list(range(0, 101, 10))),
        (1234, list(range(0, 1401, 200))),
    ],
)
def test_axis_marks_are_whole_numbers_covering_the_largest_count(top, marks):
    assert charts._ticks(top) == marks


@pytest.mark.parametrize("top", [0, 3, 11, 99, 101, 999, 12_345, 10**6])
def test_axis_marks_are_at_most_eleven_and_reach_the_top(top):
    marks = charts._ticks(top)
    assert len(marks) <= 11 and marks[0] == 0 and marks[-1] >= max(top, 1)
    assert all(isinstance(mark, int) for mark in marks)


def test_a_chart_whose_every_count_is_suppressed_or_zero_is_not_drawn():
    assert charts.bars("t", ["a", "b"], [("s", [None, 0]), ("u", [None, None])], stacked=False) == ""


def test_bar_labels_read_across_and_the_first_label_is_on_top():
    svg = charts.bars("t", ["inscritos", "nomeados"], [("s", [12, 3])], stacked=False)
    assert "rotate" not in svg
    assert svg.index(">nomeados<") < svg.index(">inscritos<")  # drawn bottom-up: the first label last


def test_the_same_figures_draw_the_same_svg_and_other_figures_another():
    """The same figures draw the same SVG, so the report's HTML is the same when rendered again (pygal names
    each chart's styles by an id; a random one made every rendering differ)."""
    series = [("Reserva racial", [4, 1]), ("Ampla", [10, 3])]
    first = charts.bars("Funil", ["inscritos", "nomeados"], series, stacked=True)
    assert first == charts.bars("Funil", ["inscritos", "nomeados"], series, stacked=True)
    other = charts.bars(
        "Funil", ["inscritos", "nomeados"], [("Reserva racial", [4, 2]), ("Ampla", [10, 3])], stacked=True
    )
    assert other != first
    assert first.split('id="chart-', 1)[1][:36] != other.split('id="chart-', 1)[1][:36]
