"""Forms of the candidates app, every one of them: validation only (writes go through ``candidates.services``:
registrations, the importer, results, nominations)."""

from __future__ import annotations

import datetime
import os
from collections.abc import Sequence
from decimal import Decimal
from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from candidates.engine import eligibility
from candidates.engine.schedule import kind_label
from candidates.models import Candidate, Phase, Registration, Reserve, ResultRun
from candidates.services.nominations import MAX_CALL
from candidates.validators import cpf_digits, format_cpf, validate_cpf
from contests.forms import DocumentForm, StaffFormMixin, bound_date_field, date_field, form_token_field
from contests.models import Contest, Policy, Position, vacancies_bound_refusal
from contests.wording import decimal_comma

# The racial option as one choice: no reserve, "negra" (preta or parda, not told apart) or an IBGE category.
NO_RESERVE = ""
BLACK_UNSPECIFIED = "negra"
CANDIDATE_FIELDS = ("full_name", "social_name", "cpf", "birth_date", "email", "phone", "address")
REGISTRATION_FIELDS = ("position", "number", "registered_on", "jury_service")
RESERVE_FIELDS = ("pcd_reserve", "preferred_reserve")
UPLOAD_MAX_BYTES = 5 * 1024 * 1024
UPLOAD_EXTENSIONS = (".csv", ".txt", ".tsv", ".xlsx")


def racial_choices(policy: Policy, *, with_none: bool = True) -> list[tuple[str, str]]:
    """The categories the policy accepts (``eligibility.accepted_categories``; SM art. 3: pretos e pardos)."""
    choices = [(NO_RESERVE, f"Não concorre à reserva a {policy.group_label}")] if with_none else []
    for category in eligibility.accepted_categories(policy.beneficiary_groups or []):
        if category == eligibility.UNSPECIFIED_BLACK:
            choices.append((BLACK_UNSPECIFIED, "Negra, sem distinguir preta ou parda"))
        else:
            choices.append((category, Policy.Group(category).label))
    return choices


def racial_category(choice: str) -> str | None:
    """The ``racial_category`` the services take: None (no reserve), "" (negra) or the category."""
    if choice == NO_RESERVE:
        return None
    return "" if choice == BLACK_UNSPECIFIED else choice


def racial_choice(category: str | None) -> str:
    if category is None:
        return NO_RESERVE
    return category or BLACK_UNSPECIFIED


def _racial_field(policy: Policy, *, label: str, with_none: bool = True) -> forms.ChoiceField:
    groups = ", ".join(Policy.Group(g).label.lower() for g in policy.beneficiary_groups or []) or "nenhum"
    return forms.ChoiceField(
        label=label,
        choices=racial_choices(policy, with_none=with_none),
        required=not with_none,
        widget=forms.RadioSelect,
        help_text=f"Categoria do IBGE declarada no ato da inscrição. Beneficiários segundo {policy}: {groups}.",
    )


class CpfField(forms.CharField):
    """A CPF typed with or without punctuation; cleaned to its 11 digits."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("label", "CPF")
        kwargs.setdefault("max_length", 14)
        kwargs.setdefault("help_text", "Com ou sem pontuação. Dado pessoal (LGPD): nunca publicado.")
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {"inputmode": "numeric", "autocomplete": "off", "placeholder": "000.000.000-00"}
        )

    def to_python(self, value):
        value = super().to_python(value)
        return cpf_digits(value) if value else value

    def validate(self, value) -> None:
        super().validate(value)
        if value:
            validate_cpf(value)


# Registrations -----------------------------------------------------------------------------------------


class RegistrationForm(StaffFormMixin, forms.Form):
    """A registration typed in by a clerk: the candidate's data, the registration's and, on creation, the
    reserves chosen (the racial option with the self-declaration made at registration).

    ``sensitive=False`` leaves out the PcD option and the preferred reserve (the user may not see them).
    """

    fieldsets = (
        ("Candidato", CANDIDATE_FIELDS),
        ("Inscrição", REGISTRATION_FIELDS),
        ("Reservas escolhidas na inscrição", ("racial", "declared_on", *RESERVE_FIELDS)),
    )

    def __init__(
        self,
        *args,
        contest: Contest,
        registration: Registration | None = None,
        sensitive: bool = True,
        **kwargs,
    ) -> None:
        if registration is not None:
            kwargs.setdefault("initial", self.initial_for(registration))
        super().__init__(*args, **kwargs)
        self.contest = contest
        self.registration = registration
        creating = registration is None
        self.creating = creating
        self.fields.update(forms.fields_for_model(Candidate, fields=CANDIDATE_FIELDS))
        self.fields["cpf"] = CpfField()
        self.fields["address"].widget = forms.Textarea(attrs={"rows": 2})
        self.fields.update(
            forms.fields_for_model(
                Registration, fields=REGISTRATION_FIELDS + (RESERVE_FIELDS if sensitive else ())
            )
        )
        position = cast(forms.ModelChoiceField, self.fields["position"])
        position.queryset = contest.positions.order_by("code")
        position.empty_label = "Escolha o cargo…"
        self.fields["registered_on"].required = creating
        if creating:
            if not contest.registrations_closed_on(timezone.localdate()):
                self.fields["registered_on"].initial = timezone.localdate()
            self.fields["racial"] = _racial_field(
                contest.policy, label=f"Reserva a {contest.policy.group_label} (autodeclaração)"
            )
            self.fields["declared_on"] = date_field(
                "Data da autodeclaração",
                required=False,
                help_text="Vazia: a data da inscrição. A opção não pode ser posterior ao fim das inscrições "
                "(SM art. 3º; AR art. 1º §4º).",
            )
        group = contest.policy.group_label
        if "pcd_reserve" in self.fields:
            self.fields["pcd_reserve"].label = "Concorre à reserva a pessoas com deficiência"
            self.fields[
                "pcd_reserve"
            ].help_text = (
                f"Decreto 9.508/2018 art. 1º; SM art. 4º §6º: pode concorrer também à reserva a {group}."
            )
        if "preferred_reserve" in self.fields:
            # The reserved lists named as on every screen, the policy naming the group.
            cast(forms.ChoiceField, self.fields["preferred_reserve"]).choices = [
                ("", "A opção padrão da política"),
                (Reserve.RACIAL, f"Reserva a {group}"),
                (Reserve.PCD, "Reserva a pessoas com deficiência"),
            ]
        # The mixin set up the widgets before these fields existed: dates typed as dd/mm/aaaa here too.
        for field in self.fields.values():
            if isinstance(field, forms.DateField):
                bound_date_field(field)

    def clean_number(self) -> str:
        number = self.cleaned_data["number"].strip()
        clash = Registration.objects.filter(contest=self.contest, number__iexact=number)
        if self.registration is not None:
            clash = clash.exclude(pk=self.registration.pk)
        if clash.exists():
            raise ValidationError("Já existe uma inscrição com este número neste concurso.")
        return number

    def clean_registered_on(self) -> datetime.date | None:
        registered = self.cleaned_data["registered_on"]
        refusal = eligibility.registration_date_refusal(
            registered, registration_end=self.contest.registration_end
        )
        if refusal:
            raise ValidationError(refusal)
        return registered

    def clean_declared_on(self) -> datetime.date | None:
        declared = self.cleaned_data["declared_on"]
        refusal = eligibility.declaration_date_refusal(
            declared, registration_end=self.contest.registration_end
        )
        if refusal:
            raise ValidationError(refusal)
        return declared

    def clean_birth_date(self) -> datetime.date | None:
        birth = self.cleaned_data["birth_date"]
        if birth and not datetime.date(1900, 1, 1) <= birth <= timezone.localdate():
            raise ValidationError("Data de nascimento impossível.")
        return birth

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        preferred = data.get("preferred_reserve")
        if preferred:
            racial = (
                racial_category(data.get("racial", NO_RESERVE)) is not None
                if self.registration is None
                else self.registration.racial_reserve
            )
            chosen = eligibility.reserves_chosen(racial=racial, pcd=bool(data.get("pcd_reserve")))
            refusal = eligibility.preferred_reserve_refusal(preferred, chosen=chosen)
            if refusal:
                self.add_error("preferred_reserve", refusal)
        return data

    def candidate_data(self) -> dict:
        return {name: self.cleaned_data[name] for name in CANDIDATE_FIELDS}

    def registration_data(self) -> dict:
        names = REGISTRATION_FIELDS + tuple(name for name in RESERVE_FIELDS if name in self.fields)
        return {name: self.cleaned_data[name] for name in names}

    @staticmethod
    def initial_for(registration: Registration) -> dict:
        candidate = registration.candidate
        initial = {name: getattr(candidate, name) for name in CANDIDATE_FIELDS}
        initial["cpf"] = format_cpf(candidate.cpf)
        initial.update({name: getattr(registration, name) for name in REGISTRATION_FIELDS + RESERVE_FIELDS})
        return initial


class RegistrationFilterForm(StaffFormMixin, forms.Form):
    """The list's search and filters (query parameters in Portuguese: the user sees them)."""

    busca = forms.CharField(
        label="Buscar",
        required=False,
        max_length=100,
        help_text="Nome ou nome social (sem diferença de acentos e maiúsculas) ou número de inscrição.",
    )
    cargo: forms.ModelChoiceField = forms.ModelChoiceField(
        label="Cargo", queryset=None, required=False, empty_label="Todos"
    )
    # Choices set per contest: the reserved lists named as on every screen (the policy names the group).
    reserva = forms.ChoiceField(label="Reserva", required=False)
    situacao = forms.ChoiceField(
        label="Situação", required=False, choices=[("", "Todas"), *Registration.Status.choices]
    )

    def __init__(self, *args, contest: Contest, sensitive: bool, cpf: bool, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["cargo"]).queryset = contest.positions.order_by("code")
        self.fields["busca"].widget.attrs["type"] = "search"
        if cpf:
            self.fields[
                "busca"
            ].help_text = (
                "Nome ou nome social (sem diferença de acentos e maiúsculas), número de inscrição ou CPF."
            )
        if sensitive:
            cast(forms.ChoiceField, self.fields["reserva"]).choices = [
                ("", "Todas"),
                ("racial", f"{kind_label('racial', contest.policy.group_label)} (cotistas)"),
                ("pcd", kind_label("pcd", contest.policy.group_label)),
                ("ampla", "Só ampla concorrência"),
            ]
        else:
            del self.fields["reserva"]


class RacialOptionForm(StaffFormMixin, forms.Form):
    """The candidate opts for the racial reserve while registrations are open (dated today)."""

    racial = forms.ChoiceField(label="Categoria declarada")

    def __init__(self, *args, policy: Policy, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["racial"] = _racial_field(policy, label="Categoria declarada", with_none=False)


class GiveUpForm(StaffFormMixin, forms.Form):
    """The candidate gives the reserve up: they stay in open competition (RULES §5)."""

    on = date_field("Data do pedido de renúncia")
    reason = forms.CharField(
        label="Observação",
        required=False,
        max_length=300,
        help_text="Ex.: requerimento protocolado sob o nº 123/2026. Fica no histórico.",
    )

    def clean_on(self) -> datetime.date:
        on = self.cleaned_data["on"]
        if on > timezone.localdate():
            raise ValidationError("A data não pode estar no futuro.")
        return on


class CorrectionForm(StaffFormMixin, forms.Form):
    """A clerk's correction of a typing error in the racial option, with its justification (RULES §5)."""

    racial = forms.ChoiceField(label="Opção correta")
    declared_on = date_field(
        "Data da autodeclaração",
        required=False,
        help_text="A data em que o candidato a fez (vazia: mantém a atual).",
    )
    justification = forms.CharField(
        label="Justificativa",
        widget=forms.Textarea(attrs={"rows": 3}),
        min_length=10,
        max_length=1000,
        help_text="Obrigatória: o erro de digitação e o documento que o comprova (ficha de inscrição, "
        "requerimento). Fica registrada na autodeclaração e no histórico.",
        error_messages={
            "required": "Justifique a correção: sem justificativa ela não é registrada.",
            "min_length": "Justifique a correção (ao menos 10 caracteres).",
        },
    )

    def __init__(self, *args, policy: Policy, current: str, **kwargs) -> None:
        kwargs.setdefault("initial", {"racial": current})
        super().__init__(*args, **kwargs)
        self.current = current
        self.fields["racial"] = _racial_field(policy, label="Opção correta")
        self.fields["racial"].required = False
        self.order_fields(["racial", "declared_on", "justification"])

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        if data.get("racial", NO_RESERVE) == self.current and not data.get("declared_on"):
            self.add_error("racial", "É a opção registrada hoje: não há o que corrigir.")
        return data


class RegistrationStatusForm(StaffFormMixin, forms.Form):
    status = forms.ChoiceField(
        label="Nova situação", choices=[("", "Escolha…"), *Registration.Status.choices]
    )
    reason = forms.CharField(
        label="Motivo",
        max_length=300,
        help_text="Ex.: desistência protocolada em 10/05/2026. Fica no histórico.",
    )


# Imports -----------------------------------------------------------------------------------------------


class ImportUploadForm(StaffFormMixin, forms.Form):
    file = forms.FileField(
        label="Arquivo da organizadora (CSV ou XLSX)",
        help_text="Até 5 MB, 20.000 linhas e 200 colunas. CSV em UTF-8 ou Windows-1252, separado por ponto e vírgula, "
        "vírgula ou tabulação; ou planilha XLSX.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        extension = os.path.splitext(upload.name or "")[1].lower()
        if extension == ".xls":
            raise ValidationError(
                "Planilha no formato antigo do Excel (.xls): salve-a como .xlsx ou .csv e envie de novo."
            )
        if extension not in UPLOAD_EXTENSIONS:
            raise ValidationError("Envie um arquivo .csv ou .xlsx.")
        if upload.size > UPLOAD_MAX_BYTES:
            size = decimal_comma(upload.size / 1024 / 1024, 1)
            raise ValidationError(
                f"O arquivo tem {size} MB; a importação pela web aceita até 5 MB. Importe-o pelo comando: "
                "manage.py import_registrations CONCURSO ARQUIVO."
            )
        return upload


class ImportMappingForm(StaffFormMixin, forms.Form):
    """One choice per column of the file: which field it fills (or ignored)."""

    def __init__(
        self,
        *args,
        headers: Sequence[str],
        choices: Sequence[tuple[str, str]],
        suggested: dict[str, str],
        **kwargs,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.headers = list(headers)
        for index, header in enumerate(self.headers):
            self.fields[f"col_{index}"] = forms.ChoiceField(
                label=header, choices=choices, required=False, initial=suggested.get(header, "")
            )

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        seen: dict[str, str] = {}
        for index, header in enumerate(self.headers):
            target = data.get(f"col_{index}") or ""
            if not target:
                continue
            if target in seen:
                self.add_error(
                    f"col_{index}", f"Este campo já está na coluna “{seen[target]}”: escolha um só."
                )
            else:
                seen[target] = header
        return data

    def mapping(self) -> dict[str, str]:
        return {header: self.cleaned_data.get(f"col_{i}") or "" for i, header in enumerate(self.headers)}


class ImportPhasesForm(StaffFormMixin, forms.Form):
    """The maximum and pass mark of each phase the file creates (the contest did not have it yet)."""

    def __init__(self, *args, phases: Sequence, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.phase_names = [spec.name for spec in phases]
        for index, spec in enumerate(phases):
            self.fields[f"max_{index}"] = forms.DecimalField(
                label=f"{spec.name}: nota máxima",
                min_value=Decimal("0.01"),
                max_digits=8,
                decimal_places=2,
                localize=True,
                initial=spec.max_score,
            )
            self.fields[f"min_{index}"] = forms.DecimalField(
                label=f"{spec.name}: nota mínima",
                required=False,
                min_value=Decimal(0),
                max_digits=8,
                decimal_places=2,
                localize=True,
                initial=spec.pass_mark,
                help_text="Abaixo dela o candidato sai de todas as listas (SM art. 4º §2º). "
                "Vazia: sem nota mínima.",
            )

    def clean(self) -> dict:
        super().clean()
        data = self.cleaned_data
        for index in range(len(self.phase_names)):
            maximum, minimum = data.get(f"max_{index}"), data.get(f"min_{index}")
            if maximum is not None and minimum is not None and minimum > maximum:
                self.add_error(f"min_{index}", "A nota mínima não pode passar da nota máxima.")
        return data

    def specs(self) -> dict[str, tuple[str, str | None]]:
        """``{phase name: (maximum, pass mark)}`` as strings, ready for the session."""
        out = {}
        for index, name in enumerate(self.phase_names):
            minimum = self.cleaned_data.get(f"min_{index}")
            out[name] = (str(self.cleaned_data[f"max_{index}"]), None if minimum is None else str(minimum))
        return out


# Results -----------------------------------------------------------------------------------------------


class ComputeForm(StaffFormMixin, forms.Form):
    position = forms.ModelChoiceField(
        label="Cargos",
        queryset=Position.objects.none(),
        required=False,
        empty_label="Todos os cargos do concurso",
    )
    after_phase = forms.ModelChoiceField(
        label="Listas",
        queryset=Phase.objects.none(),
        required=False,
        empty_label="Finais (depois de todas as fases)",
        help_text="Após uma fase: quem passa para a seguinte, calculado enquanto ela é preparada.",
    )
    kind = forms.ChoiceField(
        label="Para publicar como",
        choices=[
            ("", "A decidir"),
            (ResultRun.Kind.PRELIMINARY, "Preliminar"),
            (ResultRun.Kind.FINAL, "Final"),
        ],
        required=False,
        help_text="Quem publica (Gestão) confirma a espécie. Após uma fase: o resultado preliminar ou definitivo "
        "da fase.",
    )
    notes = forms.CharField(label="Observações", required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, contest: Contest, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["position"]).queryset = contest.positions.order_by(
            "code", "pk"
        )
        after_phase = cast(forms.ModelChoiceField, self.fields["after_phase"])
        after_phase.queryset = Phase.objects.filter(contest=contest).order_by("order", "pk")
        after_phase.label_from_instance = lambda phase: f"Após a {phase.order}ª fase: {phase.name}"  # type: ignore[method-assign, assignment]


class CompareForm(forms.Form):
    """The comparison's query: ``com``, the run to compare with (absent or not a number: the previous run).

    Numbers from a query string or a hidden field are parsed by a form, never by ``str.isdigit`` and
    ``int`` ("²" passes the one and crashes the other)."""

    com = forms.IntegerField(required=False, min_value=1)


class ResultDocumentForm(DocumentForm):
    """A list's document: its edital number ("Edital nº 3/2026 – Resultado preliminar"), who signs, where
    it is published."""

    edital_number = forms.CharField(
        label="Número do edital",
        max_length=40,
        required=False,
        help_text="A lista é publicada como edital próprio: “Edital nº 3/2026 – Resultado preliminar”. "
        "Sugerido (e, se vazio, usado): o seguinte ao último número usado neste ano.",
    )
    fieldsets: tuple[tuple[str, tuple[str, ...]], ...] = (
        (
            "Documento assinado",
            ("edital_number", "signer_name", "signer_office", "gazette_edition", "gazette_page"),
        ),
    )


class PublishForm(ResultDocumentForm):
    """Publish a draft run and its signed document in one step: the kind, the edital number, who signs,
    where it is published."""

    fieldsets = (
        ("Lista", ("kind",)),
        (
            "Documento assinado",
            ("edital_number", "signer_name", "signer_office", "gazette_edition", "gazette_page"),
        ),
    )
    kind = forms.ChoiceField(
        label="Publicar como",
        choices=[(ResultRun.Kind.PRELIMINARY, "Preliminar"), (ResultRun.Kind.FINAL, "Final")],
        widget=forms.RadioSelect,
        help_text="A lista final é a que a homologação confirma e de que saem as nomeações. Publicada, a "
        "lista não muda mais: uma alteração exige novo cálculo.",
    )

    def __init__(self, *args, after_phase: Phase | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if after_phase is not None:
            kind = cast(forms.ChoiceField, self.fields["kind"])
            kind.choices = [
                (ResultRun.Kind.PRELIMINARY, f"Resultado preliminar da fase {after_phase.name}"),
                (ResultRun.Kind.FINAL, f"Resultado definitivo da fase {after_phase.name}"),
            ]
            kind.help_text = (
                "Quem passa para a fase seguinte. Não é o resultado final do concurso: dele não saem "
                "nomeações. Publicada, a lista não muda mais: uma alteração exige novo cálculo."
            )


# Nominations -------------------------------------------------------------------------------------------

STATEMENT_TYPES = (".pdf", ".jpg", ".jpeg", ".png")
STATEMENT_MAX_BYTES = 10 * 1024 * 1024


class CallForm(StaffFormMixin, forms.Form):
    count = forms.IntegerField(
        label="Vagas a preencher",
        min_value=1,
        max_value=MAX_CALL,
        initial=1,
        help_text="Vagas liberadas primeiro (a de menor número antes), depois vagas novas, até o total aberto.",
    )
    act_number = forms.CharField(
        label="Número do ato de nomeação", max_length=60, help_text="Ex.: Portaria nº 45/2026."
    )
    act_date = date_field("Data do ato")
    gazette_edition = forms.CharField(label="Edição do diário oficial", max_length=120, required=False)
    gazette_page = forms.CharField(label="Página", max_length=20, required=False)
    gazette_date = date_field(
        "Data da publicação",
        required=False,
        help_text="O prazo para a posse corre da publicação; vazia: a data do ato.",
    )
    notified_gazette = forms.BooleanField(label="Publicação no diário oficial", required=False, initial=True)
    notified_email = forms.BooleanField(
        label="E-mail",
        required=False,
        help_text="Vai só a quem tem e-mail cadastrado; quem não tem recebe a carta (marque-a também).",
    )
    notified_letter = forms.BooleanField(label="Carta com aviso de recebimento", required=False)

    fieldsets = (
        ("Quantas vagas", ("count",)),
        ("Ato de nomeação", ("act_number", "act_date", "gazette_edition", "gazette_page", "gazette_date")),
        ("Como o candidato é avisado", ("notified_gazette", "notified_email", "notified_letter")),
    )

    def clean(self):
        data = super().clean() or {}
        if not any(data.get(name) for name in ("notified_gazette", "notified_email", "notified_letter")):
            raise ValidationError("Indique ao menos um meio de comunicação ao candidato.")
        return data


class CallConfirmForm(forms.Form):
    """The hidden fields of the call's confirmation: the allocation's version and the count the preview
    showed (the screen's own values; anything else is no value)."""

    version = forms.IntegerField(required=False, min_value=0)
    previewed = forms.IntegerField(required=False, min_value=0)

    def value(self, name: str) -> int | None:
        return self.cleaned_data.get(name) if self.is_valid() else None


class DateForm(StaffFormMixin, forms.Form):
    """A record dated by the clerk, never in the future."""

    date = date_field("Data")
    reason = forms.CharField(label="Observação", required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, today: datetime.date, date_label: str = "Data", reason: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.today = today
        self.fields["date"].label = date_label
        if not reason:
            del self.fields["reason"]

    def clean_date(self) -> datetime.date:
        value = self.cleaned_data["date"]
        if value > self.today:
            raise ValidationError("A data não pode ser futura.")
        return value


class WithdrawForm(DateForm):
    statement = forms.FileField(
        label="Termo de desistência assinado",
        help_text="PDF ou imagem (JPG, PNG), até 10 MB.",
    )

    def clean_statement(self):
        upload = self.cleaned_data["statement"]
        if not upload.name.lower().endswith(STATEMENT_TYPES):
            raise ValidationError("Envie o termo em PDF, JPG ou PNG.")
        if upload.size > STATEMENT_MAX_BYTES:
            raise ValidationError("O arquivo passa de 10 MB.")
        return upload


class NoShowForm(StaffFormMixin, forms.Form):
    act_number = forms.CharField(
        label="Ato que torna a nomeação sem efeito",
        max_length=60,
        required=False,
        help_text="Se já publicado. Ex.: Portaria nº 60/2026.",
    )


class OpenForm(StaffFormMixin, forms.Form):
    count = forms.IntegerField(label="Vagas abertas", min_value=1)
    date = date_field("Data")
    act = forms.CharField(label="Ato", max_length=200, help_text="Lei ou ato que criou ou abriu as vagas.")
    note = forms.CharField(label="Observação", required=False, widget=forms.Textarea(attrs={"rows": 2}))
    form_token = form_token_field()

    def clean_count(self) -> int:
        count = self.cleaned_data["count"]
        refusal = vacancies_bound_refusal(count)  # the sum with the position's others: the service's
        if refusal:
            raise ValidationError(refusal)
        return count


class TrailFilterForm(StaffFormMixin, forms.Form):
    who = forms.CharField(label="Quem", required=False, help_text="Parte do nome da pessoa.")
    what = forms.ChoiceField(label="O quê", required=False)
    start = date_field("De", required=False)
    end = date_field("Até", required=False)

    def __init__(self, *args, kinds: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["what"].choices = [("", "Tudo"), *((k, k) for k in kinds)]  # type: ignore[attr-defined]
