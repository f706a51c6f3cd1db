"""The engine's plain records as JSON-able data and back: a candidate, a nomination, the policy's
``Params`` (what ``State.to_dict``/``State.from_dict`` store, and what a result run's inputs hash reads).

PURE module: standard library, ``contests.quotas`` and the other pure modules of ``candidates`` only.
``candidates.engine.allocation`` re-exports ``params_to_dict`` and ``params_from_dict``; keys and defaults
are the stored format (``cotas.allocation/1``): changing one changes every saved ledger and inputs hash.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from candidates.engine.ranking import Candidate
from candidates.engine.records import Nomination, Reason
from candidates.engine.schedule import (
    CHOOSE,
    NEXT_SEAT,
    PCD,
    PROJECTED,
    PROPORTIONAL,
    RACIAL,
    AllocationError,
    Params,
)
from contests.quotas import QuotaError, ReserveRule, to_fraction


def candidate_to_dict(c: Candidate) -> dict[str, Any]:
    data: dict[str, Any] = {"id": c.id}
    if c.lists:
        data["lists"] = sorted(c.lists)
    if c.prefers:
        data["prefers"] = c.prefers
    return data


def candidate_from_dict(data: Mapping[str, Any]) -> Candidate:
    return Candidate(data["id"], frozenset(data.get("lists", ())), data.get("prefers"))


def nomination_from_dict(data: Mapping[str, Any]) -> Nomination:
    return Nomination(
        order=int(data["order"]),
        seat=int(data["seat"]),
        kind=str(data["kind"]),
        candidate=str(data["candidate"]),
        list=str(data["list"]),
        status=str(data["status"]),
        why=str(data.get("why", "")),
        reverted=bool(data.get("reverted", False)),
        compensated=bool(data.get("compensated", False)),
        reason=Reason.from_dict(data["reason"]) if data.get("reason") else None,
        reinstated=bool(data.get("reinstated", False)),
        displaced=bool(data.get("displaced", False)),
    )


def params_to_dict(params: Params) -> dict[str, Any]:
    data: dict[str, Any] = {
        "racial": rule_to_dict(params.racial),
        "pcd": rule_to_dict(params.pcd) if params.pcd is not None else None,
        "order": params.order,
        "nth": params.nth,
        "priority": list(params.priority),
        "open_competition_rule": params.open_competition_rule,
        "dual_rule": params.dual_rule,
        "dual_default": params.dual_default,
        "group_label": params.group_label,
        "threshold_extra": params.threshold_extra,
        "citations": dict(params.citations),
    }
    if params.reinstatement != NEXT_SEAT:
        # Only when not the default: a result run's inputs hash made before the key existed stays valid.
        data["reinstatement"] = params.reinstatement
    return data


def params_from_dict(data: Mapping[str, Any]) -> Params:
    pcd = data.get("pcd")
    try:
        return Params(
            racial=rule_from_dict(data["racial"]),
            pcd=rule_from_dict(pcd) if pcd is not None else None,
            order=data.get("order", PROPORTIONAL),
            nth=data.get("nth", 5),
            priority=tuple(data.get("priority", (PCD, RACIAL))),
            open_competition_rule=data.get("open_competition_rule", PROJECTED),
            dual_rule=data.get("dual_rule", CHOOSE),
            dual_default=data.get("dual_default", RACIAL),
            group_label=data.get("group_label", "negros"),
            threshold_extra=data.get("threshold_extra", 0),
            citations=data.get("citations", {}),
            reinstatement=data.get("reinstatement", NEXT_SEAT),
        )
    except QuotaError as exc:
        raise AllocationError(str(exc)) from None


def rule_to_dict(rule: ReserveRule) -> dict[str, Any]:
    return {
        "percent": str(rule.percent),
        "threshold": rule.threshold,
        "rounding": str(rule.rounding),
        "cap_percent": str(rule.cap_percent) if rule.cap_percent is not None else None,
    }


def rule_from_dict(data: Mapping[str, Any]) -> ReserveRule:
    cap = data.get("cap_percent")
    return ReserveRule(
        percent=to_fraction(data["percent"]),
        threshold=data.get("threshold", 0),
        rounding=data.get("rounding", "half_up"),
        cap_percent=to_fraction(cap) if cap is not None else None,
    )
