"""The home page ("Pendências"): what waits for each role, counted on builder data."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from candidates.services.nominations import nominations_call
from candidates.services.results import result_run_compute, result_run_publish
from contests.calendar import add_months
from contests.models import AccessLog
from tests.builders import (
    homologate,
    make_classified_position,
    make_contest,
    make_procedure_world,
    make_world,
    publish_final,
)
from tests.queries import assert_queries_do_not_grow
from workspace import pendencies

pytestmark = pytest.mark.django_db


def counts(html: str) -> dict[str, int]:
    """Each queue's title and the count shown next to it."""
    found = re.findall(r"<h3>(.*?) <span class=\"badge\" data-count=\"(\d+)\">", html)
    return {title: int(n) for title, n in found}


def home(client_for, who: str) -> str:
    response = client_for(who).get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def test_anonymous_goes_to_login(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_outsider_is_told_to_ask_for_a_role(client_for):
    assert "não pertence a nenhum papel" in home(client_for, "outsider")


def test_manager_sees_runs_to_publish_and_contests_to_homologate(client_for, cast):
    make_world(cast)  # homologated: nothing waits
    waiting = make_contest(status="in_progress")
    make_classified_position(waiting)
    run = result_run_compute(contest=waiting, by=cast["manager"], position=None)
    result_run_publish(run=run, kind="final", by=cast["manager"])
    draft_contest = make_contest(status="in_progress")
    make_classified_position(draft_contest)
    result_run_compute(contest=draft_contest, by=cast["manager"], position=None)

    html = home(client_for, "manager")
    assert counts(html) == {
        "Editais a publicar": 0,
        "Listas aguardando publicação": 1,
        "Atos de nomeação a publicar": 1,  # the world's call: its act is not published yet
        "Concursos aguardando homologação": 1,
        "Validades que terminam em 90 dias": 0,
        "Vigência das leis e relatórios devidos": 1,  # AR art. 5º: the seeded law has no dates
    }
    assert reverse("contests:homologate", args=[waiting.slug]) in html
    assert f"Concurso {draft_contest.number}/2026" in html


def test_manager_sees_editais_acts_and_validities_ending_within_90_days(client_for, cast):
    world = make_world(cast)
    act = world["nomination"].act_number
    draft = make_contest(title="Concurso em elaboração")
    today = timezone.localdate()
    ending = homologate(
        make_contest(status="in_progress", title="Validade acabando"),
        date=add_months(today + datetime.timedelta(days=30), -24),
    )
    html = home(client_for, "manager")
    found = counts(html)
    assert (found["Editais a publicar"], found["Atos de nomeação a publicar"]) == (1, 1)
    assert found["Validades que terminam em 90 dias"] == 1
    assert reverse("contests:edital_publish", args=[draft.slug]) in html
    assert f"{act}" in html and "#atos" in html
    assert f"validade até {ending.validity_end:%d/%m/%Y}; pode ser prorrogada uma vez" in html
    assert reverse("contests:extend_validity", args=[ending.slug]) in html


def test_clerk_sees_free_seats_and_overdue_deadlines(client_for, cast):
    world = make_world(cast)  # 5 vacancies, 2 called, 1 withdrew: 4 free; the other's deadline passed
    html = home(client_for, "clerk")
    assert counts(html) == {
        "Vagas livres para nomear": 4,
        "Prazos de posse vencidos ou a vencer em 7 dias": 1,
        "Ordens judiciais vigentes, pelo prazo de cumprimento": 0,
    }
    assert "4 vagas livres (1 liberada, preenchida primeiro, e 3 ainda não preenchidas)" in html
    nomination = world["nomination"]
    assert f"prazo venceu em {nomination.office_deadline:%d/%m/%Y}" in html
    assert "importações com erros ainda não ficam registradas" in html


def test_clerk_deadline_far_ahead_is_not_listed(cast):
    world = make_world(cast)
    deadline = world["nomination"].office_deadline
    soon = pendencies.clerk_section(today=deadline - datetime.timedelta(days=7))
    far = pendencies.clerk_section(today=deadline - datetime.timedelta(days=8))
    assert soon.queues[1].total == 1 and not soon.queues[1].items[0].overdue
    assert far.queues[1].total == 0


def test_legal_sees_open_procedures_by_next_deadline(client_for, cast, settings, tmp_path):
    store = settings.STORAGES["procedures"]
    options = {**store["OPTIONS"], "location": tmp_path / "procedures"}
    settings.STORAGES = {**settings.STORAGES, "procedures": {**store, "OPTIONS": options}}
    world = make_world(cast)
    nominee = world["position"].registrations.get(number="N2")  # has a self-declaration
    procedure = make_procedure_world(cast, nominee)["procedure"]
    html = home(client_for, "legal")
    assert counts(html) == {
        "Processos abertos, pelo próximo prazo": 1,
        "Ordens judiciais vigentes, pelo prazo de cumprimento": 0,
        "Efeitos de decisão a aplicar": 0,
        "Atos de heteroidentificação a publicar": 0,
        "Heteroidentificação": 0,
    }
    assert procedure.get_absolute_url() in html


def test_legal_finds_each_contest_with_heteroidentification_and_what_waits_there(client_for, cast):
    from tests.declarations.hetero_world import make_hetero_world

    world = make_world(cast)
    hetero = make_hetero_world(cast, world["contest"])
    member = hetero["hetero_session"].commission.members.exclude(user=cast["commission"]).first()
    member.user = None
    member.save()
    html = home(client_for, "legal")
    assert counts(html)["Heteroidentificação"] == 1
    assert reverse("declarations:hetero_contest", args=[world["contest"].slug]) in html
    assert "1 membro sem acesso" in html and "1 sessão aberta" in html


def test_commission_sees_the_open_sessions_of_its_own_commission(client_for, cast):
    from declarations.hetero import services as hs
    from tests.declarations.hetero_world import at, make_hetero_world, people

    world = make_world(cast)
    session = make_hetero_world(cast, world["contest"])["hetero_session"]
    # A session of another commission (the appeal one, without the cast's member) is not hers.
    other = hs.session_schedule(
        commission=hs.commission_form(
            contest=make_contest(status="in_progress"), kind="first", pool=people("Outra", 5), formed_on=datetime.date(2026, 6, 1),
            by=cast["legal"], now=at(datetime.date(2026, 6, 1)),
        ).commission,
        starts_at=at(datetime.date(2026, 6, 21)), place="Sala 2", by=cast["legal"],
    )  # fmt: skip
    html = home(client_for, "commission")
    assert counts(html) == {"Próximas sessões da sua comissão": 1}
    assert reverse("declarations:hetero_session", args=[session.pk]) in html
    assert reverse("declarations:hetero_session", args=[other.pk]) not in html
    assert "candidato chamado" in html or "candidatos chamados" in html
    assert "ainda não existe" not in html


def test_auditor_sees_changes_by_full_name_and_sensitive_views(client_for, cast):
    world = make_world(cast)
    AccessLog.objects.create(
        user=cast["clerk"],
        action="view_sensitive",
        content_type_id=1,
        object_id=str(world["registration"].pk),
        object_repr="Inscrição 1",
        detail="CPF completo",
        at=timezone.now(),
    )
    html = home(client_for, "auditor")
    assert counts(html)["Consultas a dados sensíveis mais recentes"] == 1
    assert "Clerk consultou dado sensível de Inscrição 1 (CPF completo)" in html
    assert 3 <= counts(html)["Alterações mais recentes"] <= pendencies.LATEST
    nominee = world["nomination"].registration.candidate.display_name
    assert f"Clerk criou nomeação de {nominee} (vaga 1)" in html  # a nomination named by its nominee


def test_home_queries_do_not_grow(client_for, cast):
    make_world(cast)
    client = client_for("clerk")

    def add_rows():
        for _ in range(3):
            contest = make_contest()
            position = make_classified_position(contest)
            publish_final(contest, cast["manager"])
            nominations_call(
                position=position,
                count=1,
                act_number="Portaria 11/2026",
                act_date=datetime.date(2026, 6, 10),
                by=cast["clerk"],
            )

    assert_queries_do_not_grow(client, reverse("home"), add_rows)
