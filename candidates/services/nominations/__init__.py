"""Nominations of a position, seat by seat (RULES.md §4): preview, call, took office, withdrawal, no-show,
end of list, vacancies opened during validity.

By topic: ``loading`` (the engine's state read, brought up to date and saved with the ``Nomination``
rows), ``calls`` (preview and call), ``events`` (took office, withdrawal, no-show, end of list, sync) and
``openings`` (vacancies opened during validity), ``reinstatement`` (a reversed removal, a court hold
and its release: RULES §4 items 7–8). This package re-exports their services, so
``from candidates.services.nominations import nominations_call`` is the way in.

Every write is ``@transaction.atomic`` and starts by locking the position's row (``select_for_update``):
two clerks calling on the same position at once are served one after the other, and the second one
continues from the state the first one left, so a seat is never filled twice nor a candidate nominated
twice (the partial unique constraints of ``Nomination`` would refuse it anyway).

Where the state lives
---------------------
The pure engine (``candidates.engine.allocation``) decides who fills each seat. Its state for a position is
kept in ``AllocationLedger.state`` as ``State.to_dict(include_candidates=False)`` (a snapshot; why a
snapshot and not an event log: see ``AllocationLedger``). The candidates are the general list of the
published final run (``ResultRun``), read again on each load, with the reserves each one is on and the
reserve preferred for a simultaneous call. In the engine a candidate is named ``"inscrição <number>"``,
so its Portuguese explanations read well.

``Nomination`` rows mirror the engine's nominations one to one (same ``order``): after each event the
rows whose engine nomination changed are updated (status, and for compensation the seat's kind and
list), and new ones are created with the act's data.

On every load the state is brought up to date with what happened elsewhere: vacancies opened on the
position's page (``contests.services.vacancy_opening_create``) are applied as ``OpenVacancies``, and a
registration eliminated, withdrawn, cancelled or excluded from the reserves (a procedure's decision, a
clerk's correction) as the matching event, so the next call never reaches someone who is off the lists.

Every write that changes a ``Nomination`` row records what the public now sees through
``contests.publication.publication_record`` (``loading._published``): a call writes its rows in bulk, which
no signal would report, and the public nomination page, its CSV and its JSON move on when it commits.

Dates are passed in (``today``, ``act_date``, ``date``); nothing here reads the clock for a rule.
"""

from candidates.services.nominations.calls import (
    MAX_CALL,
    Preview,
    PreviewRow,
    nominations_call,
    nominations_preview,
    state_for,
)
from candidates.services.nominations.events import (
    nomination_end_of_list,
    nomination_no_show,
    nomination_took_office,
    nomination_withdraw,
    nominations_sync,
)
from candidates.services.nominations.loading import (
    DEFAULT_END_REASONS,
    ID_PREFIX,
    ROSTER_CACHE,
    _load,
    _run_lists,
    engine_id,
)
from candidates.services.nominations.openings import Opening, vacancies_open
from candidates.services.nominations.reinstatement import (
    SeatOrder,
    court_hold,
    court_release,
    nominations_on_hold,
    registration_reinstate,
)

__all__ = [
    "DEFAULT_END_REASONS",
    "ID_PREFIX",
    "MAX_CALL",
    "ROSTER_CACHE",
    "Opening",
    "Preview",
    "PreviewRow",
    "SeatOrder",
    "_load",
    "_run_lists",
    "court_hold",
    "court_release",
    "engine_id",
    "nomination_end_of_list",
    "nomination_no_show",
    "nomination_took_office",
    "nomination_withdraw",
    "nominations_call",
    "nominations_on_hold",
    "nominations_preview",
    "nominations_sync",
    "registration_reinstate",
    "state_for",
    "vacancies_open",
]
