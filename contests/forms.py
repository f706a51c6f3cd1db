"""Forms of the staff workspace: validation only (writes go through ``contests.services``)."""

from __future__ import annotations

import datetime
import uuid
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils.text import slugify

from contests import lifecycle
from contests.documents.models import EDITAL_FIELDS, EditalText
from contests.form_text import BoundedTextMixin, bound_text_fields  # noqa: F401  (re-exported)
from contests.models import (
    Authority,
    Contest,
    Holiday,
    Organization,
    Policy,
    Position,
    Signatory,
    VacancyOpening,
    vacancies_bound_refusal,
)
from contests.wording import thousands

DATE_FORMAT = "%d/%m/%Y"
DATE_INPUT_FORMATS = ["%d/%m/%Y", "%Y-%m-%d"]
RESERVED_SLUGS = {"novo", "nova"}
# Every date a user types falls in this range (01/01/0001 and 31/12/9999 were stored, and
# the date arithmetic of the pages that showed them overflowed). Wide enough for any birth date and any
# act, law or validity a municipality can have; checked by ``bound_date_field``, the one home.
EARLIEST_DATE = datetime.date(1900, 1, 1)
LATEST_DATE = datetime.date(2199, 12, 31)


class DateInput(forms.DateInput):
    """Brazilian dates typed as dd/mm/aaaa (a text box behaves the same in every browser)."""

    def __init__(self, attrs: dict | None = None) -> None:
        base = {
            "placeholder": "dd/mm/aaaa",
            "inputmode": "numeric",
            "autocomplete": "off",
            "class": "input-date",
        }
        super().__init__(attrs={**base, **(attrs or {})}, format=DATE_FORMAT)


def validate_date_in_range(value: datetime.date | None) -> None:
    if value is not None and not EARLIEST_DATE <= value <= LATEST_DATE:
        raise ValidationError(
            f"Informe uma data entre {EARLIEST_DATE:%d/%m/%Y} e {LATEST_DATE:%d/%m/%Y}.", code="date_range"
        )


def bound_date_field(field: forms.DateField, *, widget: bool = True) -> forms.DateField:
    """The one home of typed dates: dd/mm/aaaa, and within ``EARLIEST_DATE``–``LATEST_DATE``."""
    if validate_date_in_range not in field.validators:
        field.validators.append(validate_date_in_range)
    if widget:
        field.widget = DateInput()
        field.input_formats = DATE_INPUT_FORMATS
    return field


def form_token_field() -> forms.CharField:
    """A hidden one-time token, new each time the form is shown: the service that writes refuses to
    write twice for the same token (a form submitted twice opened the vacancies twice)."""
    return forms.CharField(
        widget=forms.HiddenInput, required=False, max_length=64, initial=lambda: uuid.uuid4().hex
    )


def date_field(label: str, *, required: bool = True, help_text: str = "") -> forms.DateField:
    return bound_date_field(forms.DateField(label=label, required=required, help_text=help_text))


# The mixin is mixed into forms: for the type checker it is one.
if TYPE_CHECKING:
    _FormBase = forms.BaseForm
else:
    _FormBase = object


class StaffFormMixin(_FormBase):
    """Accessible error wiring and date widgets for every form of the workspace.

    ``fieldsets`` (legend, field names) groups long forms; fields left out go in a last group.
    """

    fieldsets: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        bound_text_fields(self)
        for field in self.fields.values():
            if isinstance(field, forms.DateField):
                bound_date_field(field)
            if isinstance(field, forms.DecimalField):
                field.widget.attrs.setdefault("inputmode", "decimal")

    def full_clean(self) -> None:
        # Again here: a date field a form added after this mixin's __init__ is bounded too.
        for field in self.fields.values():
            if isinstance(field, forms.DateField):
                bound_date_field(field, widget=False)
        super().full_clean()
        self._mark_invalid()

    def _mark_invalid(self) -> None:
        for name in self.errors:  # after full_clean or add_error: never triggers a clean
            if name not in self.fields:
                continue
            bound = self[name]
            described = [f"{bound.auto_id}_error"]
            if bound.help_text:
                described.append(f"{bound.auto_id}_helptext")
            attrs = self.fields[name].widget.attrs
            attrs.update({"aria-invalid": "true", "aria-describedby": " ".join(described)})

    def add_error(self, field, error) -> None:
        # A model's clean() may name a field the form does not show (an edital date moved after the
        # homologation's): Django raises ValueError there (a 500, found by tests/test_fuzz_forms.py); such
        # an error goes on top of the form with the field's name instead.
        if (
            field is None
            and isinstance(error, ValidationError)
            and hasattr(error, "error_dict")
            and any(name != NON_FIELD_ERRORS and name not in self.fields for name in error.error_dict)
        ):
            add_service_errors(self, error)
            return
        super().add_error(field, error)
        self._mark_invalid()

    def grouped_fields(self) -> list[tuple[str, list[forms.BoundField]]]:
        visible = {bound.name: bound for bound in self.visible_fields()}
        groups = []
        used: set[str] = set()
        for legend, names in self.fieldsets:
            bounds = [visible[name] for name in names if name in visible]
            used.update(names)
            if bounds:
                groups.append((legend, bounds))
        rest = [bound for name, bound in visible.items() if name not in used]
        if rest:
            groups.append(("Outros dados" if groups else "", rest))
        return groups


def add_service_errors(
    form: forms.BaseForm, error: ValidationError, field_map: dict[str, str] | None = None
) -> None:
    """Put a service's ``ValidationError`` on the form: on its field when the form has it, else on top.

    ``field_map`` names the form field of a model field when they differ (``homologation_act`` → ``act``).
    """
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    model = getattr(getattr(form, "_meta", None), "model", None)
    for model_field, errors in error.error_dict.items():
        field = (field_map or {}).get(model_field, model_field)
        if field in form.fields:
            form.add_error(field, errors)
            continue
        prefix = ""
        if model is not None and field != NON_FIELD_ERRORS:
            try:
                prefix = f"{str(model._meta.get_field(field).verbose_name).capitalize()}: "
            except Exception:  # an unknown name just loses its prefix
                prefix = ""
        form.add_error(None, [f"{prefix}{message}" for e in errors for message in e.messages])


# Contests ------------------------------------------------------------------------------------------------


class ContestForm(StaffFormMixin, forms.ModelForm):
    fieldsets = (
        ("Identificação", ("title", "number", "year", "slug")),
        ("Edital e política", ("edital_date", "policy", "registration_start", "registration_end")),
        (
            "Reserva para pessoas com deficiência",
            ("pcd_percent", "pcd_rounding", "pcd_cap_percent", "pcd_threshold"),
        ),
        (
            "Posse dos nomeados",
            ("office_deadline_days", "office_deadline_basis", "office_place", "office_requirements"),
        ),
        (
            "Recurso contra o resultado preliminar",
            ("result_appeal_days", "result_appeal_business_days", "appeal_channel"),
        ),
        ("Outros", ("notes",)),
    )

    class Meta:
        model = Contest
        fields = [
            "title",
            "number",
            "year",
            "slug",
            "edital_date",
            "policy",
            "registration_start",
            "registration_end",
            "pcd_percent",
            "pcd_rounding",
            "pcd_cap_percent",
            "pcd_threshold",
            "result_appeal_days",
            "result_appeal_business_days",
            "appeal_channel",
            "office_deadline_days",
            "office_deadline_basis",
            "office_place",
            "office_requirements",
            "notes",
        ]
        localized_fields = ["pcd_percent", "pcd_cap_percent"]
        help_texts = {
            "year": "Em branco, o ano da data de publicação do edital.",
            "slug": "Usado no endereço da página (letras, números e hífens). Em branco, gerado do número e do "
            "ano: concurso-1-2026.",
        }
        widgets = {
            "notes": forms.Textarea(attrs={"rows": 3}),
            "office_place": forms.Textarea(attrs={"rows": 3}),
            "office_requirements": forms.Textarea(attrs={"rows": 5}),
            "appeal_channel": forms.Textarea(attrs={"rows": 2}),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        policy = cast(forms.ModelChoiceField, self.fields["policy"])
        policy.queryset = Policy.objects.order_by("name", "-version")
        # Fewer clicks: the year comes from the edital's date, the identifier from number and year.
        self.fields["year"].required = False
        self.fields["slug"].required = False

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise ValidationError("Este identificador é reservado; escolha outro.")
        return slug

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        edital_date = data.get("edital_date")
        if not data.get("year") and edital_date:
            data["year"] = edital_date.year
        if not data.get("slug"):
            if self.instance.pk:
                data["slug"] = self.instance.slug  # an edit never moves the contest's address by itself
            elif data.get("number") and data.get("year"):
                data["slug"] = contest_slug(data["number"], data["year"])
        return data


def contest_slug(number: str, year: int) -> str:
    """``concurso-12-2026`` from the number and year; ``-2``, ``-3``… when taken (or reserved)."""
    base = slugify(f"concurso-{number}-{year}")[:70] or f"concurso-{year}"
    slug, n = base, 1
    while slug in RESERVED_SLUGS or Contest.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


class ContestStatusForm(StaffFormMixin, forms.Form):
    """The lawful moves of ``contest`` (``contests/lifecycle.py``); any other value gets the law's reason."""

    status = forms.ChoiceField(
        label="Nova situação",
        choices=Contest.Status.choices,
        help_text="A situação só avança; a homologação tem formulário próprio (data, ato e validade).",
    )

    def __init__(self, *args, contest: Contest, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.contest = contest
        self.moves = contest.allowed_statuses()
        # Only the lawful moves are offered; the field still knows every status, so that a forged or stale
        # choice is refused below with the reason rather than as an unknown value.
        self.fields["status"].widget.choices = [
            ("", "Escolha…"),
            *((str(status), lifecycle.LABELS[status]) for status in self.moves),
        ]

    def clean_status(self) -> str:
        status = self.cleaned_data["status"]
        reason = lifecycle.refusal(self.contest.status, status, self.contest.lifecycle_facts)
        if reason:
            raise ValidationError(reason)
        return status


class HomologationForm(StaffFormMixin, forms.Form):
    date = date_field("Data da homologação")
    act = forms.CharField(label="Ato de homologação", max_length=200, help_text="Ex.: Portaria nº 123/2026.")
    gazette = forms.CharField(label="Edição do diário oficial", max_length=120, required=False)
    validity_months = forms.IntegerField(
        label="Validade (meses)",
        initial=24,
        min_value=1,
        max_value=24,
        help_text="CF art. 37, III: até dois anos, prorrogável uma vez por igual período.",
        error_messages={
            "max_value": "A validade do concurso é de até 24 meses (CF art. 37, III).",
            "min_value": "A validade deve ser de ao menos 1 mês.",
        },
    )


class ExtendValidityForm(StaffFormMixin, forms.Form):
    act = forms.CharField(label="Ato de prorrogação", max_length=200, help_text="Ex.: Decreto nº 45/2027.")


# Positions and vacancies ---------------------------------------------------------------------------------


class PositionForm(StaffFormMixin, forms.ModelForm):
    edital_vacancies = forms.IntegerField(
        label="Vagas do edital",
        min_value=0,
        help_text="0 para cadastro reserva. A reserva é calculada sobre o total acumulado do cargo.",
        error_messages={"min_value": "O número de vagas não pode ser negativo."},
    )

    fieldsets = (
        ("Cargo", ("code", "title", "post_kind", "legal_regime", "edital_vacancies")),
        ("Detalhes", ("requirements", "salary", "workload_hours")),
    )

    class Meta:
        model = Position
        fields = ["code", "title", "post_kind", "legal_regime", "requirements", "salary", "workload_hours"]
        localized_fields = ["salary"]
        widgets = {"requirements": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, contest: Contest, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.contest = contest

    def clean_edital_vacancies(self) -> int:
        count = self.cleaned_data["edital_vacancies"]
        refusal = vacancies_bound_refusal(count)
        if refusal:
            raise ValidationError(refusal)
        return count

    def clean_code(self) -> str:
        code = self.cleaned_data["code"]
        clash = Position.objects.filter(contest=self.contest, code__iexact=code).exclude(pk=self.instance.pk)
        if clash.exists():
            raise ValidationError("Já existe um cargo com este código neste concurso.")
        return code


class VacancyOpeningForm(StaffFormMixin, forms.ModelForm):
    """A later opening (during validity): at least one vacancy, with its date and act."""

    class Meta:
        model = VacancyOpening
        fields = ["count", "date", "act", "note"]
        widgets = {"note": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        count = cast(forms.IntegerField, self.fields["count"])
        count.min_value = 1 if self.instance.kind == VacancyOpening.Kind.LATER else 0
        count.widget.attrs["min"] = count.min_value
        count.validators = [v for v in count.validators if getattr(v, "code", "") != "min_value"]
        count.error_messages["min_value"] = (
            "Informe ao menos 1 vaga." if count.min_value else "O número de vagas não pode ser negativo."
        )
        count.help_text = (
            "Vagas abertas neste ato: somam-se ao total do cargo e a reserva é recalculada sobre o acumulado."
        )
        self.fields["act"].required = self.instance.kind == VacancyOpening.Kind.LATER
        if self.instance.pk is None:
            self.fields["form_token"] = form_token_field()

    def clean_count(self) -> int:
        count = self.cleaned_data["count"]
        if count is not None and count < cast(forms.IntegerField, self.fields["count"]).min_value:
            raise ValidationError(self.fields["count"].error_messages["min_value"], code="min_value")
        refusal = vacancies_bound_refusal(count or 0)
        if refusal:
            raise ValidationError(refusal)
        return count


class PreviewForm(forms.Form):
    """Query of the live reservation preview."""

    vagas = forms.IntegerField(min_value=0, max_value=100_000)
    cargo = forms.IntegerField(required=False)
    substituir = forms.IntegerField(required=False)


# Policies --------------------------------------------------------------------------------------------


POLICY_FIELDSETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Identificação", ("name", "slug", "jurisdiction", "covered_bodies", "covered_posts")),
    (
        "A lei como publicada",
        (
            "act_kind",
            "act_number",
            "publication_date",
            "effective_date",
            "gazette_edition",
            "duration_years",
            "revoked_on",
            "excludes_prior_editais",
        ),
    ),
    (
        "Beneficiários e reserva",
        (
            "beneficiary_groups",
            "group_label",
            "percent",
            "threshold",
            "threshold_basis",
            "rounding",
            "carries_fraction",
        ),
    ),
    (
        "Ordem de nomeação",
        (
            "nomination_order",
            "nth",
            "priority",
            "open_competition_rule",
            "dual_rule",
            "dual_default",
            "dual_keeps_pcd_rights",
            "reinstatement",
            "nomination_order_is_seniority",
        ),
    ),
    (
        "Acompanhamento",
        (
            "monitoring_body",
            "monitoring_interval_years",
            "final_report_quarter",
            "term_warning_days",
            "report_warning_days",
            "citation_term",
            "citation_prior_editais",
            "candidate_guidance",
        ),
    ),
    (
        "Artigos citados",
        (
            "citation_reserve",
            "citation_threshold",
            "citation_rounding",
            "citation_carry",
            "citation_order",
            "citation_falsity",
        ),
    ),
    ("Observações", ("notes",)),
)


class PolicyForm(StaffFormMixin, forms.ModelForm):
    beneficiary_groups = forms.MultipleChoiceField(
        label="Grupos beneficiários",
        choices=Policy.Group.choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=Policy._meta.get_field("beneficiary_groups").help_text,
    )
    fieldsets = POLICY_FIELDSETS

    class Meta:
        model = Policy
        # Every field but version and previous_version, which the services set.
        fields = [name for _, names in POLICY_FIELDSETS for name in names]
        localized_fields = ["percent"]
        widgets = {
            name: forms.Textarea(attrs={"rows": 2})
            for name in (
                "covered_bodies",
                "covered_posts",
                "candidate_guidance",
                "notes",
            )
        }

    def __init__(self, *args, new_version: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if new_version:
            # The new version's identifier derives from the original's (services.policy_new_version).
            del self.fields["slug"]

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise ValidationError("Este identificador é reservado; escolha outro.")
        return slug


# Organisation and holidays -----------------------------------------------------------------------------


LOGO_FORMATS = frozenset({"PNG", "JPEG"})
LOGO_MAX_BYTES = 1024 * 1024
LOGO_MAX_SIDE = 3000
LOGO_MIN_SIDE = 64
LOGO_HELP = (
    "Impresso no cabeçalho de todos os documentos: imagem PNG ou JPEG de até 1 MB, entre 64 e 3.000 pixels de "
    "lado (fundo transparente, de preferência)."
)


class OrganizationForm(StaffFormMixin, forms.ModelForm):
    website = forms.URLField(label="Sítio", required=False, max_length=200, assume_scheme="https")
    fieldsets = (
        ("Identificação", ("name", "short_name", "municipality", "state", "cnpj", "logo")),
        ("Contato", ("address", "phone", "email", "website")),
        ("Encarregado de dados (LGPD)", ("dpo_name", "dpo_email", "dpo_phone")),
        ("Prazos", ("morning_closure_extends_deadlines",)),
    )

    class Meta:
        model = Organization
        fields = [
            "name",
            "short_name",
            "municipality",
            "state",
            "cnpj",
            "logo",
            "address",
            "phone",
            "email",
            "website",
            "dpo_name",
            "dpo_email",
            "dpo_phone",
            "morning_closure_extends_deadlines",
        ]
        widgets = {"address": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        logo = self.fields["logo"]
        logo.help_text = LOGO_HELP
        logo.widget.attrs["accept"] = "image/png,image/jpeg"

    def clean_logo(self) -> Any:
        """The coat of arms printed on every document's header: a PNG or JPEG image (Pillow has already
        opened it), of bounded size and dimensions (a huge image would slow every PDF)."""
        logo = self.cleaned_data.get("logo")
        if not isinstance(logo, UploadedFile):  # kept as it was, cleared, or none
            return logo
        image = getattr(logo, "image", None)
        if image is None or image.format not in LOGO_FORMATS:
            raise ValidationError("Envie o brasão como imagem PNG ou JPEG.")
        if logo.size is not None and logo.size > LOGO_MAX_BYTES:
            raise ValidationError(
                f"A imagem tem {filesizeformat(logo.size)}; o limite é {filesizeformat(LOGO_MAX_BYTES)}."
            )
        width, height = image.size
        if max(width, height) > LOGO_MAX_SIDE or min(width, height) < LOGO_MIN_SIDE:
            raise ValidationError(
                f"A imagem tem {width} × {height} pixels; use entre {LOGO_MIN_SIDE} e {thousands(LOGO_MAX_SIDE)} "
                "pixels de lado."
            )
        return logo


class AuthorityForm(StaffFormMixin, forms.ModelForm):
    """An authority: who, in which office, under which act, from when to when."""

    class Meta:
        model = Authority
        fields = ["name", "office", "competence", "delegated", "valid_from", "valid_until"]


class AuthorityEndForm(StaffFormMixin, forms.Form):
    """The last day in office of an authority (the end of a term or of a delegation)."""

    valid_until = date_field(
        "Último dia em exercício",
        help_text="Os atos datados depois deste dia não podem mais ser assinados por esta autoridade.",
    )


class AuthorityChoiceField(forms.ModelChoiceField):
    """An authority by its name, office and term: two holders of one office are told apart."""

    def label_from_instance(self, obj: Authority) -> str:
        term = f"desde {obj.valid_from:%d/%m/%Y}"
        if obj.valid_until is not None:
            term += f" até {obj.valid_until:%d/%m/%Y}"
        return f"{obj.name}, {obj.office} ({term})"


class SignatoriesForm(StaffFormMixin, forms.Form):
    """Who signs each kind of act (``Signatory``): one authority per kind, or nobody (each publication form
    then asks)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        recorded = dict(Signatory.objects.values_list("kind", "authority_id"))
        authorities = Authority.objects.order_by("name", "-valid_from")
        for kind, label in Signatory.Kind.choices:
            self.fields[kind] = AuthorityChoiceField(
                queryset=authorities,
                label=label,
                required=False,
                empty_label="— ninguém (o formulário de publicação pergunta) —",
                initial=recorded.get(kind),
            )
        self.fields[Signatory.Kind.PROCEDURE_APPEAL].help_text = (
            "A autoridade superior à que decidiu, a quem o recurso é encaminhado se ela não reconsiderar "
            "(Lei 9.784/1999, art. 56 §1º)."
        )

    def signatories(self) -> dict[str, Authority | None]:
        return {kind: self.cleaned_data[kind] for kind in Signatory.Kind.values}


class HolidayForm(StaffFormMixin, forms.ModelForm):
    class Meta:
        model = Holiday
        fields = ["date", "name", "kind", "period", "recurring", "act"]


class AccessLogFilterForm(StaffFormMixin, forms.Form):
    user = forms.CharField(label="Usuário", required=False)
    start = date_field("De", required=False)
    end = date_field("Até", required=False)


class DocumentForm(StaffFormMixin, forms.Form):
    """Who signs a document published by Gestão (a list, a nomination act) and where it is published; the
    signer is prefilled with the authority the organisation records for that kind of act."""

    signer_name = forms.CharField(
        label="Quem assina",
        max_length=200,
        help_text="A autoridade designada em Organização › Autoridades para esta espécie de ato; pode ser "
        "trocada só para este ato.",
    )
    signer_office = forms.CharField(label="Cargo de quem assina", max_length=200)
    gazette_edition = forms.CharField(label="Edição do diário oficial", max_length=120, required=False)
    gazette_page = forms.CharField(label="Página", max_length=20, required=False)


class EditalTextForm(StaffFormMixin, forms.ModelForm):
    """The edital's own sections, written beside the live preview (the pre-publication check reads them)."""

    class Meta:
        model = EditalText
        fields = EDITAL_FIELDS
        widgets = {name: forms.Textarea(attrs={"rows": 5}) for name in EDITAL_FIELDS[:6]}


class EditalPublishForm(StaffFormMixin, forms.Form):
    signer_name = forms.CharField(
        label="Quem assina",
        max_length=200,
        help_text="A autoridade designada em Organização › Autoridades para os editais; pode ser trocada só "
        "para este ato.",
    )
    signer_office = forms.CharField(label="Cargo de quem assina", max_length=200)
    gazette_edition = forms.CharField(label="Edição do diário oficial", max_length=120, required=False)
    gazette_page = forms.CharField(label="Página", max_length=20, required=False)


class EditalRectifyForm(EditalPublishForm):
    summary = forms.CharField(label="O que a retificação altera", widget=forms.Textarea(attrs={"rows": 3}))
