"""The law's lifetime (contests.law_term): AR art. 5º (ten years, a report every two years, the final one in
the first quarter of the last year, not for earlier editais); Santa Maria sets none. No database."""

from __future__ import annotations

from datetime import date as D

from contests import law_term
from contests.law_term import FINAL, PERIODIC, Term

ANGRA = Term(
    start=D(2016, 1, 15),
    duration_years=10,
    report_interval_years=2,
    final_report_quarter=1,
    excludes_prior_editais=True,
    citation_term="art. 5º",
    citation_prior_editais="art. 5º §2º",
)


def test_ar_art5_ten_years_end_the_day_before_the_tenth_anniversary():
    assert law_term.end(ANGRA) == D(2026, 1, 14)


def test_ar_art5_biennial_reports_from_the_effect_date():
    periodic = [r for r in law_term.reports(ANGRA) if r.kind == PERIODIC]
    assert [(r.number, r.period_start, r.period_end, r.due_on) for r in periodic] == [
        (1, D(2016, 1, 15), D(2018, 1, 14), D(2018, 1, 15)),
        (2, D(2018, 1, 15), D(2020, 1, 14), D(2020, 1, 15)),
        (3, D(2020, 1, 15), D(2022, 1, 14), D(2022, 1, 15)),
        (4, D(2022, 1, 15), D(2024, 1, 14), D(2024, 1, 15)),
    ]  # the fifth would fall on 15/01/2026, after the last day: the final report takes its place


def test_ar_art5_par1_final_report_in_the_first_quarter_of_the_last_year():
    (final,) = [r for r in law_term.reports(ANGRA) if r.kind == FINAL]
    assert (final.opens_on, final.due_on) == (D(2025, 1, 15), D(2025, 4, 14))
    assert (final.period_start, final.period_end) == (D(2016, 1, 15), D(2025, 1, 14))
    assert final.label == "Relatório final"


def test_ar_art5_reports_in_order_of_due_date():
    assert [r.due_on for r in law_term.reports(ANGRA)] == [
        D(2018, 1, 15),
        D(2020, 1, 15),
        D(2022, 1, 15),
        D(2024, 1, 15),
        D(2025, 4, 14),
    ]


def test_sm_art6_no_term_no_report():
    santa_maria = Term(start=D(2022, 3, 1))
    assert law_term.end(santa_maria) is None
    assert law_term.reports(santa_maria) == []
    assert law_term.warnings(santa_maria, today=D(2030, 1, 1), term_lead_days=365, report_lead_days=60) == []


def test_unknown_start_computes_nothing_and_says_so():
    unknown = Term(start=None, duration_years=10, report_interval_years=2, final_report_quarter=1)
    assert law_term.end(unknown) is None
    assert law_term.reports(unknown) == []
    (warning,) = law_term.warnings(unknown, today=D(2026, 1, 1), term_lead_days=365, report_lead_days=60)
    assert "não podem ser calculados" in warning.text


def test_revocation_ends_the_reports_too():
    revoked = Term(start=D(2016, 1, 15), duration_years=10, report_interval_years=2, revoked_on=D(2019, 6, 1))
    assert law_term.end(revoked) == D(2019, 5, 31)
    assert [r.due_on for r in law_term.reports(revoked)] == [D(2018, 1, 15)]


def test_ar_art5_warns_of_the_end_from_the_lead_time():
    filed = frozenset({(PERIODIC, n) for n in range(1, 5)} | {(FINAL, 1)})
    assert (
        law_term.warnings(ANGRA, today=D(2025, 1, 13), term_lead_days=365, report_lead_days=0, filed=filed)
        == []
    )
    (warning,) = law_term.warnings(
        ANGRA,
        today=D(2025, 1, 14),
        term_lead_days=365,
        report_lead_days=0,
        filed=frozenset({(PERIODIC, n) for n in range(1, 5)} | {(FINAL, 1)}),
    )
    assert warning.text == "A vigência da lei termina em 14/01/2026 (art. 5º): faltam 365 dias."
    assert not warning.overdue


def test_ar_art5_warns_once_ended():
    filed = frozenset({(PERIODIC, n) for n in range(1, 5)} | {(FINAL, 1)})
    (warning,) = law_term.warnings(
        ANGRA, today=D(2026, 1, 15), term_lead_days=30, report_lead_days=0, filed=filed
    )
    assert warning.overdue
    assert warning.text == (
        "A vigência da lei terminou em 14/01/2026 (art. 5º): novos concursos não podem usá-la."
    )


def test_ar_art5_report_due_within_the_lead_time_then_overdue():
    filed = frozenset({(PERIODIC, 1)})
    today = D(2019, 11, 16)  # 60 days before 15/01/2020
    (warning,) = law_term.warnings(ANGRA, today=today, term_lead_days=365, report_lead_days=60, filed=filed)
    assert warning.text == (
        "2º relatório periódico (art. 5º) devido em 15/01/2020 (período de 15/01/2018 a 14/01/2020)."
    )
    assert (
        law_term.warnings(ANGRA, today=D(2019, 11, 15), term_lead_days=365, report_lead_days=60, filed=filed)
        == []
    )
    (late,) = law_term.warnings(
        ANGRA, today=D(2020, 1, 16), term_lead_days=365, report_lead_days=60, filed=filed
    )
    assert late.overdue
    assert late.text.startswith("2º relatório periódico (art. 5º) em atraso: era devido até 15/01/2020")


def test_ar_art5_par1_final_report_window():
    filed = frozenset({(PERIODIC, n) for n in range(1, 5)})
    (warning,) = law_term.warnings(
        ANGRA, today=D(2025, 1, 1), term_lead_days=0, report_lead_days=30, filed=filed
    )
    assert warning.text == (
        "Relatório final (art. 5º) devido de 15/01/2025 a 14/04/2025 (período de 15/01/2016 a 14/01/2025)."
    )


def test_ar_art5_par2_refuses_an_edital_published_before_the_law():
    assert law_term.refusal_for_edital(ANGRA, D(2016, 1, 14)) == (
        "A lei não se aplica a editais publicados antes da sua vigência (15/01/2016), art. 5º §2º."
    )
    assert law_term.refusal_for_edital(ANGRA, D(2016, 1, 15)) == ""


def test_ar_art5_refuses_an_edital_after_the_term_citing_the_article():
    assert law_term.refusal_for_edital(ANGRA, D(2026, 1, 14)) == ""
    assert law_term.refusal_for_edital(ANGRA, D(2026, 1, 15)) == (
        "A política vigorou até 14/01/2026 (vigência de 10 anos, art. 5º); o edital é de 15/01/2026."
    )


def test_revoked_law_refusal_says_when():
    revoked = Term(start=D(2016, 1, 15), revoked_on=D(2019, 6, 1))
    assert law_term.refusal_for_edital(revoked, D(2020, 1, 1)) == (
        "A política vigorou até 31/05/2019 (revogada em 01/06/2019); o edital é de 01/01/2020."
    )
