"""Reads of heteroidentification: a verification's final result (the appeal may still change it), the
confirmed list, the seat a user holds in a session's commission, the draw's pending notice and its
published document, and what the screens list (each list read in a fixed number of queries)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone

from candidates.models import Phase, Registration
from contests.audit import User
from contests.documents.models import Document
from contests.documents.services import current_version
from contests.models import Contest
from declarations.hetero import draw as draw_rules
from declarations.hetero import rules
from declarations.models import (
    Appeal,
    Commission,
    CommissionMember,
    DrawAnnouncement,
    MemberDraw,
    Opinion,
    SecondCall,
    Session,
    Verification,
)

# Final results --------------------------------------------------------------------------------------------


def appeal_of(verification: Verification) -> Appeal | None:
    """The appeal against ``verification``, if any: read from the query when it selected it
    (``select_related("appeal__judged_in")``), else one query."""
    try:
        return verification.appeal
    except Appeal.DoesNotExist:
        return None


def second_call_of(verification: Verification) -> SecondCall | None:
    """The second call that followed ``verification``'s justified absence, if any."""
    try:
        return verification.second_call
    except SecondCall.DoesNotExist:
        return None


def final_state(verification: Verification, *, today: datetime.date) -> rules.Outcome | None:
    """The final outcome of the first-instance ``verification`` (``None``: an appeal may still change it);
    after a justified absence called again, the second call's."""
    if not verification.outcome:
        return None
    if verification.outcome == rules.Outcome.ABSENT:
        called = second_call_of(verification)
        return final_state(called.verification, today=today) if called else rules.Outcome.ABSENT
    appeal = appeal_of(verification)
    judged = appeal.judged_in.outcome if appeal and appeal.judged_in and appeal.judged_in.outcome else None
    if appeal and not judged:
        return None
    deadline_passed = verification.appeal_deadline is not None and today > verification.appeal_deadline
    return rules.final_outcome(
        rules.Outcome(verification.outcome),
        rules.Outcome(judged) if judged else None,
        appeal_deadline_passed=deadline_passed,
    )


def confirmed(contest: Contest, *, today: datetime.date) -> list[Verification]:
    """The first-instance verifications of ``contest`` whose final result is a confirmation (their appeals
    read in the same query)."""
    verifications = (
        Verification.objects.filter(
            session__commission__contest=contest,
            session__commission__kind=rules.Kind.FIRST,
            second_call__isnull=True,  # a justified absence called again: its second call counts
        )
        .exclude(outcome="")
        .select_related("registration__candidate", "appeal__judged_in")
        .order_by("registration__number")
    )
    return [v for v in verifications if final_state(v, today=today) == rules.Outcome.CONFIRMED]


# Seats ----------------------------------------------------------------------------------------------------


def member_for(*, session: Session, user: User) -> CommissionMember | None:
    """The seat ``user`` holds in ``session``'s commission, if any (Comissão sees only its own sessions)."""
    if not user.is_authenticated:
        return None
    return CommissionMember.objects.filter(commission_id=session.commission_id, user=user).first()


# The draw -------------------------------------------------------------------------------------------------


def pending_announcement(contest: Contest, kind: str) -> DrawAnnouncement | None:
    """The notice of ``kind`` still waiting for its seed (not replaced, not drawn), if any."""
    return (
        DrawAnnouncement.objects.filter(
            contest=contest, kind=kind, replaced_at__isnull=True, draw__isnull=True
        )
        .order_by("-announced_at")
        .first()
    )


def draw_recompute(record: MemberDraw) -> draw_rules.DrawResult:
    """The draw recomputed from its published record with the algorithm it names (the same pure function
    anyone can run): a v1 record recomputes with v1."""
    return draw_rules.draw(record.seed, record.pool, record.k, record.algorithm)


def announcement_document(announcement: DrawAnnouncement) -> Document | None:
    """The published notice of a draw (its current version), if it was published."""
    return current_version(announcement.contest, Document.Kind.HETERO_DRAW, announcement.subject)


# Sessions -------------------------------------------------------------------------------------------------


def sessions_for(user: User, *, every: bool) -> QuerySet[Session]:
    """Every session (``every``: Jurídico, Auditoria) or those of the commissions ``user`` sits on, the
    latest first."""
    sessions = Session.objects.all() if every else Session.objects.filter(commission__members__user=user)
    return sessions.select_related("commission__contest").order_by("-starts_at")


def contests_with_heteroidentification() -> QuerySet[Contest]:
    """The contests whose edital adopts heteroidentification or that formed a commission."""
    return (
        Contest.objects.filter(Q(edital_text__uses_heteroidentification=True) | Q(commissions__isnull=False))
        .distinct()
        .order_by("-year", "number")
    )


@dataclass(frozen=True)
class DeskRow:
    """A contest with heteroidentification on Jurídico's home, and what waits in it."""

    contest: Contest
    waiting: tuple[str, ...]


def _per_contest(rows, key: str) -> dict[int, int]:
    return {row[key]: row["n"] for row in rows}


def hetero_desk() -> list[DeskRow]:
    """Each contest with heteroidentification and what waits there (members without access, open sessions,
    appeals to distribute, results not yet applied), in five queries whatever their number."""
    contests = list(contests_with_heteroidentification())
    key = "commission__contest"
    no_access = _per_contest(
        CommissionMember.objects.filter(user__isnull=True).values(key).annotate(n=Count("pk")), key
    )
    open_sessions = _per_contest(
        Session.objects.filter(closed_at__isnull=True).values(key).annotate(n=Count("pk")), key
    )
    vkey = "verification__session__commission__contest"
    appeals = _per_contest(
        Appeal.objects.filter(judged_in__isnull=True).values(vkey).annotate(n=Count("pk")), vkey
    )
    skey = "session__commission__contest"
    unapplied = _per_contest(
        Verification.objects.filter(
            session__commission__kind=rules.Kind.FIRST,
            consequence_applied_on__isnull=True,
            second_call__isnull=True,
        )
        .exclude(outcome="")
        .values(skey)
        .annotate(n=Count("pk")),
        skey,
    )
    rows = []
    for contest in contests:
        waiting = []
        if n := no_access.get(contest.pk):
            waiting.append(f"{n} membro{'s' if n > 1 else ''} sem acesso")
        if n := open_sessions.get(contest.pk):
            waiting.append(f"{n} sess{'ões' if n > 1 else 'ão'} aberta{'s' if n > 1 else ''}")
        if n := appeals.get(contest.pk):
            waiting.append(f"{n} recurso{'s' if n > 1 else ''} a distribuir")
        if n := unapplied.get(contest.pk):
            waiting.append(f"{n} resultado{'s' if n > 1 else ''} ainda não aplicado{'s' if n > 1 else ''}")
        rows.append(DeskRow(contest, tuple(waiting)))
    return rows


def present_members(session: Session) -> QuerySet[CommissionMember]:
    return session.present.order_by("name")


@dataclass(frozen=True)
class SessionRow:
    """A called candidate on the session page: the question the commission answers, the reader's own
    opinion (a member's) and every opinion (to Jurídico and Auditoria, and to the members once closed)."""

    verification: Verification
    question: str
    own: Opinion | None
    opinions: tuple[Opinion, ...]
    appeal: Appeal | None = (
        None  # the appeal against it (first commission) or judged in it (appeal commission)
    )
    second_call_open: bool = False  # a justified absence may be called again (``rules.second_call_refusal``)


def session_rows(session: Session, *, seat: CommissionMember | None, every_opinion: bool) -> list[SessionRow]:
    """The candidates called to ``session`` in inscription order, with their opinions: two queries
    whatever their number (a member who may not see the others' drafts loads only their own)."""
    opinions = Opinion.objects.select_related("member").order_by("member__name")
    second_call_allowed = session.commission.contest.policy.procedure_law.hetero_second_call
    if not every_opinion:
        opinions = opinions.filter(member=seat) if seat is not None else opinions.none()
    verifications = (
        session.verifications.select_related(
            "registration__candidate",
            "procedure",
            "appeal",
            "appeal_judged",
            "second_call__verification__session",
            "second_call_of__absent__session",
        )
        .prefetch_related(
            Prefetch("opinions", queryset=opinions), "appeal__attachments", "appeal_judged__attachments"
        )
        .order_by("registration__number")
    )
    rows = []
    for verification in verifications:
        loaded = tuple(verification.opinions.all())
        own = next((o for o in loaded if seat is not None and o.member_id == seat.pk), None)
        question = rules.BASIS_QUESTIONS[rules.Basis(verification.basis)]
        appeal = appeal_of(verification) or getattr(verification, "appeal_judged", None)
        refusal = rules.second_call_refusal(
            allowed=second_call_allowed,
            outcome=verification.outcome,
            kind=session.commission.kind,
            is_second_call=hasattr(verification, "second_call_of"),
            applied=verification.consequence_applied_on is not None,
            called=second_call_of(verification) is not None,
        )
        rows.append(
            SessionRow(verification, question, own, loaded if every_opinion else (), appeal, refusal is None)
        )
    return rows


def results_to_apply(session: Session, *, today: datetime.date) -> list[tuple[Verification, str]]:
    """The candidates of the first commission's ``session`` whose result is final and not yet applied, with
    that result's label (one query: the appeals read with them)."""
    if session.commission.kind != rules.Kind.FIRST:
        return []
    verifications = (
        session.verifications.exclude(outcome="")
        .filter(consequence_applied_on__isnull=True, second_call__isnull=True)
        .select_related("registration__candidate", "appeal__judged_in")
        .order_by("registration__number")
    )
    return [
        (v, rules.OUTCOME_LABELS[final])
        for v in verifications
        if (final := final_state(v, today=today)) is not None
    ]


def members_of(commission: Commission) -> QuerySet[CommissionMember]:
    return commission.members.order_by("name")


def contest_verifications(contest: Contest) -> QuerySet[Verification]:
    """Each called registration's situation in ``contest`` (no opinion, no category: the status page)."""
    return (
        Verification.objects.filter(session__commission__contest=contest)
        .select_related("registration__candidate", "session__commission")
        .order_by("registration__number", "session__starts_at")
    )


# A contest's heteroidentification -------------------------------------------------------------------------

# The acts heteroidentification publishes (the minutes are restricted).
ACT_KINDS = (
    Document.Kind.HETERO_DRAW,
    Document.Kind.HETERO_CALL,
    Document.Kind.HETERO_RESULT,
    Document.Kind.HETERO_MINUTES,
)


@dataclass(frozen=True)
class CommissionRow:
    """A commission on the contest page: its members (by name), the composition's warnings, its draws and
    sessions."""

    commission: Commission
    members: list[CommissionMember]
    warnings: tuple[str, ...]
    draws: list[MemberDraw]
    sessions: list[Session]

    @property
    def without_access(self) -> list[CommissionMember]:
        """Members who cannot record their opinions yet (no account linked)."""
        return [m for m in self.members if m.user_id is None]


def contest_commissions(contest: Contest) -> list[CommissionRow]:
    """``contest``'s commissions with their members, draws and sessions, in four queries; each checked
    against the other's members (RULES §5: none in common; diversity warnings)."""
    commissions = list(
        Commission.objects.filter(contest=contest)
        .order_by("kind")
        .prefetch_related(
            Prefetch("members", queryset=CommissionMember.objects.select_related("user").order_by("name")),
            Prefetch("draws", queryset=MemberDraw.objects.order_by("drawn_at")),
            Prefetch("sessions", queryset=Session.objects.order_by("starts_at")),
        )
    )
    rows = []
    for commission in commissions:
        members = list(commission.members.all())
        others = [m for other in commissions if other.pk != commission.pk for m in other.members.all()]
        composition = rules.check_composition(
            [m.as_rule() for m in members],
            kind=rules.Kind(commission.kind),
            size=commission.size,
            other=[o.as_rule() for o in others],
        )
        draws, sessions = list(commission.draws.all()), list(commission.sessions.all())
        rows.append(CommissionRow(commission, members, composition.warnings, draws, sessions))
    return rows


def commissions_of(contest: Contest) -> QuerySet[Commission]:
    return Commission.objects.filter(contest=contest).order_by("kind")


def contest_phases(contest: Contest) -> QuerySet[Phase]:
    return Phase.objects.filter(contest=contest).order_by("order")


def contest_announcements(contest: Contest) -> QuerySet[DrawAnnouncement]:
    return DrawAnnouncement.objects.filter(contest=contest).select_related("draw").order_by("-announced_at")


def pending_appeals(contest: Contest) -> QuerySet[Appeal]:
    """The appeals not yet called to the appeal commission, the oldest first."""
    return (
        Appeal.objects.filter(verification__session__commission__contest=contest, judged_in__isnull=True)
        .select_related("verification__registration__candidate")
        .order_by("filed_at")
    )


def acts_documents() -> QuerySet[Document]:
    """Every published act of heteroidentification, with its contest (to serve one)."""
    return Document.objects.filter(kind__in=ACT_KINDS).select_related("contest")


def published_acts(contest: Contest) -> QuerySet[Document]:
    """``contest``'s published acts of heteroidentification, the latest first (without their PDFs)."""
    return acts_documents().filter(contest=contest).defer("pdf").order_by("-published_at")


# The candidate's private page -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ResultPage:
    """What the candidate's link shows of their verification (the opinions numbered, never attributed)."""

    appeal: Appeal | None
    judged: Verification | None  # the appeal commission's verification, once it decided
    opinions: list[Opinion]
    judged_opinions: list[Opinion]
    members: list[CommissionMember]


def result_page(verification: Verification) -> ResultPage:
    appeal = Appeal.objects.filter(verification=verification).select_related("judged_in").first()
    judged = appeal.judged_in if appeal and appeal.judged_in and appeal.judged_in.outcome else None
    return ResultPage(
        appeal=appeal,
        judged=judged,
        opinions=list(verification.opinions.order_by("pk")),
        judged_opinions=list(judged.opinions.order_by("pk")) if judged else [],
        members=list(present_members(verification.session)),
    )


def public_draw(pk: int) -> MemberDraw:
    """A draw of commission members as its public page shows it (404 when there is none)."""
    return get_object_or_404(MemberDraw.objects.select_related("commission__contest", "announcement"), pk=pk)


def calls_of(registration: Registration) -> list[Verification]:
    """The candidate's calls to a heteroidentification session still open (the candidate's own page shows
    the date, time and place; the result of a closed session goes by the private link, not there)."""
    return list(
        Verification.objects.filter(registration=registration, session__closed_at__isnull=True)
        .select_related("session__commission")
        .order_by("session__starts_at", "pk")
    )


# Acts waiting for publication (Jurídico's home) ------------------------------------------------------------


@dataclass(frozen=True)
class WaitingAct:
    """A public act of heteroidentification not yet published: what it is, its contest and the page that
    publishes it."""

    contest: Contest
    what: str
    url: str


def acts_to_publish(*, today: datetime.date) -> list[WaitingAct]:
    """The draws performed whose record is not published, the sessions with candidates called whose call is
    not published, and the contests whose confirmed list was never published though every verification of
    the first commission has its final result (and one at least confirms): the oldest first, in four
    queries whatever their number."""
    published = set(
        Document.objects.filter(
            kind__in=(Document.Kind.HETERO_DRAW, Document.Kind.HETERO_CALL, Document.Kind.HETERO_RESULT)
        ).values_list("kind", "subject", "contest_id")
    )
    subjects = {(kind, subject) for kind, subject, _ in published}
    acts = []
    for record in MemberDraw.objects.select_related("commission__contest").order_by("drawn_at", "pk"):
        if (Document.Kind.HETERO_DRAW, f"draw-{record.pk}") not in subjects:
            acts.append(
                WaitingAct(
                    record.commission.contest,
                    f"registro do sorteio da {record.commission.get_kind_display().lower()}",
                    reverse("declarations:hetero_draw_publish", args=[record.pk]),
                )
            )
    sessions = (
        Session.objects.filter(verifications__isnull=False)
        .select_related("commission__contest")
        .distinct()
        .order_by("starts_at", "pk")
    )
    for session in sessions:
        if (Document.Kind.HETERO_CALL, f"call-{session.pk}") not in subjects:
            acts.append(
                WaitingAct(
                    session.commission.contest,
                    f"convocação da sessão de {timezone.localtime(session.starts_at):%d/%m/%Y %H:%M}",
                    reverse("declarations:hetero_call_publish", args=[session.pk]),
                )
            )
    with_result = {contest for kind, _, contest in published if kind == Document.Kind.HETERO_RESULT}
    finals: dict[int, list[rules.Outcome | None]] = {}
    contests: dict[int, Contest] = {}
    for verification in Verification.objects.filter(
        session__commission__kind=rules.Kind.FIRST, second_call__isnull=True
    ).select_related("session__commission__contest", "appeal__judged_in"):
        contest = verification.session.commission.contest
        if contest.pk in with_result:
            continue
        contests[contest.pk] = contest
        finals.setdefault(contest.pk, []).append(final_state(verification, today=today))
    for pk, states in finals.items():
        if rules.Outcome.CONFIRMED in states and None not in states:
            contest = contests[pk]
            acts.append(
                WaitingAct(
                    contest,
                    "lista de autodeclarações confirmadas",
                    reverse("declarations:hetero_result_publish", args=[contest.slug]),
                )
            )
    return acts
