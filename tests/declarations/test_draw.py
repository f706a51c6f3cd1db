"""The auditable draw (declarations/hetero/draw.py; RULES §5, ADC 41: due process, so a draw anyone can redo)."""

from __future__ import annotations

import datetime
import hashlib
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import given
from hypothesis import strategies as st

from declarations.hetero.draw import (
    ALGORITHM,
    ALGORITHM_V1,
    ALGORITHM_V2,
    DrawError,
    check,
    draw,
    notice_problem,
    parse_pool,
    replacement_problem,
)

SEED = "2026-11-30 Mega-Sena 2900: 05 12 23 34 45 56"
POOL = ("A", "B", "C", "D", "E", "F", "G")

members = st.lists(
    st.text(alphabet="ABCDEFGHIJ0123456789-", min_size=1, max_size=6), min_size=1, max_size=12, unique=True
)


def test_adc41_draw_pinned_example():
    result = draw(SEED, POOL, 5)
    assert result.drawn == ("D", "B", "F", "E", "G")
    assert result.substitutes == ("A", "C")
    assert result.seed_digest == "8929aba3eac62bc76715181d8fc07acfc52f598eb8c61d51b8730fd37adf83f0"
    assert result.pool_digest == "679da1b754fc11d084e9f4385cc2aa806ac4c5323121aa3af539d5e46beda0c3"


def test_adc41_draw_follows_the_documented_algorithm_with_plain_hashlib():
    s = hashlib.sha256(SEED.encode()).digest()
    expected = sorted(POOL, key=lambda m: hashlib.sha256(s + m.encode()).hexdigest())[:5]
    assert list(draw(SEED, POOL, 5).drawn) == expected


@given(members, st.text(min_size=1).filter(str.strip), st.data())
def test_adc41_draw_same_seed_same_draw_whatever_the_pool_order(pool, seed, data):
    k = data.draw(st.integers(min_value=1, max_value=len(pool)))
    shuffled = data.draw(st.permutations(pool))
    first = draw(seed, pool, k)
    assert first == draw(seed, pool, k)
    assert draw(seed, shuffled, k).drawn == first.drawn
    assert len(set(first.drawn)) == k and set(first.drawn) <= set(pool)


def test_adc41_draw_seed_is_trimmed_and_another_seed_gives_another_ranking():
    assert draw(f"  {SEED}\n", POOL, 5) == draw(SEED, POOL, 5)
    assert draw(SEED + "7", POOL, 7).drawn != draw(SEED, POOL, 7).drawn


@pytest.mark.parametrize(
    ("seed", "pool", "k", "message"),
    [
        ("  ", POOL, 3, "semente"),
        (SEED, ("A", "A", "B"), 2, "repetidos"),
        (SEED, ("A", ""), 1, "sem identificador"),
        (SEED, ("Silva, Ana", "B"), 1, "vírgula"),  # draw_check could not take it back from --pool
        (SEED, ("Ana; Silva", "B"), 1, "vírgula"),
        (SEED, POOL, 0, "maior que zero"),
        (SEED, POOL, 8, "ao menos tantos"),
    ],
)
def test_adc41_draw_refuses_what_cannot_be_audited(seed, pool, k, message):
    with pytest.raises(DrawError, match=message):
        draw(seed, pool, k)


def test_parse_pool_accepts_commas_semicolons_and_lines():
    assert parse_pool("A, B;C\nD,,") == ("A", "B", "C", "D")


def test_draw_check_command_recomputes_the_pinned_example():
    out = StringIO()
    call_command("draw_check", "--seed", SEED, "--pool", ",".join(POOL), "-k", "5", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "D, B, F, E, G"
    assert "1. D (sorteado)" in out.getvalue() and "7. C (suplente)" in out.getvalue()


def test_draw_check_command_refuses_in_portuguese_with_status_2():
    with pytest.raises(CommandError, match="ao menos tantos") as caught:
        call_command("draw_check", "--seed", SEED, "--pool", "A,B", "-k", "3")
    assert caught.value.returncode == 2


def test_adc41_the_announced_pool_and_k_are_checked_before_any_seed():
    assert check([" A", "B ", "C"], 3) == ("A", "B", "C")
    with pytest.raises(DrawError, match="Não é possível sortear 4"):
        check(["A", "B", "C"], 4)
    with pytest.raises(DrawError, match="repetidos"):
        check(["A", "A", "B"], 2)


def test_adc41_v2_hashes_the_seed_and_the_names_as_printed_whitespace_collapsed():
    assert ALGORITHM == ALGORITHM_V2
    typed = draw("2026-11-30  Mega-Sena\t2900: 05 12 23 34 45  56", ("A  B", "C\tD", "E"), 2)
    printed = draw("2026-11-30 Mega-Sena 2900: 05 12 23 34 45 56", ("A B", "C D", "E"), 2)
    assert typed == printed and typed.seed == printed.seed and typed.pool == ("A B", "C D", "E")
    assert typed.algorithm == "sha256-rank-v2"


def test_adc41_v1_records_still_recompute_as_they_were_hashed():
    # The pinned example has no inner whitespace: v1 and v2 agree on it.
    assert draw(SEED, POOL, 5, ALGORITHM_V1).drawn == draw(SEED, POOL, 5).drawn == ("D", "B", "F", "E", "G")
    v1 = draw("a  b", ("X  Y", "Z"), 1, ALGORITHM_V1)
    assert v1.seed == "a  b" and v1.pool == ("X  Y", "Z") and v1.algorithm == "sha256-rank-v1"
    assert v1.seed_digest == hashlib.sha256(b"a  b").hexdigest() != draw("a  b", ("X Y", "Z"), 1).seed_digest
    with pytest.raises(DrawError, match="desconhecido"):
        draw(SEED, POOL, 5, "sha256-rank-v9")


def test_draw_check_command_takes_the_record_s_algorithm():
    out = StringIO()
    call_command(
        "draw_check",
        "--seed",
        "a  b",
        "--pool",
        "X  Y, Z",
        "-k",
        "1",
        "--algorithm",
        ALGORITHM_V1,
        stdout=out,
    )
    assert out.getvalue().splitlines()[0] == draw("a  b", ("X  Y", "Z"), 1, ALGORITHM_V1).drawn[0]
    assert "sha256-rank-v1" in out.getvalue()


def test_adc41_the_seed_s_date_is_strictly_after_the_notice_s_day():
    day = datetime.date(2026, 6, 5)
    assert "posterior a 05/06/2026" in notice_problem(today=day, seed_known_on=day)
    assert notice_problem(today=day, seed_known_on=datetime.date(2026, 6, 4))
    assert notice_problem(today=day, seed_known_on=datetime.date(2026, 6, 6)) is None


def test_adc41_a_notice_whose_seed_is_known_is_replaced_only_with_a_reason():
    known = datetime.date(2026, 6, 5)
    assert replacement_problem(today=datetime.date(2026, 6, 4), pending_known_on=known, reason="") is None
    assert "ato fundamentado" in replacement_problem(today=known, pending_known_on=known, reason="  ")
    assert (
        replacement_problem(today=known, pending_known_on=known, reason="Sorteio da loteria suspenso.")
        is None
    )
