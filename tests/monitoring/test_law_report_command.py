"""``manage.py law_report`` on the demo data: its figures match a count made directly on the tables."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from candidates.models import Nomination, Registration
from contests.models import Contest, Position
from monitoring import privacy
from tests.workspace.test_seed_demo import debug, seeded  # noqa: F401  (the demo, seeded once per module)

pytestmark = pytest.mark.django_db


def report(*args: str) -> dict:
    out = StringIO()
    call_command("law_report", *args, "--format", "json", stdout=out)
    return json.loads(out.getvalue())


def test_law_report_on_the_demo_matches_a_direct_count(debug, seeded):  # noqa: F811
    data = report("santa-maria", "--from", "2000-01-01", "--to", "2099-12-31")
    contests = Contest.objects.filter(policy__slug="santa-maria").exclude(status=Contest.Status.CANCELLED)
    assert sorted(data["concursos"]) == sorted(contests.values_list("slug", flat=True))
    lines = {
        (r["indicador"], r["concurso"], r["cargo"], r["grupo"], r["medida"]): r["valor"]
        for r in data["linhas"]
    }
    positions = Position.objects.filter(contest__in=contests).select_related("contest")
    assert positions.exists()
    for position in positions:
        registrations = Registration.objects.filter(position=position).exclude(status="cancelled")
        for group, rows in (
            ("Reserva racial", registrations.filter(racial_reserve=True)),
            ("Pessoas com deficiência", registrations.filter(pcd_reserve=True)),
            (
                "Ampla concorrência (sem reserva)",
                registrations.filter(racial_reserve=False, pcd_reserve=False),
            ),
        ):
            key = ("T1", position.contest.slug, position.code, group, "inscritos")
            # A count of 5 or more may be suppressed as a complement ("X"): never shown wrong.
            expected = privacy.cell(rows.count()).text
            assert lines[key] in (
                {expected, privacy.COMPLEMENTARY_MARK} if expected.isdigit() else {expected}
            ), key
        everyone = ("T1", position.contest.slug, position.code, "Todos", "inscritos")
        assert lines[everyone] in {str(registrations.count()), privacy.COMPLEMENTARY_MARK}
        held = Nomination.objects.filter(position=position, status__in=Nomination.HOLDING)
        assert (
            lines[("T3", position.contest.slug, position.code, "", "nomeados")]
            == privacy.cell(held.count()).text
        )
        assert lines[("T2", position.contest.slug, position.code, "", "vagas do edital")] == str(
            sum(position.openings.filter(kind="edital").values_list("count", flat=True))
        )


def test_law_report_csv_has_the_columns_and_no_personal_data(debug, seeded, tmp_path):  # noqa: F811
    target = tmp_path / "relatorio.csv"
    call_command(
        "law_report", "santa-maria", "--from", "2000-01-01", "--to", "2099-12-31", "--output", str(target)
    )
    text = target.read_text(encoding="utf-8")
    assert text.splitlines()[0] == "indicador,concurso,cargo,grupo,medida,valor,nota"
    for registration in Registration.objects.select_related("candidate")[:50]:
        assert registration.candidate.full_name not in text
        assert registration.candidate.cpf not in text


def test_law_report_refuses_an_unknown_policy_and_a_reversed_period(db):
    with pytest.raises(CommandError, match="Política desconhecida"):
        call_command("law_report", "nenhuma", "--from", "2026-01-01", "--to", "2026-12-31")
    with pytest.raises(CommandError, match="anterior ao início"):
        call_command("law_report", "santa-maria", "--from", "2026-12-31", "--to", "2026-01-01")
