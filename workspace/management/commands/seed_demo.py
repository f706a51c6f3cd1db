"""Demo data for a first run (``make demo``): idempotent, so running it again changes nothing and says so.

One installation serves one organisation (DESIGN.md): ``--organization santa-maria`` (the default: a
fictitious Câmara Municipal de Santa Maria/RS, under Santa Maria's law) or ``--organization angra`` (a
fictitious Prefeitura de Angra dos Reis/RJ, under Angra's law) seeds that organisation, a few of its holidays
and its own contests only; a database that already holds the other organisation is refused. Every date is
counted from the day the command runs, so the demo opens on deadlines that are running, not on deadlines
that ended months ago:

- santa-maria: ``demo-santa-maria`` (in progress, registrations closed, matching
  ``examples/inscricoes-notas-latin1.csv``; the example file is imported into it) and
  ``demo-santa-maria-concluido`` (homologated today, with its result, its first nominations and a procedure);
- angra: ``demo-angra`` (homologated today, with its result, its first nominations and a procedure).

Only when ``DEBUG`` is on, one user per role with a known password, then a heteroidentification commission
(drawn) with a session some days ahead, and a procedure on the concluded contest (``_demo_hetero``). Every
business write goes through the services with the ``admin`` user as author, so history says who created the
demo. The links in the e-mails and PDFs follow ``PUBLIC_BASE_URL``, which with DEBUG follows ``PORT``
(``make run PORT=8001`` seeds with the same port it serves on).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from candidates.services import registrations as candidate_services
from contests import services
from contests.documents import services as document_services
from contests.documents.models import EditalText
from contests.models import Authority, Contest, Holiday, Organization, Policy, Position, Signatory
from declarations.hetero.documents import Signer
from monitoring.acts import Written, law_report_publish
from monitoring.indicators import Scope
from monitoring.models import FiledReport, LawReport
from workspace.management.commands._demo_hetero import (
    seed_heteroidentification,
    seed_heteroidentification_held,
    seed_procedure,
    seed_procedure_concluded,
)
from workspace.management.commands._demo_portal import seed_portal

D = datetime.date
DAY = datetime.timedelta(days=1)
DEMO_PASSWORD = "cotas-demo"  # printed on screen: acceptable only with DEBUG on

USERS = [
    # username, group (None: superuser), first name, last name
    ("admin", None, "Administração", "do sistema"),
    ("secretaria", "Secretaria", "Sílvia", "Secretaria"),
    ("juridico", "Jurídico", "Júlio", "Jurídico"),
    ("comissao", "Comissão", "Conceição", "Comissão"),
    ("gestao", "Gestão", "Gabriela", "Gestão"),
    ("auditoria", "Auditoria", "Augusto", "Auditoria"),
]

DEMO_ACT = "Exemplo de demonstração: confira a lei municipal"
# The demo's emblems: a plain shield with the municipality's initials, marked "demonstração" (never a real coat
# of arms), printed on the header of every document.
EMBLEMS = Path(settings.BASE_DIR) / "static" / "demo"


def _dmy(day: datetime.date) -> str:
    return f"{day:%d/%m/%Y}"


def _schedule(*steps: tuple[datetime.date | tuple[datetime.date, datetime.date], str]) -> str:
    """The edital's schedule, one line per step: ``"dd/mm/aaaa – what"`` or ``"dd/mm/aaaa a dd/mm/aaaa – what"``."""
    lines = []
    for when, what in steps:
        dates = f"{_dmy(when[0])} a {_dmy(when[1])}" if isinstance(when, tuple) else _dmy(when)
        lines.append(f"{dates} – {what}")
    return "\n".join(lines)


# Santa Maria (the default) -------------------------------------------------------------------------------

SANTA_MARIA = {
    "name": "Câmara Municipal de Santa Maria",
    "short_name": "Câmara de Santa Maria",
    "municipality": "Santa Maria",
    "state": "RS",
    "address": "Rua da Demonstração, 100, Centro, Santa Maria/RS (endereço fictício)",
    "phone": "(55) 3000-0000",
    "email": "concursos@camara-santa-maria.example",
    "website": "https://camara-santa-maria.example/",
    "dpo_name": "Encarregada de Dados (fictícia)",
    "dpo_email": "encarregado.lgpd@camara-santa-maria.example",
    "dpo_phone": "(55) 3000-0001",
}
SANTA_MARIA_HOLIDAYS: list[dict[str, Any]] = [
    {"date": D(2026, 5, 17), "name": "Aniversário de Santa Maria", "recurring": True, "act": DEMO_ACT},
    {
        "date": D(2026, 12, 8),
        "name": "Nossa Senhora da Conceição (padroeira)",
        "recurring": True,
        "act": DEMO_ACT,
    },
    {
        "date": D(2026, 2, 18),
        "name": "Quarta-feira de Cinzas",
        "kind": Holiday.Kind.CLOSURE,
        "period": Holiday.Period.MORNING,
        "recurring": False,
        "act": "Portaria de ponto facultativo (demonstração)",
    },
]
# What the nomination letter tells a nominee to bring and where to go (fictitious, as the addresses above).
OFFICE_REQUIREMENTS = "\n".join(
    (
        "Carteira de identidade e CPF",
        "Título de eleitor com o comprovante de quitação eleitoral",
        "Certificado de reservista, para os homens",
        "Comprovante da escolaridade e dos demais requisitos do cargo exigidos no edital",
        "Certidões negativas criminais da Justiça Estadual e da Justiça Federal",
        "Declaração de bens e de não acumulação ilícita de cargos públicos",
        "Atestado de saúde ocupacional do exame médico admissional (inspeção médica oficial)",
        "Uma foto 3x4 recente e o número de conta-salário",
    )
)
SANTA_MARIA_OFFICE = {
    "office_place": "Setor de Recursos Humanos da Câmara Municipal de Santa Maria\n"
    "Rua da Demonstração, 100, 2º andar, Centro, Santa Maria/RS (endereço fictício)\n"
    "De segunda a sexta-feira, das 13h às 18h; telefone (55) 3000-0002; rh@camara-santa-maria.example",
    "office_requirements": OFFICE_REQUIREMENTS,
}
# The authorities (``contests.Authority``) and the kinds of act each signs. Names are fictional. In office
# from the first of January of the year before the seed runs: every demo act (the oldest edital is 200 days
# old) falls within the term, so its signature block carries the act of competence.
ALL_KINDS = tuple(Signatory.Kind.values)
SANTA_MARIA_PRESIDENT = {
    "name": "Ricardo Almeida Prates",
    "office": "Presidente da Câmara Municipal de Vereadores de Santa Maria",
    "competence": "Lei Orgânica do Município de Santa Maria",
}
# Santa Maria's law names no authority for the procedure nor a superior one for its appeal, and the Câmara's
# President is its highest authority: he signs everything, the decision on appeal included (our reading,
# pending the Câmara's Regimento Interno, which may give the appeal to the Mesa Diretora).
SANTA_MARIA_AUTHORITIES = ((SANTA_MARIA_PRESIDENT, ALL_KINDS),)
SANTA_MARIA_SIGNER = {
    "signer_name": SANTA_MARIA_PRESIDENT["name"],
    "signer_office": SANTA_MARIA_PRESIDENT["office"],
}
ANGRA_MAYOR = {
    "name": "Fernando Costa Jordão",
    "office": "Prefeito Municipal de Angra dos Reis",
    "competence": "Lei Orgânica do Município de Angra dos Reis",
}
# The Mayor delegates the procedure (opening, notices, decisions) to the Secretary of Administration and
# decides the appeals himself, as the superior authority (Lei 9.784 arts. 12 and 56 §1º).
ANGRA_SECRETARY = {
    "name": "Luciana Mendes Barreto",
    "office": "Secretária Municipal de Administração",
    # Printed "Por delegação de competência: Decreto nº 100/2025 (demonstração)" (Lei 9.784 art. 14 §3º).
    "competence": "Decreto nº 100/2025 (demonstração)",
    "delegated": True,
}
ANGRA_AUTHORITIES = (
    (ANGRA_MAYOR, tuple(kind for kind in ALL_KINDS if kind != Signatory.Kind.PROCEDURE)),
    (ANGRA_SECRETARY, (Signatory.Kind.PROCEDURE,)),
)


def santa_maria_contests(today: datetime.date) -> list[dict[str, Any]]:
    edital, exam = today - 75 * DAY, today - 20 * DAY
    registration = (edital + 7 * DAY, edital + 36 * DAY)
    concluded = today - 200 * DAY
    concluded_registration = (concluded + 7 * DAY, concluded + 37 * DAY)
    concluded_exam = concluded + 60 * DAY
    return [
        {
            "policy": "santa-maria",
            "data": {
                "slug": "demo-santa-maria",
                "number": "2",
                "year": edital.year,
                "title": "Cargos efetivos da Câmara Municipal de Santa Maria (demonstração)",
                "edital_date": edital,
                "registration_start": registration[0],
                "registration_end": registration[1],
                "pcd_percent": Decimal(5),
                "notes": "Dados fictícios. Inscrições e notas: examples/inscricoes-notas-latin1.csv.",
            },
            # The example file's phases: the objective exam out of 100 with a pass mark of 50 (below it the
            # discursive exam was not corrected), then the discursive exam out of 10.
            "edital": {
                "schedule": _schedule(
                    (edital, "Publicação do edital"),
                    (registration, "Inscrições e autodeclaração"),
                    (registration[1] + 14 * DAY, "Homologação das inscrições"),
                    (exam, "Prova objetiva e discursiva"),
                    (today + 10 * DAY, "Resultado preliminar"),
                ),
                "exam_content": "Prova objetiva (100 pontos, mínimo de 50) e prova discursiva (10 pontos).",
                **SANTA_MARIA_SIGNER,
            },
            "phases": [
                {"name": "Nota Objetiva", "max_score": Decimal(100), "pass_mark": Decimal(50)},
                {"name": "Nota Discursiva", "max_score": Decimal(10)},
            ],
            "positions": [
                {
                    "code": "ALEG",
                    "title": "Assistente Legislativo",
                    "requirements": "Ensino médio completo.",
                    "salary": Decimal("3850.00"),
                    "workload_hours": 40,
                    "vacancies": 2,
                },
                {
                    "code": "TLEG",
                    "title": "Técnico Legislativo",
                    "requirements": "Ensino superior completo em qualquer área.",
                    "salary": Decimal("6240.00"),
                    "workload_hours": 35,
                    "vacancies": 7,
                },
                {
                    "code": "ANSI",
                    "title": "Analista de Sistemas",
                    "requirements": (
                        "Ensino superior em Ciência da Computação, Sistemas de Informação ou área afim."
                    ),
                    "salary": Decimal("7910.00"),
                    "workload_hours": 35,
                    "vacancies": 13,
                },
            ],
        },
        {
            "policy": "santa-maria",
            # What the public portal shows: edital, registrations, final result, nominations.
            "portal": {
                "gazette": "Diário Oficial do Legislativo nº 412",
                "homologation": "Ato da Mesa 7 (demonstração)",
                "nomination": "Portaria 31 (demonstração)",
                "nomination_gazette": "Diário Oficial do Legislativo nº 431",
            },
            "data": {
                "slug": "demo-santa-maria-concluido",
                "number": "1",
                "year": concluded.year,
                "title": "Cargos de apoio da Câmara Municipal de Santa Maria (demonstração)",
                "edital_date": concluded,
                "registration_start": concluded_registration[0],
                "registration_end": concluded_registration[1],
                "pcd_percent": Decimal(5),
                "notes": "Dados fictícios: um concurso concluído, com resultado, nomeações e um processo.",
                **SANTA_MARIA_OFFICE,
            },
            "edital": {
                "schedule": _schedule(
                    (concluded, "Publicação do edital"),
                    (concluded_registration, "Inscrições e autodeclaração"),
                    (concluded_exam, "Prova objetiva"),
                ),
                "exam_content": "Prova objetiva de 50 questões (100 pontos, mínimo de 50).",
                **SANTA_MARIA_SIGNER,
            },
            "phases": [{"name": "Prova Objetiva", "max_score": Decimal(100), "pass_mark": Decimal(50)}],
            "positions": [
                {
                    "code": "AADM",
                    "title": "Auxiliar Administrativo",
                    "requirements": "Ensino médio completo.",
                    "salary": Decimal("2980.00"),
                    "workload_hours": 40,
                    "vacancies": 10,
                },
                {
                    "code": "MOT",
                    "title": "Motorista",
                    "requirements": "Ensino fundamental completo; carteira de habilitação categoria D.",
                    "salary": Decimal("3036.00"),
                    "workload_hours": 40,
                    "vacancies": 3,
                },
            ],
        },
    ]


# Angra dos Reis ------------------------------------------------------------------------------------------

ANGRA = {
    "name": "Prefeitura Municipal de Angra dos Reis",
    "short_name": "Prefeitura de Angra dos Reis",
    "municipality": "Angra dos Reis",
    "state": "RJ",
    "address": "Praça da Demonstração, 1, Centro, Angra dos Reis/RJ (endereço fictício)",
    "phone": "(24) 3000-0000",
    "email": "concursos@prefeitura-angra.example",
    "website": "https://prefeitura-angra.example/",
    "dpo_name": "Encarregado de Dados (fictício)",
    "dpo_email": "encarregado.lgpd@prefeitura-angra.example",
    "dpo_phone": "(24) 3000-0001",
}
ANGRA_HOLIDAYS: list[dict[str, Any]] = [
    {
        "date": D(2026, 1, 6),
        "name": "Fundação de Angra dos Reis (Dia de Reis)",
        "recurring": True,
        "act": DEMO_ACT,
    },
    {"date": D(2026, 12, 8), "name": "Nossa Senhora da Conceição", "recurring": True, "act": DEMO_ACT},
]


def angra_contests(today: datetime.date) -> list[dict[str, Any]]:
    edital = today - 200 * DAY
    registration = (edital + 7 * DAY, edital + 37 * DAY)
    exam = edital + 62 * DAY
    return [
        {
            "policy": "angra-dos-reis",
            "portal": {
                "gazette": "Diário Oficial do Município nº 1.234",
                "homologation": "Decreto 50 (demonstração)",
                "nomination": "Portaria 101 (demonstração)",
                "nomination_gazette": "Diário Oficial do Município nº 1.301",
            },
            "data": {
                "slug": "demo-angra",
                "number": "1",
                "year": edital.year,
                "title": "Poder Executivo de Angra dos Reis (demonstração: a quinta vaga de cada cinco)",
                "edital_date": edital,
                "registration_start": registration[0],
                "registration_end": registration[1],
                "pcd_percent": Decimal(5),
                "notes": "Dados fictícios, sob a lei de Angra dos Reis (art. 3º §1º).",
                "office_place": "Departamento de Gestão de Pessoas da Prefeitura de Angra dos Reis\n"
                "Praça da Demonstração, 1, Centro, Angra dos Reis/RJ (endereço fictício)\n"
                "De segunda a sexta-feira, das 9h às 16h; telefone (24) 3000-0002; pessoas@prefeitura-angra.example",
                "office_requirements": OFFICE_REQUIREMENTS,
            },
            "edital": {
                "schedule": _schedule(
                    (edital, "Publicação do edital"),
                    (registration, "Inscrições e autodeclaração"),
                    (exam, "Prova objetiva"),
                ),
                "exam_content": "Prova objetiva de 50 questões (100 pontos, mínimo de 50).",
                "signer_name": ANGRA_MAYOR["name"],
                "signer_office": ANGRA_MAYOR["office"],
            },
            "phases": [{"name": "Prova Objetiva", "max_score": Decimal(100), "pass_mark": Decimal(50)}],
            "positions": [
                {
                    "code": "AGAD",
                    "title": "Agente Administrativo",
                    "requirements": "Ensino médio completo.",
                    "salary": Decimal("2980.00"),
                    "workload_hours": 40,
                    "vacancies": 10,
                },
                {
                    "code": "ACS",
                    "title": "Agente Comunitário de Saúde",
                    "requirements": "Ensino médio completo; residir na área da comunidade em que atuar.",
                    "salary": Decimal("3036.00"),
                    "workload_hours": 40,
                    "post_kind": Position.PostKind.EMPREGO_PUBLICO,
                    "vacancies": 3,
                },
            ],
        },
    ]


@dataclass(frozen=True)
class Demo:
    """One demo organisation: its data, holidays, contests (dates from the day the seed runs), the contest
    whose commission is drawn, and the one a procedure is opened on."""

    organization: dict[str, Any]
    holidays: list[dict[str, Any]]
    contests: Any  # (today) -> list of contest specs
    commission_contest: str
    procedure_contest: str
    mail_domain: str
    signer: tuple[str, str]  # who signs the acts the demo publishes (name, office): the head of the body
    emblem: str  # the file under static/demo/ the organisation's documents carry as its coat of arms
    authorities: tuple[tuple[dict[str, Any], tuple[str, ...]], ...]  # (authority, the kinds it signs)


DEMOS = {
    "santa-maria": Demo(
        SANTA_MARIA,
        SANTA_MARIA_HOLIDAYS,
        santa_maria_contests,
        commission_contest="demo-santa-maria",
        procedure_contest="demo-santa-maria-concluido",
        mail_domain="camara-santa-maria.example",
        signer=(SANTA_MARIA_SIGNER["signer_name"], SANTA_MARIA_SIGNER["signer_office"]),
        emblem="brasao-demo-santa-maria.png",
        authorities=SANTA_MARIA_AUTHORITIES,
    ),
    "angra": Demo(
        ANGRA,
        ANGRA_HOLIDAYS,
        angra_contests,
        commission_contest="demo-angra",
        procedure_contest="demo-angra",
        mail_domain="prefeitura-angra.example",
        signer=(ANGRA_MAYOR["name"], ANGRA_MAYOR["office"]),
        emblem="brasao-demo-angra.png",
        authorities=ANGRA_AUTHORITIES,
    ),
}


class Command(BaseCommand):
    help = "Cria dados de demonstração (idempotente: rodar de novo não altera nada)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--organization",
            choices=sorted(DEMOS),
            default="santa-maria",
            help="A organização da demonstração, com os seus concursos e a sua lei (padrão: santa-maria).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.created: list[str] = []
        demo = DEMOS[options["organization"]]
        self.demo = demo
        today = timezone.localdate()
        current = Organization.current()
        if current is not None and current.name != demo.organization["name"]:
            raise CommandError(
                f"Esta instalação já é da organização “{current.name}”: uma instalação serve uma só "
                f"organização. Para a demonstração de {demo.organization['name']}, use um banco de dados novo."
            )
        try:
            with transaction.atomic():
                admin = self._users() if settings.DEBUG else self._no_users()
                self._organization(admin)
                self._authorities(admin, today)
                self._holidays(admin)
                for spec in demo.contests(today):
                    self._contest(spec, admin, today)
                if (
                    admin is not None
                ):  # what Comissão and Jurídico did and have to do; each step skipped once done
                    procedure_contest = Contest.objects.get(slug=demo.procedure_contest)
                    signer = Signer(*demo.signer)
                    self.created.extend(
                        seed_heteroidentification_held(
                            procedure_contest, admin, password=DEMO_PASSWORD, signer=signer
                        )
                    )
                    self.created.extend(
                        seed_heteroidentification(
                            Contest.objects.get(slug=demo.commission_contest),
                            admin,
                            password=DEMO_PASSWORD,
                            signer=signer,
                        )
                    )
                    self.created.extend(seed_procedure(procedure_contest, admin))
                    self.created.extend(seed_procedure_concluded(procedure_contest, admin))
                    self.created.extend(self._law_report(procedure_contest, admin, today))
        except ValidationError as error:
            raise CommandError("Dados de demonstração recusados: " + "; ".join(error.messages)) from error

        if self.created:
            for line in self.created:
                self.stdout.write(f"  + {line}")
            done = f"Dados de demonstração criados ({len(self.created)} itens)."
            self.stdout.write(self.style.SUCCESS(done))
        else:
            self.stdout.write("Nada a fazer: os dados de demonstração já existem e nada foi alterado.")
        if settings.DEBUG:
            self._print_credentials()

    # Users ------------------------------------------------------------------------------------------------

    def _users(self) -> User:
        for username, group, first_name, last_name in USERS:
            if User.objects.filter(username=username).exists():
                continue
            extra = {
                "first_name": first_name,
                "last_name": last_name,
                "email": f"{username}@{self.demo.mail_domain}",
            }
            if group is None:
                User.objects.create_superuser(username=username, password=DEMO_PASSWORD, **extra)
            else:
                user = User.objects.create_user(username=username, password=DEMO_PASSWORD, **extra)
                user.groups.add(Group.objects.get(name=group))
            self.created.append(f"usuário {username}" + (f" ({group})" if group else " (superusuário)"))
        return User.objects.get(username="admin")

    def _no_users(self) -> User | None:
        self.stdout.write(
            self.style.WARNING(
                "DEBUG desligado: os usuários de demonstração, que têm senhas conhecidas, não foram criados. "
                "Crie os usuários reais com `manage.py createsuperuser` e pela administração."
            )
        )
        admin = User.objects.filter(username="admin").first()
        if admin is None:
            self.stdout.write(
                "Sem o usuário admin, o histórico dos dados de demonstração não indicará quem os criou."
            )
        return admin

    def _print_credentials(self) -> None:
        self.stdout.write("")
        self.stdout.write(
            "Usuários de demonstração (exibidos só com DEBUG ligado; a senha vale se não foi alterada):"
        )
        for username, group, *_ in USERS:
            if User.objects.filter(username=username).exists():
                role = group or "superusuário"
                self.stdout.write(f"  {username:<11} senha {DEMO_PASSWORD}  ({role})")

    # Organisation and holidays ------------------------------------------------------------------------------

    def _organization(self, by: User | None) -> None:
        if Organization.current() is not None:
            return
        services.organization_save(by=by, data={**self.demo.organization, "logo": self._emblem()})
        self.created.append(f"organização {self.demo.organization['name']}, com o seu brasão")

    def _authorities(self, by: User | None, today: datetime.date) -> None:
        """The authorities and who signs each kind of act (DESIGN.md point 11): the publication forms come
        prefilled with them, the procedure's acts are signed by them. An authority recorded already (a
        second run) is left as it is, with its assignments."""
        since = datetime.date(today.year - 1, 1, 1)
        assignments: dict[str, Authority | None] = {}
        for data, kinds in self.demo.authorities:
            if Authority.objects.filter(name=data["name"], office=data["office"]).exists():
                continue
            authority = services.authority_save(by=by, data={**data, "valid_from": since})
            assignments.update(dict.fromkeys(kinds, authority))
            self.created.append(f"autoridade {authority}")
        if assignments:
            services.signatories_save(by=by, data=assignments, today=today)

    def _emblem(self) -> str:
        """The demo emblem's name in the media storage, copied there once (a second demo database reuses the
        same file instead of piling up copies)."""
        name = f"organization/{self.demo.emblem}"
        if not default_storage.exists(name):
            with (EMBLEMS / self.demo.emblem).open("rb") as handle:
                name = default_storage.save(name, File(handle))
        return name

    def _holidays(self, by: User | None) -> None:
        for data in self.demo.holidays:
            if Holiday.objects.filter(date=data["date"], name=data["name"]).exists():
                continue
            services.holiday_save(by=by, data=data)
            self.created.append(f"feriado {data['date']:%d/%m} {data['name']}")

    # Contests ---------------------------------------------------------------------------------------------

    def _contest(self, spec: dict[str, Any], by: User | None, today: datetime.date) -> None:
        data = spec["data"]
        contest = Contest.objects.filter(slug=data["slug"]).first()
        new_contest = contest is None
        if contest is None:
            policy = Policy.objects.get(slug=spec["policy"])
            contest = services.contest_create(by=by, data={**data, "policy": policy})
            self.created.append(f"concurso {contest.slug} ({policy})")
        for position_spec in spec["positions"]:
            if contest.positions.filter(code=position_spec["code"]).exists():
                continue
            fields = {key: value for key, value in position_spec.items() if key != "vacancies"}
            position = services.position_create(
                contest=contest, by=by, data=fields, edital_vacancies=position_spec["vacancies"]
            )
            reservation = position.reservation()
            self.created.append(
                f"cargo {contest.slug}/{position.code}: {position_spec['vacancies']} vagas; reserva: "
                f"{reservation.racial} a {contest.policy.group_label}, {reservation.pcd} a PcD"
            )
        if spec.get("edital") and not EditalText.objects.filter(contest=contest).exists():
            document_services.edital_text_save(contest=contest, by=by, data=spec["edital"])
            self.created.append(f"texto do edital {contest.slug}")
        for phase_spec in spec.get("phases", []):
            if contest.phases.filter(name=phase_spec["name"]).exists():
                continue
            candidate_services.phase_create(contest=contest, by=by, data=phase_spec)
            self.created.append(f"fase {contest.slug}/{phase_spec['name']}")
        # Only a contest created now is moved on: an existing one keeps whatever status it reached.
        if new_contest:
            services.contest_set_status(contest=contest, status=Contest.Status.IN_PROGRESS, by=by)
            if spec.get("portal"):
                self.created.extend(
                    seed_portal(contest, by, today=today, acts=spec["portal"], signer=self.demo.signer)
                )

    def _law_report(self, contest: Contest, admin: Any, today: datetime.date) -> list[str]:
        """The law's monitoring report (issue 23) of the year so far, published once, so that the portal's open
        data and the documents of every kind have one."""
        if LawReport.objects.filter(policy=contest.policy).exists():
            return []
        scope = Scope(contest.policy, today.replace(month=1, day=1), today)
        name, office = self.demo.signer
        written = Written(
            kind=FiledReport.Kind.PERIODIC,
            number=1,
            conclusions="Conclusões fictícias, para demonstração: os números deste relatório vêm dos concursos "
            "de demonstração.",
            recommendation="",
            signer_name=name,
            signer_office=office,
        )
        report = law_report_publish(scope=scope, written=written, summary="", by=admin)
        return [f"relatório periódico nº 1 da lei publicado ({report.document.code})"]
