"""Classification lists of a contest as frozen runs: compute, publish, discard (RULES.md §3).

Computing a run reads the registrations, scores, phases and tie-break criteria of the contest (or of one
position), and asks the pure ranking (``candidates.engine.ranking``, re-exported by ``candidates.engine.allocation``)
for everything that is a rule: ``rank`` (score, the elderly first, the edital's criteria, the inscription
number last), ``phase_cut`` (a phase's cut-off per list, SM art. 4 §1), ``classification_lists`` (the
general list and each reserve), ``tie_break_reason`` (why one of two tied candidates comes first). This
module only prepares the data and writes the result:

- a registration that is eliminated, withdrawn or cancelled, absent from a phase, below a phase's pass
  mark (SM art. 4 §2) or without a score is on no list; its entry (list ``out``) says why;
- the final score is the organiser's when the file gave one, else the phases' scores weighted by
  ``Phase.weight`` (the edital's formula: a weighted sum);
- the run's entries are written once, in bulk (``ResultEntry`` has no history of its own: the run's
  history records who computed and who published it), and never changed. Publishing freezes the run; a
  later change makes a new run.

The inputs are summed up in ``ResultRun.inputs_hash``: publishing re-reads them and refuses a draft
computed from data that has changed since.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from candidates.engine import allocation
from candidates.engine.ranking import criteria_from_kinds, reaches_pass_mark
from candidates.engine_params import params_for_contest
from candidates.models import (
    SCORE_QUANTUM,
    AllocationLedger,
    Phase,
    PhaseResult,
    Registration,
    ResultEntry,
    ResultRun,
)
from candidates.services.registrations import tie_break_criteria
from contests.audit import User, audited_delete, audited_save
from contests.models import Contest, Position
from contests.quotas import format_fraction

BATCH = 5000
OUT = ResultEntry.List.OUT
OUT_STATUSES: dict[str, str] = {
    Registration.Status.ELIMINATED: "inscrição eliminada do concurso",
    Registration.Status.WITHDRAWN: "candidato desistente",
    Registration.Status.CANCELLED: "inscrição cancelada (indeferida)",
}


# Gathering the inputs --------------------------------------------------------------------------------


@dataclass
class _Reg:
    pk: int
    number: str
    position_id: int
    status: str
    racial: bool
    pcd: bool
    prefers: str
    final_score: Decimal | None
    absent: bool
    jury: bool
    name: str
    birth_date: datetime.date | None
    phases: dict[int, tuple[Decimal | None, bool]] = field(default_factory=dict)


@dataclass
class _Inputs:
    contest: Contest
    positions: list[Position]
    phases: list[Phase]
    criteria: list[tuple[str, int | None]]
    registrations: list[_Reg]
    params: allocation.Params
    digest: str


def _gather(contest: Contest, positions: Sequence[Position]) -> _Inputs:
    """Everything a run depends on, and its SHA-256 (the same data gives the same digest)."""
    params = params_for_contest(contest)
    phases = list(Phase.objects.filter(contest=contest).order_by("order", "pk"))
    criteria = tie_break_criteria(contest)
    position_ids = [p.pk for p in positions]
    rows = (
        Registration.objects.filter(contest=contest, position_id__in=position_ids)
        .order_by("pk")
        .values_list(
            "pk",
            "number",
            "position_id",
            "status",
            "racial_reserve",
            "pcd_reserve",
            "preferred_reserve",
            "final_score",
            "absent",
            "jury_service",
            "candidate__full_name",
            "candidate__social_name",
            "candidate__birth_date",
        )
    )
    regs: dict[int, _Reg] = {}
    for (
        pk,
        number,
        pos,
        status,
        racial,
        pcd,
        prefers,
        final,
        absent,
        jury,
        full,
        social,
        birth,
    ) in rows.iterator(chunk_size=BATCH):
        regs[pk] = _Reg(
            pk, number, pos, status, racial, pcd, prefers, final, absent, jury, social or full, birth
        )
    results = (
        PhaseResult.objects.filter(registration__contest=contest, registration__position_id__in=position_ids)
        .order_by("registration_id", "phase_id")
        .values_list("registration_id", "phase_id", "score", "absent")
    )
    for reg_id, phase_id, score, absent in results.iterator(chunk_size=BATCH):
        regs[reg_id].phases[phase_id] = (score, absent)

    digest = hashlib.sha256()
    digest.update(repr(allocation.params_to_dict(params)).encode())
    digest.update(repr((contest.registration_end, contest.edital_date, criteria)).encode())
    for phase in phases:
        digest.update(
            repr(
                (
                    phase.pk,
                    phase.name,
                    phase.order,
                    phase.weight,
                    phase.max_score,
                    phase.pass_mark,
                    phase.cutoff,
                    phase.cutoff_open,
                    phase.cutoff_racial,
                    phase.cutoff_pcd,
                )
            ).encode()
        )
    for position in positions:
        digest.update(repr((position.pk, position.code)).encode())
    for reg in regs.values():
        digest.update(
            repr(
                (
                    reg.pk,
                    reg.number,
                    reg.position_id,
                    reg.status,
                    reg.racial,
                    reg.pcd,
                    reg.prefers,
                    reg.final_score,
                    reg.absent,
                    reg.jury,
                    reg.name,
                    reg.birth_date,
                    sorted(reg.phases.items()),
                )
            ).encode()
        )
    return _Inputs(
        contest, list(positions), phases, criteria, list(regs.values()), params, digest.hexdigest()
    )


# Computing one position's lists ------------------------------------------------------------------------


def _num(value: Fraction | Decimal | None) -> str:
    if value is None:
        return "—"
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{value.quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP):f}".replace(".", ",")


@lru_cache(maxsize=100_000)
def _exact(value: Decimal) -> Fraction:
    """A score as the ranking needs it (exact); scores repeat a lot, so conversions are cached."""
    return Fraction(value)


ENTRY_COLUMNS = ("registration_id", "list", "rank", "general_rank", "score", "number", "name", "why")


@dataclass
class _Computed:
    entries: list[tuple]  # values of ENTRY_COLUMNS
    summary: dict[str, object]


def _applicant(reg: _Reg, score: Fraction, phase_scores: dict[str, Fraction], reserves: tuple[str, ...]):
    lists = set()
    if (
        reg.racial
        and allocation.RACIAL in reserves
        and reg.status != Registration.Status.EXCLUDED_FROM_RESERVE
    ):
        lists.add(allocation.RACIAL)
    if reg.pcd and allocation.PCD in reserves and reg.status != Registration.Status.EXCLUDED_FROM_RESERVE:
        lists.add(allocation.PCD)
    prefers = reg.prefers if reg.prefers in lists else None
    return allocation.Applicant(
        id=str(reg.pk),
        inscription=reg.number,
        score=score,
        birth_date=reg.birth_date,
        phase_scores=tuple(phase_scores.items()),
        jury_service=reg.jury,
        lists=frozenset(lists),
        prefers=prefers,
    )


def _compute_position(inputs: _Inputs, position: Position, run: ResultRun, regs: list[_Reg]) -> _Computed:
    contest = inputs.contest
    params = inputs.params
    reserves = params.reserves
    registration_end = contest.registration_end or contest.edital_date
    names: dict[int | None, str] = {p.pk: p.name for p in inputs.phases}
    criteria = criteria_from_kinds((kind, names.get(phase_id)) for kind, phase_id in inputs.criteria)
    out: dict[int, tuple[str, str]] = {}  # pk → (category for the summary, why)
    by_pk = {reg.pk: reg for reg in regs}

    def entry(reg: _Reg, *, list: str, rank: int | None, general_rank: int | None, score, why: str) -> tuple:
        return (reg.pk, list, rank, general_rank, score, reg.number, reg.name[:200], why)

    # Status, absence, phase by phase (pass mark, then cut-off), final score.
    alive: list[_Reg] = []
    for reg in regs:
        if reg.status in OUT_STATUSES:
            out[reg.pk] = (OUT_STATUSES[reg.status], OUT_STATUSES[reg.status].capitalize())
        elif reg.absent or any(absent for _, absent in reg.phases.values()):
            missed = [p.name for p in inputs.phases if reg.phases.get(p.pk, (None, False))[1]]
            where = f" na fase {', '.join(missed)}" if missed else ""
            out[reg.pk] = ("ausente", f"Ausente{where} (eliminado, conforme o edital)")
        else:
            alive.append(reg)
    raw: dict[int, dict[str, Decimal]] = {
        reg.pk: {
            names[phase_id]: score
            for phase_id, (score, _) in reg.phases.items()
            if score is not None and phase_id in names
        }
        for reg in alive
    }
    scores: dict[int, dict[str, Fraction]] = {
        pk: {name: _exact(score) for name, score in values.items()} for pk, values in raw.items()
    }
    for phase in inputs.phases:
        still: list[_Reg] = []
        minimum = _exact(phase.pass_mark) if phase.pass_mark is not None else None
        for reg in alive:
            score = scores[reg.pk].get(phase.name)
            if minimum is not None and score is None and reg.final_score is None:
                out[reg.pk] = ("sem nota", f"Sem nota na fase {phase.name}, que tem nota mínima")
            elif score is not None and not reaches_pass_mark(score, minimum):
                out[reg.pk] = (
                    "abaixo da nota mínima",
                    f"Nota {_num(score)} na fase {phase.name}, abaixo da nota mínima "
                    f"{_num(phase.pass_mark)}: fora de todas as listas, cotistas inclusive",
                )
            else:
                still.append(reg)
        alive = still
        if phase.cutoff is not None and alive:
            with_score = [reg for reg in alive if phase.name in scores[reg.pk]]
            for reg in alive:
                if phase.name not in scores[reg.pk]:
                    out[reg.pk] = ("sem nota", f"Sem nota na fase {phase.name}, que tem nota de corte")
            ranked_phase = allocation.rank(
                [_applicant(reg, scores[reg.pk][phase.name], scores[reg.pk], reserves) for reg in with_score],
                registration_end=registration_end,
                criteria=criteria,
            )
            quota = {
                name: value
                for name, value in (
                    ("open", phase.cutoff_open),
                    ("racial", phase.cutoff_racial),
                    ("pcd", phase.cutoff_pcd),
                )
                if value is not None
            }
            cut = allocation.phase_cut(
                ranked_phase, phase.cutoff, racial=params.racial, pcd=params.pcd, quota=quota
            )
            passed = set(cut.passed)
            for a in ranked_phase:
                if a.id not in passed:
                    out[int(a.id)] = (
                        "não classificado no corte da fase",
                        f"Não classificado na fase {phase.name} (nota {_num(a.score)}): {cut.explanation}",
                    )
            alive = [reg for reg in with_score if str(reg.pk) in passed]

    applicants = []
    stored: dict[str, Decimal] = {}
    weights = {p.name: p.weight for p in inputs.phases}
    for reg in alive:
        phase_scores = scores[reg.pk]
        if reg.final_score is not None:
            final = reg.final_score
        elif inputs.phases:
            missing = [p.name for p in inputs.phases if p.name not in phase_scores]
            if missing:
                out[reg.pk] = ("sem nota", f"Sem nota na fase {', '.join(missing)}: nota final não calculada")
                continue
            # Decimal products and sums of decimals are exact (28 significant digits are plenty here).
            final = sum((weights[name] * value for name, value in raw[reg.pk].items()), Decimal(0))
        else:
            out[reg.pk] = ("sem nota", "Sem nota final")
            continue
        applicant = _applicant(reg, _exact(final), phase_scores, reserves)
        stored[applicant.id] = final.quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP)
        applicants.append(applicant)

    ranked = allocation.rank(applicants, registration_end=registration_end, criteria=criteria)
    lists = allocation.classification_lists(ranked)
    general_rank = {a.id: i for i, a in enumerate(ranked, start=1)}
    entries: list[tuple] = []  # values of ENTRY_COLUMNS
    label = params.label
    for i, a in enumerate(ranked):
        reg = by_pk[int(a.id)]
        why = f"{i + 1}º na ampla concorrência, nota final {_num(a.score)}"
        if i > 0 and ranked[i - 1].score == a.score:
            before = ranked[i - 1]
            reason = allocation.tie_break_reason(
                before, a, registration_end=registration_end, criteria=criteria
            )
            why += f"; empatado na nota com a inscrição {before.inscription}, que fica à frente por: {reason}"
        if i + 1 < len(ranked) and ranked[i + 1].score == a.score:
            after = ranked[i + 1]
            reason = allocation.tie_break_reason(
                a, after, registration_end=registration_end, criteria=criteria
            )
            why += f"; fica à frente da inscrição {after.inscription}, empatada na nota, por: {reason}"
        opted = [label(r) for r in reserves if r in a.lists]
        if opted:
            why += f"; concorre também à reserva a {' e à reserva a '.join(opted)}"
        if reg.status == Registration.Status.EXCLUDED_FROM_RESERVE:
            why += "; excluída das reservas: permanece somente na ampla concorrência"
        entries.append(
            entry(
                reg,
                list=ResultEntry.List.OPEN,
                rank=i + 1,
                general_rank=i + 1,
                score=stored[a.id],
                why=why,
            )
        )
    by_id = {a.id: a for a in ranked}
    for name in reserves:
        members = getattr(lists, name)
        for j, cid in enumerate(members, start=1):
            a = by_id[cid]
            reg = by_pk[int(cid)]
            g = general_rank[cid]
            why = (
                f"{j}º da lista reservada a {label(name)} ({g}º na ampla concorrência, nota final "
                f"{_num(a.score)}): optou pela reserva no ato da inscrição"
            )
            entries.append(entry(reg, list=name, rank=j, general_rank=g, score=stored[a.id], why=why))
    for pk, (_, reason) in out.items():
        reg = by_pk[pk]
        out_score = (
            reg.final_score.quantize(SCORE_QUANTUM, rounding=ROUND_HALF_UP)
            if reg.final_score is not None
            else None
        )
        entries.append(entry(reg, list=OUT, rank=None, general_rank=None, score=out_score, why=reason))

    reasons = Counter(category for category, _ in out.values())
    summary = {
        "code": position.code,
        "registrations": len(regs),
        "open": len(lists.general),
        "racial": len(lists.racial) if allocation.RACIAL in reserves else 0,
        "pcd": len(lists.pcd) if allocation.PCD in reserves else 0,
        "out": len(out),
        "out_reasons": dict(reasons.most_common(8)),
    }
    return _Computed(entries, summary)


def _write_entries(run: ResultRun, position: Position, rows: list[tuple]) -> None:
    """Write a run's entries in bulk: PostgreSQL COPY (tens of thousands of rows in a second or two),
    ``bulk_create`` elsewhere. The database's constraints check every row either way."""
    if connection.vendor == "postgresql":
        columns = ", ".join(("run_id", "position_id", *ENTRY_COLUMNS))
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {ResultEntry._meta.db_table} ({columns}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row((run.pk, position.pk, *row))
        return
    ResultEntry.objects.bulk_create(
        (
            ResultEntry(run=run, position=position, **dict(zip(ENTRY_COLUMNS, row, strict=True)))
            for row in rows
        ),
        batch_size=BATCH,
    )


# Services ----------------------------------------------------------------------------------------------


def _scope(contest: Contest, position: Position | None) -> list[Position]:
    if position is not None:
        if position.contest_id != contest.pk:
            raise ValidationError("O cargo não pertence a este concurso.")
        return [position]
    return list(contest.positions.order_by("code", "pk"))


def _last_published(
    contest: Contest, position: Position | None, *, exclude: int | None = None
) -> ResultRun | None:
    runs = ResultRun.objects.filter(contest=contest, status=ResultRun.Status.PUBLISHED)
    runs = runs.filter(position=position) if position is not None else runs.filter(position__isnull=True)
    if exclude is not None:
        runs = runs.exclude(pk=exclude)
    return runs.order_by("-published_at", "-pk").first()


@transaction.atomic
def result_run_compute(
    *, contest: Contest, by: User | None, position: Position | None = None, kind: str = "", notes: str = ""
) -> ResultRun:
    """Compute the lists of ``contest`` (or of one ``position``) as a new draft run.

    Earlier drafts of the same scope are discarded (a draft is a working copy, not a document); the
    published runs stay as they are. ``kind`` is the intended kind (preliminary or final), which the
    publisher confirms.
    """
    contest = Contest.objects.select_for_update().select_related("policy").get(pk=contest.pk)
    if kind and kind not in ResultRun.Kind.values:
        raise ValidationError({"kind": "Espécie de lista desconhecida."})
    positions = _scope(contest, position)
    if not positions:
        raise ValidationError("O concurso não tem cargos.")
    for draft in ResultRun.objects.filter(contest=contest, status=ResultRun.Status.DRAFT, position=position):
        audited_delete(draft, by=by, reason="Rascunho substituído por novo cálculo")
    inputs = _gather(contest, positions)
    number = (ResultRun.objects.filter(contest=contest).aggregate(n=Max("number"))["n"] or 0) + 1
    run = ResultRun(
        contest=contest,
        position=position,
        number=number,
        kind=kind,
        computed_at=timezone.now(),
        computed_by=by,
        inputs_hash=inputs.digest,
        previous=_last_published(contest, position),
        notes=notes,
    )
    audited_save(run, by=by, reason="Lista calculada")
    per_position: dict[int, list[_Reg]] = {p.pk: [] for p in positions}
    for reg in inputs.registrations:
        per_position[reg.position_id].append(reg)
    per_position_summary: dict[str, object] = {}
    summary: dict[str, object] = {"positions": per_position_summary}
    for pos in positions:
        computed = _compute_position(inputs, pos, run, per_position[pos.pk])
        _write_entries(run, pos, computed.entries)
        per_position_summary[str(pos.pk)] = computed.summary
    summary["params"] = {
        "policy": str(contest.policy),
        "percent": format_fraction(inputs.params.racial.percent),
        "pcd": inputs.params.pcd is not None,
    }
    run.summary = summary
    audited_save(run, by=by, reason="Lista calculada")
    return run


@transaction.atomic
def result_run_publish(*, run: ResultRun, kind: str, by: User | None) -> ResultRun:
    """Publish a draft run as preliminary or final: from now on it never changes.

    Refused when the data changed since the draft was computed (compute again), and, for a final run,
    when a position it covers already has nominations made from another final run (the nomination
    order continues from the list it started from; later changes go through eliminations).
    """
    run = (
        ResultRun.objects.select_for_update(of=("self",)).select_related("contest", "position").get(pk=run.pk)
    )
    if run.is_published:
        raise ValidationError("Esta lista já foi publicada; uma alteração exige novo cálculo.")
    if kind not in ResultRun.Kind.values:
        raise ValidationError({"kind": "Escolha lista preliminar ou final."})
    positions = _scope(run.contest, run.position)
    if _gather(run.contest, positions).digest != run.inputs_hash:
        raise ValidationError(
            "Os dados mudaram depois deste cálculo (inscrições, notas, fases, critérios ou política): "
            "calcule a lista de novo e revise-a antes de publicar."
        )
    if kind == ResultRun.Kind.FINAL:
        started = (
            AllocationLedger.objects.filter(position__in=positions)
            .exclude(run=run)
            .select_related("position")
        )
        codes = sorted(ledger.position.code for ledger in started)
        if codes:
            raise ValidationError(
                f"Já há nomeações a partir de outra lista final em: {', '.join(codes)}. A ordem de nomeação "
                "continua da lista de que partiu; mudanças posteriores se fazem por eliminação ou exclusão."
            )
    run.kind = kind
    run.status = ResultRun.Status.PUBLISHED
    run.published_at = timezone.now()
    run.published_by = by
    run.previous = _last_published(run.contest, run.position, exclude=run.pk)
    audited_save(run, by=by, reason=f"Lista publicada como {run.get_kind_display().lower()}")
    return run


@transaction.atomic
def result_run_discard(*, run: ResultRun, by: User | None) -> None:
    """Delete a draft run (a published one is a document and stays)."""
    run = ResultRun.objects.select_for_update().get(pk=run.pk)
    if run.is_published:
        raise ValidationError("Uma lista publicada não pode ser descartada.")
    audited_delete(run, by=by, reason="Rascunho descartado")


def final_run_for(position: Position) -> ResultRun | None:
    """The latest published final run that covers ``position`` (nominations start from it)."""
    return (
        ResultRun.objects.filter(contest_id=position.contest_id, status=ResultRun.Status.PUBLISHED)
        .filter(kind=ResultRun.Kind.FINAL)
        .filter(Q(position=position) | Q(position__isnull=True))
        .order_by("-published_at", "-pk")
        .first()
    )


def runs_for(contest: Contest) -> QuerySet[ResultRun]:
    return ResultRun.objects.filter(contest=contest).select_related(
        "contest", "position", "computed_by", "published_by"
    )
