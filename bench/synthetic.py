"""Deterministic, fictitious data for the benchmarks (no real person): names, the organiser's CSV, the contest."""

import datetime
import random
import sys
from pathlib import Path

FIRST = [
    "Ana",
    "Bruno",
    "Carla",
    "Diego",
    "Elaine",
    "Fábio",
    "Gabriela",
    "Heitor",
    "Isabela",
    "João",
    "Kátia",
    "Luís",
    "Marta",
    "Nélson",
    "Olívia",
    "Paulo",
    "Quitéria",
    "Rafael",
    "Sônia",
    "Tiago",
    "Úrsula",
    "Vítor",
]
LAST = [
    "Almeida",
    "Araújo",
    "Barbosa",
    "Brum",
    "Cardoso",
    "Carvalho",
    "Conceição",
    "Ferreira",
    "Gomes",
    "Lima",
    "Moreira",
    "Nascimento",
    "Oliveira",
    "Pereira",
    "Ribeiro",
    "Rocha",
    "Santos",
    "Silva",
    "Souza",
    "Teixeira",
]


HEADER = (
    "Inscrição;Nome;Nome Social;CPF;Data de Nascimento;Cargo;Cota Negros;PcD;Nota Objetiva;Nota Discursiva"
)


def build_csv(
    path: Path,
    rows: int,
    positions: list[tuple[str, str, int]],
    *,
    seed: int,
    first_number: int,
    cpf_offset: int,
    social_names: bool = False,
) -> None:
    """Write ``rows`` registrations in the organiser's shape (Latin-1, ``;``, CRLF, decimal comma)."""
    from candidates.validators import cpf_with_check_digits, format_cpf

    rng = random.Random(seed)
    lines = [HEADER]
    for i in range(rows):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}"
        social = f"Alex {rng.choice(LAST)}" if social_names and rng.random() < 0.01 else ""
        cpf = format_cpf(cpf_with_check_digits(f"{(i * 7919 + cpf_offset) % 10**9:09d}"))
        birth = datetime.date(1960, 1, 1) + datetime.timedelta(days=rng.randrange(16000))
        position = positions[i % len(positions)][0]
        racial = "S" if rng.random() < 0.25 else "N"
        pcd = "S" if rng.random() < 0.05 else "N"
        objective = rng.randrange(1500, 10001) / 100
        if objective < 50:
            discursive = ""
        elif rng.random() < 0.02:
            discursive = "AUSENTE"
        else:
            discursive = f"{rng.randrange(0, 1001) / 100:.2f}".replace(".", ",")
        objective_text = f"{objective:.2f}".replace(".", ",")
        lines.append(
            f"{first_number + i};{name};{social};{cpf};{birth:%d/%m/%Y};{position};{racial};{pcd};"
            f"{objective_text};{discursive}"
        )
    path.write_bytes(("\r\n".join(lines) + "\r\n").encode("cp1252"))


def create_contest(
    slug: str, number: str, title: str, positions: list[tuple[str, str, int]], roles: list[str]
):
    """Migrate, then create the benchmark's contest (Santa Maria's policy) and one user per role."""
    import django

    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command

    from contests.models import Contest, Policy, Position, VacancyOpening

    call_command("migrate", verbosity=0)
    if Contest.objects.filter(slug=slug).exists():
        sys.exit(f"O concurso {slug} já existe: use um banco novo (createdb) para medir.")
    contest = Contest.objects.create(
        slug=slug,
        number=number,
        year=2026,
        title=title,
        policy=Policy.objects.get(slug="santa-maria"),
        edital_date=datetime.date(2026, 3, 2),
        registration_start=datetime.date(2026, 3, 9),
        registration_end=datetime.date(2026, 4, 8),
    )
    for code, position_title, vacancies in positions:
        position = Position.objects.create(contest=contest, code=code, title=position_title)
        VacancyOpening.objects.create(position=position, count=vacancies, date=contest.edital_date)
    users = {}
    for group in roles:
        username = "bench-" + {"Secretaria": "secretaria", "Gestão": "gestao"}[group]
        user, _ = User.objects.get_or_create(username=username, defaults={"first_name": username})
        user.groups.add(Group.objects.get(name=group))
        users[group] = user
    return contest, users
