"""``manage.py simulate FILE.json`` (or ``-`` for stdin): RULES.md §8.

Runs the engines of §2–§4 on a scenario and prints the result as JSON. A bad scenario prints a clear
Portuguese message to stderr and exits with status 2 (``CommandError`` with ``returncode=2`` when called
from code, e.g. ``call_command``). Thin: parse, call the pure simulation, print.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from candidates.engine import simulation
from candidates.engine.schedule import AllocationError, Params
from candidates.engine_params import params_from_policy
from contests.models import Policy


def resolve_policy(slug: str) -> Params:
    """A seeded policy by slug (``santa-maria``, ``angra-dos-reis``), without its contest's PcD reserve:
    the scenario's ``pcd`` key sets that."""
    try:
        policy = Policy.objects.filter(slug=slug).first()
        known = sorted(Policy.objects.values_list("slug", flat=True)) if policy is None else []
    except DatabaseError:
        raise simulation.ScenarioError(
            "Não foi possível ler as políticas no banco de dados: rode `manage.py migrate` ou informe a "
            "política como objeto."
        ) from None
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
        "Simula a reserva de vagas e a ordem de nomeação de um cenário JSON (RULES.md §8) e imprime o "
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
