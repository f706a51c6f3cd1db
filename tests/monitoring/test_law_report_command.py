"""``manage.py law_report`` on the demo data: its figures match a count made directly on the tables."""

from __future__ import annotations

import json
import os
from io import StringIO
from pathlib import Path

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
        if not registrations.exists():  # a position nobody registered for: no funnel row
            assert ("T1", position.contest.slug, position.code, "Todos", "inscritos") not in lines
            continue
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
        assert registration.candidate.full_name.casefold() not in text
        assert registration.candidate.cpf not in text


def test_law_report_refuses_an_unknown_policy_and_a_reversed_period(db):
    with pytest.raises(CommandError, match="Política desconhecida"):
        call_command("law_report", "nenhuma", "--from", "2026-01-01", "--to", "2026-12-31")
    with pytest.raises(CommandError, match="anterior ao início"):
        call_command("law_report", "santa-maria", "--from", "2026-12-31", "--to", "2026-01-01")


def test_law_report_pdf_has_the_period_method_tables_charts_and_text_alternatives(debug, seeded, tmp_path):  # noqa: F811
    from pypdf import PdfReader

    target = tmp_path / "relatorio.pdf"
    call_command(
        "law_report",
        "santa-maria",
        "--from",
        "2000-01-01",
        "--to",
        "2099-12-31",
        "--format",
        "pdf",
        "--output",
        str(target),
        "--conclusions",
        "A reserva foi cumprida.",
    )
    data = target.read_bytes()
    assert data.startswith(b"%PDF")
    keep = os.environ.get("LAW_REPORT_PDF")
    if keep:  # for looking at the pages (review)
        Path(keep).write_bytes(data)
    text = " ".join(page.extract_text() for page in PdfReader(str(target)).pages)
    text = " ".join(text.split()).casefold()
    for expected in (
        "01/01/2000 a 31/12/2099",
        "2. Método",
        "Figura 1",
        "Descrição textual",
        "T1 — Funil",
        "T2 — Vagas por cargo",
        "T5 — Heteroidentificação",
        "Conclusões do órgão de acompanhamento",
        "A reserva foi cumprida.",
        "MINUTA",
    ):
        assert expected.casefold() in text, expected
    for registration in Registration.objects.select_related("candidate")[:50]:
        assert registration.candidate.full_name.casefold() not in text
