"""Result runs through the services: the lists, why each candidate is where they are, and freezing."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction

from candidates.engine.results import ENTRY_COLUMNS
from candidates.models import Candidate, PhaseResult, Registration, ResultEntry, ResultRun
from candidates.services.nominations import nominations_call
from candidates.services.registrations import registration_set_status
from candidates.services.results import (
    _ENTRY_TYPES,
    result_run_compute,
    result_run_discard,
    result_run_publish,
)
from tests.builders import (
    make_candidate,
    make_classified_position,
    make_contest,
    make_phase,
    make_position,
    make_registration,
    publish_final,
)


def lists(run, position=None):
    entries = ResultEntry.objects.filter(run=run)
    if position is not None:
        entries = entries.filter(position=position)
    found = {}
    for entry in entries.order_by("list", "rank", "number"):
        found.setdefault(entry.list, []).append(entry.number)
    return found


@pytest.fixture
def contest(db):
    return make_contest(pcd_percent=0)


def test_rules_s3_general_list_includes_cotistas_and_the_reserve_keeps_their_order(contest, cast):
    position = make_classified_position(contest)
    run = result_run_compute(contest=contest, by=cast["clerk"])
    assert lists(run, position) == {
        "open": ["A", "N1", "B", "C", "D", "E", "N2", "N3"],
        "racial": ["N1", "N2", "N3"],
    }
    n2 = ResultEntry.objects.get(run=run, number="N2", list="racial")
    assert (n2.rank, n2.general_rank, n2.score) == (2, 7, Decimal("84.00"))
    assert n2.why.startswith("2º da lista reservada a negros (7º na ampla concorrência, nota final 84,00)")
    assert run.summary["positions"][str(position.pk)]["racial"] == 3
    history = run.history.first()
    assert (history.history_user, history.history_change_reason) == (cast["clerk"], "Lista calculada")


def test_sm_art4_par2_below_the_pass_mark_on_no_list_and_why(contest, cast):
    position = make_position(contest, vacancies=3)
    objective = make_phase(contest, name="Objetiva", pass_mark=Decimal(50))
    written = make_phase(contest, name="Discursiva", max_score=Decimal(10))
    people = {}
    for number, obj, disc, category in (
        ("1", "80", "6", None),
        ("2", "49.99", None, "parda"),
        ("3", "70", "9", "preta"),
        ("4", "90", None, None),
    ):
        reg = make_registration(position, number=number, racial_category=category)
        PhaseResult.objects.create(registration=reg, phase=objective, score=Decimal(obj))
        if disc is not None:
            PhaseResult.objects.create(registration=reg, phase=written, score=Decimal(disc))
        people[number] = reg
    PhaseResult.objects.create(registration=people["4"], phase=written, absent=True)
    run = result_run_compute(contest=contest, by=cast["clerk"])
    assert lists(run) == {"open": ["1", "3"], "racial": ["3"], "out": ["2", "4"]}
    below = ResultEntry.objects.get(run=run, number="2")
    assert "abaixo da nota mínima 50,00: fora de todas as listas, cotistas inclusive" in below.why
    assert ResultEntry.objects.get(run=run, number="4").why.startswith("Ausente na fase Discursiva")
    # The final score is the phases' weighted sum: 80 + 6 = 86; 70 + 9 = 79.
    assert ResultEntry.objects.get(run=run, number="1", list="open").score == Decimal("86.00")


def test_sm_art4_par1_phase_cut_off_per_list(contest, cast):
    position = make_position(contest, vacancies=5)
    phase = make_phase(contest, name="Objetiva", cutoff=2, cutoff_open=2, cutoff_racial=1)
    for number, score, category in (
        ("1", 90, None),
        ("2", 80, "parda"),
        ("3", 70, None),
        ("4", 60, "preta"),
        ("5", 50, "parda"),
    ):
        reg = make_registration(position, number=number, racial_category=category)
        PhaseResult.objects.create(registration=reg, phase=phase, score=Decimal(score))
    run = result_run_compute(contest=contest, by=cast["clerk"])
    # The best two of the general list pass, then the best cotista not already through (4).
    assert lists(run) == {"open": ["1", "2", "4"], "racial": ["2", "4"], "out": ["3", "5"]}
    assert "Não classificado na fase Objetiva" in ResultEntry.objects.get(run=run, number="3").why


def test_tie_broken_by_the_inscription_number_says_so(contest, cast):
    position = make_position(contest, vacancies=2)
    for number in ("20", "10"):
        make_registration(
            position,
            number=number,
            final_score=Decimal(75),
            candidate=make_candidate(birth_date=datetime.date(1990, 1, 1)),
        )
    run = result_run_compute(contest=contest, by=cast["clerk"])
    second = ResultEntry.objects.get(run=run, number="20", list="open")
    assert second.rank == 2
    assert "empatado na nota com a inscrição 10" in second.why
    assert "número de inscrição" in second.why


def test_eliminated_and_excluded_registrations(contest, cast):
    position = make_classified_position(contest)
    registration_set_status(
        registration=Registration.objects.get(number="N1"),
        status="excluded_from_reserve",
        by=cast["clerk"],
        reason="Decisão no processo 1/2026",
    )
    registration_set_status(
        registration=Registration.objects.get(number="B"),
        status="eliminated",
        by=cast["clerk"],
        reason="Falsidade",
    )
    run = result_run_compute(contest=contest, by=cast["clerk"])
    assert lists(run, position) == {
        "open": ["A", "N1", "C", "D", "E", "N2", "N3"],
        "racial": ["N2", "N3"],
        "out": ["B"],
    }


def test_publishing_freezes_a_run_and_a_new_compute_makes_a_new_run(contest, cast):
    make_classified_position(contest)
    first = result_run_publish(
        run=result_run_compute(contest=contest, by=cast["clerk"]), kind="preliminary", by=cast["manager"]
    )
    assert (first.number, first.status, first.published_by) == (1, "published", cast["manager"])
    entries = list(ResultEntry.objects.filter(run=first).values_list("pk", "list", "rank", "why"))
    with pytest.raises(ValidationError, match="já foi publicada"):
        result_run_publish(run=first, kind="final", by=cast["manager"])
    with pytest.raises(ValidationError, match="não pode ser descartada"):
        result_run_discard(run=first, by=cast["manager"])
    registration_set_status(
        registration=Registration.objects.get(number="A"),
        status="withdrawn",
        by=cast["clerk"],
        reason="Pedido",
    )
    second = result_run_compute(contest=contest, by=cast["clerk"])
    assert (second.number, second.status, second.previous) == (2, "draft", first)
    assert list(ResultEntry.objects.filter(run=first).values_list("pk", "list", "rank", "why")) == entries
    # A newer draft replaces the older one (a draft is not a document).
    third = result_run_compute(contest=contest, by=cast["clerk"])
    assert not ResultRun.objects.filter(pk=second.pk).exists()
    assert third.number == 2


def test_publish_refused_when_the_data_changed_since_computing(contest, cast):
    make_classified_position(contest)
    draft = result_run_compute(contest=contest, by=cast["clerk"])
    registration = Registration.objects.get(number="C")
    registration.final_score = Decimal("95")
    registration.save()
    with pytest.raises(ValidationError, match="Os dados mudaram"):
        result_run_publish(run=draft, kind="final", by=cast["manager"])
    draft.refresh_from_db()
    assert draft.status == "draft"


@pytest.mark.parametrize(
    "change",
    [
        lambda reg: PhaseResult.objects.filter(registration=reg).update(score=Decimal("7.75")),
        lambda reg: PhaseResult.objects.filter(registration=reg).update(score=None, absent=True),
        lambda reg: Candidate.objects.filter(pk=reg.candidate_id).update(full_name="Outro Nome"),
        lambda reg: Candidate.objects.filter(pk=reg.candidate_id).update(
            birth_date=datetime.date(1950, 1, 1)
        ),
        lambda reg: Registration.objects.filter(pk=reg.pk).update(racial_reserve=not reg.racial_reserve),
    ],
    ids=["score", "absent", "name", "birth date", "reserve"],
)
def test_publish_refused_when_a_score_or_the_person_changed_since_computing(contest, cast, change):
    """The lists depend on the phases' scores and on the person's name and birth date (the elderly's
    tie-break) too: publishing re-reads them all."""
    position = make_position(contest, vacancies=2)
    phase = make_phase(contest, name="Objetiva")
    for number in ("1", "2"):
        registration = make_registration(position, number=number)
        PhaseResult.objects.create(registration=registration, phase=phase, score=Decimal(number))
    draft = result_run_compute(contest=contest, by=cast["clerk"])
    assert result_run_compute(contest=contest, by=cast["clerk"]).inputs_hash == draft.inputs_hash
    draft = ResultRun.objects.get(contest=contest, status="draft")
    change(Registration.objects.get(number="1"))
    with pytest.raises(ValidationError, match="Os dados mudaram"):
        result_run_publish(run=draft, kind="final", by=cast["manager"])


def test_a_new_final_run_is_refused_once_nominations_started(contest, cast):
    position = make_classified_position(contest)
    publish_final(contest, cast["manager"])
    nominations_call(
        position=position, count=1, act_number="P 1", act_date=datetime.date(2026, 6, 10), by=cast["clerk"]
    )
    draft = result_run_compute(contest=contest, by=cast["clerk"])
    with pytest.raises(ValidationError, match="Já há nomeações"):
        result_run_publish(run=draft, kind="final", by=cast["manager"])
    assert result_run_publish(run=draft, kind="preliminary", by=cast["manager"]).is_published


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="O gatilho que congela listas publicadas é do PostgreSQL."
)
def test_postgresql_refuses_changing_a_published_run(contest, cast):
    make_classified_position(contest)
    run = publish_final(contest, cast["manager"])
    entry = ResultEntry.objects.filter(run=run).first()
    with pytest.raises(DatabaseError, match="Lista publicada"), transaction.atomic():
        ResultEntry.objects.filter(pk=entry.pk).update(rank=99)
    with pytest.raises(DatabaseError, match="Lista publicada"), transaction.atomic():
        ResultEntry.objects.filter(pk=entry.pk).delete()
    with pytest.raises(DatabaseError, match="Lista publicada"), transaction.atomic():
        ResultRun.objects.filter(pk=run.pk).update(status="draft")
    with pytest.raises(DatabaseError), transaction.atomic():
        ResultRun.objects.filter(pk=run.pk).delete()
    ResultRun.objects.filter(pk=run.pk).update(notes="Publicada no DOM 1234")  # notes may still be added
    # The name in effect (issue 25 N11, candidates.services.names) is the one column that follows the person.
    with pytest.raises(DatabaseError, match="Lista publicada"), transaction.atomic():
        ResultEntry.objects.filter(pk=entry.pk).update(name="Outro Nome", rank=99)
    ResultEntry.objects.filter(pk=entry.pk).update(name="Nome Social", search_name="nome social")
    assert ResultEntry.objects.get(pk=entry.pk).name == "Nome Social"


def test_the_pure_lists_use_the_models_names_for_statuses_and_lists():
    from candidates.engine import results as engine

    assert set(engine.OUT_STATUSES) | {engine.EXCLUDED_FROM_RESERVE, "active"} == set(
        Registration.Status.values
    )
    assert {"open", "racial", "pcd", engine.OUT} == set(ResultEntry.List.values)


def test_the_copy_of_a_runs_lines_names_each_columns_type():
    """PostgreSQL's COPY of a run's lines is told each column's type once (``_ENTRY_TYPES``): one per
    column of ``ENTRY_COLUMNS``, the column's own."""

    postgres = {
        "ForeignKey": "int8",
        "CharField": "text",
        "TextField": "text",
        "PositiveIntegerField": "int4",
        "DecimalField": "numeric",
    }
    fields = [ResultEntry._meta.get_field(name) for name in ENTRY_COLUMNS]
    assert list(_ENTRY_TYPES) == [postgres[field.get_internal_type()] for field in fields]
