"""One count of free seats for every screen (issue 19: "0 vagas livres e 7 ainda não preenchidas" beside
"Livres 7"; the home's "4 vagas livres" beside the position's "1 livre · 3 previstas")."""

from __future__ import annotations

import pytest

from candidates.selectors import SeatCount, seat_counts, seat_strip
from tests.builders import make_world

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("count", "free", "freed", "new", "text"),
    [
        (SeatCount(7, 0, 0), 7, 0, 7, "7 vagas livres (ainda não preenchidas)"),
        (
            SeatCount(5, 1, 2),
            4,
            1,
            3,
            "4 vagas livres (1 liberada, preenchida primeiro, e 3 ainda não preenchidas)",
        ),
        (SeatCount(2, 1, 2), 1, 1, 0, "1 vaga livre (liberada por quem deixou a vaga)"),
        (SeatCount(3, 3, 3), 0, 0, 0, "0 vagas livres"),
    ],
)
def test_free_is_vacancies_minus_held_split_into_freed_and_new(count, free, freed, new, text):
    assert (count.free, count.freed, count.new, count.free_text) == (free, freed, new, text)


def test_the_home_the_contest_and_the_position_count_the_same(cast):
    world = make_world(cast)  # 5 vacancies, 2 called, 1 withdrew
    position = world["position"]
    counted = seat_counts([position])[position.pk]
    assert counted == seat_strip(position).counts == SeatCount(5, 1, 2)
