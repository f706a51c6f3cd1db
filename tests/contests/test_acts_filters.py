"""The acts' template filters (``{% load acts %}``) where a sentence opens with the organisation's name."""

from __future__ import annotations

import pytest

from contests.templatetags.acts import as_subject


@pytest.mark.parametrize(
    ("name", "subject"),
    [
        ("Câmara Municipal de Santa Maria", "A Câmara Municipal de Santa Maria"),
        ("Prefeitura Municipal de Angra dos Reis", "A Prefeitura Municipal de Angra dos Reis"),
        ("Município de Angra dos Reis", "O Município de Angra dos Reis"),
        ("  Câmara Municipal de Santa Maria ", "A Câmara Municipal de Santa Maria"),
        ("", "O órgão"),
        (None, "O órgão"),
    ],
)
def test_a_sentence_opens_with_the_organisation_and_its_article(name, subject):
    assert as_subject(name) == subject
