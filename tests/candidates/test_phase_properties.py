"""Invariants of the phase cut-offs (RULES.md §3), checked with Hypothesis. Pure: no database.

- K plus ties go on: each list lets through its K (the edital's, else the default split, the open K
  being K minus the reserves' Ks in force when left empty), more only to take in those tied with the
  last one let through, fewer only when the list runs out.
- An absence at phase k+1 never changes who was cut at a phase up to k, nor the lists after phase k.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from candidates.engine.ranking import RESERVE_NAMES, Applicant, cut_quota, phase_cut, rank
from candidates.engine.results import OUT, PhaseRow, RegistrationRow, compute_position
from candidates.engine.schedule import Params
from contests.quotas import ReserveRule, reservation

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
END = datetime.date(2026, 3, 31)
RACIAL_RULES = st.sampled_from(
    [ReserveRule(20, 3, "half_up"), ReserveRule(20, 0, "half_up"), ReserveRule(30, 2, "half_up")]
)
PCD_RULES = st.sampled_from([None, ReserveRule(5, 1, "up", 20)])
LISTS = st.sampled_from([frozenset(), frozenset({"racial"}), frozenset({"pcd"}), frozenset(RESERVE_NAMES)])


@st.composite
def phase_field(draw):
    """Applicants with small integer scores (ties are frequent), K, the edital's Ks, the rules."""
    people = draw(st.lists(st.tuples(st.integers(0, 12), LISTS), min_size=0, max_size=40))
    applicants = [
        Applicant(id=f"c{i}", inscription=i + 1, score=score, lists=lists)
        for i, (score, lists) in enumerate(people)
    ]
    racial, pcd = draw(RACIAL_RULES), draw(PCD_RULES)
    k = draw(st.integers(0, 20))
    quota = {}
    for name in ("racial", "pcd"):
        if draw(st.booleans()):
            quota[name] = draw(st.integers(0, 4))
    default = reservation(k, racial, pcd)
    reserved = quota.get("racial", default.racial) + (quota.get("pcd", default.pcd) if pcd else 0)
    if draw(st.booleans()) or reserved > k:
        quota["open"] = draw(st.integers(0, 20))
    return applicants, k, racial, pcd, quota


@SETTINGS
@given(phase_field())
def test_sm_art4_par1_k_plus_ties_go_on_per_list(field):
    applicants, k, racial, pcd, quota = field
    ranked = rank(applicants, registration_end=END)
    split = cut_quota(k, racial=racial, pcd=pcd, quota=quota)
    if "open" not in quota:
        assert split.total == k  # RULES §3: K candidates (plus ties) go on
    default = reservation(k, racial, pcd)
    assert split.racial == quota.get("racial", default.racial)
    assert split.pcd == (quota.get("pcd", default.pcd) if pcd else 0)

    cut = phase_cut(ranked, k, racial=racial, pcd=pcd, quota=quota)
    through_general = set(cut.on("open"))
    reserves = RESERVE_NAMES if pcd else ("racial",)
    for name in ("open", *reserves):
        members = ranked if name == "open" else [a for a in ranked if name in a.lists]
        if name != "open":
            members = [a for a in members if a.id not in through_general]
        got = cut.on(name)
        want = split.of(name)
        # The best of the list, in order, K of them, or all when the list runs out ...
        assert list(got[: min(want, len(members))]) == [a.id for a in members[:want]]
        # ... and beyond K only those tied with the K-th.
        extra = [a for a in members if a.id in set(got[want:])]
        if extra:
            last = members[want - 1].score
            assert all(a.score == last for a in extra)
            assert len(got) == want + sum(1 for a in members[want:] if a.score == last)
        else:
            assert len(got) == min(want, len(members)) or (want == 0 and not got)
    assert set(cut.passed) == {i for _, ids in cut.by_list for i in ids}


@SETTINGS
@given(
    st.lists(st.integers(0, 1000), min_size=25, max_size=25, unique=True),
    st.integers(1, 10),
    st.integers(0, 3),
    RACIAL_RULES,
)
def test_sm_art4_par1_distinct_scores_and_lists_long_enough_exactly_k_go_on(scores, k, k_racial, racial):
    # 15 on the general list only, 10 cotistas: each list is long enough for its K.
    applicants = [
        Applicant(
            id=f"c{i}", inscription=i + 1, score=s, lists=frozenset({"racial"}) if i >= 15 else frozenset()
        )
        for i, s in enumerate(scores)
    ]
    ranked = rank(applicants, registration_end=END)
    quota = {"racial": min(k_racial, k)}
    assert len(phase_cut(ranked, k, racial=racial, quota=quota).passed) == k


# An absence at a later phase -------------------------------------------------------------------------

PHASE_IDS = (1, 2, 3)


@st.composite
def contest_field(draw):
    """Registrations scored in three phases, each phase with or without a cut-off and a pass mark; a
    score of None is an absence (or, at a later phase, no score: the candidate was not called)."""
    phases = []
    for pid in PHASE_IDS:
        cutoff = draw(st.none() | st.integers(0, 8))
        racial = draw(st.none() | st.integers(0, 3)) if cutoff is not None else None
        if racial is not None and cutoff is not None and racial > cutoff:
            racial = cutoff
        pass_mark = draw(st.none() | st.sampled_from([Decimal(2), Decimal(5)]))
        phases.append(PhaseRow(pid, f"F{pid}", Decimal(1), pass_mark, cutoff, None, racial, None))
    count = draw(st.integers(0, 20))
    rows = []
    for i in range(count):
        scores = {}
        for pid in PHASE_IDS:
            value = draw(st.none() | st.integers(0, 10))
            scores[pid] = (
                (None, True)
                if value is None and draw(st.booleans())
                else (
                    None if value is None else Decimal(value),
                    False,
                )
            )
        rows.append(
            RegistrationRow(
                i + 1, str(100 + i), racial=draw(st.booleans()), phases=scores, name=f"Candidato {i}"
            )
        )
    later = draw(st.sampled_from(PHASE_IDS[1:]))
    absentees = draw(st.sets(st.integers(0, max(count - 1, 0)), max_size=count))
    return phases, rows, later, absentees


PHASE_REASON = re.compile(
    r"^(?:Não classificado na fase (F\d) |Nota \S+ na fase (F\d), abaixo|Sem nota na fase (F\d), que tem|"
    r"Ausente na fase (F\d) )"
)


def _out_before(result, phases, later: int) -> dict[int, str]:
    """Who is out at a phase before ``later`` (absent, below its pass mark, cut), and the reason given."""
    earlier = {p.name for p in phases if p.id < later}
    found = {}
    for e in result.entries:
        match = PHASE_REASON.match(e.why) if e.list == OUT else None
        if match and next(g for g in match.groups() if g) in earlier:
            found[e.registration_id] = e.why
    return found


def _lines(result) -> list[tuple]:
    return sorted((e.registration_id, e.list, e.rank, e.score, e.why) for e in result.entries)


@SETTINGS
@given(contest_field())
def test_rules_s3_an_absence_at_phase_k_plus_1_never_changes_who_was_cut_at_phase_k(field):
    phases, rows, later, absentees = field
    params = Params(racial=ReserveRule(20, 0, "half_up"), group_label="negros")
    marked = [
        reg._replace(phases={**reg.phases, later: (None, True)}) if i in absentees else reg
        for i, reg in enumerate(rows)
    ]
    before = compute_position(rows, phases, params=params, registration_end=END)
    after = compute_position(marked, phases, params=params, registration_end=END)
    assert _out_before(after, phases, later) == _out_before(before, phases, later)
    previous = later - 1
    lists_before = compute_position(rows, phases, params=params, registration_end=END, after_phase=previous)
    lists_after = compute_position(marked, phases, params=params, registration_end=END, after_phase=previous)
    assert _lines(lists_after) == _lines(lists_before)
    # Nobody absent at the later phase is on a final list.
    on_lists = {e.registration_id for e in after.entries if e.list != OUT}
    assert not on_lists & {rows[i].id for i in absentees}
