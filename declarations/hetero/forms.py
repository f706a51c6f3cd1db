"""Forms of the heteroidentification screens (Jurídico's, the member's opinion and the candidate's link):
validation only; the services (``services``, ``draw_services``, ``documents``) decide."""

from __future__ import annotations

import datetime

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils import timezone

from candidates.models import Phase
from contests.forms import StaffFormMixin, date_field
from declarations.hetero import rules
from declarations.hetero.services import MemberInput
from declarations.models import Appeal, Commission, CommissionMember, Session

COLOURS = ("branca", "preta", "parda", "amarela", "indígena")  # IBGE
MEMBERS_HELP = (
    "Um membro por linha: nome; cargo ou função; gênero; cor ou raça autodeclarada (branca, preta, parda, "
    "amarela ou indígena); usuário de acesso (papel Comissão), opcional."
)


KIND_CHOICES = [(k.value, rules.KIND_LABELS[k].capitalize()) for k in rules.Kind]


def act_reference_field() -> forms.CharField:
    """The act designating the members (the commission formed by hand or by a draw)."""
    return forms.CharField(
        label="Ato de designação",
        max_length=200,
        required=False,
        help_text="Portaria ou ato que designa os membros.",
    )


class ChoicesField(forms.ModelMultipleChoiceField):
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


def parse_members(text: str) -> list[MemberInput]:
    """Members typed one per line: name; office; gender; colour; optional Comissão account."""
    users = get_user_model().objects.filter(is_active=True, groups__name="Comissão")
    members, problems = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [part.strip() for part in line.split(";")]
        if len(parts) not in (4, 5) or not all(parts[:4]):
            problems.append(f"linha {number}: informe nome; cargo; gênero; cor (e, se houver, o usuário)")
            continue
        name, office, gender, colour = parts[:4]
        if colour.casefold() not in COLOURS:
            problems.append(f"linha {number}: cor “{colour}” não é uma das categorias do IBGE")
            continue
        user = None
        if len(parts) == 5 and parts[4]:
            user = users.filter(username=parts[4]).first()
            if user is None:
                problems.append(f"linha {number}: não há usuário ativo “{parts[4]}” no papel Comissão")
                continue
        if len(name) > 200 or len(office) > 200 or len(gender) > 40:
            problems.append(f"linha {number}: texto longo demais")
            continue
        members.append(
            MemberInput(name=name, office=office, gender=gender, colour=colour.casefold(), user=user)
        )
    if problems:
        raise forms.ValidationError("Confira os membros: " + "; ".join(problems) + ".")
    if not members:
        raise forms.ValidationError("Indique os membros da comissão.")
    return members


class MembersMixin:
    """The members typed one per line (``clean_members``), for forming a commission or announcing a draw."""

    cleaned_data: dict

    def clean_members(self) -> list[MemberInput]:
        return parse_members(self.cleaned_data["members"])


class CommissionForm(MembersMixin, StaffFormMixin, forms.Form):
    kind = forms.ChoiceField(label="Comissão", choices=KIND_CHOICES)
    formed_on = date_field("Constituída em")
    act_reference = act_reference_field()
    members = forms.CharField(
        label="Membros", widget=forms.Textarea(attrs={"rows": 8}), help_text=MEMBERS_HELP, max_length=20000
    )


class DrawAnnounceForm(MembersMixin, StaffFormMixin, forms.Form):
    kind = forms.ChoiceField(label="Comissão", choices=KIND_CHOICES)
    members = forms.CharField(
        label="Lista de sorteáveis",
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text=MEMBERS_HELP + " Informe toda a lista de sorteáveis: ela não muda depois do aviso.",
        max_length=20000,
    )
    seed_source = forms.CharField(
        label="Fonte pública da semente",
        max_length=500,
        help_text="De onde virá a semente, ainda desconhecida: ex. “resultado do concurso nº 2950 da "
        "Mega-Sena, de 05/12/2026” ou “SHA-256 da lista de convocados publicada”.",
    )
    seed_known_on = date_field("Semente conhecida a partir de")
    signer_name = forms.CharField(label="Quem assina o aviso", max_length=200)
    signer_office = forms.CharField(label="Cargo de quem assina o aviso", max_length=200)


class DrawPerformForm(StaffFormMixin, forms.Form):
    seed = forms.CharField(
        label="Semente pública do sorteio",
        max_length=500,
        help_text="O texto da fonte anunciada, tal como publicado (ex.: os números sorteados na loteria).",
    )
    formed_on = date_field("Constituída em")
    act_reference = act_reference_field()


class NoConflictForm(StaffFormMixin, forms.Form):
    file = forms.FileField(
        label="Declaração assinada (PDF)",
        widget=forms.ClearableFileInput(attrs={"accept": "application/pdf"}),
        help_text="Declaração de ausência de conflito de interesses com os candidatos chamados; PDF "
        "verificado pelo conteúdo, até 10 MB; guardado em área restrita.",
    )
    signed_on = date_field("Assinada em")


class SessionForm(StaffFormMixin, forms.Form):
    commission = forms.ModelChoiceField(label="Comissão", queryset=Commission.objects.none())
    day = date_field("Data")
    time = forms.TimeField(label="Hora", widget=forms.TimeInput(attrs={"type": "time"}))
    place = forms.CharField(label="Local (presencial)", max_length=300, required=False)
    video_link = forms.URLField(
        label="Link da videoconferência", max_length=200, required=False, assume_scheme="https"
    )

    def __init__(self, *args, commissions: QuerySet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["commission"].queryset = commissions  # type: ignore[attr-defined]
        self.fields["commission"].label_from_instance = lambda c: c.get_kind_display()  # type: ignore[attr-defined]

    def clean(self) -> dict:
        data = super().clean() or {}
        if not (data.get("place") or "").strip() and not (data.get("video_link") or "").strip():
            raise forms.ValidationError("Informe o local da sessão ou o link da videoconferência.")
        return data

    def starts_at(self) -> datetime.datetime:
        moment = datetime.datetime.combine(self.cleaned_data["day"], self.cleaned_data["time"])
        return timezone.make_aware(moment)


class SessionRecordForm(StaffFormMixin, forms.Form):
    present = ChoicesField(
        label="Membros presentes",
        queryset=CommissionMember.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text="Só os presentes registram parecer; a sessão decide com a maioria dos membros presentes.",
    )
    recording_reference = forms.CharField(
        label="Referência da gravação",
        max_length=300,
        required=False,
        help_text="Onde a gravação está guardada.",
    )
    recording_sha256 = forms.CharField(label="SHA-256 da gravação", max_length=64, required=False)

    def __init__(self, *args, session: Session, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if session.is_closed:
            del self.fields["present"]  # the presence is part of the closed session's result
        else:
            field = self.fields["present"]
            field.queryset = session.commission.members.order_by("name")  # type: ignore[attr-defined]
            field.label_from_instance = lambda m: m.name  # type: ignore[attr-defined]


class CallForm(StaffFormMixin, forms.Form):
    phase = forms.ModelChoiceField(
        label="Fase que o edital fixa",
        queryset=Phase.objects.none(),
        required=False,
        empty_label="Todos os optantes ativos",
        help_text="São chamados os optantes pela reserva racial, ativos, que participaram da fase escolhida "
        "(resultado lançado, sem ausência) e ainda não foram chamados.",
    )

    def __init__(self, *args, phases: QuerySet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["phase"].queryset = phases  # type: ignore[attr-defined]


class AppealCallForm(StaffFormMixin, forms.Form):
    appeals = ChoicesField(
        label="Recursos a julgar nesta sessão",
        queryset=Appeal.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, appeals: QuerySet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["appeals"].queryset = appeals  # type: ignore[attr-defined]
        self.fields["appeals"].label_from_instance = lambda appeal: (  # type: ignore[attr-defined]
            f"Inscrição {appeal.verification.registration.number}: recurso de {appeal.filed_at:%d/%m/%Y}"
        )


class PublishForm(StaffFormMixin, forms.Form):
    signer_name = forms.CharField(label="Quem assina", max_length=200)
    signer_office = forms.CharField(label="Cargo de quem assina", max_length=200)
    summary = forms.CharField(
        label="O que a retificação altera",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
        help_text="Somente ao publicar de novo um ato já publicado (nova versão).",
    )


class OpinionForm(forms.Form):
    confirms = forms.TypedChoiceField(
        label="Parecer",
        choices=[("1", "Confirma a autodeclaração"), ("0", "Não confirma a autodeclaração")],
        coerce=lambda value: value == "1",
        widget=forms.RadioSelect,
    )
    reasons = forms.CharField(label="Fundamentação", widget=forms.Textarea(attrs={"rows": 3}))


class AppealForm(StaffFormMixin, forms.Form):
    reasons = forms.CharField(
        label="Razões do recurso",
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=20000,
        help_text="Explique por que a autodeclaração deve ser confirmada. O recurso é julgado pela comissão "
        "recursal, formada por outras pessoas.",
    )
