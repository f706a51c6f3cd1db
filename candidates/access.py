"""The candidate's personal access code: what opens their own page on the public site (inscription
number plus code; no search by CPF).

No code is stored. A registration's code is derived, whenever it is needed (the e-mail, a letter, the
check on the public page), as an HMAC of the registration's id and its ``access_code_version`` under
``settings.ACCESS_CODE_KEY``: a leaked database table gives no code, the bulk import computes nothing per
row, and a reissue (``version`` + 1) makes the old code stop working at once. Changing the key
invalidates every code (docs/operations.md).

The code is 10 characters from an alphabet without look-alikes (no 0, O, 1, I, L, and no U, read as V),
shown in groups as ``ABCD-EFGH-JK``; the candidate may type it in lower case, with or without the hyphens
and spaces. Comparison is in constant time.
"""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

# 30 symbols: the digits 2–9 and the letters without I, L, O and U (read as 1, 1, 0 and V).
ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 10
GROUPS = (4, 4, 2)
MAX_INPUT = 40  # what a form accepts before normalising (hyphens and spaces included)


def derive(*, key: str | bytes, registration_id: int, version: int) -> str:
    """The code of ``registration_id`` at ``version`` under ``key``, normalised (no separators).

    The HMAC-SHA256 digest read as one integer and written in base 30: 30¹⁰ ≈ 5.9 × 10¹⁴ codes (49 bits),
    the bias of taking 256 bits modulo 30¹⁰ being far below anything measurable."""
    secret = key.encode() if isinstance(key, str) else key
    message = f"cotas.registration.access-code:{registration_id}:{version}".encode()
    number = int.from_bytes(hmac.new(secret, message, hashlib.sha256).digest(), "big")
    symbols = []
    for _ in range(LENGTH):
        number, index = divmod(number, len(ALPHABET))
        symbols.append(ALPHABET[index])
    return "".join(symbols)


def formatted(code: str) -> str:
    """``ABCDEFGHJK`` → ``ABCD-EFGH-JK`` (how letters and e-mails print it)."""
    parts, start = [], 0
    for size in GROUPS:
        parts.append(code[start : start + size])
        start += size
    return "-".join(part for part in parts if part)


def normalized(text: str) -> str:
    """What the candidate typed, upper-cased, without hyphens, spaces or dots."""
    return "".join(ch for ch in text.upper() if ch not in "-–. \t")


def is_well_formed(text: str) -> bool:
    code = normalized(text)
    return len(code) == LENGTH and all(ch in ALPHABET for ch in code)


def code_for(registration) -> str:
    """The registration's current code, formatted (``ABCD-EFGH-JK``)."""
    return formatted(
        derive(
            key=settings.ACCESS_CODE_KEY,
            registration_id=registration.pk,
            version=registration.access_code_version,
        )
    )


def matches(registration, typed: str) -> bool:
    """Whether ``typed`` is the registration's current code (constant-time comparison)."""
    expected = derive(
        key=settings.ACCESS_CODE_KEY,
        registration_id=registration.pk,
        version=registration.access_code_version,
    )
    return hmac.compare_digest(expected.encode(), normalized(typed)[:MAX_INPUT].encode())
