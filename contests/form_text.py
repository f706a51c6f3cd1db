"""Free text bounded per field (issue 25 N13): every text area takes at most ``TEXT_MAX_CHARS`` characters,
renders ``maxlength`` and says the limit in its help text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.conf import settings
from django.core.validators import MaxLengthValidator

if TYPE_CHECKING:
    _FormBase = forms.BaseForm
else:
    _FormBase = object


def bound_text_fields(form: forms.BaseForm) -> None:
    """Every free-text field (a ``Textarea`` without its own ``max_length``) takes ``TEXT_MAX_CHARS``: the
    limit is enforced, rendered (``maxlength``) and said in the help text ("Até 10.000 caracteres"). 2 MB of
    facts made a 429-page act in 59 s (issue 25 N13)."""
    limit = settings.TEXT_MAX_CHARS
    said = f"Até {limit:,} caracteres.".replace(",", ".")
    for field in form.fields.values():
        if not isinstance(field, forms.CharField) or not isinstance(field.widget, forms.Textarea):
            continue
        if field.max_length is None:
            field.max_length = limit
            field.validators.append(MaxLengthValidator(limit))
        field.widget.attrs.setdefault("maxlength", str(field.max_length))
        if "caracteres" not in str(field.help_text):
            field.help_text = f"{field.help_text} {said}".strip() if field.help_text else said


class BoundedTextMixin(_FormBase):
    """Free text bounded (``bound_text_fields``) on a form outside the workspace's mixin (the candidate's)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        bound_text_fields(self)
