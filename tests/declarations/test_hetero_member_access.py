"""A commission member's own login, through the screens (RULES §5: each member records their own opinion):
Jurídico creates the account or links one; the member with e-mail sets the password by the e-mailed link,
the one without by the printed first-access letter (PDF) and its code; a code used or altered is refused;
the appeal commission's member cannot take an account seated in the first commission."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse
from pypdf import PdfReader

from declarations.hetero import services as hs
from declarations.models import CommissionMember
from tests.builders import make_contest, make_user
from tests.declarations.hetero_world import at, people
from tests.pages import post_form
from tests.queue import run_queued_tasks

pytestmark = pytest.mark.django_db
PASSWORD = "Senha-do-membro-2026"


@pytest.fixture
def commission(cast):
    contest = make_contest()
    day = at(__import__("datetime").date(2026, 6, 1)).date()
    formed = hs.commission_form(
        contest=contest, kind="first", pool=people("Membro", 5, role=None), formed_on=day, by=cast["legal"],
        now=at(day),
    )  # fmt: skip
    return formed.commission


def access_url(member) -> str:
    return reverse("declarations:hetero_member_access", args=[member.pk])


def set_password(client, path: str):
    page = client.get(path, follow=True)
    assert page.status_code == 200 and "Definir a senha" in page.content.decode()
    return post_form(
        client,
        page.redirect_chain[-1][0] if page.redirect_chain else path,
        {"new_password1": PASSWORD, "new_password2": PASSWORD},
        follow=True,
    )


def test_a_member_with_email_sets_the_password_by_the_emailed_link(
    client, cast, commission, django_capture_on_commit_callbacks
):
    client.force_login(cast["legal"])
    member = commission.members.order_by("pk").first()
    hub = client.get(reverse("declarations:hetero_contest", args=[commission.contest.slug])).content.decode()
    assert "5 membros sem acesso" in hub and access_url(member) in hub
    with django_capture_on_commit_callbacks(execute=True):
        response = post_form(client, access_url(member), {"username": "membro.um", "email": "um@example.org"})
    assert response.status_code == 302
    member.refresh_from_db()
    user = member.user
    assert user.username == "membro.um" and not user.has_usable_password()
    assert user.groups.filter(name="Comissão").exists()
    reasons = set(member.history.values_list("history_change_reason", flat=True))
    assert "Conta de acesso criada para o membro" in reasons
    run_queued_tasks()
    assert [m.to for m in mail.outbox] == [["um@example.org"]]
    path = re.search(r"https?://[^/\s]+(/\S+/)", mail.outbox[0].body).group(1)
    client.logout()
    done = set_password(client, path)
    assert "Senha definida" in done.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)
    member.refresh_from_db()
    assert "enviado por e-mail" in member.access_notice
    # The link is spent once the password is set.
    again = client.get(path, follow=True).content.decode()
    assert "não vale mais" in again


def test_a_member_without_email_gets_a_printed_code_that_works_once(client, cast, commission):
    client.force_login(cast["legal"])
    member = commission.members.order_by("pk").first()
    post_form(client, access_url(member), {"username": "membro.sem"})
    letter = client.post(reverse("declarations:hetero_member_access_letter", args=[member.pk]))
    assert letter.status_code == 200 and letter["Content-Type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(letter.content)).pages)
    code = re.search(r"Código de primeiro acesso:\s*([0-9a-z -]+)", text).group(1)
    assert "membro.sem" in text and member.name in text
    member.refresh_from_db()
    assert "impresso" in member.access_notice
    client.logout()
    url = reverse("declarations:hetero_first_access")
    wrong = post_form(client, url, {"username": "membro.sem", "code": code[:-1] + "x"})
    assert "não conferem" in wrong.content.decode()
    found = post_form(client, url, {"username": "MEMBRO.SEM", "code": code.upper()})
    assert found.status_code == 302
    done = set_password(client, found.url)
    assert "Senha definida" in done.content.decode()
    assert User.objects.get(username="membro.sem").check_password(PASSWORD)
    assert "não conferem" in post_form(client, url, {"username": "membro.sem", "code": code}).content.decode()


def test_an_existing_comissao_account_is_linked_but_never_one_seated_in_the_other_commission(
    client, cast, commission
):
    appeal = hs.commission_form(
        contest=commission.contest, kind="appeal", pool=people("Recursal", 3, role=None),
        formed_on=commission.formed_on, by=cast["legal"], now=at(commission.formed_on),
    ).commission  # fmt: skip
    account = make_user("pessoa", "Comissão")
    client.force_login(cast["legal"])
    first_member = commission.members.order_by("pk").first()
    assert post_form(client, access_url(first_member), {"user": str(account.pk)}).status_code == 302
    appeal_member = appeal.members.order_by("pk").first()
    page = client.get(access_url(appeal_member)).content.decode()
    assert f'value="{account.pk}"' not in page  # not offered: seated in the first commission
    assert CommissionMember.objects.get(pk=first_member.pk).user == account
    from declarations.hetero import member_access

    with pytest.raises(Exception, match="membro em comum"):
        member_access.member_account_link(member=appeal_member, user=account, by=cast["legal"])


def test_only_juridico_creates_accounts(client_for, commission):
    member = commission.members.first()
    for who in ("clerk", "commission", "manager", "auditor"):
        assert client_for(who).get(access_url(member)).status_code == 403


def test_the_contest_page_links_to_its_heteroidentification_by_role(client_for, commission):
    contest = commission.contest
    hub = reverse("declarations:hetero_contest", args=[contest.slug])
    status = reverse("declarations:hetero_status", args=[contest.slug])
    assert f'href="{hub}"' in client_for("legal").get(contest.get_absolute_url()).content.decode()
    clerk_page = client_for("clerk").get(contest.get_absolute_url()).content.decode()
    assert f'href="{status}"' in clerk_page and f'href="{hub}"' not in clerk_page
