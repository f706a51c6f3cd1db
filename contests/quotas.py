"""Reserved vacancies per position: RULES.md §2.

PURE module: no Django, no project import. Exact arithmetic only (``Fraction``); Python's ``round()``
rounds half to even and the laws round half up, so it is never used here.

    racial(n) = 0 if n < threshold else round(p · n)           (SM art. 1 §§2–3; AR art. 1 §1)
    pcd(n)    = min(round_up(q · n), floor(cap · n))           (Decreto 9.508 art. 1 §3; Lei 8.112 art. 5 §2)
    open(n)   = n − racial(n) − pcd(n)

``n`` is always the cumulative count of vacancies of the position (the edital's plus every opening
during validity): that cumulative computation *is* the fraction carried of SM art. 1 §4.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from contests.wording import format_fraction, format_fraction_plain

HUNDRED = Fraction(100)


class Rounding(StrEnum):
    HALF_UP = "half_up"  # fraction ≥ 0.5 up, < 0.5 down (SM art. 1 §3; AR art. 1 §1)
    UP = "up"  # any fraction up (Decreto 9.508 art. 1 §3)
    DOWN = "down"  # any fraction down


class QuotaError(ValueError):
    """A rule whose parameters make no sense (message in Portuguese)."""


def to_fraction(value: Fraction | Decimal | int | str | float) -> Fraction:
    """Exact value of a percentage given as int, Decimal, Fraction or string ("20", "33,5", "1/3").

    A float is accepted only through its shortest decimal representation (``str(0.1) == "0.1"``).
    """
    if isinstance(value, bool):
        raise QuotaError("Percentual inválido.")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, Decimal) and not value.is_finite():
        raise QuotaError(f"Percentual inválido: {value}.")
    if isinstance(value, int | Decimal):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise QuotaError("Percentual inválido.")
        return Fraction(str(value))
    if isinstance(value, str):
        text = value.strip().replace(",", ".")
        try:
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise QuotaError(f"Percentual inválido: {value!r}.") from None
    raise QuotaError(f"Percentual inválido: {value!r}.")


def _rounding(value: Rounding | str) -> Rounding:
    try:
        return Rounding(value)
    except ValueError:
        raise QuotaError(f"Arredondamento inválido: {value!r} (use half_up, up ou down).") from None


def round_fraction(value: Fraction, rounding: Rounding | str) -> int:
    """Round a non-negative exact value to an integer by the law's rule."""
    rounding = _rounding(rounding)
    if rounding is Rounding.HALF_UP:
        return math.floor(value + Fraction(1, 2))
    if rounding is Rounding.UP:
        return math.ceil(value)
    return math.floor(value)


def round_half_up(value: Fraction | Decimal | int | str | float) -> int:
    """Fraction ≥ 0,5 up, < 0,5 down (SM art. 1º §3º; AR art. 1º §1º), exactly: ``round_half_up(2.5) == 3``.

    Python's ``round()`` rounds half to even (``round(2.5) == 2``), which the laws do not.
    """
    return round_fraction(to_fraction(value), Rounding.HALF_UP)


@dataclass(frozen=True)
class ReserveRule:
    """One reserve's parameters: percent of the vacancies, threshold, rounding and optional cap.

    ``threshold``: the reserve applies only when the vacancies counted are at least this many (0 or 1:
    always). ``cap_percent``: at most this share of the vacancies (``floor``), as for PcD (20%).
    """

    percent: Fraction
    threshold: int = 0
    rounding: Rounding = Rounding.HALF_UP
    cap_percent: Fraction | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "percent", to_fraction(self.percent))
        object.__setattr__(self, "rounding", _rounding(self.rounding))
        if self.cap_percent is not None:
            object.__setattr__(self, "cap_percent", to_fraction(self.cap_percent))
        if not 0 <= self.percent <= HUNDRED:
            raise QuotaError("O percentual de reserva deve estar entre 0 e 100.")
        if self.cap_percent is not None and not 0 <= self.cap_percent <= HUNDRED:
            raise QuotaError("O limite máximo da reserva deve estar entre 0 e 100%.")
        if isinstance(self.threshold, bool) or not isinstance(self.threshold, int) or self.threshold < 0:
            raise QuotaError("O número mínimo de vagas para aplicar a reserva não pode ser negativo.")

    @property
    def share(self) -> Fraction:
        return self.percent / HUNDRED

    def exact(self, n: int) -> Fraction:
        """p · n, before rounding."""
        return self.share * n

    def count(self, n: int, *, threshold_count: int | None = None) -> int:
        """Reserved vacancies among ``n``.

        ``threshold_count`` is what the threshold is tested on when it is not ``n`` itself (SM art. 1
        §2 read on the whole contest: ``threshold_basis = contest``).
        """
        _check_count(n)
        if threshold_count is not None:
            _check_count(threshold_count)
        basis = n if threshold_count is None else threshold_count
        if basis < self.threshold or n == 0:
            return 0
        value = round_fraction(self.exact(n), self.rounding)
        if self.cap_percent is not None:
            value = min(value, math.floor(self.cap_percent / HUNDRED * n))
        return min(value, n)


def _check_count(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int):
        raise QuotaError("O número de vagas deve ser um número inteiro.")
    if n < 0:
        raise QuotaError("O número de vagas não pode ser negativo.")


def reserves_sum_refusal(
    racial_percent: Fraction | Decimal | int | str,
    pcd_percent: Fraction | Decimal | int | str | None,
    pcd_cap_percent: Fraction | Decimal | int | str | None = None,
) -> str | None:
    """RULES §2, validation: the racial percent plus the PcD reserve's ceiling (its cap, else its percent)
    never pass 100, so the reserves together never take more than all the vacancies. Without a PcD
    reserve (``pcd_percent`` empty or 0) there is nothing to add."""
    if pcd_percent is None or not to_fraction(pcd_percent):
        return None
    ceiling = to_fraction(pcd_cap_percent if pcd_cap_percent is not None else pcd_percent)
    if to_fraction(racial_percent) + ceiling > HUNDRED:
        return (
            "A soma do percentual da reserva racial com o limite da reserva para pessoas com deficiência "
            "não pode passar de 100%."
        )
    return None


def validate_rules(racial: ReserveRule, pcd: ReserveRule | None) -> None:
    """The reserves together never take more than all the vacancies (``reserves_sum_refusal``)."""
    if pcd is None:
        return
    refusal = reserves_sum_refusal(racial.percent, pcd.percent, pcd.cap_percent)
    if refusal:
        raise QuotaError(refusal)


def threshold_extra(*, on_contest: bool, contest_vacancies: int, position_vacancies: int) -> int:
    """The vacancies of the contest's other positions that SM art. 1 §2's threshold also counts: the
    threshold is tested on "the vacancies offered in the contest", read as the position's (0 here) or,
    with ``threshold_basis = contest``, the whole contest's, as they stand now (openings during validity
    included, on any position). The position page and a position's nominations both count it here."""
    return max(0, contest_vacancies - position_vacancies) if on_contest else 0


def threshold_count(n: int, *, on_contest: bool, other_vacancies: int = 0) -> int | None:
    """What SM art. 1 §2's threshold is tested on for a position with ``n`` vacancies, as
    ``ReserveRule.count`` takes it: ``None`` when the policy counts it on the position (``n`` itself),
    else ``n`` plus ``other_vacancies``, the contest's other positions' (``threshold_extra``). The one
    home of the threshold's basis: the position's page (``Position.reservation``), the ADC 41 check
    (``fragmentation``) and the allocation engine (``Params.threshold_count``) all ask here."""
    return n + other_vacancies if on_contest else None


@dataclass(frozen=True)
class Reservation:
    """The reserved vacancies of a position with ``vacancies`` counted so far, and why."""

    vacancies: int
    racial: int
    pcd: int
    open: int
    racial_exact: Fraction
    pcd_exact: Fraction
    carried_fraction: Fraction  # p·n − racial(n): positive owed to later vacancies, negative given ahead
    racial_explanation: str = ""
    pcd_explanation: str = ""
    threshold_applies: bool = True
    notes: tuple[str, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, object]:
        return {
            "racial": self.racial,
            "pcd": self.pcd,
            "open": self.open,
            "carried_fraction": format_fraction_plain(self.carried_fraction),
        }


def reservation(
    n: int,
    racial: ReserveRule,
    pcd: ReserveRule | None = None,
    *,
    threshold_count: int | None = None,
    citations: Mapping[str, str] | None = None,
    group_label: str = "negros",
) -> Reservation:
    """RULES §2 for a position with ``n`` vacancies (cumulative), with explanations in Portuguese.

    ``citations`` names the articles of the policy for the explanation: keys ``threshold``,
    ``rounding``, ``carry`` (e.g. ``{"rounding": "art. 1º §3º", "carry": "art. 1º §4º"}``).
    """
    _check_count(n)
    validate_rules(racial, pcd)
    racial_count = racial.count(n, threshold_count=threshold_count)
    pcd_count = pcd.count(n) if pcd is not None else 0
    # Both reserves at their ceilings never exceed n (validate_rules), but rounding up both may: the
    # open list then keeps what is left, never a negative number.
    if racial_count + pcd_count > n:
        pcd_count = max(0, n - racial_count)
    basis = n if threshold_count is None else threshold_count
    racial_exact = racial.exact(n)
    carried = racial_exact - racial_count
    return Reservation(
        vacancies=n,
        racial=racial_count,
        pcd=pcd_count,
        open=n - racial_count - pcd_count,
        racial_exact=racial_exact,
        pcd_exact=pcd.exact(n) if pcd is not None else Fraction(0),
        carried_fraction=carried,
        racial_explanation=explain_racial(
            n, racial, threshold_count=threshold_count, citations=citations, group_label=group_label
        ),
        pcd_explanation=explain_pcd(n, pcd) if pcd is not None else "",
        threshold_applies=basis >= racial.threshold,
    )


def explain_racial(
    n: int,
    rule: ReserveRule,
    *,
    threshold_count: int | None = None,
    citations: Mapping[str, str] | None = None,
    group_label: str = "negros",
) -> str:
    """Why ``rule.count(n)`` is what it is, in Portuguese, citing the policy's articles."""
    cite = dict(citations or {})
    basis = n if threshold_count is None else threshold_count
    percent = format_percent(rule.percent)
    if n == 0:
        return "Nenhuma vaga: nada a reservar."
    if basis < rule.threshold:
        where = "no cargo" if threshold_count is None else "no concurso"
        art = f", {cite['threshold']}" if cite.get("threshold") else ""
        exact = rule.exact(n)
        tail = ""
        if exact:
            tail = f"; {format_fraction(exact)} considerado nas próximas nomeações se abrirem novas vagas"
        return (
            f"{_vacancies(basis)} {where}: a reserva a {group_label} só se aplica a partir de "
            f"{rule.threshold} vagas{art}; 0 reservadas{tail}."
        )
    exact = rule.exact(n)
    count = rule.count(n, threshold_count=threshold_count)
    text = f"{percent} de {n} = {format_fraction(exact)} → {count}"
    rounding_art = f", {cite['rounding']}" if cite.get("rounding") else ""
    frac = exact - math.floor(exact)
    if frac:
        if rule.rounding is Rounding.HALF_UP:
            if frac >= Fraction(1, 2):
                text += f" (fração igual ou maior que 0,5 arredonda para cima{rounding_art})"
            else:
                text += f" (fração menor que 0,5 arredonda para baixo{rounding_art})"
        elif rule.rounding is Rounding.UP:
            text += f" (qualquer fração arredonda para cima{rounding_art})"
        else:
            text += f" (a fração é desprezada{rounding_art})"
    carried = exact - count
    if carried:
        carry_art = f", {cite['carry']}" if cite.get("carry") else ""
        if carried > 0:
            text += f"; {format_fraction(carried)} considerado nas próximas nomeações{carry_art}"
        else:
            text += f"; {format_fraction(-carried)} já reservado por antecipação{carry_art}"
    return text + "."


def explain_pcd(n: int, rule: ReserveRule) -> str:
    """Why the PcD reserve is what it is, in Portuguese."""
    if n == 0:
        return "Nenhuma vaga: nada a reservar."
    if n < rule.threshold:
        return (
            f"{_vacancies(n)}: a reserva a pessoas com deficiência só se aplica a partir de "
            f"{rule.threshold} vagas."
        )
    exact = rule.exact(n)
    rounded = round_fraction(exact, rule.rounding)
    text = f"{format_percent(rule.percent)} de {n} = {format_fraction(exact)} → {rounded}"
    if rule.cap_percent is not None:
        cap = math.floor(rule.cap_percent / HUNDRED * n)
        if cap < rounded:
            text += (
                f", limitado a {format_percent(rule.cap_percent)} das vagas "
                f"({format_fraction(rule.cap_percent / HUNDRED * n)} → {cap})"
            )
    return text + "."


def _vacancies(n: int) -> str:
    return "1 vaga" if n == 1 else f"{n} vagas"


def series(rule: ReserveRule, upto: int) -> list[int]:
    """``rule.count(n)`` for n = 1..upto (used by screens that show how the reserve grows)."""
    return [rule.count(n) for n in range(1, upto + 1)]


@dataclass(frozen=True)
class Fragmentation:
    """Reserve lost by splitting a contest's vacancies into positions (ADC 41)."""

    total: int  # the contest's vacancies
    whole: int  # the reserve of the total, counted together
    split: int  # the sum of the positions' reserves
    shortfall: int  # whole − split


def fragmentation(
    position_vacancies: Iterable[int], rule: ReserveRule, *, threshold_on_contest: bool = False
) -> Fragmentation | None:
    """The ADC 41 check of a contest, or ``None`` when splitting it into positions loses nothing.

    ``threshold_on_contest``: the threshold is tested on the contest's vacancies (SM art. 1 §2 read as
    ``threshold_basis = contest``), so each position counts its reserve once the contest reaches it.
    """
    counts = list(position_vacancies)
    if len(counts) < 2:
        return None
    total = sum(counts)
    whole = rule.count(total)
    split = sum(
        rule.count(
            n, threshold_count=threshold_count(n, on_contest=threshold_on_contest, other_vacancies=total - n)
        )
        for n in counts
    )
    if split >= whole:
        return None
    return Fragmentation(total=total, whole=whole, split=split, shortfall=whole - split)


# Formatting (Brazilian Portuguese: decimal comma) ------------------------------------------------------


def format_percent(value: Fraction) -> str:
    return f"{format_fraction(to_fraction(value))}%"
