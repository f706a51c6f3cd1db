"""CPF: normalisation, check digits and display (Receita Federal's modulo-11 algorithm)."""

from __future__ import annotations

from django.core.exceptions import ValidationError

CPF_LENGTH = 11
_DIGITS = "0123456789"


def cpf_digits(value: str | int) -> str:
    """The CPF's digits, restoring leading zeros a spreadsheet dropped (``36881690077`` → ``03688169077``).

    Punctuation and spaces go; anything else is kept so that validation can reject it.
    """
    if isinstance(value, int):
        text = str(value)
    else:
        text = "".join(ch for ch in str(value).strip() if ch not in ".-/ \u00a0")
    if text.isdigit() and len(text) < CPF_LENGTH:
        text = text.zfill(CPF_LENGTH)
    return text


def cpf_check_digits(base: str) -> str:
    """The two check digits of a CPF's first nine digits (Receita Federal's modulo 11): the one home of
    the algorithm, used by validation, the importer, the test builders and the benchmarks."""
    # Unrolled, on the digits' bytes (their codes, 48 more than each digit: ``48 * Σweights`` taken off once):
    # imports check 100,000 CPFs at a time.
    n = base.encode()
    first = (
        10 * n[0]
        + 9 * n[1]
        + 8 * n[2]
        + 7 * n[3]
        + 6 * n[4]
        + 5 * n[5]
        + 4 * n[6]
        + 3 * n[7]
        + 2 * n[8]
        - 48 * 54
    ) % 11
    first = 0 if first < 2 else 11 - first
    second = (
        11 * n[0]
        + 10 * n[1]
        + 9 * n[2]
        + 8 * n[3]
        + 7 * n[4]
        + 6 * n[5]
        + 5 * n[6]
        + 4 * n[7]
        + 3 * n[8]
        + 2 * first
        - 48 * 63
    ) % 11
    second = 0 if second < 2 else 11 - second
    return _DIGITS[first] + _DIGITS[second]


def cpf_is_valid(digits: str) -> bool:
    """Whether ``digits`` (11 digits, no punctuation) has the right check digits and is not a repetition."""
    if len(digits) != CPF_LENGTH or not digits.isascii() or not digits.isdigit() or digits == digits[0] * 11:
        return False
    return digits[9:] == cpf_check_digits(digits[:9])


def cpf_with_check_digits(base: str) -> str:
    """Complete nine digits with their check digits (used by test builders and benchmarks)."""
    return base + cpf_check_digits(base)


def format_cpf(digits: str) -> str:
    if len(digits) != CPF_LENGTH:
        return digits
    return f"{digits[:3]}.{digits[3:6]}.{digits[6:9]}-{digits[9:]}"


def mask_cpf(digits: str) -> str:
    """``***.881.690-**``: the middle six digits, as federal publications mask CPFs (LGPD)."""
    if len(digits) != CPF_LENGTH:
        return "***"
    return f"***.{digits[3:6]}.{digits[6:9]}-**"


def validate_cpf(value: str) -> None:
    """Model validator: the stored value is exactly 11 digits with valid check digits."""
    if not (isinstance(value, str) and len(value) == CPF_LENGTH and value.isdigit()):
        raise ValidationError("Informe o CPF com 11 dígitos.", code="cpf_format")
    if not cpf_is_valid(value):
        raise ValidationError("CPF inválido: os dígitos verificadores não conferem.", code="cpf_check_digits")
