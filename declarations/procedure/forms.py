"""Forms of the procedure screens and of the candidate's private page: validation only (the services decide)."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.utils import timezone

from candidates.models import Registration
from contests.forms import (
    AuthorityChoiceField,
    BoundedTextMixin,
    StaffFormMixin,
    date_field,
    form_token_field,
)
from contests.models import Contest
from declarations.models import Procedure
from declarations.models.procedures import GROUND_CHOICES, MEANS_CHOICES, OUTCOME_CHOICES, STANDING_CHOICES
from declarations.procedure import appeals, authorities, rules
from declarations.procedure.previews import CONFIRMED_ACTS


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one input (PDF or images; the service checks their content)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault(
            "widget", MultipleFileInput(attrs={"accept": "application/pdf,image/png,image/jpeg,image/webp"})
        )
        kwargs.setdefault("required", False)
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, list | tuple):
            return [single(item, initial) for item in data if item]
        return [single(data, initial)] if data else []


FILES_HELP = "PDF ou imagem (PNG, JPEG, WEBP), verificados pelo conteúdo; até 10 MB cada."


class OpenChooseForm(StaffFormMixin, forms.Form):
    """The registration a procedure is opened on, found by its contest and inscription number (the way
    from the procedures list to the opening form)."""

    contest = forms.ModelChoiceField(
        label="Concurso", queryset=Contest.objects.order_by("-year", "title"), empty_label="— escolha —"
    )
    number = forms.CharField(label="Número de inscrição", max_length=30)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        contest, number = data.get("contest"), (data.get("number") or "").strip()
        if contest is not None and number:
            registration = Registration.objects.filter(contest=contest, number=number).first()
            if registration is None:
                self.add_error(
                    "number", f"O concurso {contest} não tem a inscrição {number}: confira o número."
                )
            data["registration"] = registration
        return data


class OpenForm(StaffFormMixin, forms.Form):
    origin = forms.ChoiceField(label="Origem", choices=Procedure.Origin.choices)
    facts = forms.CharField(
        label="Fatos",
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="Os fatos que motivam a instauração (Lei 9.784 art. 6º III).",
    )
    complainant = forms.CharField(
        label="Denunciante",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Na denúncia: identidade e contato. Nunca mostrados ao candidato.",
    )
    form_token = form_token_field()


# The reconsideration decides whether the authority changes its own decision (art. 56 §1º): its choices say
# so (``appeals.reconsideration_outcome`` maps them to the outcome).
RECONSIDERATION_CHOICES = [("", "—"), *((j.value, label) for j, label in appeals.JUDGEMENT_LABELS.items())]
# Acts whose text is their motivation, required (Lei 9.784 art. 50).
REASONED_ACTS = frozenset({*rules.DECIDING_ACTS, rules.Act.APPEAL_NOT_HEARD})


class ActForm(StaffFormMixin, forms.Form):
    """One act of the administration (or a filing received at the desk); the fields depend on the act."""

    text = forms.CharField(label="Texto", required=False, widget=forms.Textarea(attrs={"rows": 10}))
    outcome = forms.ChoiceField(label="Resultado", required=False, choices=[("", "—"), *OUTCOME_CHOICES])
    filed_by = forms.CharField(
        label="Recorrente",
        required=False,
        max_length=200,
        help_text="Nome de quem recorre; vazio quando é o próprio candidato.",
    )
    standing = forms.ChoiceField(
        label="Legitimidade do recorrente (art. 58)", required=False, choices=[("", "—"), *STANDING_CHOICES]
    )
    ground = forms.ChoiceField(
        label="Motivo do não conhecimento (art. 63)", choices=[("", "—"), *GROUND_CHOICES]
    )
    hearing_on = date_field(
        "Data",
        required=False,
        help_text="Lei 9.784 art. 41: a intimação produz efeito com pelo menos 3 dias úteis de antecedência.",
    )
    hearing_time = forms.TimeField(
        label="Hora",
        required=False,
        input_formats=["%H:%M"],
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text="hh:mm",
    )
    hearing_place = forms.CharField(
        label="Local", required=False, max_length=200, help_text="Endereço e sala (art. 41)."
    )
    attachments = MultipleFileField(label="Anexos", help_text=FILES_HELP)
    protected = forms.BooleanField(
        label="Os anexos contêm dados protegidos de terceiros (não mostrados ao candidato, art. 46)",
        required=False,
    )

    def __init__(
        self,
        *args,
        kind: rules.Act,
        today: datetime.date | None = None,
        confirming: bool = False,
        current: rules.Outcome | None = None,
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.kind, self.current = kind, current
        if kind not in rules.DECIDING_ACTS:
            del self.fields["outcome"]
        else:
            self.fields["outcome"].required = True
            if kind is rules.Act.RECONSIDERATION:
                outcome = self.fields["outcome"]
                assert isinstance(outcome, forms.ChoiceField)
                outcome.choices = RECONSIDERATION_CHOICES
                outcome.label = "Juízo de reconsideração"
        if kind in REASONED_ACTS:
            self.fields["text"].required = True
            self.fields["text"].label = "Motivação (fatos e fundamentos jurídicos, art. 50)"
        if kind in rules.DECIDING_ACTS:
            self._authority_field(kind, today or timezone.localdate())
        if kind in (rules.Act.HEARING, rules.Act.DILIGENCE):
            for name in ("hearing_on", "hearing_time", "hearing_place"):
                self.fields[name].required = True
        else:
            for name in ("hearing_on", "hearing_time", "hearing_place"):
                del self.fields[name]
        if kind in rules.AFTER_FINAL_DECIDING:
            self._after_final_fields(kind)
        if kind is not rules.Act.APPEAL:
            del self.fields["filed_by"], self.fields["standing"]
        if kind is not rules.Act.APPEAL_NOT_HEARD:
            del self.fields["ground"]
        if kind in CONFIRMED_ACTS:
            # Recorded in two steps (the summary of what it does, then "Confirmar"): the files are chosen
            # on the confirmation page, whose other fields carry what the first step filled in.
            if confirming:
                for name, field in self.fields.items():
                    if name not in ("attachments", "protected"):
                        field.widget = forms.HiddenInput()
            else:
                del self.fields["attachments"], self.fields["protected"]

    def _after_final_fields(self, kind: rules.Act) -> None:
        """A revision says its result (it can only lighten, art. 65) and the new facts; an annulment, the
        vice, and whether bad faith is proven (art. 54, for a favourable decision over five years old)."""
        if kind is rules.Act.REVISION:
            self.fields["outcome"] = forms.ChoiceField(
                label="Resultado da revisão",
                choices=[
                    ("", "—"),
                    (rules.Outcome.DISMISSED.value, "Rever a decisão: julgar improcedente (a sanção cai)"),
                    (rules.Outcome.FALSITY.value, "Indeferir o pedido de revisão (a sanção é mantida)"),
                ],
                help_text="Da revisão não pode resultar agravamento da sanção (Lei 9.784 art. 65, parágrafo único).",
            )
            self.fields["text"].label = "Fatos novos ou circunstâncias relevantes e fundamentos (art. 65)"
        else:
            self.fields["text"].label = "O vício de legalidade e os fundamentos (arts. 50 e 53)"
            self.fields["bad_faith"] = forms.BooleanField(
                label="Má-fé do candidato comprovada nos autos (Lei 9.784 art. 54)",
                required=False,
                help_text="Só conta para anular decisão favorável ao candidato com mais de cinco anos.",
            )
        self.fields["text"].required = True

    def clean_outcome(self) -> str:
        """The outcome the act decides; a reconsideration's choice mapped to it (reconsider: the other
        outcome; maintain: the one in force)."""
        chosen = self.cleaned_data.get("outcome", "")
        if self.kind is not rules.Act.RECONSIDERATION or not chosen:
            return chosen
        return appeals.reconsideration_outcome(chosen, self.current).value

    def _authority_field(self, kind: rules.Act, today: datetime.date) -> None:
        choices = authorities.deciding_authorities(today)
        if not choices.exists():
            return  # none recorded: the designated authority signs (refused with the reason if none)
        designated = authorities.designated_authority(kind, on=today)
        self.fields["authority"] = AuthorityChoiceField(
            label="Autoridade que decide e assina",
            queryset=choices,
            initial=designated.pk if designated else None,
            empty_label="— escolha —",
            help_text="Entre as autoridades da organização em exercício hoje (Organização › Autoridades); "
            "o PDF da decisão sai assinado por ela.",
        )


class NoticeForm(StaffFormMixin, forms.Form):
    means = forms.ChoiceField(label="Meio", choices=MEANS_CHOICES, widget=forms.RadioSelect)
    recipient = forms.EmailField(
        label="E-mail do destinatário", required=False, help_text="Vazio: o e-mail cadastrado do candidato."
    )
    received_on = date_field(
        "Data do aviso de recebimento",
        required=False,
        help_text="Carta registrada: vazia até o aviso voltar.",
    )
    candidate_unreachable = forms.BooleanField(
        label="O candidato não foi localizado (art. 26 §4º)", required=False
    )
    gazette_edition = forms.CharField(label="Edição do diário oficial", required=False, max_length=60)
    gazette_page = forms.CharField(label="Página", required=False, max_length=20)
    published_on = date_field("Data da publicação", required=False)
    text = forms.CharField(
        label="Texto da intimação",
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text="Finalidade, prazo, local e consequências (Lei 9.784 art. 26 §1º); o sistema acrescenta a "
        "identificação do processo e o link.",
    )
    fieldsets = (
        ("Meio", ("means",)),
        ("Mensagem eletrônica", ("recipient",)),
        ("Carta registrada", ("received_on",)),
        ("Publicação oficial", ("candidate_unreachable", "gazette_edition", "gazette_page", "published_on")),
        ("Conteúdo", ("text",)),
    )


class ReceiptForm(StaffFormMixin, forms.Form):
    on = date_field("Data da ciência ou do recebimento")


class ReferralForm(StaffFormMixin, forms.Form):
    text = forms.CharField(
        label="Encaminhamento ao Ministério Público",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Ofício, data e destinatário.",
    )


class LinkForm(StaffFormMixin, forms.Form):
    email = forms.EmailField(label="E-mail (opcional)", required=False)


# The candidate's page ----------------------------------------------------------------------------------

FILING_LABELS = {
    rules.Act.DEFENCE: "Defesa",
    rules.Act.EVIDENCE: "Provas e documentos",
    rules.Act.FINAL_STATEMENT: "Alegações finais",
    rules.Act.APPEAL: "Recurso",
    rules.Act.APPEAL_ANSWER: "Alegações sobre o recurso de terceiro",
    rules.Act.ANNULMENT_ANSWER: "Alegações sobre a anulação pretendida",
}


class FilingForm(BoundedTextMixin, forms.Form):
    kind = forms.ChoiceField(
        label="O que apresenta", choices=[(k.value, v) for k, v in FILING_LABELS.items()]
    )
    text = forms.CharField(label="Texto", required=False, widget=forms.Textarea(attrs={"rows": 8}))
    attachments = MultipleFileField(label="Arquivos", help_text=FILES_HELP)

    def __init__(self, *args, kinds: tuple[rules.Act, ...] = tuple(FILING_LABELS), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [(k.value, FILING_LABELS[k]) for k in kinds if k in FILING_LABELS]


class RepresentativeForm(forms.Form):
    name = forms.CharField(label="Nome do procurador", max_length=200)
    email = forms.EmailField(label="E-mail do procurador", required=False)
    power_of_attorney = forms.FileField(
        label="Procuração (PDF ou imagem)", help_text="Lei 9.784 art. 3º IV: o procurador age com procuração."
    )
