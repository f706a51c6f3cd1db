"""The report screen's form (a GET: policy, period, contests) and the form that records a filed report."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils import timezone

from contests.form_fields import RecordsField
from contests.forms import StaffFormMixin
from contests.models import Contest, Policy
from monitoring.indicators import Scope
from monitoring.models import FiledReport

# A report covers at most this many years (the longest term a law of the project has is ten years; a state
# law extended to 2081 is reported on in its own periods).
LONGEST_PERIOD_YEARS = 20


class PolicyChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Policy) -> str:
        return str(obj)


class ContestChoice(RecordsField):
    def label_from_instance(self, obj: Contest) -> str:
        return f"{obj} ({obj.policy})"


class ReportForm(StaffFormMixin, forms.Form):
    policy = PolicyChoice(Policy.objects.order_by("name", "-version"), label="Política (lei)")
    start = forms.DateField(label="Início do período")
    end = forms.DateField(label="Fim do período")
    contests = ContestChoice(
        Contest.objects.exclude(status=Contest.Status.CANCELLED)
        .select_related("policy")
        .order_by("-edital_date", "-year", "-number"),
        label="Concursos",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Nenhum marcado: todos os concursos da política com edital no período.",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("start"), data.get("end")
        if start and end:
            if end < start:
                self.add_error("end", "O fim do período é anterior ao início.")
            elif (end - start).days > LONGEST_PERIOD_YEARS * 366:
                self.add_error("end", f"O período não pode passar de {LONGEST_PERIOD_YEARS} anos.")
        policy = data.get("policy")
        if policy is not None:
            others = [c for c in data.get("contests") or () if c.policy_id != policy.pk]
            if others:
                self.add_error(
                    "contests",
                    "Estes concursos não usam a política escolhida: "
                    + ", ".join(str(c) for c in others)
                    + ".",
                )
        return data

    def scope(self) -> Scope:
        data = self.cleaned_data
        return Scope(data["policy"], data["start"], data["end"], tuple(c.slug for c in data["contests"]))


def default_data(today: datetime.date) -> dict[str, str] | None:
    """The form's data when the page is opened without one: the newest policy with contests, from its effect
    (or the first day of the year) to today."""
    policy = (
        Policy.objects.filter(contests__isnull=False)
        .order_by("-effective_date", "-publication_date", "-pk")
        .first()
        or Policy.objects.order_by("-pk").first()
    )
    if policy is None:
        return None
    start = policy.start_date or datetime.date(today.year, 1, 1)
    start = min(start, today)
    return {"policy": str(policy.pk), "start": f"{start:%d/%m/%Y}", "end": f"{today:%d/%m/%Y}"}


class FiledReportForm(StaffFormMixin, forms.ModelForm):
    class Meta:
        model = FiledReport
        fields = ("policy", "kind", "number", "period_start", "period_end", "filed_on", "document", "notes")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end, filed = data.get("period_start"), data.get("period_end"), data.get("filed_on")
        if start and end and end < start:
            self.add_error("period_end", "O fim do período é anterior ao início.")
        if end and filed and filed < end:
            self.add_error("filed_on", "Um relatório é entregue depois do fim do período que cobre.")
        if filed and filed > timezone.localdate():
            self.add_error("filed_on", "A data de entrega não pode estar no futuro.")
        return data


class LawReportForm(ReportForm):
    """The report as an act: its scope (as on the report screen), kind and number, and the section the
    monitoring body writes; who signs it."""

    kind = forms.ChoiceField(label="Tipo", choices=FiledReport.Kind.choices)
    number = forms.IntegerField(
        label="Número",
        min_value=1,
        max_value=50,
        initial=1,
        help_text="1º, 2º… relatório periódico; 1 para o final.",
    )
    conclusions = forms.CharField(label="Conclusões do órgão de acompanhamento", widget=forms.Textarea)
    recommendation = forms.CharField(
        label="Recomendação sobre a prorrogação da lei",
        widget=forms.Textarea,
        required=False,
        help_text="Obrigatória no relatório final.",
    )
    signer_name = forms.CharField(label="Quem assina", max_length=200)
    signer_office = forms.CharField(label="Cargo de quem assina", max_length=200)
    summary = forms.CharField(
        label="O que esta versão altera",
        widget=forms.Textarea,
        required=False,
        help_text="Só quando já há um relatório deste tipo e número: esta será a nova versão.",
    )
    fieldsets = (
        ("Período e concursos", ("policy", "start", "end", "contests")),
        ("Relatório", ("kind", "number", "conclusions", "recommendation")),
        ("Assinatura", ("signer_name", "signer_office", "summary")),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("kind") == FiledReport.Kind.FINAL and not (data.get("recommendation") or "").strip():
            self.add_error("recommendation", "O relatório final recomenda se a lei deve ser prorrogada.")
        return data
