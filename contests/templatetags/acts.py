"""Filters for the text of acts (``templates/pdf/``): ``{% load acts %}``.

``{{ day|date_in_full }}`` → "1º de dezembro de 2026"; ``{{ n|in_words }}`` / ``{{ n|in_words_f }}`` →
"vinte e um" / "vinte e uma"; ``{{ policy.percent|percent_in_words }}`` → "20% (vinte por cento)".
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django import template

from contests import wording

register = template.Library()


@register.filter
def date_in_full(value: datetime.date | datetime.datetime | None) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, datetime.datetime):
        from django.utils import timezone

        value = timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    return wording.date_in_full(value)


@register.filter
def in_words(value: int) -> str:
    return wording.in_words(int(value))


@register.filter
def in_words_f(value: int) -> str:
    return wording.in_words(int(value), feminine=True)


@register.filter
def percent_in_words(value: Decimal | int) -> str:
    return wording.percent_in_words(value)


@register.filter
def as_subject(name: str | None) -> str:
    """An organisation's name opening a sentence, with the article it takes: "A Câmara Municipal de
    Santa Maria", "O Município de Angra dos Reis" ("O órgão" without a name)."""
    name = (name or "").strip()
    if not name:
        return "O órgão"
    phrase = wording.with_article(name)
    return phrase[0].upper() + phrase[1:]
