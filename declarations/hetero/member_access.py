"""A commission member's own login (RULES §5: each member records their own opinion): Jurídico creates an
account in the Comissão role for a member, or links one that exists; the member then sets the password
themselves, by a link e-mailed to them or, without e-mail, by a first-access code printed on a letter
(PDF) handed to them. Nobody else ever knows the password.

The link and the code are Django's password-reset tokens (``default_token_generator``): not stored, valid
for ``PASSWORD_RESET_TIMEOUT`` and spent once the password is set (the token hashes the password). The
e-mail is sent by the task queue after the transaction commits; the token is made when it is sent, never
kept in the queue."""

from __future__ import annotations

import datetime
import logging
import re
import unicodedata

import segno
from django.conf import settings
from django.contrib.auth.models import Group
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django_tasks import task

from contests.audit import User, audited_save
from contests.documents.render import Stamp, render_pdf
from contests.models import Organization
from contests.wording import header_value
from declarations.hetero import rules
from declarations.models import CommissionMember

logger = logging.getLogger(__name__)

ROLE = "Comissão"


def _refuse(message: str, field: str | None = None) -> None:
    raise ValidationError({field: message} if field else message)


def username_for(name: str) -> str:
    """A user name suggested from a person's name: "Benedito Quirino Alves" → "benedito.alves" (a number
    is added when it is taken)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    words = re.findall(r"[a-z0-9]+", plain) or ["membro"]
    base = ".".join([words[0], words[-1]] if len(words) > 1 else words)[:140]
    candidate, n = base, 1
    while User.objects.filter(username=candidate).exists():
        n += 1
        candidate = f"{base}{n}"
    return candidate


def _check_seat(member: CommissionMember, user: User) -> None:
    """One person, one seat in a contest: the appeal commission has no member in common with the first."""
    commission = member.commission
    other = (
        CommissionMember.objects.filter(commission__contest_id=commission.contest_id, user=user)
        .exclude(pk=member.pk)
        .select_related("commission")
        .first()
    )
    if other is not None:
        if other.commission_id == commission.pk:
            _refuse(f"A conta {user.get_username()} já é de {other.name}, nesta comissão.", "user")
        _refuse(
            f"A conta {user.get_username()} é de {other.name}, da {other.commission.get_kind_display().lower()}: "
            "a comissão recursal não tem membro em comum com a de heteroidentificação.",
            "user",
        )


def eligible_accounts(member: CommissionMember):
    """Active accounts of the Comissão role that may be linked to ``member`` (none seated in this contest)."""
    seated = CommissionMember.objects.filter(
        commission__contest_id=member.commission.contest_id, user__isnull=False
    ).values_list("user_id", flat=True)
    return (
        User.objects.filter(is_active=True, groups__name=ROLE)
        .exclude(pk__in=seated)
        .order_by("first_name", "last_name", "username")
    )


@transaction.atomic
def member_account_create(*, member: CommissionMember, username: str, email: str, by: User) -> User:
    """Create ``member``'s account in the Comissão role, without a password (the member sets it), and link
    it; with an e-mail, the set-password link is sent once the transaction commits."""
    member = (
        CommissionMember.objects.select_for_update(of=("self",))
        .select_related("commission")
        .get(pk=member.pk)
    )
    if member.user_id:
        _refuse(f"{member.name} já tem acesso (conta {member.user.get_username()}).")  # type: ignore[union-attr]
    username = username.strip()
    if not re.fullmatch(r"[\w.@+-]{1,150}", username):
        _refuse("Use só letras, números e . @ + - _ no nome de usuário (até 150).", "username")
    if User.objects.filter(username__iexact=username).exists():
        _refuse(
            f"Já existe a conta “{username}”: escolha outro nome ou vincule a conta existente.", "username"
        )
    first, _, last = member.name.partition(" ")
    user = User(username=username, email=email.strip(), first_name=first[:150], last_name=last[:150])
    user.set_unusable_password()
    user.full_clean()
    user.save()
    user.groups.add(Group.objects.get(name=ROLE))
    member.user = user
    member.email = email.strip() or member.email
    audited_save(member, by=by, reason="Conta de acesso criada para o membro")
    if user.email:
        access_email(member=member)
    return user


@transaction.atomic
def member_account_link(*, member: CommissionMember, user: User, by: User) -> CommissionMember:
    """Link an existing Comissão account to ``member`` (the same person, already a user)."""
    member = (
        CommissionMember.objects.select_for_update(of=("self",))
        .select_related("commission")
        .get(pk=member.pk)
    )
    if member.user_id:
        _refuse(f"{member.name} já tem acesso (conta {member.user.get_username()}).")  # type: ignore[union-attr]
    if not user.is_active or not user.groups.filter(name=ROLE).exists():
        _refuse("Só uma conta ativa do papel Comissão pode ser vinculada a um membro.", "user")
    _check_seat(member, user)
    member.user = user
    audited_save(member, by=by, reason="Conta de acesso vinculada ao membro")
    return member


def access_email(*, member: CommissionMember) -> None:
    """Queue the e-mail with the set-password link, sent after the transaction commits."""
    member_id = member.pk
    transaction.on_commit(lambda: send_member_access_email.enqueue(member_id=member_id))


def set_password_url(user: User) -> str:
    """The absolute address where ``user`` sets the password (a fresh token, valid for
    ``PASSWORD_RESET_TIMEOUT`` and until the password is set)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return settings.PUBLIC_BASE_URL + reverse("declarations:hetero_password_set", args=[uid, token])


def valid_until(now: datetime.datetime) -> datetime.date:
    return timezone.localdate(now + datetime.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT))


@task()
def send_member_access_email(member_id: int) -> str:
    """Send ``member``'s set-password link; record the delivery (or the failure) on the member."""
    now = timezone.now()
    member = CommissionMember.objects.select_related("user", "commission__contest").get(pk=member_id)
    user = member.user
    if user is None or not user.email:
        return "sem conta ou sem e-mail"
    context = {
        "member": member,
        "user": user,
        "contest": member.commission.contest,
        "commission": rules.KIND_LABELS[rules.Kind(member.commission.kind)],
        "organization": Organization.current(),
        "url": set_password_url(user),
        "valid_until": valid_until(now),
        "login_url": settings.PUBLIC_BASE_URL + reverse("login"),
    }
    message = EmailMultiAlternatives(
        subject=header_value(f"Acesso de membro da comissão: {member.commission.contest}"),
        body=render_to_string("declarations/email_member_access.txt", context),
        to=[user.email],
    )
    when = f"{timezone.localtime(now):%d/%m/%Y %H:%M}"
    try:
        message.send()
    except Exception as error:  # any transport failure: recorded; Jurídico sends again or prints the code
        logger.warning("acesso do membro %s: envio falhou: %s", member_id, error)
        with transaction.atomic():
            member.access_notice = f"E-mail não enviado em {when}: {error}"[:300]
            audited_save(member, by=None, reason="Envio do link de acesso falhou")
        return "falhou"
    with transaction.atomic():
        member.access_notice = f"Link para definir a senha enviado por e-mail em {when} ({user.email})."[:300]
        audited_save(member, by=None, reason="Link de acesso enviado por e-mail")
    return "enviado"


@transaction.atomic
def first_access_letter(*, member: CommissionMember, by: User, now: datetime.datetime) -> bytes:
    """The letter (PDF) handed to a member without e-mail: the user name, the first-access code and the
    address where it is typed, and a QR code of the set-password link. Printing it is recorded on the
    member (who printed it, when); a new print makes a new code, and the older ones stay valid until the
    password is set or they expire."""
    member = (
        CommissionMember.objects.select_for_update(of=("self",))  # the user is a nullable join
        .select_related("user", "commission__contest")
        .get(pk=member.pk)
    )
    user = member.user
    if user is None:
        _refuse(f"Crie ou vincule antes a conta de {member.name}.")
    assert user is not None
    if user.has_usable_password():
        _refuse(
            f"{member.name} já definiu a senha: se a esqueceu, a conta precisa de uma nova senha pela "
            "administração; não se imprime código para conta com senha."
        )
    token = default_token_generator.make_token(user)
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    link = settings.PUBLIC_BASE_URL + reverse("declarations:hetero_password_set", args=[uid, token])
    context = {
        "member": member,
        "user": user,
        "contest": member.commission.contest,
        "commission": rules.KIND_LABELS[rules.Kind(member.commission.kind)],
        "code": token,
        "code_groups": " ".join(token[i : i + 4] for i in range(0, len(token), 4)),
        "first_access_url": settings.PUBLIC_BASE_URL + reverse("declarations:hetero_first_access"),
        "link_qr": str(segno.make(link, error="m").png_data_uri(scale=4, border=0)),
        "valid_until": valid_until(now),
        "today": timezone.localdate(now),
    }
    title = f"Primeiro acesso – {member.name}"
    pdf = render_pdf("pdf/hetero_member_access.html", context, Stamp(), title=title)
    member.access_notice = (
        f"Código de primeiro acesso impresso em {timezone.localtime(now):%d/%m/%Y %H:%M}, válido até "
        f"{valid_until(now):%d/%m/%Y}."
    )
    audited_save(member, by=by, reason="Código de primeiro acesso impresso")
    return pdf


def code_user(username: str, code: str) -> tuple[User, str] | None:
    """The account and the token typed on the first-access page (spaces and case forgiven), if they agree."""
    user = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    token = "".join(code.split()).lower()
    if user is None or user.has_usable_password() or not default_token_generator.check_token(user, token):
        return None
    return user, token
