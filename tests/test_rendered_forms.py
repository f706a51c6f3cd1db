"""Every form as a person meets it: opened, filled field by field from the rendered page, submitted, and it
succeeds.

Generated from the permission matrix: every URL whose GET answers 200 to some role is opened as the first
role allowed to use it (``user_of``), with the records of ``tests.url_arguments.build_world``. Every form the page
renders (but the header's logout button) is filled, each visible field with valid data from ``VALUES`` (by
field name, then by kind; ``OVERRIDES`` per URL where a name means something else there), and only the
fields the page renders: a form that renders no field where its view needs data is refused, and fails here.
A POST must end on the success path (a redirect, no error shown after it) and change the data; a GET search
must answer 200 without an error list. Each submission runs in a savepoint rolled back after it, so every
form starts from the same world.

A form that cannot succeed in the built world for a reason of the world (not of the screen) is in ``SKIPPED``
with that reason; a form known broken whose fix is under way elsewhere is an ``xfail`` (strict: the day it is
fixed, the mark must go).
"""

from __future__ import annotations

import functools
import hashlib
import io
import re

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from candidates import access
from tests.builders import EXAMPLE_CSV, PASSWORD, make_cast, make_cpf
from tests.module_data import built_once
from tests.pages import Control, RenderedForm, forms_on
from tests.test_permission_matrix import MATRIX, ROLES, staff_patterns
from tests.url_arguments import arguments, build_world

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"

# Field name -> a valid value, wherever the name appears (a callable gets the URL name).
VALUES: dict[str, str] = {
    "title": "Concurso de teste pela tela",
    "code": "TELA",
    "cpf": make_cpf(987654),
    "full_name": "Pessoa Pela Tela",
    "social_name": "",
    "email": "pessoa@example.org",
    "recipient": "pessoa@example.org",
    "phone": "(55) 99999-0000",
    "number": "777",
    "act_number": "Portaria 77/2026",
    "act": "Portaria 78/2026",
    "act_reference": "Portaria 79/2026",
    "count": "1",
    "year": "2026",
    "percent": "20",
    "pcd_percent": "5",
    "pcd_cap_percent": "20",
    "salary": "1234,56",
    "workload_hours": "40",
    "edital_vacancies": "2",
    "signer_name": "Maria da Silva",
    "signer_office": "Presidente da Câmara",
    "gazette_edition": "1234",
    "gazette_page": "5",
    "summary": "Corrige o item 3.",
    "reason": "Pedido da pessoa, por escrito.",
    "justification": "Erro de digitação na ficha.",
    "facts": "Denúncia recebida com indícios.",
    "seed": "12345",
    "seed_source": "Loteria Federal, 1º prêmio",
    "place": "Sala 2 da Câmara",
    "video_link": "https://example.org/sala",
    "time": "14:00",
    "recording_reference": "Gravação 1",
    "recording_sha256": "a" * 64,
    "name": "Nome de teste",
    "jurisdiction": "Santa Maria/RS",
    "short_name": "Câmara",
    "municipality": "Santa Maria",
    "state": "RS",
    "cnpj": "11.222.333/0001-81",
    "group_label": "negros",
    "user": "clerk",
    "busca": "Candidata",
    "q": "concurso",
    # Scores are typed with a decimal comma in text boxes (inputmode decimal).
    "max_score": "100",
    "pass_mark": "50",
    "minimum_final_score": "60",
    # The signing certificate's password (the test A1 of tests/contests/icp_chain.py).
    "certificate_password": "senha-do-a1",
}

# The world's contest took registrations from 09/03/2026 to 08/04/2026 and nominated on 10/06/2026 with 30
# days to take office: dates of those acts fall inside those windows.
IN_REGISTRATIONS = "15/03/2026"

# Per URL: field -> value, where the name means something else there (or a value depends on the world).
OVERRIDES: dict[str, dict[str, str]] = {
    # A new registration: a new number, dates inside the registration period.
    "candidates:registration_create": {
        "number": "9001",
        "registered_on": IN_REGISTRATIONS,
        "declared_on": IN_REGISTRATIONS,
        "birth_date": "01/01/1990",
    },
    # The nominee's registration (no racial option): the preferred reserve stays empty.
    "candidates:registration_edit": {"registered_on": IN_REGISTRATIONS, "preferred_reserve": ""},
    # Taking office within the 30 days after the nomination of 10/06/2026.
    "candidates:nomination_took_office": {"date": "01/07/2026"},
    # Someone who may log in / change their password: the cast's credentials.
    "login": {"username": "clerk", "password": PASSWORD},
    "password_change": {
        "old_password": PASSWORD,
        "new_password1": "outra-senha-de-teste-456",
        "new_password2": "outra-senha-de-teste-456",
    },
    # A new version keeps the policy's name; a new policy needs its own slug and a name.
    "contests:policy_create": {"name": "Lei pela tela", "slug": "lei-pela-tela"},
    "contests:create": {"slug": "pela-tela"},
    # A phase letting the best 10 through, split by the law's default (the per-list Ks left empty).
    "candidates:phase_create": {"cutoff": "10", "cutoff_open": "", "cutoff_racial": "", "cutoff_pcd": ""},
    # The opening chooser takes an inscription the contest has (the worked example's N1).
    "declarations:open_choose": {"number": "N1"},
    "monitoring:generate": {"number": "1"},  # a report's number: the first biennial report
    # A court order on the whole contest (a published CNJ number, whose check digits hold).
    "declarations:court_order_create": {
        "case_number": "5046512-94.2016.4.04.7000",
        "court": "",
        "decided_on": "02/03/2026",
        "notified_on": "03/03/2026",
        "compliance_days": "5",
        "effect": "suspend_act",
        "scope": "contest",
        "position": "",
        "list_name": "",
        "numbers": "",
        "duration": "further_decision",
        "until": "",
    },
    "candidates:phase_edit": {"cutoff": "10", "cutoff_open": "", "cutoff_racial": "", "cutoff_pcd": ""},
}


def world_overrides(url_name: str, world: dict) -> dict[str, str]:
    """Values only the world knows: the candidate's page is opened with a registration's number and code."""
    if url_name == "public:candidate":
        registration = world["registration"]
        return {
            "contest": str(registration.contest_id),
            "number": registration.number,
            "code": access.code_for(registration),
        }
    return {}


# (URL name, form action as rendered) -> why it cannot succeed in the built world (the world's records are
# past that step); each is reached through the screens by a journey or its own tests.
WORLD_IS_PAST = "the world's contest is homologated with its edital recorded as published"
SKIPPED: dict[tuple[str, str], str] = {
    (
        "contests:edital_publish",
        "",
    ): f"{WORLD_IS_PAST} (no edital text): the Secretaria journey publishes one",
    ("contests:edital_rectify", ""): f"{WORLD_IS_PAST} by date, without a document to rectify",
    ("contests:opening_delete", ""): f"{WORLD_IS_PAST}: its openings are fixed by it (the refusal is right)",
    ("declarations:hetero_commission_form", ""): "the world's contest has both its commissions",
    ("declarations:hetero_first_access", ""): (
        "the code is a one-use token printed for one member's account: "
        "tests/declarations/test_hetero_member_access.py reads it from the printed letter and fills this page"
    ),
    (
        "declarations:hetero_draw_announce",
        "",
    ): "the world's contest has both its commissions: nothing to draw",
    ("declarations:hetero_call", ""): "every racial registration of the world is already called",
    ("declarations:hetero_draw_perform", ""): "the world's draw notice is unpublished: no seed is accepted",
    ("declarations:hetero_minutes_publish", ""): "the world's session is open: minutes follow its closing",
    ("declarations:hetero_second_call", ""): (
        "the world's verification is in an open session, no absence recorded, and no later session: "
        "tests/declarations/test_hetero_second_call.py fills this page after an absence"
    ),
    ("declarations:hetero_result_publish", ""): "no declaration of the world is finally confirmed",
    ("declarations:notify", ""): "the world's procedure is notified; the next notice follows a decision",
    ("declarations:notify_kind", ""): "the world's procedure is notified for the defence already",
}
# Forms whose action names a record: matched by the action's ending.
SKIPPED_ACTIONS: dict[tuple[str, str], str] = {
    ("candidates:registration_detail", "/situacao/"): (
        "the world's registration is nominated: its situation changes through the nomination (the refusal "
        "names that screen)"
    ),
    ("declarations:hetero_session", "/encerrar/"): "the world's session has candidates without attendance",
}

# (URL name, form action) -> what is broken and being fixed elsewhere (strict xfail).
BROKEN: dict[tuple[str, str], str] = {}

# Submissions that rightly answer 200 on success (the answer carries what cannot survive a redirect).
RENDERS_ON_SUCCESS = {"/codigo-de-acesso/", "/links/", "/procurador/"}
# POSTs whose success writes nothing the business tables keep: a login, a lookup, the import wizard's first
# step (the file goes to private storage and the session; rows are written at its last step).
WRITES_NOTHING = {"login", "public:candidate", "password_change", "candidates:import_upload"}
# The header's logout button ends the session: its own tests cover it.
LOGOUT = "/sair/"
# The access log may grow on any page that shows personal data; it is not "the data changed".
UNCHECKED_MODELS = {"contests.accesslog"}
ERRORS = re.compile(r'class="[^"]*\b(errorlist|error-summary|field-errors|message--error)\b')


def user_of(url_name: str) -> str:
    """The first role (``ROLES`` order) that opens the page and may submit it (its POST is not refused);
    the first that opens it where nobody may post to it (a page of GET forms)."""
    gets, posts = (MATRIX[url_name][method].split() for method in ("GET", "POST"))
    opening = [i for i, cell in enumerate(gets) if cell == "200"]
    using = [i for i in opening if posts[i] not in ("403", "405", "login")]
    return ROLES[(using or opening)[0]]


def _pages() -> list[str]:
    return sorted(name for name, row in MATRIX.items() if "200" in row["GET"].split())


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    yield from built_once(
        django_db_blocker,
        lambda settings: build_world(make_cast(), settings, tmp_path_factory.mktemp("world")),
    )


@functools.cache
def _checked_tables() -> tuple[tuple[str, str], ...]:
    quote = connection.ops.quote_name
    return tuple(
        (
            model._meta.label_lower,
            f"SELECT * FROM {quote(model._meta.db_table)} ORDER BY {quote(model._meta.pk.column)}",
        )
        for model in apps.get_models()
        if model._meta.app_label in {"contests", "candidates", "declarations", "monitoring", "auth"}
        and model._meta.label_lower not in UNCHECKED_MODELS
    )


def _checksum() -> str:
    digest = hashlib.sha256()
    with connection.cursor() as cursor:
        for label, query in _checked_tables():
            digest.update(label.encode())
            cursor.execute(query)
            for row in cursor.fetchall():
                digest.update(repr(row).encode())
    return digest.hexdigest()


def _today() -> str:
    return timezone.localdate().strftime("%d/%m/%Y")


def _value(url_name: str, control: Control, rendered) -> str | list[str] | None:
    """A valid value for one rendered control: the URL's override, the value table, what the page already
    shows, then one by the control's kind."""
    overrides = OVERRIDES.get(url_name, {})
    if control.name in overrides:
        return overrides[control.name]
    if control.kind in {"checkbox", "radio"}:
        if rendered not in (None, "", []):
            return rendered
        if control.kind == "checkbox" and not control.required and len(control.options) == 1:
            return None  # an optional yes/no left as shown
        choices = [option for option in control.options if option]
        return choices[0] if choices else None
    if control.kind == "select":
        if rendered not in (None, "", []):
            return rendered
        choices = [option for option in control.options if option]
        if not choices:
            return rendered
        return [choices[0]] if control.multiple else choices[0]
    if control.name in VALUES:
        return VALUES[control.name]
    if rendered not in (None, ""):
        return rendered
    if control.placeholder == "dd/mm/aaaa":
        return _today()
    return {
        "number": "1",
        "email": "pessoa@example.org",
        "url": "https://example.org/",
        "time": "14:00",
        "textarea": "Texto de teste.",
    }.get(control.kind, "Texto de teste")


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(buffer, "PNG")
    return buffer.getvalue()


# A file input takes the organiser's example file (the import), an image (the organisation's logo), the
# test A1 certificate (the signing certificate), else a PDF.
IMAGES = {"logo"}


def _upload(url_name: str, name: str) -> SimpleUploadedFile:
    if name == "certificate":  # the signing certificate: an A1 file (PKCS#12) of a test chain
        from tests.contests.icp_chain import chain

        return SimpleUploadedFile("a1.pfx", chain().pkcs12, content_type="application/x-pkcs12")
    if url_name == "candidates:import_upload":
        return SimpleUploadedFile(EXAMPLE_CSV.name, EXAMPLE_CSV.read_bytes(), content_type="text/csv")
    if name in IMAGES:
        return SimpleUploadedFile(f"{name}.png", _png(), content_type="image/png")
    return SimpleUploadedFile(f"{name}.pdf", PDF, content_type="application/pdf")


def fill(url_name: str, form: RenderedForm, world: dict) -> dict:
    """The rendered form's data with every visible field filled (hidden fields as rendered), and the button
    a person would click."""
    data: dict = {name: value for name, value in form.values.items() if name not in form.visible}
    data.update(form.button())
    extra = world_overrides(url_name, world)
    for name in form.visible:
        control = form.controls[name]
        if control.disabled:
            continue
        if control.kind == "file":
            data[name] = _upload(url_name, name)
            continue
        value = extra.get(name) or _value(url_name, control, form.values.get(name))
        if value is not None:
            data[name] = value
    return data


def _submissions() -> list:
    """One parameter per URL; its forms are found on the page at run time."""
    return [pytest.param(name, id=name) for name in _pages()]


def _problems(html: str) -> list[str]:
    """The errors a person would read on the page: field errors, the summary, an error message."""
    found = []
    for match in re.finditer(
        r'<(?:div|ul|p)[^>]*class="[^"]*\b(?:errorlist|error-summary|field-errors|message--error)\b[^"]*"[^>]*>(.*?)</(?:div|ul|p)>',
        html,
        re.S,
    ):
        found.append(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(1))).strip())
    return found or (["(erro sem texto)"] if ERRORS.search(html) else [])


@pytest.mark.parametrize("url_name", _submissions())
def test_every_rendered_form_succeeds(url_name, cast, world):
    who = user_of(url_name)
    client = Client()
    if who != "anonymous":
        client.force_login(cast[who])
    url = reverse(url_name, kwargs=arguments(url_name, staff_patterns()[url_name], world))
    page = client.get(url)
    assert page.status_code == 200, f"{url_name}: GET {page.status_code}"
    if "html" not in page.get("Content-Type", ""):
        return
    failures = []
    for form in forms_on(page.content.decode()):
        action = form.action or url
        if action == LOGOUT:
            continue
        if (url_name, form.action) in SKIPPED or any(
            name == url_name and action.endswith(end) for name, end in SKIPPED_ACTIONS
        ):
            continue
        with transaction.atomic():
            problem = _submit(client, url_name, form, action, world)
            transaction.set_rollback(True)
        if problem:
            failures.append(problem)
    assert not failures, "\n".join(failures)


# A preview before the act (the nomination call): the answer shows the same form with a confirm button.
MAX_STEPS = 3


def _submit(client: Client, url_name: str, form: RenderedForm, action: str, world: dict) -> str:
    """Fill and submit the form; where the answer is a further step of it (a preview to confirm), take
    that step too, as a person would."""
    before = _checksum() if form.method == "post" else ""
    for _ in range(MAX_STEPS):
        data = fill(url_name, form, world)
        response = client.post(action, data) if form.method == "post" else client.get(action, data)
        following = _next_step(response, action) if form.method == "post" else None
        if following is None:
            return _outcome(url_name, form, action, data, response, client, before)
        form = following
    return f"{url_name}: {action}: {MAX_STEPS} passos sem concluir"


def _next_step(response, action: str) -> RenderedForm | None:
    """The same form shown again without an error, with a new button (a confirmation step)."""
    if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
        return None
    html = response.content.decode()
    if _problems(html):
        return None
    for candidate in forms_on(html):
        same = candidate.method == "post" and (candidate.action or action) == action
        if same and any("confirm" in value or "confirm" in name for name, value, _ in candidate.buttons):
            return candidate
    return None


def _outcome(url_name, form, action, data, response, client, before) -> str:
    shown = {k: v for k, v in data.items() if k != "csrfmiddlewaretoken" and not hasattr(v, "read")}
    where = f"{url_name}: {form.method.upper()} {action} {shown}"
    if response.status_code == 302:
        target = response["Location"]
        if target.startswith(reverse("login")):
            return f"{where}: mandou ao login"
        landing = client.get(target)
        if landing.status_code == 200 and "html" in landing.get("Content-Type", ""):
            problems = _problems(landing.content.decode())
            if problems:
                return f"{where}: redirecionou para {target} com erro: {problems}"
        if form.method == "post" and url_name not in WRITES_NOTHING and _checksum() == before:
            return f"{where}: redirecionou sem mudar nada"
        return ""
    if response.status_code != 200:
        return f"{where}: {response.status_code}"
    if "html" not in response.get("Content-Type", ""):
        return ""  # a file to keep (a batch of letters, a PDF): what the button promises
    problems = _problems(response.content.decode())
    if problems:
        return f"{where}: erros na página: {problems}"
    if form.method == "get":
        return ""
    if any(action.endswith(suffix) for suffix in RENDERS_ON_SUCCESS) or url_name in WRITES_NOTHING:
        return ""
    return f"{where}: respondeu 200 sem redirecionar (o formulário voltou?)"


def test_a_form_that_renders_no_field_where_data_is_required_fails_here():
    """The edital's forms once rendered "Salvar" alone: filled from the page, the post carries nothing, the
    view answers with its error list, and this test reports it."""
    from django.http import HttpResponse

    form = forms_on('<form method="post"><button class="button button--primary">Salvar</button></form>')[0]
    assert fill("contests:edital_rectify", form, {}) == {}
    answer = HttpResponse(
        '<div class="error-summary" role="alert"><ul><li>O que a retificação altera: Este campo é '
        "obrigatório.</li></ul></div>"
    )
    failure = _outcome("contests:edital_rectify", form, "/x/", {}, answer, None, "")
    assert "erros na página" in failure and "Este campo é obrigatório" in failure
