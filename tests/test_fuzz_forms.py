"""Fuzz of every staff form: no input gives a 500, and a refused post writes nothing.

The endpoints come from the URL resolver (every pattern but the admin's and the login's), their fields
from the form each one renders to a superuser (who has every permission); a POST-only endpoint, or one
that renders no form, gets the vocabulary of field names the workspace uses. Hypothesis posts generated
values over the form's own initial data: huge and negative numbers, unicode digits, far dates, long
strings, empty values and NUL bytes, besides arbitrary text.

After each post: never a 500 (the test client re-raises a view's exception, so a crash fails here with its
traceback); a post answered 200 (the form shown again, refused) left every business table as it was, by a
checksum of their rows (a write view that renders on success instead of redirecting fails here too). Each
example runs in a transaction rolled back after it, so the world is the same for the next one.

Each endpoint first gets ``BATTERY`` (every field at once at each value that once broke a page),
then ``FUZZ_EXAMPLES`` generated posts and query strings (profile "fuzz", derandomized so a failure
reproduces): 3 each for ``make test``, 6 under ``--hypothesis-profile=thorough`` (CI);
``FUZZ_PROFILE=fuzz-long`` runs many more.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import os

import pytest
from django import forms
from django.apps import apps
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.builders import make_cast, make_user
from tests.module_data import built_once
from tests.url_arguments import arguments, build_world

FUZZ_EXAMPLES = 6 if settings.get_current_profile_name() == "thorough" else 3
settings.register_profile(
    "fuzz",
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.register_profile(
    "fuzz-long",
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PROFILE = settings.get_profile(os.environ.get("FUZZ_PROFILE", "fuzz"))

SKIPPED_PREFIXES = ("admin/", "entrar/", "sair/", "senha/")
# Tables whose rows a refused post may legitimately add: the access log (a form shown again with
# personal data logs that it was shown), and the access-code throttle's failure counter (a wrong code
# refused on Minha inscrição is counted, across workers, in rows: bookkeeping, not a change of the case).
UNCHECKED_MODELS = {"contests.accesslog", "candidates.accesscodefailure"}
# Endpoints that rightly write and answer 200, and why (every other one redirects after a write).
WRITES_AND_RENDERS = {
    # The new private link is shown once, on the answer: its token is stored only as a hash, so it
    # cannot survive a redirect.
    "declarations:link_create",
    # Likewise a reissued access code for a candidate without e-mail: never stored, shown once.
    "candidates:registration_access_code",
    # Letters to candidates (issue 19): the PDF answers the POST that records the print (a letter carries
    # the access code or a private link: never stored, so it cannot survive a redirect either).
    "candidates:access_letters",
    "candidates:registration_access_letter",
    "declarations:notice_letter",
    "declarations:hetero_result_letter",
    # The candidate's pages record the link's last use (a read marker, not a change of the case).
    "declarations:portal",
    "declarations:portal_document",
    "declarations:portal_download",
    "declarations:portal_receipt",
    "declarations:hetero_portal",
    "declarations:hetero_portal_appeal",
}
# Field names of the workspace, for endpoints that render no form (POST-only actions) and query strings.
VOCABULARY = (
    "kind",
    "status",
    "reason",
    "count",
    "date",
    "act",
    "step",
    "version",
    "previewed",
    "form_token",
    "pagina",
    "com",
    "cargo",
    "lista",
    "vagas",
    "substituir",
    "busca",
    "reserva",
    "situacao",
    "start",
    "end",
    "user",
)

HOSTILE = (
    "",
    " ",
    "0",
    "-1",
    "-99999999999999999999",
    "99999999999999999999999999999999999999",
    "1000000",
    "2147483648",
    "9223372036854775808",
    "1e100",
    "1E+400",
    "NaN",
    "-inf",
    "²",
    "¹²³",
    "٣",
    "１２",
    "Ⅻ",
    "31/12/9999",
    "01/01/0001",
    "9999-12-31",
    "0001-01-01",
    "00/00/0000",
    "29/02/2027",
    "31/12/2199",
    "01/01/1900",
    "\x00",
    "a\x00b",
    "AB/CD",  # a slash where a code or a slug goes into a URL (issue 25, N5)
    "../x",
    "0007",  # zero padding: a non-canonical integer (N1)
    "x" * 5000,
    "9" * 1000,
    "<script>alert(1)</script>",
    "'; DROP TABLE contests_contest; --",
    "1,5",
    "1.000.000,00",
    "on",
    "confirm",
    "preview",
    "final",
    "\u202e\ufeff",
)
VALUES = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(max_size=200),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.dates().map(lambda day: day.strftime("%d/%m/%Y")),
)


def _routes(patterns, prefix: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            namespace = pattern.namespace
            for route, name in _routes(pattern.url_patterns, prefix + str(pattern.pattern)):
                yield route, f"{namespace}:{name}" if namespace and ":" not in name else name
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield prefix + str(pattern.pattern), pattern.name


ENDPOINTS = sorted(
    (route, name)
    for route, name in _routes(get_resolver().url_patterns)
    if route and not route.startswith(SKIPPED_PREFIXES)
)


def test_the_fuzz_covers_every_staff_form_endpoint():
    names = {name for _, name in ENDPOINTS}
    for expected in ("contests:policy_create", "candidates:nomination_call", "candidates:import_upload"):
        assert expected in names
    assert len(ENDPOINTS) >= 50


# The world: one record of each kind the URLs name, built once; each test's writes are rolled back ------


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    yield from built_once(
        django_db_blocker,
        lambda settings: build_world(make_cast(), settings, tmp_path_factory.mktemp("world")),
    )


@functools.cache
def _checked_tables() -> tuple[tuple[str, str], ...]:
    """(model label, the query of its table's rows in primary-key order) for every business model."""
    quote = connection.ops.quote_name
    return tuple(
        (
            model._meta.label_lower,
            f"SELECT * FROM {quote(model._meta.db_table)} ORDER BY {quote(model._meta.pk.column)}",
        )
        for model in apps.get_models()
        if model._meta.app_label in {"contests", "candidates", "declarations"}
        and model._meta.label_lower not in UNCHECKED_MODELS
    )


def _checksum() -> str:
    """Every stored value of every business table, as the database returns it (plain SQL: the ORM's
    query building for some 60 tables made half of each case's time)."""
    digest = hashlib.sha256()
    with connection.cursor() as cursor:
        for label, query in _checked_tables():
            digest.update(label.encode())
            cursor.execute(query)
            for row in cursor.fetchall():
                digest.update(repr(row).encode())
    return digest.hexdigest()


def _filler(field: forms.Field) -> str | None:
    """A plausible value for a required field left empty, so that one hostile field may reach the
    service behind an otherwise valid form."""
    if isinstance(field, forms.FileField):
        return None
    if isinstance(field, forms.DateField):
        return timezone.localdate().strftime("%d/%m/%Y")
    if isinstance(field, (forms.IntegerField, forms.DecimalField)):
        return "1"
    if isinstance(field, forms.ChoiceField):
        choices = [str(value) for value, _ in list(field.choices) if value not in ("", None)]
        return choices[0] if choices else None
    if isinstance(field, forms.EmailField):
        return "fuzz@example.org"
    if isinstance(field, forms.SlugField):
        return "fuzz-teste"
    return "Fuzz 1/2026"


def _form_of(response):
    form = (response.context or {}).get("form") if response.status_code == 200 else None
    return form if isinstance(form, forms.BaseForm) else None


def _base_data(form) -> tuple[dict, list[str]]:
    """The rendered form's initial values, required blanks filled (so that a generated value may reach the
    service), and its field names; the vocabulary when the page renders no form."""
    if form is None:
        return {}, list(VOCABULARY)
    data: dict = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if value in (None, "", []) and field.required:
            value = _filler(field)
        if value is None or value is False:
            continue
        if value is True:
            value = "on"
        elif isinstance(value, datetime.date):
            value = value.strftime("%d/%m/%Y")
        elif hasattr(value, "pk"):
            value = value.pk
        data[form.add_prefix(name)] = value if isinstance(value, list) else str(value)
    return data, [form.add_prefix(name) for name in form.fields] + ["step", "version", "previewed"]


# Each date and number field alone (the rest of the form valid) at each of these.
FIELD_BATTERY = {
    forms.DateField: ("31/12/9999", "01/01/0001"),
    forms.IntegerField: ("²", "99999999999999999999"),
    forms.DecimalField: ("1E+400", "9" * 40),
}


def _field_battery(form) -> list[tuple[str, str]]:
    if form is None:
        return []
    return [
        (form.add_prefix(name), value)
        for name, field in form.fields.items()
        for kind, values in FIELD_BATTERY.items()
        if isinstance(field, kind)
        for value in values
    ]


@pytest.fixture
def superuser_client(db):
    client = Client()
    client.force_login(make_user("fuzz-root", is_superuser=True, is_staff=True))
    return client


# Every field at once at each of these, besides what Hypothesis generates: the defects the hostile test found.
BATTERY = ("²", "31/12/9999", "-99999999999999999999", "a\x00b", "x" * 5000)


@pytest.mark.parametrize(("route", "name"), ENDPOINTS, ids=[name for _, name in ENDPOINTS])
def test_no_input_gives_500_or_a_partial_write(superuser_client, world, route, name):
    target = reverse(name, kwargs=arguments(name, route, world))
    form = _form_of(superuser_client.get(target))
    base, fields = _base_data(form)
    # Each example is rolled back: the tables before any of them are the tables before each.
    before = _checksum()

    def post(overrides: dict) -> None:
        with transaction.atomic():
            response = superuser_client.post(target, {**base, **overrides})
            assert response.status_code < 500, (name, overrides)
            if response.status_code == 200 and name not in WRITES_AND_RENDERS:
                assert _checksum() == before, f"{name} answered 200 after writing: {overrides!r}"
            transaction.set_rollback(True)

    def get(query: dict) -> None:
        with transaction.atomic():
            response = superuser_client.get(target, query)
            assert response.status_code < 500, (name, query)
            transaction.set_rollback(True)

    for value in BATTERY:
        post(dict.fromkeys(fields, value))
        get(dict.fromkeys(VOCABULARY, value))
    for field, value in _field_battery(form):
        post({field: value})
    PROFILE(given(overrides=st.dictionaries(st.sampled_from(fields), VALUES, max_size=len(fields)))(post))()
    PROFILE(given(query=st.dictionaries(st.sampled_from(VOCABULARY), VALUES, max_size=4))(get))()
