"""A member's access (``member_access``): Jurídico creates or links the member's Comissão account, sends
the set-password link again or prints the first-access letter; the member types the printed code on the
first-access page, or opens the e-mailed link, and sets the password (Django's set-password view)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.views.decorators.http import require_POST

from contests.audit import log_access
from contests.forms import add_service_errors
from contests.views import AuthenticatedHttpRequest, staff_view
from contests.views.breadcrumbs import here
from declarations.hetero import member_access
from declarations.hetero.forms import FirstAccessForm, MemberAccountCreateForm, MemberAccountLinkForm
from declarations.hetero.views.staff import MANAGE, trail
from declarations.models import CommissionMember


def _member(pk: int) -> CommissionMember:
    return get_object_or_404(CommissionMember.objects.select_related("commission__contest", "user"), pk=pk)


@staff_view(MANAGE)
def member_access_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Create the member's account (or link an existing one); once linked, how the member gets in."""
    member = _member(pk)
    contest = member.commission.contest
    action = request.POST.get("acao") if request.method == "POST" else None
    create = MemberAccountCreateForm(
        request.POST if action == "criar" else None,
        initial={"username": member_access.username_for(member.name), "email": member.email},
    )
    link = MemberAccountLinkForm(
        request.POST if action == "vincular" else None, accounts=member_access.eligible_accounts(member)
    )
    if action == "criar" and create.is_valid():
        try:
            user = member_access.member_account_create(
                member=member,
                username=create.cleaned_data["username"],
                email=create.cleaned_data["email"],
                by=request.user,
            )
        except ValidationError as error:
            add_service_errors(create, error)
        else:
            messages.success(
                request,
                f"Conta {user.username} criada para {member.name}: "
                + (
                    f"o link para definir a senha vai por e-mail a {user.email}."
                    if user.email
                    else "imprima o código de primeiro acesso e entregue-o ao membro."
                ),
            )
            return redirect("declarations:hetero_member_access", pk=member.pk)
    elif action == "vincular" and link.is_valid():
        try:
            member_access.member_account_link(member=member, user=link.cleaned_data["user"], by=request.user)
        except ValidationError as error:
            add_service_errors(link, error)
        else:
            messages.success(
                request, f"Conta {link.cleaned_data['user'].username} vinculada a {member.name}."
            )
            return redirect("declarations:hetero_member_access", pk=member.pk)
    return render(
        request,
        "declarations/hetero_member_access.html",
        {
            "member": member,
            "contest": contest,
            "create": create,
            "link": link,
            "password_set": member.user.has_usable_password() if member.user else False,
            "breadcrumbs": trail(contest, here(f"Acesso de {member.name}")),
        },
    )


@require_POST
@staff_view(MANAGE)
def member_access_email(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    member = _member(pk)
    if member.user is None or not member.user.email:
        messages.error(request, "O membro não tem conta com e-mail: imprima o código de primeiro acesso.")
    elif member.user.has_usable_password():
        messages.error(request, f"{member.name} já definiu a senha.")
    else:
        member_access.access_email(member=member)
        messages.success(
            request,
            f"Link enviado à fila de e-mails ({member.user.email}); o resultado do envio aparece aqui.",
        )
    return redirect("declarations:hetero_member_access", pk=member.pk)


@require_POST
@staff_view(MANAGE)
def member_access_letter(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The first-access letter (PDF) to print and hand to the member; each print is logged."""
    member = _member(pk)
    try:
        pdf = member_access.first_access_letter(member=member, by=request.user, now=timezone.now())
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("declarations:hetero_member_access", pk=member.pk)
    log_access(
        user=request.user,
        obj=member,
        request=request,
        action="view",
        detail="carta de primeiro acesso impressa",
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="primeiro-acesso-membro-{member.pk}.pdf"'
    response["Cache-Control"] = "private, no-store"
    return response


def first_access(request: HttpRequest) -> HttpResponse:
    """The member types the user name and the printed code, and goes on to set the password."""
    form = FirstAccessForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        found = member_access.code_user(form.cleaned_data["username"], form.cleaned_data["code"])
        if found is not None:
            user, token = found
            uid = urlsafe_base64_encode(force_bytes(user.pk))
            return redirect("declarations:hetero_password_set", uidb64=uid, token=token)
        form.add_error(
            None,
            "Usuário ou código não conferem, ou o código venceu ou já foi usado. Confira o que está "
            "impresso na carta ou peça uma nova ao Jurídico.",
        )
    return render(
        request,
        "declarations/hetero_form.html",
        {
            "form": form,
            "title": "Primeiro acesso de membro de comissão",
            "lead": "Informe o nome de usuário e o código impressos na carta de primeiro acesso; em seguida, "
            "defina a sua senha.",
            "submit": "Continuar",
            "multipart": False,
        },
    )


class PasswordSetView(auth_views.PasswordResetConfirmView):
    """Django's set-password view, for a member's first password (from the e-mail or the printed code)."""

    template_name = "declarations/hetero_password_set.html"
    success_url = reverse_lazy("login")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(
            self.request,
            f"Senha definida. Entre com o usuário {form.user.get_username()} e a nova senha.",
        )
        return response


password_set = PasswordSetView.as_view()
