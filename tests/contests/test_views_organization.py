"""Organisation settings and municipal holidays (Gestão)."""

import datetime

import pytest
from django.urls import reverse

from contests import services
from contests.models import Holiday, Organization
from tests.access import ROLES, assert_access

READERS = {"clerk", "legal", "manager", "auditor"}
ORGANIZATION = {
    "name": "Câmara Municipal de Santa Maria",
    "short_name": "CMSM",
    "municipality": "Santa Maria",
    "state": "RS",
    "cnpj": "",
    "address": "",
    "phone": "",
    "email": "contato@camara.example",
    "website": "",
    "dpo_name": "",
    "dpo_email": "",
    "dpo_phone": "",
}


@pytest.fixture
def holiday(cast):
    return services.holiday_save(
        by=cast["manager"], data={"date": datetime.date(2026, 5, 17), "name": "Aniversário do município"}
    )


# Access matrix ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", ROLES)
def test_organization_access(client_for, who):
    assert_access(client_for, who, reverse("contests:organization"), READERS)


@pytest.mark.parametrize("who", ROLES)
def test_holiday_list_access(client_for, who):
    assert_access(client_for, who, reverse("contests:holiday_list"), READERS)


@pytest.mark.parametrize("who", ROLES)
def test_holiday_create_access(client_for, who):
    assert_access(client_for, who, reverse("contests:holiday_create"), {"legal", "manager"})


@pytest.mark.parametrize("who", ROLES)
def test_holiday_edit_access(client_for, holiday, who):
    assert_access(client_for, who, reverse("contests:holiday_edit", args=[holiday.pk]), {"legal", "manager"})


@pytest.mark.parametrize("who", ROLES)
def test_holiday_delete_access(client_for, holiday, who):
    assert_access(client_for, who, reverse("contests:holiday_delete", args=[holiday.pk]), {"manager"})


# Organisation ----------------------------------------------------------------------------------------


def test_manager_saves_organization_and_header_shows_it(client_for, cast):
    client = client_for("manager")
    response = client.post(reverse("contests:organization"), ORGANIZATION)
    assert response.status_code == 302
    organization = Organization.current()
    assert (organization.name, organization.state) == ("Câmara Municipal de Santa Maria", "RS")
    assert organization.history.first().history_user == cast["manager"]
    page = client.get(reverse("contests:list")).content.decode()
    assert '<span class="brand__org">Câmara Municipal de Santa Maria</span>' in page


def test_organization_edit_keeps_one_row(client_for, cast):
    client = client_for("manager")
    client.post(reverse("contests:organization"), ORGANIZATION)
    client.post(reverse("contests:organization"), {**ORGANIZATION, "name": "Câmara de Vereadores"})
    assert Organization.objects.count() == 1
    assert Organization.current().name == "Câmara de Vereadores"


def test_organization_bad_state_changes_nothing(client_for):
    response = client_for("manager").post(reverse("contests:organization"), {**ORGANIZATION, "state": "rs"})
    assert response.status_code == 200
    assert "Informe a UF com duas letras maiúsculas." in response.content.decode()
    assert not Organization.objects.exists()


def test_clerk_sees_organization_but_cannot_change_it(client_for, cast):
    services.organization_save(by=cast["manager"], data={**ORGANIZATION})
    client = client_for("clerk")
    response = client.get(reverse("contests:organization"))
    assert response.context["form"] is None
    assert "CMSM" in response.content.decode()
    assert client.post(reverse("contests:organization"), {**ORGANIZATION, "name": "X"}).status_code == 403
    assert Organization.current().name == ORGANIZATION["name"]


# Holidays --------------------------------------------------------------------------------------------


def test_manager_creates_holiday(client_for, cast):
    data = {"date": "20/11/2026", "name": "Consciência Negra", "kind": "holiday", "period": "full", "act": ""}
    response = client_for("manager").post(reverse("contests:holiday_create"), data)
    assert response.status_code == 302
    holiday = Holiday.objects.get(name="Consciência Negra")
    assert holiday.date == datetime.date(2026, 11, 20)
    assert holiday.history.first().history_user == cast["manager"]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"date": "31/02/2026"}, "Informe uma data válida."),
        ({"name": ""}, "Este campo é obrigatório."),
        ({"date": "17/05/2026", "name": "Aniversário do município"}, "já existe"),
    ],
)
def test_holiday_bad_input_changes_nothing(client_for, holiday, overrides, message):
    data = {
        "date": "20/11/2026",
        "name": "Outro",
        "kind": "holiday",
        "period": "full",
        "act": "",
        **overrides,
    }
    response = client_for("manager").post(reverse("contests:holiday_create"), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Holiday.objects.count() == 1


def test_legal_edits_holiday(client_for, cast, holiday):
    data = {"date": "18/05/2026", "name": "Aniversário do município", "kind": "holiday", "period": "morning"}
    response = client_for("legal").post(reverse("contests:holiday_edit", args=[holiday.pk]), data)
    assert response.status_code == 302
    holiday.refresh_from_db()
    assert (holiday.date, holiday.period) == (datetime.date(2026, 5, 18), "morning")
    assert holiday.history.first().history_user == cast["legal"]


def test_manager_deletes_holiday(client_for, cast, holiday):
    response = client_for("manager").post(reverse("contests:holiday_delete", args=[holiday.pk]))
    assert response.status_code == 302
    assert not Holiday.objects.exists()
    record = Holiday.history.filter(id=holiday.pk).first()
    assert (record.history_type, record.history_user) == ("-", cast["manager"])


def test_legal_cannot_delete_holiday(client_for, holiday):
    assert client_for("legal").post(reverse("contests:holiday_delete", args=[holiday.pk])).status_code == 403
    assert Holiday.objects.filter(pk=holiday.pk).exists()


# Who signs each kind of act (DESIGN point 11) ----------------------------------------------------------


def test_readers_see_who_signs_without_a_form(client_for, cast):
    from contests.models import Signatory
    from tests.builders import make_signatory

    services.organization_save(by=cast["manager"], data=ORGANIZATION)
    make_signatory(Signatory.Kind.EDITAL, "Ana Souza", "Presidente")
    page = client_for("clerk").get(reverse("contests:organization")).content.decode()
    assert "Edital e retificações" in page and "Ana Souza, Presidente" in page
    assert "Designar quem assina" not in page and reverse("contests:authority_list") in page


# The coat of arms (printed on every document's header) --------------------------------------------------


def _image(fmt: str = "PNG", size: tuple[int, int] = (120, 140), name: str = "brasao.png"):
    from io import BytesIO

    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image

    buffer = BytesIO()
    Image.new("RGB", size, (31, 58, 95)).save(buffer, fmt)
    return SimpleUploadedFile(name, buffer.getvalue(), content_type=f"image/{fmt.lower()}")


def _upload(name: str, content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content, content_type="image/png")


def _organization_fill(**extra):
    return {key: value for key, value in {**ORGANIZATION, **extra}.items() if value != ""}


def test_manager_uploads_and_replaces_the_coat_of_arms_through_the_page(client_for, cast, settings, tmp_path):
    from contests.documents.render import Stamp, base_context
    from tests.pages import post_form

    settings.MEDIA_ROOT = tmp_path
    client = client_for("manager")
    url = reverse("contests:organization")
    response = post_form(client, url, _organization_fill(logo=_image()), containing="logo", follow=True)
    assert "Dados da organização salvos." in response.content.decode()
    organization = Organization.current()
    assert organization.logo.name.startswith("organization/brasao")
    assert organization.history.first().history_user == cast["manager"]
    first = organization.logo.path
    assert base_context(Stamp(), title="x")["logo_uri"].endswith(organization.logo.name)
    # Replaced: the header prints the new one.
    post_form(client, url, {"logo": _image(name="novo.jpg", fmt="JPEG")}, follow=True)
    organization.refresh_from_db()
    assert organization.logo.name.startswith("organization/novo") and organization.logo.path != first
    assert organization.logo.width == 120
    # Saved again without a file: the emblem stays.
    post_form(client, url, {"name": "Câmara de Vereadores"}, follow=True)
    organization.refresh_from_db()
    assert organization.name == "Câmara de Vereadores" and organization.logo.name.startswith(
        "organization/novo"
    )


@pytest.mark.parametrize(
    ("upload", "message"),
    [
        (lambda: _image(fmt="GIF", name="brasao.gif"), "Envie o brasão como imagem PNG ou JPEG."),
        (lambda: _image(size=(3001, 20)), "A imagem tem 3001 × 20 pixels; use entre 64 e 3.000 pixels"),
        (lambda: _image(size=(40, 40)), "A imagem tem 40 × 40 pixels; use entre 64 e 3.000 pixels"),
        (lambda: _upload("brasao.png", b"not an image"), "Envie uma imagem válida."),
    ],
)
def test_a_bad_coat_of_arms_is_refused_and_nothing_changes(
    client_for, cast, settings, tmp_path, upload, message
):
    from tests.pages import post_form

    settings.MEDIA_ROOT = tmp_path
    services.organization_save(by=cast["manager"], data=ORGANIZATION)
    response = post_form(client_for("manager"), reverse("contests:organization"), {"logo": upload()})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Organization.current().logo
    assert not list(tmp_path.rglob("*.*"))


def test_a_coat_of_arms_over_one_megabyte_is_refused(client_for, cast, settings, tmp_path):
    import os
    from io import BytesIO

    from PIL import Image

    from tests.pages import post_form

    settings.MEDIA_ROOT = tmp_path
    services.organization_save(by=cast["manager"], data=ORGANIZATION)
    # Random pixels do not compress: a 700 × 700 RGB PNG of noise is about 1,4 MB.
    buffer = BytesIO()
    Image.frombytes("RGB", (700, 700), os.urandom(700 * 700 * 3)).save(buffer, "PNG")
    assert buffer.tell() > 1024 * 1024
    big = _upload("grande.png", buffer.getvalue())
    response = post_form(client_for("manager"), reverse("contests:organization"), {"logo": big})
    assert "o limite é 1,0\xa0MB" in response.content.decode()
    assert not Organization.current().logo
