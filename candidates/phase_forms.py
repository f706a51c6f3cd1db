"""Forms of the phases screen (validation only; writes go through ``candidates.services.phases``).

Apart from ``candidates.forms`` to keep each module under the size the layout test allows.
"""

from __future__ import annotations

from decimal import Decimal

from django import forms

from candidates.models import Phase
from contests.forms import StaffFormMixin, bound_date_field
from contests.models import Contest
from contests.quotas import format_percent, to_fraction


class PhaseForm(StaffFormMixin, forms.ModelForm):
    """A phase as the edital sets it: name, weight, maximum and pass mark; the cut-off K and its split
    between the lists (SM art. 4 §§1–2). The PcD list's K only where the contest has a PcD reserve."""

    fieldsets = (
        ("Fase", ("name", "weight", "max_score", "pass_mark", "starts_on", "ends_on")),
        (
            "Nota de corte: quantos passam para a fase seguinte",
            ("cutoff", "cutoff_open", "cutoff_racial", "cutoff_pcd"),
        ),
    )

    class Meta:
        model = Phase
        fields = [
            "name",
            "weight",
            "max_score",
            "pass_mark",
            "starts_on",
            "ends_on",
            "cutoff",
            "cutoff_open",
            "cutoff_racial",
            "cutoff_pcd",
        ]
        localized_fields = ["weight", "max_score", "pass_mark"]
        labels = {
            "name": "Nome da fase",
            "weight": "Peso na nota final",
            "max_score": "Nota máxima",
            "pass_mark": "Nota mínima da fase",
            "cutoff": "Quantos passam (K)",
            "cutoff_open": "K da lista geral (ampla concorrência)",
        }
        help_texts = {
            "name": "Como o edital a chama, ex.: Prova objetiva.",
            "weight": "A nota final é a soma das notas das fases, cada uma multiplicada pelo seu peso "
            "(ex.: 1; 2; 0,5).",
            "pass_mark": "Abaixo dela o candidato sai de todas as listas, cotistas inclusive (SM art. 4º §2º). "
            "Em branco: a fase não elimina por nota.",
            "cutoff": "Em cada cargo, passam para a fase seguinte os K melhores nesta fase, cada lista com a sua "
            "parte; os empatados com o último classificado de cada lista também passam (SM art. 4º §1º). "
            "Em branco: a fase não tem corte.",
            "cutoff_open": "Em branco: K menos os das listas reservadas.",
        }

    def __init__(self, *args, contest: Contest, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.contest = contest
        policy = contest.policy
        racial = self.fields["cutoff_racial"]
        racial.label = f"K da lista reservada a {policy.group_label}"
        racial.help_text = (
            f"Em branco: {format_percent(to_fraction(policy.percent))} de K, com o arredondamento da reserva de "
            "vagas; concorrem os que não passaram pela lista geral."
        )
        pcd = contest.pcd_rule()
        if pcd is None:
            del self.fields["cutoff_pcd"]
        else:
            field = self.fields["cutoff_pcd"]
            field.label = "K da lista reservada a pessoas com deficiência"
            field.help_text = (
                f"Em branco: {format_percent(pcd.percent)} de K, com o arredondamento e o limite da reserva de "
                "vagas."
            )
        for name in ("cutoff", "cutoff_open", "cutoff_racial", "cutoff_pcd"):
            if name in self.fields:
                self.fields[name].widget.attrs.update(inputmode="numeric", **{"data-cut": name})
        for name in ("starts_on", "ends_on"):
            field = self.fields[name]
            assert isinstance(field, forms.DateField)
            bound_date_field(field)
        self.fields["weight"].initial = Decimal(1)
        if self.instance.pk is not None:  # "1" and "100", not the column's "1,000" and "100,00"
            for name in ("weight", "max_score", "pass_mark"):
                value = getattr(self.instance, name)
                if value is not None:
                    self.initial[name] = _plain(value)


def _plain(value: Decimal) -> Decimal:
    """``value`` without trailing zeros, never in exponent form (``Decimal("100.00")`` → ``100``)."""
    text = format(value, "f")
    return Decimal(text.rstrip("0").rstrip(".") if "." in text else text)


class PhaseMoveForm(forms.Form):
    direction = forms.ChoiceField(choices=[("up", "Subir"), ("down", "Descer")], widget=forms.HiddenInput)


class MinimumFinalScoreForm(StaffFormMixin, forms.Form):
    minimum_final_score = forms.DecimalField(
        label="Nota final mínima para aprovação",
        required=False,
        min_value=Decimal(0),
        max_digits=8,
        decimal_places=2,
        localize=True,
        help_text="O mínimo para aprovação que o edital fixa (SM art. 4º §2º): abaixo dele o candidato sai de "
        "todas as listas finais, cotistas inclusive. Em branco: o edital não fixa nota final mínima.",
    )


class CutPreviewForm(forms.Form):
    """The numbers typed so far on the phase form, read by the live preview of the split (never trusted
    beyond this: the form itself validates again on save)."""

    k = forms.IntegerField(min_value=0, max_value=10**6)
    open = forms.IntegerField(min_value=0, max_value=10**6, required=False)
    racial = forms.IntegerField(min_value=0, max_value=10**6, required=False)
    pcd = forms.IntegerField(min_value=0, max_value=10**6, required=False)
