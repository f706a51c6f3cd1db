"""The hook through which the edital gets its seat order from the allocation engine (RULES §4).

The engine lives in ``candidates``, which sits above this app: the candidates app hands its seat order in
(``use_seat_order``, in its ``AppConfig.ready``) and ``edital`` reads it here. The hook has a module of its
own so that handing it in imports nothing else: ``edital`` brings in the whole PDF pipeline (WeasyPrint's
templates, pypdf, fontTools), a second of start-up that every ``manage.py`` command paid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:
    from contests.models import Position


@dataclass(frozen=True)
class SeatOrder:
    """A position's seats in nomination order, as the allocation engine schedules them (RULES §4): which of
    its vacancies are reserved to each list, and the kinds of its first ``chapter.SEATS_SHOWN`` nominations
    (past its vacancies, how the order would go on)."""

    racial: tuple[int, ...]  # seat numbers, among the position's vacancies
    pcd: tuple[int, ...]
    first: tuple[str, ...]  # "open", "racial" or "pcd", seat by seat


# (position, its vacancies, the contest's vacancies) → the position's seat order.
SeatOrderFor = Callable[["Position", int, int], SeatOrder]
_seat_order_for: SeatOrderFor | None = None


def use_seat_order(seat_order_for: SeatOrderFor) -> None:
    """Hand in the allocation engine's seat order (the candidates app does, in its ``AppConfig.ready``)."""
    global _seat_order_for
    _seat_order_for = seat_order_for


def seat_order() -> SeatOrderFor:
    if _seat_order_for is None:
        raise ImproperlyConfigured(
            "O edital numera as vagas com o motor de alocação: instale o app candidates."
        )
    return _seat_order_for
