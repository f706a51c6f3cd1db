"""Which registrations hold what they hold under a court order not yet final (issue 22; STF Tema 476: a
post held under a provisional order is precarious). The court orders live in ``declarations``, which this
app cannot import: that app registers the reader here (``use``) when it starts; without it no registration
is under an order.

The nomination act cites the case ("em cumprimento à decisão proferida nos autos nº …, precariamente"; for a
case in segredo de justiça, without the number: "em cumprimento a decisão judicial, precariamente") and the
public nomination order marks the nomination "sub judice"; neither shows anything else of the case."""

from __future__ import annotations

from collections.abc import Callable, Iterable

# registration ids -> {registration id: the CNJ number of the order it is held under, '' when secret}
CasesOf = Callable[[Iterable[int]], dict[int, str]]
_cases_of: CasesOf | None = None


def use(cases_of: CasesOf) -> None:
    global _cases_of
    _cases_of = cases_of


def cases_of(registration_ids: Iterable[int]) -> dict[int, str]:
    """The CNJ number of the order each of ``registration_ids`` holds its place under, when there is one ('' for
    an order in segredo de justiça: the registration is in the result, its number is not)."""
    ids = list(registration_ids)
    if _cases_of is None or not ids:
        return {}
    return _cases_of(ids)
