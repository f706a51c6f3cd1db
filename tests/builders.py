"""Deterministic builders for tests: ``make_contest(**overrides)`` and friends. No random data."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.contrib.auth.models import Group, User

from contests.models import Authority, Contest, Policy, Position, Signatory, VacancyOpening

# The numbers the builders give (slugs, titles, CPFs, registration numbers) restart at each test
# (``restart_numbers``, tests/conftest.py): a test prints the same acts whichever worker runs it and after
# whatever tests ran there before, so their PDFs are rendered once and read back by later runs
# (tests/rendered_pdfs.py). A fixture wider than a test (a module's rows, ``built_once``) takes its numbers
# from a counter of its own that never restarts (``shared_numbers``), so its rows never meet a test's.
# (The collection of the test modules builds nothing.)
TEST_NUMBERS = 1
SHARED_NUMBERS = 50_000
_counter = itertools.count(1)
_shared = itertools.count(SHARED_NUMBERS)


def restart_numbers() -> None:
    global _counter
    _counter = itertools.count(TEST_NUMBERS)


@contextmanager
def shared_numbers() -> Iterator[None]:
    global _counter
    kept, _counter = _counter, _shared
    try:
        yield
    finally:
        _counter = kept


# The exam organiser's example file (shared/examples), kept in the repository so the suite runs anywhere;
# tests/test_fixtures.py checks the copy still matches shared/ where shared/ is present.
EXAMPLE_CSV = Path(__file__).resolve().parent / "fixtures" / "inscricoes-notas-latin1.csv"

ROLE_USERS = {
    "clerk": "Secretaria",
    "legal": "Jurídico",
    "commission": "Comissão",
    "manager": "Gestão",
    "auditor": "Auditoria",
}
PASSWORD = "senha-de-teste-123"


def make_user(username: str, role: str | None = None, **extra) -> User:
    user = User.objects.create_user(
        username=username, password=PASSWORD, first_name=username.title(), **extra
    )
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


CAST = (*ROLE_USERS, "outsider")


def make_cast() -> dict[str, User]:
    """The fixed cast: one user per role plus an outsider with no role, built only when missing (the test
    session builds it once, a transactional test's flush removes it); and the authority who signs the
    procedure's acts (``make_procedure_authority``), without whom no procedure can be opened."""
    users = {user.username: user for user in User.objects.filter(username__in=CAST)}
    if len(users) < len(CAST):
        users = {key: make_user(key, ROLE_USERS.get(key)) for key in CAST if key not in users} | users
    make_procedure_authority()
    return {key: users[key] for key in CAST}


PROCEDURE_AUTHORITY = {
    "name": "Paula Ribeiro Matos",
    "office": "Presidente da Câmara Municipal",
    "competence": "Lei Orgânica do Município, art. 35",
    "valid_from": datetime.date(2020, 1, 1),
}
PROCEDURE_KINDS = (
    Signatory.Kind.PROCEDURE,
    Signatory.Kind.PROCEDURE_APPEAL,
    Signatory.Kind.PROCEDURE_EFFECTS,
)


def make_signatory(
    kind: str,
    name: str,
    office: str,
    *,
    competence: str = "",
    delegated: bool = False,
    valid_from: datetime.date = datetime.date(2020, 1, 1),
) -> Authority:
    """``name`` in ``office`` (recorded when missing) assigned to sign the acts of ``kind``."""
    authority, _ = Authority.objects.get_or_create(
        name=name,
        office=office,
        defaults={"competence": competence, "delegated": delegated, "valid_from": valid_from},
    )
    Signatory.objects.update_or_create(kind=kind, defaults={"authority": authority})
    return authority


def make_procedure_authority() -> Authority:
    """The authority every test's procedure acts are signed by (instauração, decisions, appeal, effects),
    assigned when missing; the other kinds of act stay unassigned (their forms ask who signs)."""
    authority = Authority.objects.filter(name=PROCEDURE_AUTHORITY["name"]).first()
    if authority is None:
        authority = Authority.objects.create(**PROCEDURE_AUTHORITY)
    for kind in PROCEDURE_KINDS:
        if not Signatory.objects.filter(kind=kind).exists():
            Signatory.objects.create(kind=kind, authority=authority)
    return authority


def policy(slug: str = "santa-maria") -> Policy:
    return Policy.objects.get(slug=slug)


def _split_law(values: dict) -> tuple[dict, dict]:
    """``values`` as (the policy's fields, its procedure law's fields: ``declarations.ProcedureLaw``)."""
    from declarations.models import ProcedureLaw

    law_fields = {field.name for field in ProcedureLaw._meta.concrete_fields} - {"id", "policy"}
    law = {name: value for name, value in values.items() if name in law_fields}
    return {name: value for name, value in values.items() if name not in law}, law


def set_policy(target: Policy | str = "santa-maria", **values) -> Policy:
    """A test's setting of a policy version, straight in the database (no service, no history), as
    ``Policy.objects.filter(...).update(...)`` did: the procedure's and the commission's law goes to the
    version's row of it, the rest to the policy. Returns the policy read afresh."""
    from declarations.models import ProcedureLaw

    pk = target.pk if isinstance(target, Policy) else Policy.objects.get(slug=target).pk
    fields, law = _split_law(values)
    if fields:
        Policy.objects.filter(pk=pk).update(**fields)
    if law:
        ProcedureLaw.objects.filter(policy_id=pk).update(**law)
    return Policy.objects.get(pk=pk)


def make_policy(by: User | None = None, **overrides) -> Policy:
    """A new policy made by the service (with its procedure law), a copy of Santa Maria's with ``overrides``:
    the law's fields among them go to its row."""
    from contests import services

    base = policy()
    data = {
        field.name: getattr(base, field.name)
        for field in Policy._meta.concrete_fields
        if field.name not in ("id", "previous_version")
    }
    n = next(_counter)
    data.update(slug=f"lei-{n}", name=f"Lei de teste {n}")
    fields, law = _split_law(overrides)
    data.update(fields)
    return services.policy_create(by=by, data=data, parts={"procedure_law": law})


def make_contest(**overrides) -> Contest:
    """A draft contest; given a later status (or a homologation date), its edital's publication is recorded
    on the edital's date, as the lifecycle's services would have done."""
    n = next(_counter)
    data = {
        "slug": f"concurso-{n}",
        "number": str(n),
        "year": 2026,
        "title": f"Concurso de teste {n}",
        "policy": overrides.pop("policy", None) or policy(),
        "edital_date": datetime.date(2026, 3, 2),
        "registration_start": datetime.date(2026, 3, 9),
        "registration_end": datetime.date(2026, 4, 8),
    }
    data.update(overrides)
    beyond_draft = data.get("status", Contest.Status.DRAFT) not in (
        Contest.Status.DRAFT,
        Contest.Status.CANCELLED,
    )
    if (beyond_draft or data.get("homologation_date")) and "edital_published_on" not in data:
        data["edital_published_on"] = data["edital_date"]
    contest = Contest(**data)
    contest.full_clean()
    contest.save()
    return contest


def final_result(contest: Contest, on: datetime.date = datetime.date(2026, 5, 4)) -> Contest:
    """Record that ``contest``'s final list came out on ``on``, as publishing a final run does (the
    homologation is dated from it: ``lifecycle.homologation_date_refusal``)."""
    Contest.objects.filter(pk=contest.pk).update(
        final_result_published_on=on
    )  # no history row: tests count them
    contest.final_result_published_on = on
    return contest


def make_position(contest: Contest | None = None, vacancies: int | None = 5, **overrides) -> Position:
    contest = contest or make_contest()
    n = next(_counter)
    data = {"code": f"C{n}", "title": f"Cargo {n}"}
    data.update(overrides)
    position = Position.objects.create(contest=contest, **data)
    if vacancies is not None:
        VacancyOpening.objects.create(
            position=position, kind=VacancyOpening.Kind.EDITAL, count=vacancies, date=contest.edital_date
        )
    return position


# Candidates ------------------------------------------------------------------------------------------


def make_cpf(n: int | None = None) -> str:
    """A valid CPF (check digits computed) from a counter: deterministic, never a real person's on purpose."""
    from candidates.validators import cpf_with_check_digits

    n = next(_counter) if n is None else n
    return cpf_with_check_digits(f"{(n * 7919) % 10**9:09d}")


def birth_date_for(n: int) -> datetime.date:
    """A real birth date whatever the counter reached in this process (a CI worker makes over 13,000
    candidates: 1990 plus n days went past today, which the registration form refuses): one day younger per
    candidate, never 60 in 2026 (the elderly tie-break, Estatuto do Idoso art. 27, stays out of the tests
    that do not ask for it), starting over after 21,000."""
    return datetime.date(1968, 1, 1) + datetime.timedelta(days=n % 21_000)


def make_candidate(**overrides):
    from candidates.models import Candidate

    n = next(_counter)
    data = {
        "full_name": f"Candidata {n}",
        "cpf": make_cpf(n),
        "birth_date": birth_date_for(n),
    }
    data.update(overrides)
    candidate = Candidate(**data)
    candidate.full_clean()
    candidate.save()
    return candidate


def make_registration(
    position: Position | None = None, candidate=None, racial_category: str | None = None, **overrides
):
    """A registration; ``racial_category`` ("parda", "preta", ... or "" for "negra") adds the self-declaration."""
    from candidates.models import Registration, SelfDeclaration

    position = position or make_position()
    candidate = candidate or make_candidate()
    n = next(_counter)
    data = {
        "contest": position.contest,
        "position": position,
        "candidate": candidate,
        "number": str(10000 + n),
    }
    data["racial_reserve"] = racial_category is not None
    data.update(overrides)
    registration = Registration.objects.create(**data)
    if racial_category is not None:
        SelfDeclaration.objects.create(
            registration=registration, category=racial_category, declared_on=registration.registered_on
        )
    return registration


def make_phase(contest: Contest | None = None, **overrides):
    from decimal import Decimal

    from candidates.models import Phase

    contest = contest or make_contest()
    order = overrides.pop("order", None) or contest.phases.count() + 1
    data = {"name": f"Prova {order}", "order": order, "max_score": Decimal(100)}
    data.update(overrides)
    return Phase.objects.create(contest=contest, **data)


def make_example_contest(**overrides) -> Contest:
    """The shape of the demo contest of ``shared/examples``: Santa Maria's policy, ALEG 2, TLEG 7, ANSI 13."""
    contest = make_contest(**overrides)
    for code, title, vacancies in (
        ("ALEG", "Assistente Legislativo", 2),
        ("TLEG", "Técnico Legislativo", 7),
        ("ANSI", "Analista de Sistemas", 13),
    ):
        make_position(contest, vacancies=vacancies, code=code, title=title)
    return contest


# Results and nominations -----------------------------------------------------------------------------

# RULES §4 worked example: general list A, N1, B, C, D, E, N2, N3; racial list N1, N2, N3.
WORKED_EXAMPLE = (
    ("A", None),
    ("N1", "parda"),
    ("B", None),
    ("C", None),
    ("D", None),
    ("E", None),
    ("N2", "preta"),
    ("N3", "parda"),
)


def make_classified_position(
    contest: Contest | None = None, vacancies: int = 5, people=WORKED_EXAMPLE, **overrides
):
    """A position whose registrations (inscription number, racial category or None) come in classification
    order: final scores 90, 89, 88, … (no ties)."""
    from decimal import Decimal

    position = make_position(contest, vacancies=vacancies, **overrides)
    for i, (number, category) in enumerate(people):
        make_registration(position, racial_category=category, number=number, final_score=Decimal(90 - i))
    return position


def homologate(contest: Contest, date: datetime.date = datetime.date(2026, 6, 1)) -> Contest:
    contest.edital_published_on = contest.edital_published_on or contest.edital_date
    contest.homologation_date = date
    contest.homologation_act = "Decreto 100/2026"
    contest.status = Contest.Status.HOMOLOGATED
    contest.save()
    return contest


def publish_final(contest: Contest, by: User, position: Position | None = None):
    """Compute and publish the final run (through the services), and homologate the contest."""
    from candidates.services.results import result_run_compute, result_run_publish

    run = result_run_compute(contest=contest, by=by, position=position)
    run = result_run_publish(run=run, kind="final", by=by)
    if not contest.homologation_date:
        homologate(contest)
    return run


def make_world(cast: dict[str, User]) -> dict:
    """One record of each kind the staff screens address, for tests that visit every screen: a contest
    with a position, a registration, a published final run, an active nomination and a withdrawn one
    (with its signed statement), a holiday, a phase without scores. The caller points ``MEDIA_ROOT`` at a temporary directory."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from candidates.services.nominations import nomination_withdraw, nominations_call
    from contests.models import Holiday

    contest = make_contest()
    position = make_classified_position(contest)
    run = publish_final(contest, cast["manager"])
    act_date = datetime.date(2026, 6, 10)
    called = nominations_call(
        position=position, count=2, act_number="Portaria 10/2026", act_date=act_date, by=cast["clerk"]
    )
    statement = SimpleUploadedFile("termo.pdf", b"%PDF-1.4 termo", content_type="application/pdf")
    withdrawn = nomination_withdraw(
        nomination=called[1], statement_file=statement, by=cast["clerk"], date=act_date
    )
    holiday = Holiday.objects.create(date=datetime.date(2026, 11, 20), name="Consciência Negra")
    phase = make_phase(contest, name="Prova objetiva")
    return {
        "phase": phase,
        "contest": contest,
        "position": position,
        "opening": position.openings.get(),
        "registration": called[0].registration,
        "run": run,
        "nomination": called[0],
        "withdrawn": withdrawn,
        "holiday": holiday,
        "authority": make_procedure_authority(),
        "policy": contest.policy,
    }


def make_job(contest: Contest, by: User | None, **overrides):
    """A finished background job: by default a list's PDF generated for ``by`` (the file kept)."""
    from django.utils import timezone

    from contests.models import Job

    now = timezone.now()
    data = {
        "kind": Job.Kind.RESULT_LIST_PDF,
        "contest": contest,
        "title": "PDF das listas de classificação",
        "requested_by": by,
        "permission": "candidates.view_resultrun",
        "status": Job.Status.DONE,
        "message": "Concluído.",
        "output": b"%PDF-1.4 lista",
        "output_name": "lista-minuta.pdf",
        "started_at": now,
        "finished_at": now,
    }
    data.update(overrides)
    return Job.objects.create(**data)


# Procedures (declarations) ---------------------------------------------------------------------------


def make_procedure_world(cast: dict[str, User], registration) -> dict:
    """A procedure on ``registration`` (which has a self-declaration) notified in person, with an act of
    evidence carrying a PDF and a private link: what the procedure's screens and the candidate's page
    address. The caller points the "procedures" storage at a temporary directory."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import timezone

    from declarations import links
    from declarations.procedure import services

    legal = cast["legal"]
    today = timezone.localdate()
    procedure = services.procedure_open(
        registration=registration, origin="ex_officio", facts="Indícios.", by=legal, today=today
    )
    notice = services.notice_send(procedure=procedure, by=legal, today=today, means="in_person")
    evidence = services.act_record(
        procedure=procedure,
        kind="evidence",
        by=legal,
        today=today,
        text="Prova.",
        uploads=[SimpleUploadedFile("prova.pdf", b"%PDF-1.4 prova", content_type="application/pdf")],
    )
    link, token = links.link_issue(
        procedure=procedure, holder="candidate", name="Candidata", by=legal, now=timezone.now()
    )
    filed = services.candidate_file(link=link, kind="evidence", text="Prova.", uploads=(), now=timezone.now())
    return {
        "procedure": procedure,
        "notice": notice,
        "attachment": evidence.attachments.get(),
        "link": link,
        "token": token,
        "receipt": filed.receipt,
    }
