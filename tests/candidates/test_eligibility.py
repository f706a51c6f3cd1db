"""The registration rules, one home each (candidates.engine.eligibility): pure, no database."""

import datetime

import pytest

from candidates.engine.eligibility import (
    UNSPECIFIED_BLACK,
    OptionChange,
    accepted_categories,
    category_refusal,
    declaration_date_refusal,
    preferred_reserve_refusal,
    racial_option_refusal,
    registration_date_refusal,
    reserves_chosen,
)

END = datetime.date(2026, 4, 8)
BEFORE, AFTER = datetime.date(2026, 4, 1), datetime.date(2026, 4, 9)
SM = ("preta", "parda")
AR = ("preta", "parda", "indigena")
LABELS = {"preta": "Preta", "parda": "Parda", "indigena": "Indígena", "quilombola": "Quilombola"}


# Registration and the racial option in time ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("registered_on", "end", "refused"),
    [(BEFORE, END, False), (END, END, False), (AFTER, END, True), (AFTER, None, False), (None, END, False)],
)
def test_edital_registration_after_the_end_of_registrations_is_refused(registered_on, end, refused):
    refusal = registration_date_refusal(registered_on, registration_end=end)
    assert (refusal is not None) == refused
    if refused:
        assert (
            refusal == "A inscrição de 09/04/2026 não pode ser posterior ao fim das inscrições (08/04/2026)."
        )


@pytest.mark.parametrize(
    ("declared_on", "refused"), [(BEFORE, False), (END, False), (AFTER, True), (None, False)]
)
def test_sm_art3_ar_art1_par4_declaration_dated_after_the_close_is_refused(declared_on, refused):
    refusal = declaration_date_refusal(declared_on, registration_end=END)
    assert (refusal is not None) == refused
    if refused:
        assert refusal.startswith(
            "A autodeclaração de 09/04/2026 é posterior ao fim das inscrições (08/04/2026)"
        )


@pytest.mark.parametrize("change", list(OptionChange))
def test_sm_art3_ar_art1_par4_while_registrations_are_open_the_option_may_change(change):
    assert racial_option_refusal(change, on=BEFORE, registration_end=END) is None
    assert racial_option_refusal(change, on=END, registration_end=END) is None
    assert racial_option_refusal(change, on=AFTER, registration_end=None) is None


@pytest.mark.parametrize(
    ("change", "text"),
    [
        ("add", "não pode ser acrescentada depois do fim das inscrições (08/04/2026)"),
        ("remove", "não pode ser retirada depois do fim das inscrições (08/04/2026): registre a renúncia"),
        ("category", "A categoria declarada não pode ser alterada depois do fim das inscrições (08/04/2026)"),
    ],
)
def test_sm_art3_ar_art1_par4_after_the_close_the_option_stands_as_declared(change, text):
    refusal = racial_option_refusal(change, on=AFTER, registration_end=END)
    assert refusal is not None and text in refusal
    assert "com justificativa" in refusal  # the way left open: a clerk's justified correction (RULES §5)


# The category the policy accepts ---------------------------------------------------------------------------


def test_sm_art3_pretos_and_pardos_and_negra_without_distinction():
    assert accepted_categories(SM) == ("preta", "parda", UNSPECIFIED_BLACK)
    for category in accepted_categories(SM):
        assert category_refusal(category, groups=SM, labels=LABELS) is None


def test_sm_art3_indigena_is_not_a_beneficiary_of_santa_maria():
    assert category_refusal("indigena", groups=SM, labels=LABELS) == (
        "A categoria indígena não é beneficiária da política do concurso (preta, parda)."
    )


def test_ar_art1_indios_are_beneficiaries_of_angra_dos_reis():
    assert category_refusal("indigena", groups=AR, labels=LABELS) is None
    assert category_refusal("quilombola", groups=AR, labels=LABELS) is not None


def test_a_policy_without_pretos_or_pardos_needs_the_category_named():
    assert accepted_categories(("indigena",)) == ("indigena",)
    assert category_refusal("", groups=("indigena",), labels=LABELS) == (
        "Informe a categoria declarada: a política do concurso abrange indígena."
    )


# The reserve preferred by a dual candidate ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preferred", "racial", "pcd", "refused"),
    [
        ("", False, False, False),
        ("racial", True, True, False),
        ("pcd", True, True, False),
        ("racial", True, False, False),
        ("racial", False, True, True),
        ("pcd", True, False, True),
    ],
)
def test_sm_art4_par7_preferred_reserve_must_be_one_chosen(preferred, racial, pcd, refused):
    refusal = preferred_reserve_refusal(preferred, chosen=reserves_chosen(racial=racial, pcd=pcd))
    assert (refusal is not None) == refused
    if refused:
        assert refusal.endswith("deve ser uma das reservas escolhidas na inscrição.")
