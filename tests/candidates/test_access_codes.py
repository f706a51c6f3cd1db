"""The access code: derived (never stored) from the registration and its version under the key; typable
(no look-alike characters); a new version or a new key gives another code."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from candidates import access

KEY = "chave-de-teste"


def test_the_same_registration_and_version_give_the_same_code():
    codes = {access.derive(key=KEY, registration_id=42, version=1) for _ in range(3)}
    assert len(codes) == 1
    assert codes == {access.derive(key=KEY.encode(), registration_id=42, version=1)}


def test_a_new_version_a_new_registration_or_a_new_key_give_another_code():
    base = access.derive(key=KEY, registration_id=42, version=1)
    assert access.derive(key=KEY, registration_id=42, version=2) != base
    assert access.derive(key=KEY, registration_id=43, version=1) != base
    assert access.derive(key="outra-chave", registration_id=42, version=1) != base


def test_codes_use_only_the_unambiguous_alphabet():
    assert not set("01ILOU") & set(access.ALPHABET)
    assert len(set(access.ALPHABET)) == len(access.ALPHABET) == 30
    seen = set()
    for pk in range(1, 400):
        code = access.derive(key=KEY, registration_id=pk, version=1)
        assert len(code) == access.LENGTH == 10
        assert set(code) <= set(access.ALPHABET)
        seen |= set(code)
    assert seen == set(access.ALPHABET)  # every symbol is used: no digit of the digest is wasted


def test_the_code_is_grouped_for_reading_and_accepted_as_typed():
    code = access.derive(key=KEY, registration_id=7, version=3)
    shown = access.formatted(code)
    assert shown == f"{code[:4]}-{code[4:8]}-{code[8:]}"
    registration = SimpleNamespace(pk=7, access_code_version=3)
    with pytest.MonkeyPatch.context() as patch:
        from django.conf import settings

        patch.setattr(settings, "ACCESS_CODE_KEY", KEY)
        assert access.code_for(registration) == shown
        for typed in (shown, code, shown.lower(), f" {code[:4]} {code[4:8]} {code[8:]} "):
            assert access.matches(registration, typed), typed
            assert access.is_well_formed(typed)
        assert not access.matches(registration, code[:-1])
        assert not access.matches(registration, code + "A")
        assert not access.matches(SimpleNamespace(pk=7, access_code_version=4), shown)
        assert not access.matches(registration, "")
