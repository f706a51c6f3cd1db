"""CPF: the Receita Federal's check digits (one implementation) and the masked display (LGPD)."""

import pytest

from candidates.validators import cpf_check_digits, cpf_is_valid, cpf_with_check_digits, mask_cpf


@pytest.mark.parametrize(("base", "digits"), [("036881690", "77"), ("111444777", "35"), ("000000001", "91")])
def test_cpf_check_digits_modulo_11(base, digits):
    assert cpf_check_digits(base) == digits
    assert cpf_with_check_digits(base) == base + digits
    assert cpf_is_valid(base + digits)


def test_any_wrong_check_digit_is_refused():
    for wrong in range(100):
        candidate = f"036881690{wrong:02d}"
        assert cpf_is_valid(candidate) == (wrong == 77)


def test_a_repeated_digit_is_not_a_cpf_even_with_matching_check_digits():
    assert cpf_check_digits("111111111") == "11"
    assert not cpf_is_valid("11111111111")


@pytest.mark.parametrize(
    ("digits", "masked"), [("03688169077", "***.881.690-**"), ("123", "***"), ("", "***")]
)
def test_lists_show_only_the_middle_six_digits_of_a_cpf(digits, masked):
    assert mask_cpf(digits) == masked
