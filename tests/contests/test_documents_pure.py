"""The edital's reservation chapter and its pre-publication check (pure: no database)."""

import datetime
import re
from fractions import Fraction

from contests.documents import chapter, checks

D = datetime.date

SM = chapter.PolicyText(
    law="Lei Municipal nº 6.123, de 1º de dezembro de 2021",
    law_dates="",
    group_label="negros",
    groups=("preta", "parda"),
    percent=Fraction(20),
    threshold=3,
    citations={
        "reserve": "art. 1º",
        "threshold": "art. 1º §2º",
        "rounding": "art. 1º §3º",
        "order": "art. 5º",
    },
    pcd_percent=Fraction(5),
    pcd_cap_percent=Fraction(20),
)


def row(**overrides):
    data = {
        "code": "TLEG",
        "title": "Técnico",
        "vacancies": 13,
        "open": 9,
        "racial": 3,
        "pcd": 1,
        "racial_seats": (3, 8, 13),
        "pcd_seats": (5,),
        "first_seats": tuple("racial" if s in (3, 8, 13, 18, 23) else "open" for s in range(1, 26)),
    }
    data.update(overrides)
    return chapter.PositionRow(**data)


def text_of(clauses):
    return "\n".join([c.text for c in clauses] + [item for c in clauses for item in c.items])


def test_sm_art2_chapter_states_percent_threshold_and_seat_numbers():
    text = text_of(chapter.reservation_chapter(SM, [row()], chapter=2))
    assert "20% (vinte por cento)" in text and "(por cento)" not in text
    assert "igual ou superior a 3 (três), nos termos do art. 1º §2º da lei" in text
    assert "reservam-se a 3ª, a 8ª e a 13ª vagas, a negros; a 5ª vaga, a pessoas com deficiência" in text
    assert (
        "TLEG – Técnico: 13 (treze) vagas, das quais 3 (três) reservadas a negros, 1 (uma) reservada a "
        "pessoas com deficiência e 9 (nove) de ampla concorrência." in text
    )
    assert "(s)" not in text and "(a)" not in text
    assert "nos termos do art. 1º da Lei Municipal nº 6.123, de 1º de dezembro de 2021" in text


def test_the_chapter_states_results_and_rules_in_prose_never_the_engines_working():
    """Issue 20: no variable ("a vaga de número s"), no working ("20% de 7 = 1,4 → 1")."""
    rows = [
        row(code="ALEG", vacancies=2, open=2, racial=0, pcd=0, racial_seats=(), pcd_seats=()),
        row(code="TLEG", vacancies=7, open=5, racial=1, pcd=1, racial_seats=(3,), pcd_seats=(5,)),
    ]
    clauses = chapter.reservation_chapter(SM, rows, chapter=2)
    text = text_of(clauses)
    assert "→" not in text and "número s " not in text
    assert not re.search(r"\b[b-df-np-z]\b", text)  # a single consonant is a variable, not a word
    assert (
        "reserva-se a vaga sempre que a reserva calculada sobre o total de vagas providas até então" in text
    )
    assert "TLEG – Técnico: 7 (sete) vagas, das quais 1 (uma) reservada a negros" in text
    assert (
        "ALEG – Técnico: 2 (duas) vagas de ampla concorrência, sem reserva a negros por não alcançar o cargo "
        "o mínimo de vagas do item 2.3." in text
    )
    distribution = next(c for c in clauses if c.text.startswith("Aplicados"))
    assert distribution.text.startswith(
        "Aplicados o percentual do item 2.1, o mínimo do item 2.3 e o arredondamento do item 2.4"
    )
    assert "TLEG – Técnico, com 7 (sete) vagas: reservam-se a 3ª vaga, a negros; a 5ª vaga" in text


def test_a_bill_is_cited_as_a_bill_with_the_right_contraction():
    from dataclasses import replace

    bill = replace(
        SM, law="lei municipal originada do Projeto de Lei nº 9247/2021 (ainda sem número de lei registrado)"
    )
    text = text_of(chapter.reservation_chapter(bill, [row()], chapter=2))
    cited = "da lei municipal originada do Projeto de Lei nº 9247/2021 (ainda sem número de lei registrado)"
    assert f"nos termos do art. 1º {cited}" in text
    assert bill.law_of.startswith("da lei municipal originada do Projeto") and SM.law_of.startswith("da Lei")


def test_words_for_numbers_ordinals_and_percents():
    assert chapter.count(1, "vaga", "vagas") == "1 (uma) vaga"
    assert chapter.count(22, "vaga", "vagas") == "22 (vinte e duas) vagas"
    assert chapter.count(10, "dia", "dias", feminine=False) == "10 (dez) dias"
    assert chapter.ordinal(5) == "5ª (quinta)"
    assert chapter.percent(Fraction(20)) == "20% (vinte por cento)"
    assert chapter.seats_in_words([3, 8, 13]) == "a 3ª, a 8ª e a 13ª vagas"


def test_ar_art3_par1_chapter_states_the_fifth_of_each_five():
    ar = chapter.PolicyText(
        law="lei municipal originada do Projeto de Lei nº 094/2015 (ainda sem número de lei registrado)",
        law_dates="",
        group_label="negros e índios",
        groups=("preta", "parda", "indigena"),
        percent=Fraction(20),
        order="every_nth",
        nth=5,
        citations={"order": "art. 3º §1º"},
    )
    text = text_of(chapter.reservation_chapter(ar, [row(pcd=0, pcd_seats=(), open=10)], chapter=2))
    assert "5ª (quinta) vaga de cada grupo de 5 (cinco)" in text
    assert "pretos, pardos e indígenas" in text
    assert "pessoas com deficiência" not in text.split("A nomeação")[0].split("2.1")[0]


def test_heteroidentification_clause_only_when_the_contest_uses_it():
    without = text_of(chapter.reservation_chapter(SM, [row()], chapter=2))
    with_it = text_of(chapter.reservation_chapter(SM, [row()], chapter=2, heteroidentification=True))
    assert "heteroidentificação" not in without
    assert "heteroidentificação" in with_it


def test_the_heteroidentification_clause_names_only_the_groups_the_law_covers():
    """Issue 20: a Santa Maria edital (pretos e pardos) never mentions indigenous candidates."""
    from dataclasses import replace

    sm = text_of(chapter.reservation_chapter(SM, [row()], chapter=2, heteroidentification=True))
    assert (
        "indígena" not in sm
        and "para candidatos pretos e pardos, considerará exclusivamente o fenótipo" in sm
    )
    ar = replace(SM, groups=("preta", "parda", "indigena"), group_label="negros e índios")
    text = text_of(chapter.reservation_chapter(ar, [row()], chapter=2, heteroidentification=True))
    assert "para candidatos indígenas, verificará o pertencimento e o reconhecimento pela comunidade" in text


def test_ordinal_list():
    assert chapter.ordinal_list([3]) == "3ª"
    assert chapter.ordinal_list([3, 8, 13]) == "3ª, 8ª e 13ª"


def check(**overrides):
    data = {
        "texts": [("Provas", "Prova objetiva.")],
        "schedule": "02/03/2026 – Publicação do edital\n09/03/2026 a 08/04/2026 – Inscrições",
        "edital_date": D(2026, 3, 2),
        "registration_start": D(2026, 3, 9),
        "registration_end": D(2026, 4, 8),
        "policy_refusal": "",
        "policy_dates_warning": "",
        "rows": [row()],
        "group_label": "negros",
    }
    data.update(overrides)
    return checks.check_edital(**data)


def test_a_clean_edital_passes():
    report = check()
    assert report.ok, report.blocking


def test_placeholder_blocks_and_says_where():
    report = check(texts=[("Provas", "Conteúdo da prova.\nTaxa de inscrição: R$ XX,00.")])
    assert not report.ok
    [problem] = report.blocking
    assert problem.where == "Provas, linha 2"
    assert "“XX”" in problem.message


def test_every_kind_of_placeholder_is_found():
    for text in ("[...]", "[ … ]", "nome: ____", "{{ contest.name }}", "XXX"):
        assert checks.placeholders("Texto", text), text
    assert not checks.placeholders("Texto", "Lei nº 9.784/1999, art. 26 §1º; R$ 120,00; CPF 000.000.000-00")


def test_schedule_out_of_order_blocks():
    report = check(schedule="09/03/2026 – Inscrições\n02/03/2026 – Publicação")
    assert any(
        "fora de ordem" in p.message and p.where.startswith("Cronograma, linha 2") for p in report.blocking
    )


def test_registration_event_outside_the_registration_period_blocks():
    report = check(schedule="02/03/2026 – Publicação\n09/03/2026 a 15/04/2026 – Inscrições")
    assert any("fora do período de inscrições" in p.message for p in report.blocking)


def test_events_after_the_registrations_are_not_the_registration_period():
    report = check(
        schedule="02/03/2026 – Publicação\n09/03/2026 a 08/04/2026 – Inscrições\n20/04/2026 – Homologação das inscrições"
    )
    assert report.ok, report.blocking


def test_date_before_the_edital_blocks():
    report = check(schedule="01/03/2026 – Reunião")
    assert any("anterior à publicação do edital" in p.message for p in report.blocking)


def test_bad_schedule_line_blocks():
    report = check(schedule="em breve – provas")
    assert any(p.where == "Cronograma, linha 1" for p in report.blocking)


def test_weekend_and_holiday_only_warn():
    report = check(
        schedule="02/03/2026 – Publicação\n07/03/2026 – Sábado\n03/04/2026 – Sexta-feira Santa",
        holidays={D(2026, 4, 3)},
    )
    assert report.ok
    messages = [p.message for p in report.warnings]
    assert any("sábado" in m for m in messages)
    assert any("feriado" in m for m in messages)


def test_ar_art5_par2_policy_refusal_blocks():
    refusal = "A lei não se aplica a editais publicados antes da sua vigência (01/01/2027), AR art. 5º §2º."
    report = check(policy_refusal=refusal)
    assert any(p.where == "Política de reserva" and "art. 5º §2º" in p.message for p in report.blocking)


def test_chapter_inconsistent_with_table_blocks():
    report = check(rows=[row(racial_seats=(3, 8))])
    assert any("Capítulo da reserva" in p.where for p in report.blocking)


def test_zero_vacancies_and_fragmentation_warn():
    report = check(
        rows=[row(), row(code="CR", vacancies=0, open=0, racial=0, pcd=0, racial_seats=(), pcd_seats=())],
        fragmentation=(1, 3, 2),
    )
    assert report.ok
    text = " ".join(p.message for p in report.warnings)
    assert "cadastro reserva" in text
    assert "ADC 41" in text


def test_rules_s5_the_edital_states_the_policy_sizes_appeal_days_and_no_show_consequence():
    from dataclasses import replace

    policy = replace(
        SM,
        hetero_commission_size=7,
        hetero_appeal_commission_size=5,
        hetero_appeal_days=3,
        hetero_no_show="eliminate",
    )
    text = text_of(chapter.reservation_chapter(policy, [row()], chapter=2, heteroidentification=True))
    assert "heteroidentificação de 7 (sete) membros" in text
    assert "de 5 (cinco) membros, sem membro em comum" in text
    assert "no prazo de 3 (três) dias da comunicação do resultado" in text
    assert "não comparecer à sessão será eliminado do concurso" in text
