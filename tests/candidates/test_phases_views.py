"""The phases screen (Secretaria sets up the edital's phases) and the lists after a phase, through the
rendered pages (``tests.pages``): what each form writes, the history it leaves, and what it refuses."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse

from candidates.models import Phase, ResultRun
from candidates.services.registrations import phase_result_set
from candidates.services.results import final_run_for
from contests.models import Publication
from tests.access import ROLES, assert_access
from tests.builders import make_contest, make_phase, make_position, make_registration
from tests.pages import forms_on, post_form
from tests.queries import assert_queries_do_not_grow


@pytest.fixture
def contest(db):
    return make_contest(pcd_percent=0)


def phases_url(contest) -> str:
    return reverse("candidates:phase_list", args=[contest.slug])


def create_url(contest) -> str:
    return reverse("candidates:phase_create", args=[contest.slug])


def posts(page: str) -> list:
    """The page's POST forms but the header's logout."""
    return [f for f in forms_on(page) if f.method == "post" and f.action != reverse("logout")]


def phase_form(page: str):
    (form,) = [f for f in forms_on(page) if "name" in f.visible]
    return form


def preview(client, contest, **params):
    return client.get(reverse("candidates:phase_cut_preview", args=[contest.slug]), params)


@pytest.mark.parametrize("who", ROLES)
def test_read_access_matrix(client_for, contest, who):
    assert_access(client_for, who, phases_url(contest), {"clerk", "manager", "auditor"})


@pytest.mark.parametrize("who", ROLES)
def test_create_access_matrix(client_for, contest, who):
    assert_access(client_for, who, create_url(contest), {"clerk"})


def test_the_contest_page_links_to_the_phases_screen_and_it_to_a_new_phase(client_for, contest):
    client = client_for("clerk")
    page = client.get(contest.get_absolute_url()).content.decode()
    assert f'href="{phases_url(contest)}">Fases e notas de corte</a>' in page
    assert f'href="{create_url(contest)}">Nova fase</a>' in client.get(phases_url(contest)).content.decode()


def test_clerk_creates_a_phase_with_a_cut_off_the_open_k_left_empty(client_for, contest, cast):
    client = client_for("clerk")
    response = post_form(
        client,
        create_url(contest),
        {
            "name": "Prova objetiva",
            "weight": "1,5",
            "max_score": "100",
            "pass_mark": "50",
            "cutoff": "10",
            "cutoff_racial": "3",
        },
    )
    assert response.status_code == 302
    phase = Phase.objects.get(contest=contest)
    assert (phase.order, phase.weight, phase.cutoff, phase.cutoff_open, phase.cutoff_racial) == (
        1,
        Decimal("1.5"),
        10,
        None,
        3,
    )
    assert phase.history.get().history_user == cast["clerk"]
    page = client.get(phases_url(contest)).content.decode()
    # RULES §3: the open K left empty is K minus the reserves' Ks in force: 10 − 3 = 7.
    assert (
        "<strong>Lista geral (ampla concorrência): 7</strong> – K menos os das listas reservadas: 10 − 3 = 7"
        in page
    )
    assert "<strong>Lista reservada a negros: 3</strong> – fixado pelo edital" in page
    assert "deficiência" not in page.split("Nota de corte</h3>")[1].split("</section>")[0]


def test_the_pcd_list_k_is_asked_only_where_the_contest_has_a_pcd_reserve(client_for, contest):
    client = client_for("clerk")
    without = phase_form(client.get(create_url(contest)).content.decode())
    assert "cutoff_pcd" not in without.visible
    with_pcd = make_contest()
    form = phase_form(client.get(create_url(with_pcd)).content.decode())
    assert {
        "name",
        "weight",
        "max_score",
        "pass_mark",
        "cutoff",
        "cutoff_open",
        "cutoff_racial",
        "cutoff_pcd",
    } <= set(form.visible)


def test_reserved_ks_beyond_k_are_refused_with_the_reason_and_nothing_is_saved(client_for, contest):
    client = client_for("clerk")
    response = post_form(
        client,
        create_url(contest),
        {"name": "Objetiva", "max_score": "100", "cutoff": "3", "cutoff_racial": "4"},
    )
    assert response.status_code == 200
    assert (
        "Os classificados das listas reservadas (4) passam do total da fase (3)." in response.content.decode()
    )
    assert not Phase.objects.exists()


def test_a_repeated_name_is_refused_in_portuguese(client_for, contest):
    make_phase(contest, name="Objetiva")
    response = post_form(client_for("clerk"), create_url(contest), {"name": "objetiva", "max_score": "100"})
    assert "Já há uma fase com este nome neste concurso." in response.content.decode()
    assert Phase.objects.count() == 1


def test_clerk_edits_a_phase_and_clearing_k_clears_the_ks_per_list(client_for, contest, cast):
    phase = make_phase(contest, name="Objetiva", cutoff=10, cutoff_racial=2)
    url = reverse("candidates:phase_edit", args=[contest.slug, phase.pk])
    response = post_form(client_for("clerk"), url, {"cutoff": "", "cutoff_racial": ""})
    assert response.status_code == 302
    phase.refresh_from_db()
    assert (phase.cutoff, phase.cutoff_racial) == (None, None)
    assert phase.history.first().history_user == cast["clerk"]


def test_clerk_moves_a_phase_down_and_the_orders_swap(client_for, contest):
    first, second = make_phase(contest, name="Objetiva"), make_phase(contest, name="Discursiva")
    client = client_for("clerk")
    forms = forms_on(client.get(phases_url(contest)).content.decode())
    move = reverse("candidates:phase_move", args=[contest.slug, first.pk])
    (down,) = [f for f in forms if f.action == move]
    assert down.values == {"csrfmiddlewaretoken": down.values["csrfmiddlewaretoken"], "direction": "down"}
    assert client.post(move, down.values).status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.order, second.order) == (2, 1)
    assert first.history.first().history_change_reason == "Ordem das fases alterada"
    moved_up = next(f for f in forms_on(client.get(phases_url(contest)).content.decode()) if f.action == move)
    assert moved_up.values["direction"] == "up"


def test_a_phase_with_scores_is_not_deleted_and_one_without_is_and_the_rest_move_up(
    client_for, contest, cast
):
    scored, empty, _ = (make_phase(contest, name=n) for n in ("Objetiva", "Discursiva", "Títulos"))
    registration = make_registration(make_position(contest))
    phase_result_set(registration=registration, phase=scored, by=cast["clerk"], score=Decimal(70))
    client = client_for("clerk")
    refused = client.get(reverse("candidates:phase_delete", args=[contest.slug, scored.pk])).content.decode()
    assert "A fase tem 1 resultado lançado (notas ou ausências): ela não pode ser excluída." in refused
    assert not posts(refused)
    url = reverse("candidates:phase_delete", args=[contest.slug, empty.pk])
    (confirm,) = posts(client.get(url).content.decode())
    response = client.post(confirm.action or url, confirm.values)
    assert response.status_code == 302
    assert list(contest.phases.order_by("order").values_list("name", "order")) == [
        ("Objetiva", 1),
        ("Títulos", 2),
    ]


def test_clerk_sets_the_minimum_final_score_on_the_phases_screen(client_for, contest, cast):
    client = client_for("clerk")
    response = post_form(client, phases_url(contest), {"minimum_final_score": "60,5"}, follow=True)
    assert "Nota final mínima para aprovação: 60,50." in response.content.decode()
    contest.refresh_from_db()
    assert contest.minimum_final_score == Decimal("60.5")
    assert contest.history.first().history_user == cast["clerk"]
    refused = post_form(client, phases_url(contest), {"minimum_final_score": "-1"}, follow=True)
    assert "Nota final mínima:" in refused.content.decode()
    contest.refresh_from_db()
    assert contest.minimum_final_score == Decimal("60.5")


def test_manager_reads_the_phases_but_gets_no_form(client_for, contest):
    make_phase(contest, name="Objetiva")
    page = client_for("manager").get(phases_url(contest)).content.decode()
    assert "1ª fase: Objetiva" in page
    assert not posts(page)


def test_the_cut_preview_answers_the_split_as_the_engine_computes_it(client_for, contest):
    client = client_for("clerk")
    data = preview(client, contest, k=10, racial=3).json()
    assert [(row["label"], row["count"]) for row in data["rows"]] == [
        ("Lista geral (ampla concorrência)", 7),
        ("Lista reservada a negros", 3),
    ]
    assert data["summary"].startswith("Em cada cargo passam 10 candidatos")
    default = preview(client, contest, k=10).json()["rows"][1]
    assert default["why"] == "20% de 10 = 2 → 2 (a fórmula da reserva de vagas, aplicada a K)"
    assert "difere de K (10)" in preview(client, contest, k=10, open=9).json()["summary"]
    refused = preview(client, contest, k=3, racial=4)
    assert refused.status_code == 400
    assert (
        refused.json()["error"] == "Os classificados das listas reservadas (4) passam do total da fase (3)."
    )
    assert preview(client, contest).status_code == 400
    assert preview(client, contest, k="x").json()["error"] == "Informe números inteiros, zero ou mais."


def test_the_phases_page_makes_the_same_queries_for_many_phases(client_for, contest):
    make_phase(contest, name="Objetiva", cutoff=5)
    client = client_for("clerk")

    def more():
        for i in range(8):
            make_phase(contest, name=f"Fase extra {i}", cutoff=i + 1, pass_mark=Decimal(1))

    assert_queries_do_not_grow(client, phases_url(contest), more)


# Who goes on after phase k (RULES §3) -------------------------------------------------------------------


@pytest.fixture
def two_phases(contest, cast):
    """Phase 1 scored (K 2: 1 open, 1 racial), phase 2 set up without scores yet."""
    first = make_phase(contest, name="Objetiva", cutoff=2, cutoff_racial=1)
    make_phase(contest, name="Discursiva", cutoff=1)
    position = make_position(contest, code="TLEG")
    for number, score, racial in (("1", 90, None), ("2", 80, None), ("3", 70, "parda"), ("4", 60, "preta")):
        registration = make_registration(position, number=number, racial_category=racial)
        phase_result_set(registration=registration, phase=first, by=cast["clerk"], score=Decimal(score))
    return first


def test_lists_after_a_phase_are_offered_when_the_next_has_no_scores_and_say_who_goes_on(
    client_for, contest, two_phases
):
    client = client_for("clerk")
    url = reverse("candidates:result_list", args=[contest.slug])
    page = client.get(url).content.decode()
    assert "A 2ª fase (Discursiva) ainda não tem notas" in page
    (form,) = [f for f in posts(page) if "after_phase" in f.visible]
    assert form.values["after_phase"] == str(two_phases.pk)  # chosen already
    response = client.post(form.action, form.values)
    run = ResultRun.objects.get()
    assert response.status_code == 302 and run.after_phase == two_phases
    entries = {e.number: (e.list, e.rank) for e in run.entries.all() if e.list in ("open", "out")}
    assert entries == {"1": ("open", 1), "3": ("open", 2), "2": ("out", None), "4": ("out", None)}
    assert run.name.startswith("Cálculo após a fase Objetiva de ")


def test_manager_publishes_the_lists_after_a_phase_as_the_phases_result_not_the_contests(
    client_for, contest, two_phases, cast
):
    from candidates.services.results import result_run_compute

    run = result_run_compute(contest=contest, by=cast["clerk"], after_phase=two_phases, kind="final")
    assert run.kind == ResultRun.Kind.PHASE_FINAL
    client = client_for("manager")
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Resultado definitivo da fase Objetiva" in page
    # No signer recorded for lists in this world: the person types who signs.
    fill = {"kind": "final", "signer_name": "Ana Souza", "signer_office": "Presidente da Câmara"}
    response = post_form(client, run.get_absolute_url(), fill)
    assert response.status_code == 302
    run.refresh_from_db()
    assert (run.status, run.kind) == (ResultRun.Status.PUBLISHED, ResultRun.Kind.PHASE_FINAL)
    assert run.name.startswith("Resultado definitivo da fase Objetiva publicado em ")
    assert final_run_for(run.contest.positions.get()) is None  # nominations never start from it
    assert Publication.objects.filter(
        contest=contest, kind=Publication.Kind.RESULT_LIST, title=run.name
    ).exists()


def test_setting_up_the_next_phase_does_not_stale_a_draft_of_the_lists_after_the_previous(
    client_for, contest, two_phases, cast
):
    from candidates.services.results import result_run_compute, result_run_publish

    run = result_run_compute(contest=contest, by=cast["clerk"], after_phase=two_phases)
    second = contest.phases.get(order=2)
    post_form(
        client_for("clerk"),
        reverse("candidates:phase_edit", args=[contest.slug, second.pk]),
        {"cutoff": "5", "pass_mark": "3"},
    )
    published = result_run_publish(run=run, kind="preliminary", by=cast["manager"])
    assert published.kind == ResultRun.Kind.PHASE_PRELIMINARY


def test_issue22_the_clerk_dates_a_phase_and_an_end_before_its_start_is_refused(client_for, contest):
    """A phase's dates (the edital's schedule) tell who missed it while out of the lists (issue 22)."""
    client = client_for("clerk")
    response = post_form(
        client,
        create_url(contest),
        {"name": "Títulos", "max_score": "10", "starts_on": "10/08/2026", "ends_on": "05/08/2026"},
    )
    assert "O fim da fase não pode ser anterior ao início." in response.content.decode()
    assert not Phase.objects.exists()
    response = post_form(
        client,
        create_url(contest),
        {"name": "Títulos", "max_score": "10", "starts_on": "10/08/2026", "ends_on": "24/08/2026"},
    )
    phase = Phase.objects.get()
    assert (phase.starts_on, phase.ends_on) == (datetime.date(2026, 8, 10), datetime.date(2026, 8, 24))
    assert "10/08/2026 a 24/08/2026" in client.get(phases_url(contest)).content.decode()
