"""Form fields every app's forms share (validation only)."""

from __future__ import annotations

from django import forms


class RecordsField(forms.ModelMultipleChoiceField):
    """Several records by id; an id that is not a positive 64-bit integer is refused before the query (a
    huge one overflows SQLite's INTEGER: a 500, not a message)."""

    def _check_values(self, value):
        for pk in value:
            text = str(pk)
            if not text.isascii() or not text.isdigit() or not 0 < int(text) < 2**63:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"], code="invalid_pk_value", params={"pk": pk}
                )
        return super()._check_values(value)  # type: ignore[misc]  # Django API the stubs leave out
