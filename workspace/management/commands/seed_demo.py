"""Demo data for a first run (``make demo``): idempotent, so running it again changes nothing and says so.

Creates what is missing and never touches what exists: the organisation (a fictitious Câmara Municipal de
Santa Maria/RS), a few municipal holidays, two contests (``demo-santa-maria``, matching
``examples/inscricoes-notas-latin1.csv``, and ``demo-angra``) and, only when ``DEBUG`` is on, one user per
role with a known password, and then the Santa Maria contest's heteroidentification commission (drawn)
with a session some days ahead and a procedure opened on an Angra registration (``_demo_hetero``). Every
business write goes through the services with the ``admin`` user as author, so history says who created the
demo.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from candidates.services import registrations as candidate_services
from contests import services
from contests.documents import services as document_services
from contests.documents.models import EditalText
from contests.models import Contest, Holiday, Organization, Policy, Position
from workspace.management.commands._demo_hetero import seed_heteroidentification, seed_procedure
from workspace.management.commands._demo_portal import seed_portal

D = datetime.date
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

ORGANIZATION = {
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

DEMO_ACT = "Exemplo de demonstração: confira a lei municipal"
HOLIDAYS: list[dict[str, Any]] = [
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

CONTESTS: list[dict[str, Any]] = [
    {
        "policy": "santa-maria",
        "data": {
            "slug": "demo-santa-maria",
            "number": "1",
            "year": 2026,
            "title": "Cargos efetivos da Câmara Municipal de Santa Maria (demonstração)",
            "edital_date": D(2026, 2, 2),
            "registration_start": D(2026, 2, 9),
            "registration_end": D(2026, 3, 10),
            "pcd_percent": Decimal(5),
            "notes": "Dados fictícios. Inscrições e notas: examples/inscricoes-notas-latin1.csv.",
        },
        # The example file's phases: the objective exam out of 100 with a pass mark of 50 (below it the
        # discursive exam was not corrected), then the discursive exam out of 10.
        "edital": {
            "schedule": (
                "02/02/2026 – Publicação do edital\n"
                "09/02/2026 a 10/03/2026 – Inscrições e autodeclaração\n"
                "24/03/2026 – Homologação das inscrições\n"
                "12/04/2026 – Prova objetiva e discursiva\n"
                "05/05/2026 – Resultado preliminar"
            ),
            "exam_content": "Prova objetiva (100 pontos, mínimo de 50) e prova discursiva (10 pontos).",
            "signer_name": "Presidente da Câmara (demonstração)",
            "signer_office": "Presidente da Câmara Municipal",
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
        "policy": "angra-dos-reis",
        # What the public portal shows: edital, registrations, final result, nominations.
        "portal": True,
        "data": {
            "slug": "demo-angra",
            "number": "2",
            "year": 2026,
            "title": "Poder Executivo de Angra dos Reis (demonstração: a quinta vaga de cada cinco)",
            "edital_date": D(2026, 1, 12),
            "registration_start": D(2026, 1, 19),
            "registration_end": D(2026, 2, 18),
            "pcd_percent": Decimal(5),
            "notes": (
                "Dados fictícios, para comparar a lei de Angra dos Reis (art. 3º §1º) com a de Santa Maria."
            ),
        },
        "edital": {
            "schedule": (
                "12/01/2026 – Publicação do edital\n"
                "19/01/2026 a 18/02/2026 – Inscrições e autodeclaração\n"
                "15/03/2026 – Prova objetiva"
            ),
            "exam_content": "Prova objetiva de 50 questões (100 pontos, mínimo de 50).",
            "signer_name": "Prefeito Municipal (demonstração)",
            "signer_office": "Prefeito de Angra dos Reis",
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


class Command(BaseCommand):
    help = "Cria dados de demonstração (idempotente: rodar de novo não altera nada)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.created: list[str] = []
        try:
            with transaction.atomic():
                admin = self._users() if settings.DEBUG else self._no_users()
                self._organization(admin)
                self._holidays(admin)
                for spec in CONTESTS:
                    self._contest(spec, admin)
                if admin is not None:  # what Comissão and Jurídico have to do; each step skipped once done
                    self.created.extend(
                        seed_heteroidentification(
                            Contest.objects.get(slug="demo-santa-maria"), admin, password=DEMO_PASSWORD
                        )
                    )
                    self.created.extend(seed_procedure(Contest.objects.get(slug="demo-angra"), admin))
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
                "email": f"{username}@camara-santa-maria.example",
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
        services.organization_save(by=by, data=ORGANIZATION)
        self.created.append(f"organização {ORGANIZATION['name']}")

    def _holidays(self, by: User | None) -> None:
        for data in HOLIDAYS:
            if Holiday.objects.filter(date=data["date"], name=data["name"]).exists():
                continue
            services.holiday_save(by=by, data=data)
            self.created.append(f"feriado {data['date']:%d/%m} {data['name']}")

    # Contests ---------------------------------------------------------------------------------------------

    def _contest(self, spec: dict[str, Any], by: User | None) -> None:
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
                self.created.extend(seed_portal(contest, by))
