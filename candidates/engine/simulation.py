"""Scenarios of the ``simulate`` command (RULES.md §8): parse, run, render as JSON-able data.

PURE module: standard library, ``contests.quotas`` and the pure allocation modules only. A policy given
by slug is resolved by the caller (``resolve_policy``), which is where the database comes in; an object
policy is read here. Every refusal is a ``ScenarioError`` with a Portuguese message naming where in the
scenario the problem is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from candidates.engine.allocation import (
    AllocationError,
    Candidate,
    Event,
    Params,
    State,
    apply,
    event_from_dict,
    event_to_dict,
    initial_state,
)
from candidates.engine.schedule import (
    DUAL_RULES,
    NEXT_SEAT,
    OPEN_COMPETITION_RULES,
    ORDERS,
    REINSTATEMENT_RULES,
    RESERVES,
)
from contests.quotas import QuotaError, ReserveRule, Rounding, to_fraction

SCENARIO_KEYS = ("policy", "pcd", "vacancies", "candidates", "events")
POLICY_KEYS = (
    "percent",
    "threshold",
    "rounding",
    "order",
    "nth",
    "priority",
    "dual_default",
    "dual_rule",
    "open_competition_rule",
    "reinstatement",
    "group_label",
)
PCD_KEYS = ("percent", "rounding", "cap_percent", "threshold")
CANDIDATE_KEYS = ("id", "lists", "prefers")
ROUNDINGS = tuple(r.value for r in Rounding)


class ScenarioError(ValueError):
    """A scenario the simulation refuses (Portuguese message)."""


@dataclass(frozen=True)
class Scenario:
    params: Params
    candidates: tuple[Candidate, ...]
    vacancies: int
    events: tuple[Event, ...]


PolicyResolver = Callable[[str], Params]


def parse_scenario(data: object, *, resolve_policy: PolicyResolver) -> Scenario:
    """Check a decoded scenario and turn it into engine values (RULES §8)."""
    obj = _object(data, "cenário")
    _known_keys(obj, SCENARIO_KEYS, "cenário")
    for key in ("policy", "vacancies", "candidates"):
        if key not in obj:
            raise ScenarioError(f"Cenário inválido: falta a chave {key!r}.")
    pcd = _pcd_rule(obj.get("pcd"))
    policy = obj["policy"]
    params = resolve_policy(policy) if isinstance(policy, str) else _policy_object(_object(policy, "policy"))
    try:
        params = replace(params, pcd=pcd)
    except AllocationError as exc:
        raise ScenarioError(f"Cenário inválido: {exc}") from None
    vacancies = _count(obj["vacancies"], "vacancies")
    candidates = _candidates(obj["candidates"])
    events = _events(obj.get("events", []), {c.id for c in candidates})
    return Scenario(params=params, candidates=candidates, vacancies=vacancies, events=events)


def run(scenario: Scenario) -> dict[str, Any]:
    """Apply the events and render the result (RULES §8 output, plus a ``log`` of messages)."""
    state = initial_state(scenario.candidates, scenario.params, vacancies=scenario.vacancies)
    log: list[str] = []
    for number, event in enumerate(scenario.events, start=1):
        try:
            state, change = apply(state, event)
        except AllocationError as exc:
            raise ScenarioError(f"Evento {number} ({_event_text(event)}): {exc}") from None
        log.extend(f"Evento {number} ({_event_text(event)}): {message}" for message in change.messages)
    return render(state, log)


def render(state: State, log: list[str] | None = None) -> dict[str, Any]:
    output: dict[str, Any] = {
        "vacancies": state.vacancies,
        "reserved": state.reservation().as_dict(),
        "schedule": state.schedule(),
        "nominations": [n.to_dict() for n in state.nominations],
        "lists": state.lists(),
    }
    if log is not None:
        output["log"] = log
    return output


def _event_text(event: Event) -> str:
    ((name, value),) = event_to_dict(event).items()
    return f"{name} {value}"


# Parsing helpers -------------------------------------------------------------------------------------


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(f"Cenário inválido: {where} deve ser um objeto JSON.")
    return value


def _known_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        raise ScenarioError(
            f"Cenário inválido: chave desconhecida em {where}: {', '.join(map(repr, unknown))} "
            f"(use {', '.join(allowed)})."
        )


def _count(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"Cenário inválido: {where} deve ser um número inteiro.")
    if value < 0:
        raise ScenarioError(f"Cenário inválido: {where} não pode ser negativo.")
    return value


def _percent(value: object, where: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ScenarioError(f'Cenário inválido: {where} deve ser um número ou texto, ex.: 20 ou "20".')
    try:
        percent = to_fraction(value)
    except QuotaError:
        raise ScenarioError(f"Cenário inválido: {where} não é um percentual: {value!r}.") from None
    if not 0 <= percent <= 100:
        raise ScenarioError(f"Cenário inválido: {where} deve estar entre 0 e 100 (recebido {value}).")
    return percent


def _choice(value: object, allowed: tuple[str, ...], where: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ScenarioError(f"Cenário inválido: {where} desconhecido: {value!r} (use {', '.join(allowed)}).")
    return value


def _rule(obj: Mapping[str, Any], where: str, *, rounding: str, threshold: int, cap: object) -> ReserveRule:
    if "percent" not in obj:
        raise ScenarioError(f"Cenário inválido: falta {where}.percent.")
    percent = _percent(obj["percent"], f"{where}.percent")
    cap_value = obj.get("cap_percent", cap)
    try:
        return ReserveRule(
            percent=percent,
            threshold=_count(obj.get("threshold", threshold), f"{where}.threshold"),
            rounding=Rounding(_choice(obj.get("rounding", rounding), ROUNDINGS, f"{where}.rounding")),
            cap_percent=_percent(cap_value, f"{where}.cap_percent") if cap_value is not None else None,
        )
    except QuotaError as exc:
        raise ScenarioError(f"Cenário inválido: {where}: {exc}") from None


def _pcd_rule(value: object) -> ReserveRule | None:
    if value is None:
        return None
    obj = _object(value, "pcd")
    _known_keys(obj, PCD_KEYS, "pcd")
    if "cap_percent" in obj and obj["cap_percent"] is None:
        # RULES §2: a PcD reserve always has a cap (it keeps racial(n) + pcd(n) ≤ n when both round up).
        raise ScenarioError(
            "Cenário inválido: pcd.cap_percent não pode ser nulo: a reserva para pessoas com deficiência "
            "tem sempre um teto (padrão 20%; Lei 8.112 art. 5 §2)."
        )
    return _rule(obj, "pcd", rounding="up", threshold=1, cap=20)


def _policy_object(obj: Mapping[str, Any]) -> Params:
    _known_keys(obj, POLICY_KEYS, "policy")
    racial = _rule(obj, "policy", rounding="half_up", threshold=0, cap=None)
    order = _choice(obj.get("order", "proportional"), ORDERS, "policy.order")
    nth = obj.get("nth", 5)
    if isinstance(nth, bool) or not isinstance(nth, int) or nth < 1:
        raise ScenarioError("Cenário inválido: policy.nth deve ser um inteiro maior que zero.")
    # Without ``priority``, the default of the order (RULES §4): PcD first in the proportional order,
    # racial first for every k-th.
    priority = obj.get("priority", [])
    if not isinstance(priority, list) or (priority and sorted(priority) != sorted(RESERVES)):
        raise ScenarioError(
            'Cenário inválido: policy.priority deve listar as duas reservas, ex.: ["pcd", "racial"].'
        )
    group_label = obj.get("group_label", "negros")
    if not isinstance(group_label, str) or not group_label.strip():
        raise ScenarioError("Cenário inválido: policy.group_label deve ser um texto.")
    return Params(
        racial=racial,
        order=order,
        nth=nth,
        priority=tuple(priority),
        open_competition_rule=_choice(
            obj.get("open_competition_rule", "projected"),
            OPEN_COMPETITION_RULES,
            "policy.open_competition_rule",
        ),
        dual_rule=_choice(obj.get("dual_rule", "choose"), DUAL_RULES, "policy.dual_rule"),
        dual_default=_choice(obj.get("dual_default", "racial"), RESERVES, "policy.dual_default"),
        group_label=group_label,
        reinstatement=_choice(
            obj.get("reinstatement", NEXT_SEAT), REINSTATEMENT_RULES, "policy.reinstatement"
        ),
    )


def _candidates(value: object) -> tuple[Candidate, ...]:
    if not isinstance(value, list):
        raise ScenarioError("Cenário inválido: candidates deve ser uma lista.")
    seen: set[str] = set()
    out = []
    for i, item in enumerate(value):
        where = f"candidates[{i}]"
        obj = _object(item, where)
        _known_keys(obj, CANDIDATE_KEYS, where)
        cid = obj.get("id")
        if not isinstance(cid, str) or not cid.strip():
            raise ScenarioError(f"Cenário inválido: {where}.id deve ser um texto não vazio.")
        if cid in seen:
            raise ScenarioError(f"Cenário inválido: candidato repetido: {cid!r}.")
        seen.add(cid)
        lists = obj.get("lists", [])
        if not isinstance(lists, list):
            raise ScenarioError(f"Cenário inválido: {where}.lists deve ser uma lista.")
        for name in lists:
            _choice(name, RESERVES, f"{where}.lists: reserva")
        if len(set(lists)) != len(lists):
            raise ScenarioError(f"Cenário inválido: {where}.lists repete uma reserva.")
        prefers = obj.get("prefers")
        if prefers is not None:
            _choice(prefers, RESERVES, f"{where}.prefers: reserva")
            if prefers not in lists:
                raise ScenarioError(
                    f"Cenário inválido: {cid} prefere a reserva {prefers!r}, a que não concorre."
                )
        out.append(Candidate(cid, frozenset(lists), prefers))
    return tuple(out)


def _events(value: object, known: set[str]) -> tuple[Event, ...]:
    if not isinstance(value, list):
        raise ScenarioError("Cenário inválido: events deve ser uma lista.")
    out = []
    for number, item in enumerate(value, start=1):
        where = f"evento {number}"
        obj = _object(item, where)
        if len(obj) != 1:
            raise ScenarioError(f'Cenário inválido: {where} deve ter uma só chave, ex.: {{"call": 5}}.')
        ((name, arg),) = obj.items()
        if name in ("call", "open"):
            _count(arg, f"{where} ({name})")
        elif isinstance(arg, str) and name not in ("call", "open") and arg not in known:
            raise ScenarioError(f"Cenário inválido: {where} ({name}): candidato desconhecido: {arg!r}.")
        try:
            out.append(event_from_dict(obj))
        except AllocationError as exc:
            raise ScenarioError(f"Cenário inválido: {where}: {exc}") from None
    return tuple(out)
