"""``manage.py simulate FILE.json`` (or ``-`` for stdin): RULES.md §8.

Runs the engines of §2–§4 on a scenario and prints the result as JSON. A bad scenario prints a clear
Portuguese message to stderr and exits with status 2 (``CommandError`` with ``returncode=2`` when called
from code, e.g. ``call_command``). Thin: parse, call the pure simulation, print.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from candidates.engine import simulation
from candidates.engine.schedule import AllocationError, Params
from candidates.engine_params import params_from_policy
from contests.models import Policy

# The founding laws as the seed migrations record them (contests 0003, 0007, 0008), for a database that
# cannot be read (not migrated yet, or no database at all): ``simulate`` answers the same either way.
FOUNDING_POLICIES: dict[str, dict[str, Any]] = {
    "santa-maria": {
        "percent": Decimal("20"),
        "threshold": 3,
        "rounding": "half_up",
        "nomination_order": "proportional",
        "nth": 5,
        "priority": "pcd_first",
        "group_label": "negros",
        "citation_order": "art. 5º",
        "citation_rounding": "art. 1º §3º",
        "citation_threshold": "art. 1º §2º",
        "citation_carry": "art. 1º §4º",
    },
    "angra-dos-reis": {
        "percent": Decimal("20"),
        "threshold": 0,
        "rounding": "half_up",
        "nomination_order": "every_nth",
        "nth": 5,
        "priority": "racial_first",
        "group_label": "negros e índios",
        "citation_order": "art. 3º §1º",
        "citation_rounding": "art. 1º §1º",
        "citation_threshold": "",
        "citation_carry": "",
    },
}
FOUNDING_COMMON = {
    "open_competition_rule": "projected",
    "dual_rule": "choose",
    "dual_default": "racial",
    "reinstatement": "next_seat",
}


def founding_policy(slug: str) -> Policy | None:
    """An unsaved ``Policy`` with a founding law's parameters, or None for another slug."""
    fields = FOUNDING_POLICIES.get(slug)
    return None if fields is None else Policy(slug=slug, **FOUNDING_COMMON, **fields)


def resolve_policy(slug: str) -> Params:
    """A seeded policy by slug (``santa-maria``, ``angra-dos-reis``), without its contest's PcD reserve:
    the scenario's ``pcd`` key sets that. The database's row wins (a municipality may have versioned it);
    when the database cannot be read, the founding laws are known without it."""
    try:
        policy = Policy.objects.filter(slug=slug).first()
        known = sorted(Policy.objects.values_list("slug", flat=True)) if policy is None else []
    except DatabaseError:
        policy = founding_policy(slug)
        if policy is None:
            raise simulation.ScenarioError(
                f"Política desconhecida: {slug!r}; sem o banco de dados (rode `manage.py migrate`), só as "
                f"leis fundadoras são conhecidas ({', '.join(sorted(FOUNDING_POLICIES))}), ou informe a "
                "política como objeto."
            ) from None
        known = []
    if policy is None:
        names = ", ".join(known) or "nenhuma"
        raise simulation.ScenarioError(f"Política desconhecida: {slug!r} (cadastradas: {names}).")
    try:
        return params_from_policy(policy)
    except AllocationError as exc:
        raise simulation.ScenarioError(f"A política {slug!r} tem parâmetros inválidos: {exc}") from None


class Command(BaseCommand):
    # A read-only simulation: it needs no system checks (and runs while another app is half-written).
    requires_system_checks: list[str] = []
    help = (
        "Simula a reserva de vagas e a ordem de nomeação de um cenário JSON e imprime o "
        "resultado em JSON. Use - para ler o cenário da entrada padrão."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="arquivo JSON do cenário, ou - para a entrada padrão")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = self._load(options["file"])
            scenario = simulation.parse_scenario(data, resolve_policy=resolve_policy)
            output = simulation.run(scenario)
        except simulation.ScenarioError as exc:
            self._refuse(str(exc))
        self.stdout.write(json.dumps(output, ensure_ascii=False, indent=2))

    def _load(self, name: str) -> object:
        try:
            if name == "-":
                text = sys.stdin.read()
            else:
                with open(name, encoding="utf-8") as handle:
                    text = handle.read()
        except FileNotFoundError:
            raise simulation.ScenarioError(f"Arquivo não encontrado: {name}.") from None
        except UnicodeDecodeError:
            raise simulation.ScenarioError(f"O arquivo {name} não está em UTF-8.") from None
        except OSError as exc:
            raise simulation.ScenarioError(f"Não foi possível ler {name}: {exc.strerror}.") from None
        try:
            return json.loads(text, parse_constant=_reject_constant)
        except json.JSONDecodeError as exc:
            reason = _JSON_ERRORS.get(exc.msg, exc.msg)
            raise simulation.ScenarioError(
                f"O cenário não é um JSON válido: {reason} (linha {exc.lineno}, coluna {exc.colno})."
            ) from None

    def _refuse(self, message: str) -> NoReturn:
        # From the command line: the message alone, in Portuguese, and status 2 (no "CommandError:"
        # prefix, no traceback). From code (call_command): an exception the caller can catch.
        if getattr(self, "_called_from_command_line", False):
            self.stderr.write(message)
            sys.exit(2)
        raise CommandError(message, returncode=2)


# The json module's messages, in Portuguese (the others are shown as they are).
_JSON_ERRORS = {
    "Expecting value": "esperava um valor",
    "Expecting property name enclosed in double quotes": "esperava o nome de uma chave entre aspas duplas",
    "Expecting ',' delimiter": "esperava uma vírgula",
    "Expecting ':' delimiter": "esperava dois-pontos",
    "Extra data": "há conteúdo depois do fim do JSON",
    "Unterminated string starting at": "texto sem aspas de fechamento",
    "Invalid control character at": "caractere de controle dentro de um texto",
    "Invalid \\escape": "sequência de escape inválida",
}


def _reject_constant(name: str) -> None:
    raise simulation.ScenarioError(f"O cenário não é um JSON válido: {name} não é um número.")
