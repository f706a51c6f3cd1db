"""Court orders as records (issue 22): what an order is, which status follows which, and which engine
events each effect is (RULES §4 items 7 and 8).

PURE module: no Django, no project import, no clock.

**Statuses.** An order is recorded ``vigente``. A later decision in the case changes it:

    vigente    → revogada, reformada, confirmada, transitada em julgado
    confirmada → revogada, reformada, transitada em julgado

``revogada`` (the judge who gave it, or a higher court, withdrew it), ``reformada`` (a higher court
decided otherwise) and ``transitada em julgado`` (no appeal left) are final: a final order is never
changed again (a new decision in the case is a new order). A confirmed order (a liminar confirmed by the
sentence, a sentence confirmed on appeal) may still be reformed or revoked until the case is final.

**Reversal.** A reform is a revocation of the original effects: both undo what the order did, with
effect from the start (STF Tema 476, RE 608.482: a post held under a provisional order is precarious and
falls back when the order falls). Confirmation and transit keep the effects; for an order that keeps a
seat, they release it (``court_release``): the candidate takes office, the nomination still marked
"sub judice" until the transit.

**Effects → engine events** (RULES §4 items 7–8), per candidate in the order's scope:

- *reinclude in the lists*: ``reinstate`` (undo the latest elimination or exclusion);
- *keep a seat*: ``reinstate`` when the candidate was removed, then ``court_hold``;
- confirmation or transit of an order that keeps a seat: ``court_release``;
- revocation or reform: what the order did, undone — the removal it reversed applied again
  (``eliminate``, or ``exclude_from_reserve``), or, for a hold on a candidate who was never removed,
  ``eliminate`` (RULES §4 item 8: a candidate on hold who loses in court is eliminated).

The other effects (reinclude in a phase, nominate precariously, suspend an act, annul a commission's
decision, eliminate) are recorded and complied with by the office in their own screens: no engine event
is derived from them here.
"""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    INJUNCTION = "injunction"  # liminar
    URGENT_RELIEF = "urgent_relief"  # tutela de urgência
    JUDGMENT = "judgment"  # sentença
    APPELLATE = "appellate"  # acórdão
    SETTLEMENT = "settlement"  # acordo homologado


KIND_LABELS = {
    Kind.INJUNCTION: "Liminar",
    Kind.URGENT_RELIEF: "Tutela de urgência",
    Kind.JUDGMENT: "Sentença",
    Kind.APPELLATE: "Acórdão",
    Kind.SETTLEMENT: "Acordo homologado",
}


class Effect(StrEnum):
    REINCLUDE_LISTS = "reinclude_lists"
    REINCLUDE_PHASE = "reinclude_phase"
    KEEP_SEAT = "keep_seat"
    NOMINATE_PRECARIOUSLY = "nominate_precariously"
    SUSPEND_ACT = "suspend_act"
    ANNUL_COMMISSION = "annul_commission"
    ELIMINATE = "eliminate"


EFFECT_LABELS = {
    Effect.REINCLUDE_LISTS: "Reincluir nas listas",
    Effect.REINCLUDE_PHASE: "Reincluir em fase do concurso",
    Effect.KEEP_SEAT: "Reservar vaga (sem nomeação até decisão)",
    Effect.NOMINATE_PRECARIOUSLY: "Nomear a título precário",
    Effect.SUSPEND_ACT: "Suspender ato",
    Effect.ANNUL_COMMISSION: "Anular decisão de comissão",
    Effect.ELIMINATE: "Eliminar",
}


class Scope(StrEnum):
    CONTEST = "contest"
    POSITION = "position"
    LIST = "list"
    CANDIDATE = "candidate"
    GROUP = "group"


SCOPE_LABELS = {
    Scope.CONTEST: "Todo o concurso",
    Scope.POSITION: "Um cargo",
    Scope.LIST: "Uma lista",
    Scope.CANDIDATE: "Um candidato",
    Scope.GROUP: "Grupo de candidatos (ação coletiva)",
}
PERSONAL_SCOPES = frozenset({Scope.CANDIDATE, Scope.GROUP})


class Duration(StrEnum):
    FURTHER_DECISION = "further_decision"
    FINAL_JUDGMENT = "final_judgment"
    UNTIL_DATE = "until_date"


DURATION_LABELS = {
    Duration.FURTHER_DECISION: "Até ulterior decisão",
    Duration.FINAL_JUDGMENT: "Até o trânsito em julgado",
    Duration.UNTIL_DATE: "Até uma data",
}


class Status(StrEnum):
    IN_FORCE = "in_force"  # vigente
    REVOKED = "revoked"  # revogada
    REFORMED = "reformed"  # reformada
    CONFIRMED = "confirmed"  # confirmada
    FINAL = "final"  # transitada em julgado


STATUS_LABELS = {
    Status.IN_FORCE: "Vigente",
    Status.REVOKED: "Revogada",
    Status.REFORMED: "Reformada",
    Status.CONFIRMED: "Confirmada",
    Status.FINAL: "Transitada em julgado",
}

TRANSITIONS: dict[Status, frozenset[Status]] = {
    Status.IN_FORCE: frozenset({Status.REVOKED, Status.REFORMED, Status.CONFIRMED, Status.FINAL}),
    Status.CONFIRMED: frozenset({Status.REVOKED, Status.REFORMED, Status.FINAL}),
    Status.REVOKED: frozenset(),
    Status.REFORMED: frozenset(),
    Status.FINAL: frozenset(),
}
FINAL_STATUSES = frozenset(s for s, targets in TRANSITIONS.items() if not targets)
IN_EFFECT = frozenset({Status.IN_FORCE, Status.CONFIRMED, Status.FINAL})  # the order's effects stand
REVERSALS = frozenset({Status.REVOKED, Status.REFORMED})  # the effects fall, from the start
KEEPS = frozenset({Status.CONFIRMED, Status.FINAL})  # the effects are confirmed


def transition_error(current: Status, target: Status) -> str:
    """Why the order cannot go from ``current`` to ``target`` (Portuguese), or '' when it can."""
    current, target = Status(current), Status(target)
    if current == target:
        return f"A ordem já está {STATUS_LABELS[current].lower()}."
    if current in FINAL_STATUSES:
        return (
            f"A ordem está {STATUS_LABELS[current].lower()}: é situação definitiva e não muda mais "
            "(nova decisão no processo é registrada como nova ordem)."
        )
    if target not in TRANSITIONS[current]:
        return (
            f"Uma ordem {STATUS_LABELS[current].lower()} não pode passar a {STATUS_LABELS[target].lower()}."
        )
    return ""


def allowed(current: Status) -> list[Status]:
    """The statuses ``current`` may move to, in the order of ``Status``."""
    targets = TRANSITIONS[Status(current)]
    return [s for s in Status if s in targets]


# Engine events (RULES §8 event names) ---------------------------------------------------------------------

REINSTATE = "reinstate"
COURT_HOLD = "court_hold"
COURT_RELEASE = "court_release"
ELIMINATE = "eliminate"
EXCLUDE = "exclude_from_reserve"
ENGINE_EFFECTS = frozenset({Effect.REINCLUDE_LISTS, Effect.KEEP_SEAT})

# Effects that fall on named candidates: the order's scope is a candidate or a group of candidates.
PERSONAL_EFFECTS = frozenset(
    {Effect.REINCLUDE_LISTS, Effect.KEEP_SEAT, Effect.NOMINATE_PRECARIOUSLY, Effect.ELIMINATE}
)

# Orders under which a nomination is precarious (STF Tema 476) until the case is final: the ones that put or
# keep the candidate in the competition, while in force or confirmed. Revoked and reformed orders no longer
# hold anything; a final one makes it definitive.
PRECARIOUS_EFFECTS = frozenset(
    {
        Effect.REINCLUDE_LISTS,
        Effect.REINCLUDE_PHASE,
        Effect.KEEP_SEAT,
        Effect.NOMINATE_PRECARIOUSLY,
        Effect.ANNUL_COMMISSION,
    }
)
PRECARIOUS_STATUSES = frozenset({Status.IN_FORCE, Status.CONFIRMED})

# The registration statuses that are a removal from the lists, and the engine event that removed it (the one
# a revocation applies again). Values of ``candidates.models.Registration.Status``.
REMOVALS = {
    "eliminated": ELIMINATE,
    "cancelled": ELIMINATE,
    "excluded_from_reserve": EXCLUDE,
}


def events_on_apply(effect: Effect, *, removed_by: str) -> list[str]:
    """The engine events that comply with ``effect`` for one candidate; ``removed_by`` is the removal
    the candidate is under (``eliminate``, ``exclude_from_reserve``) or '' when on the lists."""
    effect = Effect(effect)
    if effect is Effect.REINCLUDE_LISTS:
        return [REINSTATE] if removed_by else []
    if effect is Effect.KEEP_SEAT:
        return ([REINSTATE] if removed_by else []) + [COURT_HOLD]
    return []


def events_on_status(effect: Effect, target: Status, *, applied: list[str], removed_by: str) -> list[str]:
    """The engine events that follow the order's move to ``target`` for one candidate, given the events
    already applied for it (on compliance and on earlier moves) and the removal (``removed_by``) that it
    reversed, if any. A seat released once is not released again (confirmation, then transit)."""
    effect, target = Effect(effect), Status(target)
    if not applied:
        return []
    if target in KEEPS:
        return [COURT_RELEASE] if COURT_HOLD in applied and COURT_RELEASE not in applied else []
    if target in REVERSALS:
        if REINSTATE in applied:
            return [removed_by or ELIMINATE]
        if COURT_HOLD in applied:
            return [ELIMINATE]
    return []
