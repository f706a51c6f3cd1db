"""The contest's phases as the edital sets them up: order, weight, maximum, pass mark, cut-off per list
(SM art. 4 §§1–2, RULES §3), and the contest's minimum final score for approval.

Every write locks the contest row first, so two clerks reordering or adding phases at once queue up
(the order of each phase is unique in its contest). The split of a cut-off between the lists is the pure
``candidates.engine.ranking.cut_quota``, checked by ``Phase.clean``; nothing here recomputes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from candidates.models import Phase, PhaseResult, ResultRun, TieBreakCriterion
from contests import services as contest_services
from contests.audit import User, assign, audited_delete, audited_save
from contests.models import Contest

PHASE_FIELDS = (
    "name",
    "order",
    "weight",
    "max_score",
    "pass_mark",
    "starts_on",
    "ends_on",
    "cutoff",
    "cutoff_open",
    "cutoff_racial",
    "cutoff_pcd",
)
UP, DOWN = "up", "down"


def _locked(contest: Contest) -> Contest:
    return Contest.objects.select_for_update().select_related("policy").get(pk=contest.pk)


def _refuse_repeated_name(contest: Contest, name: str, *, exclude: int | None = None) -> None:
    others = Phase.objects.filter(contest=contest, name__iexact=name.strip())
    if exclude is not None:
        others = others.exclude(pk=exclude)
    if others.exists():
        raise ValidationError({"name": "Já há uma fase com este nome neste concurso."})


def _without_absent_reserves(contest: Contest, data: Mapping[str, Any]) -> dict[str, Any]:
    """A contest without a PcD reserve has no PcD list to cut: its K is not kept (RULES §3)."""
    cleaned = dict(data)
    if contest.pcd_rule() is None and "cutoff_pcd" in cleaned:
        cleaned["cutoff_pcd"] = None
    if cleaned.get("cutoff", 0) is None:
        # No cut-off: no K per list either (they would split nothing).
        cleaned.update(cutoff_open=None, cutoff_racial=None, cutoff_pcd=None)
    return cleaned


@transaction.atomic
def phase_create(*, contest: Contest, by: User | None, data: Mapping[str, Any]) -> Phase:
    """A new phase, after the contest's others unless ``data`` gives its order."""
    contest = _locked(contest)
    phase = Phase(contest=contest)
    if "order" not in data:
        phase.order = (Phase.objects.filter(contest=contest).aggregate(n=Max("order"))["n"] or 0) + 1
    if "name" in data:
        _refuse_repeated_name(contest, data["name"])
    assign(phase, _without_absent_reserves(contest, data), allowed=PHASE_FIELDS)
    audited_save(phase, by=by, reason="Fase criada")
    return phase


@transaction.atomic
def phase_update(*, phase: Phase, by: User | None, data: Mapping[str, Any]) -> Phase:
    """Change a phase's name, weight, maximum, pass mark or cut-off (its order moves with ``phase_move``).

    Lists already published stay as they were (RULES §3: a published cut stands); the next computation
    uses the new values."""
    contest = _locked(phase.contest)
    phase = Phase.objects.select_for_update().get(pk=phase.pk, contest=contest)
    phase.contest = contest
    fields = {key: value for key, value in data.items() if key != "order"}
    if "name" in fields:
        _refuse_repeated_name(contest, fields["name"], exclude=phase.pk)
    if "max_score" in fields and fields["max_score"] is not None:
        above = PhaseResult.objects.filter(phase=phase, score__gt=fields["max_score"]).count()
        if above:
            words = (
                "nota já lançada nesta fase passa" if above == 1 else "notas já lançadas nesta fase passam"
            )
            raise ValidationError(
                {"max_score": f"{above} {words} desta nota máxima: corrija as notas antes de reduzi-la."}
            )
    changed = assign(phase, _without_absent_reserves(contest, fields), allowed=PHASE_FIELDS)
    if changed:
        audited_save(phase, by=by, reason="Fase alterada")
    return phase


@transaction.atomic
def phase_move(*, phase: Phase, by: User | None, direction: str) -> Phase:
    """Swap a phase with the one before (``up``) or after (``down``) it; the phases stay numbered 1…n."""
    if direction not in (UP, DOWN):
        raise ValidationError("Direção desconhecida.")
    contest = _locked(phase.contest)
    phases = list(Phase.objects.select_for_update().filter(contest=contest).order_by("order", "pk"))
    index = next((i for i, p in enumerate(phases) if p.pk == phase.pk), None)
    if index is None:
        raise ValidationError("A fase não pertence a este concurso.")
    other_index = index - 1 if direction == UP else index + 1
    if not 0 <= other_index < len(phases):
        raise ValidationError("A fase já é a primeira." if direction == UP else "A fase já é a última.")
    moving, other = phases[index], phases[other_index]
    moving_order, other_order = moving.order, other.order
    # The order is unique per contest: a free value first (0 is never a phase's order), without history.
    moving.order = 0
    moving.save_without_historical_record(update_fields=["order"])  # type: ignore[attr-defined]
    other.order = moving_order
    audited_save(other, by=by, reason="Ordem das fases alterada")
    moving.order = other_order
    audited_save(moving, by=by, reason="Ordem das fases alterada")
    return moving


def phase_delete_refusal(phase: Phase) -> str:
    """Why a phase cannot be deleted (scores recorded, a tie-break criterion or a list depends on it),
    in Portuguese; empty when it can."""
    scores = PhaseResult.objects.filter(phase=phase).count()
    if scores:
        return (
            f"A fase tem {scores} resultado{'s' if scores > 1 else ''} lançado{'s' if scores > 1 else ''} "
            "(notas ou ausências): ela não pode ser excluída."
        )
    if TieBreakCriterion.objects.filter(phase=phase).exists():
        return "A fase é usada num critério de desempate do concurso: retire-a dos critérios antes."
    if ResultRun.objects.filter(after_phase=phase).exists():
        return "Há listas calculadas após esta fase: ela não pode ser excluída."
    return ""


@transaction.atomic
def phase_delete(*, phase: Phase, by: User | None) -> None:
    """Delete a phase without results; the later ones move up, so the phases stay numbered 1…n."""
    contest = _locked(phase.contest)
    phase = Phase.objects.select_for_update().get(pk=phase.pk, contest=contest)
    refusal = phase_delete_refusal(phase)
    if refusal:
        raise ValidationError(refusal)
    audited_delete(phase, by=by, reason="Fase excluída")
    for number, later in enumerate(
        Phase.objects.select_for_update().filter(contest=contest).order_by("order", "pk"), start=1
    ):
        if later.order != number:
            later.order = number
            audited_save(later, by=by, reason="Ordem das fases alterada")


def contest_minimum_final_score_set(*, contest: Contest, by: User | None, value: Decimal | None) -> Contest:
    """The edital's minimum final score for approval (SM art. 4 §2), or none."""
    return contest_services.contest_update(contest=contest, by=by, data={"minimum_final_score": value})
