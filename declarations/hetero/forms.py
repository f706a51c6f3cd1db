"""Forms of the heteroidentification screens (Jurídico's, the member's opinion and the candidate's link):
validation only; the services (``services``, ``draw_services``, ``documents``) decide."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from django import forms
from django.db.models import QuerySet
from django.utils import timezone

from candidates.models import Phase
from contests.audit import User
from contests.form_fields import RecordsField
from contests.forms import BoundedTextMixin, StaffFormMixin, date_field
from declarations.hetero import appeal_files, rules
from declarations.hetero.services import MemberInput
from declarations.models import Appeal, Commission, CommissionMember, Session
from declarations.procedure.forms import MultipleFileField

# IBGE's categories (stored in the feminine, as the IBGE writes them; a typed masculine form is the same one).
COLOURS = ("branca", "preta", "parda", "amarela", "indígena")
COLOUR_CHOICES = [("", "—"), *((c, c.capitalize()) for c in COLOURS)]
GENDER_CHOICES = [
    ("", "—"),
    ("feminino", "Feminino"),
    ("masculino", "Masculino"),
    ("não binário", "Não binário"),
    ("não informado", "Prefere não informar"),
]
MEMBER_ROWS = 8  # empty rows a new list opens with; "Mais linhas" adds as many again


KIND_CHOICES = [(k.value, rules.KIND_LABELS[k].capitalize()) for k in rules.Kind]


def act_reference_field() -> forms.CharField:
    """The act designating the members (the commission formed by hand or by a draw)."""
    return forms.CharField(
        label="Ato de designação",
        max_length=200,
        required=False,
        help_text="Portaria ou ato que designa os membros.",
    )


class MemberRowForm(forms.Form):
    """One person of a commission or of a draw's pool, one field each (an empty row is skipped)."""

    name = forms.CharField(label="Nome", max_length=200, required=False)
    office = forms.CharField(label="Cargo ou função", max_length=200, required=False)
    gender = forms.ChoiceField(label="Gênero", choices=GENDER_CHOICES, required=False)
    colour = forms.ChoiceField(label="Cor ou raça (IBGE)", choices=COLOUR_CHOICES, required=False)
    email = forms.EmailField(label="E-mail (opcional)", required=False)

    def clean(self) -> dict:
        data = super().clean() or {}
        data["name"] = " ".join((data.get("name") or "").split())
        filled = [key for key in ("name", "office", "gender", "colour", "email") if data.get(key)]
        if filled:
            for key, label in (
                ("name", "o nome"),
                ("office", "o cargo"),
                ("gender", "o gênero"),
                ("colour", "a cor"),
            ):
                if not data.get(key):
                    self.add_error(key, f"Informe {label}.")
        return data

    def member(self) -> MemberInput | None:
        data = self.cleaned_data
        if not data.get("name"):
            return None
        return MemberInput(
            name=data["name"],
            office=data["office"].strip(),
            gender=data["gender"],
            colour=data["colour"],
            email=data.get("email") or "",
        )


class BaseMemberFormSet(forms.BaseFormSet):
    def clean(self) -> None:
        if any(form.errors for form in self.forms):
            return
        if not self.members():
            raise forms.ValidationError(
                "Indique os membros: ao menos uma linha com nome, cargo, gênero e cor."
            )

    def members(self) -> list[MemberInput]:
        return [m for form in self.forms if (m := form.member()) is not None]


MemberFormSet = forms.formset_factory(
    MemberRowForm, formset=BaseMemberFormSet, extra=0, max_num=60, absolute_max=60, validate_max=True
)


def member_formset(data=None, *, rows: int = MEMBER_ROWS) -> BaseMemberFormSet:
    """The member table: the rows posted (plus ``MEMBER_ROWS`` more when "Mais linhas" was asked), or
    ``rows`` empty ones."""
    if data is None:
        return MemberFormSet(prefix="membros", initial=[{}] * rows)  # type: ignore[return-value]
    return MemberFormSet(data, prefix="membros")  # type: ignore[return-value]


def more_rows(formset: BaseMemberFormSet) -> BaseMemberFormSet:
    """The same rows as typed, and ``MEMBER_ROWS`` empty ones below (no JavaScript needed)."""
    typed = [
        {key: form.data.get(form.add_prefix(key), "") for key in MemberRowForm.base_fields}
        for form in formset.forms
    ]
    return MemberFormSet(  # type: ignore[return-value]
        prefix="membros", initial=typed + [{}] * MEMBER_ROWS
    )


class CommissionForm(StaffFormMixin, forms.Form):
    kind = forms.ChoiceField(label="Comissão", choices=KIND_CHOICES)
    formed_on = date_field("Constituída em")
    act_reference = act_reference_field()


class DrawAnnounceForm(StaffFormMixin, forms.Form):
    kind = forms.ChoiceField(label="Comissão", choices=KIND_CHOICES)
    seed_source = forms.CharField(
        label="Fonte pública da semente",
        max_length=500,
        help_text="De onde virá a semente, ainda desconhecida: ex. “resultado do concurso nº 2950 da "
        "Mega-Sena, de 05/12/2026” ou “SHA-256 da lista de convocados publicada”.",
    )
    seed_known_on = date_field(
        "Semente conhecida a partir de",
        help_text="Uma data posterior a hoje: no dia do aviso, a fonte já pode ser pública.",
    )
    replacement_reason = forms.CharField(
        label="Motivo da substituição do aviso vigente",
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Somente ao substituir um aviso ainda não sorteado. Depois de conhecida a semente do aviso "
        "vigente, a substituição só se faz por ato fundamentado: o motivo é obrigatório e consta do registro "
        "do sorteio.",
    )
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
    present = RecordsField(
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
    appeals = RecordsField(
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


class OpinionForm(BoundedTextMixin, forms.Form):
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
    attachments = MultipleFileField(
        label="Documentos e imagens (opcional)", help_text=appeal_files.FILES_HELP
    )

    def clean_attachments(self) -> list:
        uploads = self.cleaned_data.get("attachments") or []
        problem = appeal_files.uploads_problem(uploads)
        if problem:
            raise forms.ValidationError(problem)
        return uploads


class MemberAccountCreateForm(StaffFormMixin, forms.Form):
    username = forms.CharField(
        label="Nome de usuário",
        max_length=150,
        help_text="Com ele o membro entra no sistema; sugerido a partir do nome.",
    )
    email = forms.EmailField(
        label="E-mail do membro",
        required=False,
        help_text="Com e-mail, o membro recebe o link para definir a própria senha. Sem e-mail, imprima o "
        "código de primeiro acesso e entregue-o em mãos.",
    )


class MemberAccountLinkForm(StaffFormMixin, forms.Form):
    user = forms.ModelChoiceField(
        label="Conta existente do papel Comissão",
        queryset=User.objects.none(),
        help_text="Quando o membro já tem conta (por exemplo, de outro concurso).",
    )

    def __init__(self, *args, accounts: QuerySet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["user"]
        field.queryset = accounts  # type: ignore[attr-defined]
        field.label_from_instance = lambda u: (  # type: ignore[attr-defined]
            f"{u.get_full_name() or u.username} ({u.username})"
        )


class FirstAccessForm(StaffFormMixin, forms.Form):
    username = forms.CharField(label="Nome de usuário", max_length=150)
    code = forms.CharField(
        label="Código de primeiro acesso",
        max_length=80,
        help_text="Como impresso na carta; os espaços não importam.",
    )


class NoConflictManyForm(StaffFormMixin, forms.Form):
    """One signed declaration (PDF) and its date per member of a commission; a member left blank is
    skipped."""

    def __init__(self, *args, members: Iterable[CommissionMember], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.members = list(members)
        groups = []
        for member in self.members:
            file_name, date_name = f"arquivo_{member.pk}", f"assinada_{member.pk}"
            self.fields[file_name] = forms.FileField(
                label=f"Declaração assinada de {member.name} (PDF)",
                required=False,
                widget=forms.ClearableFileInput(attrs={"accept": "application/pdf"}),
                help_text=f"Enviada em {member.no_conflict_signed_on:%d/%m/%Y}: um novo arquivo a substitui."
                if member.no_conflict_file
                else "",
            )
            self.fields[date_name] = date_field(f"Assinada em ({member.name})", required=False)
            groups.append((member.name, (file_name, date_name)))
        self.fieldsets = tuple(groups)

    def clean(self) -> dict:
        data = super().clean() or {}
        for member in self.members:
            upload, signed_on = data.get(f"arquivo_{member.pk}"), data.get(f"assinada_{member.pk}")
            if upload and not signed_on:
                self.add_error(f"assinada_{member.pk}", "Informe a data em que a declaração foi assinada.")
            elif signed_on and not upload:
                self.add_error(f"arquivo_{member.pk}", "Escolha o arquivo da declaração assinada.")
        return data

    def uploads(self) -> list[tuple[CommissionMember, object, datetime.date]]:
        data = self.cleaned_data
        return [
            (m, data[f"arquivo_{m.pk}"], data[f"assinada_{m.pk}"])
            for m in self.members
            if data.get(f"arquivo_{m.pk}")
        ]


class SecondCallForm(StaffFormMixin, forms.Form):
    """The justification of an absence and the later session the candidate is called to (``second_call``)."""

    justification = forms.CharField(
        label="Justificativa da ausência",
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=5000,
        help_text="O motivo e o documento que o comprova (atestado médico, por exemplo), como o edital exige.",
    )
    session = forms.ModelChoiceField(
        label="Sessão da segunda chamada",
        queryset=Session.objects.none(),
        empty_label="— escolha —",
        help_text="Uma sessão posterior, ainda aberta, da mesma comissão.",
    )

    def __init__(self, *args, sessions: QuerySet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["session"].queryset = sessions  # type: ignore[attr-defined]


class LinkRevokeForm(StaffFormMixin, forms.Form):
    """The link of a verification Jurídico revokes (issue 25, N2): one of that verification's own links,
    chosen by the button pressed; any other value is refused with a message, never a 500."""

    link: forms.ModelChoiceField = forms.ModelChoiceField(
        queryset=None,
        error_messages={
            "required": "Escolha um link desta verificação para revogar.",
            "invalid_choice": "Escolha um link desta verificação para revogar.",
        },
    )

    def __init__(self, *args, links: QuerySet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["link"].queryset = links  # type: ignore[attr-defined]  # a Field, to mypy
