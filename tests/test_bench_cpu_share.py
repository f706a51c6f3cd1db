"""The share of the machine's CPU the host took while a bench ran (bench/cpu_share.py), read from /proc/stat."""

import pytest

from bench import cpu_share

# /proc/stat's first line on a Firecracker guest of December 2026: user nice system idle iowait irq
# softirq steal guest guest_nice (clock ticks, all cores).
LINE = "cpu  484366 0 76207 153321 1731 0 2625 39683 0 0\ncpu0 242183 0 38103 76660 865 0 1312 19841 0 0\n"


def test_the_first_line_gives_the_total_the_idle_and_the_steal_ticks():
    ticks = cpu_share.parse(LINE)
    assert ticks == cpu_share.Ticks(
        total=484366 + 76207 + 153321 + 1731 + 2625 + 39683, idle=153321 + 1731, steal=39683
    )


def test_guest_time_is_not_counted_twice():
    """Guest time is already inside user and nice: the total leaves its two fields out."""
    with_guest = cpu_share.parse("cpu  100 0 0 100 0 0 0 0 50 50")
    assert with_guest.total == 200


def test_a_kernel_without_the_steal_field_reports_none_stolen():
    assert cpu_share.parse("cpu  100 0 50 850").steal == 0


@pytest.mark.parametrize("text", ["intr 1 2 3", "cpu 1 2", "cpu a b c d"])
def test_a_line_that_is_not_the_cpu_counts_is_refused(text):
    with pytest.raises(ValueError):
        cpu_share.parse(text)


def test_the_share_is_of_the_ticks_between_the_two_readings():
    before = cpu_share.parse("cpu  1000 0 0 1000 0 0 0 0 0 0")
    after = cpu_share.parse("cpu  1600 0 100 1200 0 0 0 100 0 0")  # 1,000 ticks: 200 idle, 100 stolen
    share = cpu_share.between(before, after)
    assert share == cpu_share.Share(steal=0.1, idle=0.2)
    assert share.text() == "CPU tomada pelo hospedeiro (steal) 10%, ociosa 20%"
    assert share.text_en() == "CPU taken by the host (steal) 10%, idle 20%"


def test_no_share_without_both_readings_or_without_time_between_them(monkeypatch, tmp_path):
    same = cpu_share.parse(LINE)
    assert cpu_share.between(same, same) is None
    assert cpu_share.since(None) is None
    monkeypatch.setattr(cpu_share, "STAT", tmp_path / "missing")
    assert cpu_share.sample() is None
    assert cpu_share.since(same) is None
