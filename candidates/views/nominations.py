"""Nominations per position (Secretaria calls and records; Gestão, Auditoria and Jurídico read).

The seat strip (each seat's number, kind and state, in words as well as colour), the nominations with
their acts, the call of the next k seats (the screen shows who would be called, and why, before the
clerk confirms), took office, withdrawal with the signed statement, no-show after the deadline, end of
list, and vacancies opened during validity. Writes go through ``candidates.services.nominations``.
"""

from __future__ import annotations

import datetime

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone

from candidates import documents as candidate_documents
from candidates import selectors
from candidates.engine.schedule import kind_label
from candidates.engine_params import params_for_position
from candidates.models import Nomination
from candidates.services import nominations as services
from candidates.services.results import final_run_for
from contests.forms import StaffFormMixin, add_service_errors, date_field
from contests.models import Position
from contests.views import AuthenticatedHttpRequest, get_position_for_user, staff_view
from contests.views.breadcrumbs import here, position_trail

VIEW_PERMS = ("contests.view_contest", "contests.view_position", "candidates.view_nomination")
CALL_PERMS = (*VIEW_PERMS, "candidates.call_nomination")
STATEMENT_TYPES = (".pdf", ".jpg", ".jpeg", ".png")
STATEMENT_MAX_BYTES = 10 * 1024 * 1024


# Forms -------------------------------------------------------------------------------------------------


class CallForm(StaffFormMixin, forms.Form):
    count = forms.IntegerField(
        label="Vagas a preencher",
        min_value=1,
        max_value=services.MAX_CALL,
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
    notified_email = forms.BooleanField(label="E-mail", required=False)
    notified_letter = forms.BooleanField(label="Carta com aviso de recebimento", required=False)

    fieldsets = (
        ("Quantas vagas", ("count",)),
        ("Ato de nomeação", ("act_number", "act_date", "gazette_edition", "gazette_page", "gazette_date")),
        ("Como o candidato é avisado", ("notified_gazette", "notified_email", "notified_letter")),
    )

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if not any(data.get(name) for name in ("notified_gazette", "notified_email", "notified_letter")):
            raise ValidationError("Indique ao menos um meio de comunicação ao candidato.")
        return data


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
    count = forms.IntegerField(label="Vagas abertas", min_value=1, max_value=10_000)
    date = date_field("Data")
    act = forms.CharField(label="Ato", max_length=200, help_text="Lei ou ato que criou ou abriu as vagas.")
    note = forms.CharField(label="Observação", required=False, widget=forms.Textarea(attrs={"rows": 2}))


# Helpers -----------------------------------------------------------------------------------------------


def _nomination_for(position: Position, pk: int) -> Nomination:
    nomination = get_object_or_404(
        Nomination.objects.select_related("registration__candidate", "run"), position=position, pk=pk
    )
    nomination.position = position
    return nomination


def _list_url(position: Position) -> str:
    return reverse("candidates:nomination_list", args=[position.contest.slug, position.pk])


def _reason(row: services.PreviewRow) -> str:
    """The preview row's why without its head ("3ª vaga: ampla concorrência"), which the screen already
    shows in bold as the seat and its kind."""
    why = row.why
    head = f"{row.seat}ª vaga"
    if not why.startswith(head):
        return why
    why = why[len(head) :].lstrip()
    why = why.removeprefix(": ")
    if row.kind == "open" and not row.reverted:
        why = why.removeprefix("ampla concorrência; ")
    return why[:1].upper() + why[1:]


def _call_rows(preview: services.Preview | None, group_label: str) -> list[dict]:
    if preview is None:
        return []
    return [
        {"row": row, "kind_label": kind_label(row.kind, group_label), "reason": _reason(row)}
        for row in preview.rows
    ]


def _context(position: Position, page: object = None, **extra) -> dict:
    """What every nomination page shows; ``page`` names the page under the position's nominations."""
    if page is None:
        breadcrumbs = position_trail(position, here("Nomeações"))
    else:
        breadcrumbs = position_trail(position, ("Nomeações", _list_url(position)), here(page))
    return {"position": position, "contest": position.contest, "breadcrumbs": breadcrumbs, **extra}


# Views -------------------------------------------------------------------------------------------------


@staff_view(*VIEW_PERMS)
def nomination_list(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    strip = selectors.seat_strip(position)
    nominations = (
        Nomination.objects.filter(position=position)
        .select_related("registration__candidate", "position__contest__policy")
        .order_by("order")
    )
    today = timezone.localdate()
    return render(
        request,
        "candidates/nomination_list.html",
        _context(
            position,
            strip=strip,
            nominations=nominations,
            final_run=final_run_for(position),
            today=today,
            can_call=position.contest.is_valid_on(today),
            acts=sorted({n.act_number for n in nominations}),
            act_form=ActDocumentForm() if request.user.has_perm("contests.publish_document") else None,
        ),
    )


@staff_view(*CALL_PERMS)
def nomination_call(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Two steps on one page: the act's data and how many seats → who would be called and why → confirm."""
    position = get_position_for_user(request.user, slug, pk)
    today = timezone.localdate()
    form = CallForm(request.POST or None, initial={"act_date": today})
    preview = None
    step = request.POST.get("step", "")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if step == "confirm" and request.POST.get("previewed") != str(data["count"]):
            messages.warning(request, "A quantidade de vagas mudou depois da prévia: confira a nova prévia.")
            step = "preview"
        if step == "confirm":
            version = request.POST.get("version", "")
            try:
                created = services.nominations_call(
                    position=position,
                    by=request.user,
                    today=today,
                    expected_version=int(version) if version.isdigit() else None,
                    **data,
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                names = ", ".join(f"{n.seat}ª vaga: inscrição {n.registration.number}" for n in created)
                messages.success(request, f"{len(created)} nomeação(ões) registrada(s) ({names}).")
                return redirect(_list_url(position))
        try:
            preview = services.nominations_preview(position=position, count=data["count"])
        except ValidationError as error:
            add_service_errors(form, error)
    return render(
        request,
        "candidates/nomination_call.html",
        _context(
            position,
            "Convocar",
            form=form,
            preview=preview,
            rows=_call_rows(preview, position.contest.policy.group_label),
            strip=selectors.seat_strip(position),
        ),
    )


@staff_view(*VIEW_PERMS)
def nomination_detail(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    nomination = _nomination_for(position, nomination_pk)
    history = nomination.history.select_related("history_user").order_by("-history_date", "-history_id")
    today = timezone.localdate()
    return render(
        request,
        "candidates/nomination_detail.html",
        _context(
            position,
            nomination,
            nomination=nomination,
            history=history,
            today=today,
            deadline_passed=today > nomination.office_deadline,
        ),
    )


def _record(request, slug, pk, nomination_pk, *, action: str):
    position = get_position_for_user(request.user, slug, pk)
    nomination = _nomination_for(position, nomination_pk)
    today = timezone.localdate()
    if nomination.status != Nomination.Status.ACTIVE:
        messages.info(request, f"Esta nomeação está “{nomination.get_status_display()}”.")
        return redirect(nomination)
    data = request.POST or None
    form: forms.Form
    if action == "took_office":
        form = DateForm(data, today=today, date_label="Data da posse", reason=False, initial={"date": today})
    elif action == "withdraw":
        form = WithdrawForm(data, request.FILES or None, today=today, date_label="Data da desistência")
    elif action == "no_show":
        form = NoShowForm(data)
    else:
        form = DateForm(data, today=today, date_label="Data do pedido")
    if request.method == "POST" and form.is_valid():
        cleaned = form.cleaned_data
        try:
            if action == "took_office":
                services.nomination_took_office(nomination=nomination, date=cleaned["date"], by=request.user)
                done = "Posse registrada."
            elif action == "withdraw":
                services.nomination_withdraw(
                    nomination=nomination,
                    statement_file=cleaned["statement"],
                    by=request.user,
                    date=cleaned["date"],
                    reason=cleaned["reason"],
                )
                done = (
                    f"Desistência registrada: a {nomination.seat}ª vaga será preenchida na próxima chamada."
                )
            elif action == "no_show":
                services.nomination_no_show(
                    nomination=nomination, by=request.user, today=today, act_number=cleaned["act_number"]
                )
                done = (
                    f"Nomeação sem efeito por falta de posse: a {nomination.seat}ª vaga será preenchida na "
                    "próxima chamada."
                )
            else:
                services.nomination_end_of_list(
                    nomination=nomination, by=request.user, date=cleaned["date"], reason=cleaned["reason"]
                )
                done = f"Candidato reclassificado para o fim da lista: a {nomination.seat}ª vaga fica livre."
        except ValidationError as error:
            add_service_errors(form, error, {"statement_file": "statement"})
        else:
            messages.success(request, done)
            return redirect(_list_url(position))
    titles = {
        "took_office": "Registrar posse",
        "withdraw": "Registrar desistência",
        "no_show": "Registrar que não tomou posse",
        "end_of_list": "Reclassificar para o fim da lista",
    }
    return render(
        request,
        "candidates/nomination_action.html",
        _context(
            position,
            titles[action],
            nomination=nomination,
            form=form,
            action=action,
            title=titles[action],
            today=today,
            deadline_passed=today > nomination.office_deadline,
        ),
    )


@staff_view(*CALL_PERMS)
def nomination_took_office(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    return _record(request, slug, pk, nomination_pk, action="took_office")


@staff_view(*CALL_PERMS)
def nomination_withdraw(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    return _record(request, slug, pk, nomination_pk, action="withdraw")


@staff_view(*CALL_PERMS)
def nomination_no_show(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    return _record(request, slug, pk, nomination_pk, action="no_show")


@staff_view(*CALL_PERMS)
def nomination_end_of_list(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> HttpResponse:
    return _record(request, slug, pk, nomination_pk, action="end_of_list")


@staff_view(*VIEW_PERMS)
def nomination_statement(
    request: AuthenticatedHttpRequest, slug: str, pk: int, nomination_pk: int
) -> FileResponse:
    """The signed withdrawal statement, only to staff who may see the nomination (never a public URL)."""
    position = get_position_for_user(request.user, slug, pk)
    nomination = _nomination_for(position, nomination_pk)
    if not nomination.withdrawal_statement:
        raise Http404
    try:
        handle = nomination.withdrawal_statement.open("rb")
    except FileNotFoundError:
        raise Http404 from None
    filename = (
        f"termo-desistencia-{nomination.registration.number}{_suffix(nomination.withdrawal_statement.name)}"
    )
    return FileResponse(handle, as_attachment=True, filename=filename)


def _suffix(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > name.rfind("/") else ""


@staff_view(*CALL_PERMS, "contests.add_vacancyopening")
def nomination_open_vacancies(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    position = get_position_for_user(request.user, slug, pk)
    form = OpenForm(request.POST or None, initial={"date": timezone.localdate()})
    opened = None
    if request.method == "POST" and form.is_valid():
        try:
            opened = services.vacancies_open(position=position, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(
                request, f"{opened.opening.count} vaga(s) aberta(s). Veja abaixo como a ordem se estende."
            )
            form = OpenForm(initial={"date": timezone.localdate()})
    strip = selectors.seat_strip(position)
    rows = []
    if opened is not None:
        params = params_for_position(position)
        for number, kind in enumerate(opened.after, start=1):
            before = opened.before[number - 1] if number <= len(opened.before) else None
            rows.append(
                {
                    "number": number,
                    "before": selectors.kind_label(before, params) if before else "",
                    "after": selectors.kind_label(kind, params),
                    "new": before is None,
                    "reserved": kind != "open",
                }
            )
    return render(
        request,
        "candidates/nomination_open.html",
        _context(
            position,
            "Abrir novas vagas",
            form=form,
            opened=opened,
            rows=rows,
            strip=strip,
            reservation=position.reservation(),
        ),
    )


_base = "concursos/<slug:slug>/cargos/<int:pk>/nomeacoes/"


class ActDocumentForm(StaffFormMixin, forms.Form):
    signer_name = forms.CharField(label="Quem assina", max_length=200)
    signer_office = forms.CharField(label="Cargo de quem assina", max_length=200)
    gazette_edition = forms.CharField(label="Edição do diário oficial", max_length=120, required=False)
    gazette_page = forms.CharField(label="Página", max_length=20, required=False)


@staff_view(*VIEW_PERMS)
def nomination_act(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """The nomination act (``?ato=``, the act's number) of the contest: the draft PDF ("minuta") on GET;
    on POST, Gestão publishes it as a signed, verifiable document (again: a rectification)."""
    position = get_position_for_user(request.user, slug, pk)
    act_number = (request.POST if request.method == "POST" else request.GET).get("ato", "").strip()
    if not act_number or not Nomination.objects.filter(position=position, act_number=act_number).exists():
        raise Http404
    contest = position.contest
    if request.method != "POST":
        response = HttpResponse(
            candidate_documents.render_nomination_act(contest, act_number), content_type="application/pdf"
        )
        response["Content-Disposition"] = 'inline; filename="ato-de-nomeacao-minuta.pdf"'
        return response
    if not request.user.has_perm("contests.publish_document"):
        raise PermissionDenied
    form = ActDocumentForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Informe quem assina e o cargo para publicar o ato.")
        return redirect("candidates:nomination_list", slug=slug, pk=pk)
    try:
        document = candidate_documents.nomination_act_publish(
            contest=contest, act_number=act_number, by=request.user, **form.cleaned_data
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("candidates:nomination_list", slug=slug, pk=pk)
    messages.success(request, f"Ato publicado. Código de verificação: {document.code}.")
    return redirect(document)


urlpatterns = [
    path(_base, nomination_list, name="nomination_list"),
    path(_base + "convocar/", nomination_call, name="nomination_call"),
    path(_base + "ato/", nomination_act, name="nomination_act"),
    path(_base + "abrir-vagas/", nomination_open_vacancies, name="nomination_open_vacancies"),
    path(_base + "<int:nomination_pk>/", nomination_detail, name="nomination_detail"),
    path(_base + "<int:nomination_pk>/posse/", nomination_took_office, name="nomination_took_office"),
    path(_base + "<int:nomination_pk>/desistencia/", nomination_withdraw, name="nomination_withdraw"),
    path(_base + "<int:nomination_pk>/sem-posse/", nomination_no_show, name="nomination_no_show"),
    path(_base + "<int:nomination_pk>/fim-da-lista/", nomination_end_of_list, name="nomination_end_of_list"),
    path(_base + "<int:nomination_pk>/termo/", nomination_statement, name="nomination_statement"),
]
