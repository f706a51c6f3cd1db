"""A published person's name in effect (issue 25, N11): one home for what a change of a candidate's civil
or social name does to what the public sees, called in the transaction that changed it (the candidate's
form, ``registrations.candidate_update``; an import, ``imports.run``).

Decreto 8.727/2016 (art. 6: the social name may be asked for at any time; art. 5: the body uses it in its
acts) and LGPD art. 18 III (correction): the public site shows the name in effect, not the one a list
was computed with. So:

- the lines of every result list of the person's registrations take the name in effect and its folded
  form (``ResultEntry.name``, ``search_name``): the list pages, their search, their CSV and JSON show it,
  and a search for the former name no longer finds the person (it would tie the two names together).
  A published list's lines are frozen (0004_results_guard); the name is the one column that follows the
  person (0023_resultentry_name_in_effect). The published PDF is the act as published, signed and
  verifiable: it is not rewritten (a rectification publishes a new version, docs/readings.md);
- the nomination order, which reads names live, records a publication per position (its title names
  the position only, never the person);
- when the transaction commits, what follows a publication follows for each contest whose lists changed
  (``contests.publication.public_pages_changed``): the public pages' generation moves on (every stored
  page is stale at once, in every worker) and the portal's static snapshot is written again.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db.models import Q
from django.urls import reverse

from candidates.models import Candidate, Nomination, ResultEntry
from contests.audit import User
from contests.models import Contest, Position, Publication
from contests.publication import public_pages_changed, publication_record
from contests.text_search import fold

CHUNK = 2000  # ids per query (SQLite's bound on parameters)
NAME_FIELDS = frozenset({"full_name", "social_name"})


def names_changed(
    *, candidate_ids: Collection[int] = (), registration_ids: Collection[int] = (), by: User | None
) -> None:
    """The names of these candidates changed, or these registrations now belong to another candidate:
    bring what the public sees up to date (see the module)."""
    candidates, registrations = sorted(set(candidate_ids)), sorted(set(registration_ids))
    contests = _entries_renamed(candidates, registrations)
    _nominations_republished(candidates, registrations, by=by)
    for contest in Contest.objects.filter(pk__in=contests).order_by("pk"):
        public_pages_changed(contest)


def _chunks(candidates: list[int], registrations: list[int]):
    for start in range(0, len(candidates), CHUNK):
        yield Q(registration__candidate_id__in=candidates[start : start + CHUNK])
    for start in range(0, len(registrations), CHUNK):
        yield Q(registration_id__in=registrations[start : start + CHUNK])


def _entries_renamed(candidates: list[int], registrations: list[int]) -> set[int]:
    """Each list line of these registrations with a name other than the one in effect takes it: the
    contests whose lists changed."""
    contests: set[int] = set()
    for condition in _chunks(candidates, registrations):
        lines = list(
            ResultEntry.objects.filter(condition)
            .values_list("registration_id", "registration__candidate_id", "run__contest_id", "name")
            .distinct()
        )
        people = Candidate.objects.only("full_name", "social_name").in_bulk({line[1] for line in lines})
        for registration_id, candidate_id, contest_id, name in lines:
            in_effect = people[candidate_id].display_name
            if name != in_effect:
                ResultEntry.objects.filter(registration_id=registration_id, name=name).update(
                    name=in_effect, search_name=fold(in_effect)
                )
                contests.add(contest_id)
    return contests


def _nominations_republished(candidates: list[int], registrations: list[int], *, by: User | None) -> None:
    """A public nomination order reads its nominees' names as they are now: a corrected name changes the
    page, its CSV and its JSON, for every position the person was nominated in (the title names the
    position only)."""
    position_ids: set[int] = set()
    for condition in _chunks(candidates, registrations):
        position_ids.update(
            Nomination.objects.filter(condition).values_list("position_id", flat=True).distinct()
        )
    for position in Position.objects.filter(pk__in=position_ids).select_related("contest").order_by("pk"):
        publication_record(
            contest=position.contest,
            kind=Publication.Kind.NOMINATION_EVENT,
            title=f"Nome de nomeado corrigido na ordem de nomeação – {position.title}",
            by=by,
            url=reverse("public:nominations", args=[position.contest.slug, position.pk]),
        )
