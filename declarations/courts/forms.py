"""Forms of the court orders' screens: validation of what was typed only (the services decide)."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from candidates.models import Registration
from candidates.models.results import ListName
from contests.forms import StaffFormMixin, date_field
from contests.models import Contest, Position
from declarations.courts import rules
from declarations.models import CourtOrder
from declarations.models.courts import DURATION_CHOICES, EFFECT_CHOICES, KIND_CHOICES, SCOPE_CHOICES

MAX_NUMBERS = 5000


class CourtOrderForm(StaffFormMixin, forms.Form):
    fieldsets = (
        ("Processo", ("contest", "case_number", "secret", "court", "body")),
        ("Decisão", ("kind", "decided_on", "notified_on", "summary", "file")),
        ("Prazo de cumprimento", ("compliance_days", "compliance_unit")),
        ("Efeito e alcance", ("effect", "scope", "position", "list_name", "numbers")),
        ("Duração", ("duration", "until")),
    )

    contest = forms.ModelChoiceField(
        label="Concurso", queryset=Contest.objects.order_by("-year", "-number"), empty_label="— escolha —"
    )
    case_number = forms.CharField(
        label="Número do processo",
        max_length=30,
        help_text="Numeração única do CNJ: NNNNNNN-DD.AAAA.J.TR.OOOO. Os dígitos verificadores são conferidos "
        "e o tribunal é deduzido de J.TR.",
    )
    secret = forms.BooleanField(
        label="Segredo de justiça",
        required=False,
        help_text="Marque quando o processo tramita em segredo de justiça: o ato de nomeação publicado diz "
        "apenas “em cumprimento a decisão judicial, precariamente”, sem o número do processo.",
    )
    court = forms.CharField(
        label="Tribunal",
        max_length=200,
        required=False,
        help_text="Deixe em branco para usar o tribunal deduzido do número.",
    )
    body = forms.CharField(label="Órgão julgador", max_length=200, help_text="A vara, a turma ou a câmara.")
    kind = forms.ChoiceField(label="Espécie de decisão", choices=KIND_CHOICES)
    decided_on = date_field("Data da decisão")
    notified_on = date_field("Data da intimação do órgão")
    summary = forms.CharField(
        label="O que a decisão determina", widget=forms.Textarea(attrs={"rows": 4}), max_length=5000
    )
    file = forms.FileField(
        label="Arquivo da decisão",
        help_text="PDF ou imagem (PNG, JPEG, WEBP), verificado pelo conteúdo; até 10 MB. Guardado em área "
        "restrita, nunca publicado.",
        widget=forms.ClearableFileInput(attrs={"accept": "application/pdf,image/png,image/jpeg,image/webp"}),
    )
    compliance_days = forms.IntegerField(label="Prazo (quantidade)", min_value=0, max_value=3650)
    compliance_unit = forms.ChoiceField(
        label="Unidade", choices=CourtOrder.DeadlineUnit.choices, widget=forms.RadioSelect
    )
    effect = forms.ChoiceField(label="Efeito", choices=EFFECT_CHOICES)
    scope = forms.ChoiceField(label="Alcance", choices=SCOPE_CHOICES)
    position = forms.ModelChoiceField(
        label="Cargo",
        queryset=Position.objects.select_related("contest").order_by("-contest__year", "code"),
        required=False,
        empty_label="—",
        help_text="Quando a ordem alcança um cargo ou uma lista (ou os candidatos são de um só cargo).",
    )
    list_name = forms.ChoiceField(label="Lista", choices=[("", "—"), *ListName.choices], required=False)
    numbers = forms.CharField(
        label="Inscrições alcançadas",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Os números de inscrição no concurso, um por linha (ou separados por vírgula), para um "
        "candidato ou um grupo.",
    )
    duration = forms.ChoiceField(label="Duração", choices=DURATION_CHOICES, widget=forms.RadioSelect)
    until = date_field("Vigente até", required=False, help_text="Só quando a ordem vigora até uma data.")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        contest = data.get("contest")
        typed = [n for n in re.split(r"[\s,;]+", data.get("numbers") or "") if n]
        if len(typed) > MAX_NUMBERS:
            self.add_error("numbers", f"No máximo {MAX_NUMBERS} inscrições.")
            typed = []
        registrations: list[Registration] = []
        if contest is not None and typed:
            found = {r.number: r for r in Registration.objects.filter(contest=contest, number__in=typed)}
            missing = [n for n in dict.fromkeys(typed) if n not in found]
            if missing:
                self.add_error(
                    "numbers",
                    f"O concurso {contest} não tem a{'s' if len(missing) > 1 else ''} inscriç"
                    f"{'ões' if len(missing) > 1 else 'ão'} {', '.join(missing[:10])}: confira os números.",
                )
            registrations = [found[n] for n in dict.fromkeys(typed) if n in found]
        data["registrations"] = registrations
        return data

    def service_data(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data.pop("numbers", None)
        data["upload"] = data.pop("file")
        return data


class StatusForm(StaffFormMixin, forms.Form):
    status = forms.ChoiceField(label="Nova situação", choices=())
    decided_on = date_field("Data da decisão que muda a situação")
    note = forms.CharField(
        label="Decisão",
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=5000,
        help_text="Espécie, órgão e o que decidiu (por exemplo: acórdão da 3ª Turma do TRF4 que deu provimento "
        "à apelação).",
    )

    def __init__(self, *args: Any, current: str = rules.Status.IN_FORCE.value, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["status"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(s.value, rules.STATUS_LABELS[s]) for s in rules.allowed(rules.Status(current))]
