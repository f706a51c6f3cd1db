"""LGPD art. 11: the reports show aggregates only; small cells suppressed, small bases flagged. No database."""

from __future__ import annotations

from decimal import Decimal

import pytest

from monitoring import privacy


@pytest.mark.parametrize(("count", "text"), [(0, "0"), (1, "<5"), (4, "<5"), (5, "5"), (120, "120")])
def test_lgpd_art11_cell_under_five_people_is_suppressed_and_says_so(count, text):
    shown = privacy.cell(count)
    assert shown.text == text
    assert shown.suppressed is (text == "<5")
    assert ("menos de 5 pessoas" in shown.note) is shown.suppressed


def test_lgpd_art11_share_on_fewer_than_ten_cases_says_so():
    few = privacy.share(5, 5)
    assert (few.percent, few.text, few.few_cases) == (Decimal("100.0"), "100,0%*", True)
    assert few.note == "Percentual calculado sobre menos de 10 casos: leia com cautela."
    many = privacy.share(10, 40)
    assert (many.percent, many.text, many.note) == (Decimal("25.0"), "25,0%", "")


def test_lgpd_art11_share_is_suppressed_when_its_part_or_the_rest_is_a_small_cell():
    assert privacy.share(3, 40).text == "<5"
    assert privacy.share(37, 40).text == "<5"  # the other 3 would be read off the total
    assert privacy.share(0, 40).text == "0,0%"


def test_share_rounds_half_up_to_one_decimal():
    assert privacy.share(5, 16).percent == Decimal("31.3")  # 31,25


def test_share_without_base_is_a_dash():
    assert privacy.share(0, 0).text == "—"


def test_negative_counts_are_refused():
    with pytest.raises(ValueError):
        privacy.cell(-1)
    with pytest.raises(ValueError):
        privacy.share(3, 2)
