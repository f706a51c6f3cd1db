"""``manage.py deadline START AMOUNT [--unit days|business-days|months] [--uf UF] [--municipal]``.

Prints the deadline's last day as ``YYYY-MM-DD`` on the first line, then how it was counted, in
Portuguese (RULES.md §6, Lei 9.784 art. 66). ``--uf`` adds that state's holidays to the national ones
(without it: national only); ``--municipal`` adds the organisation's own ``Holiday`` records. A bad date,
amount, unit or UF prints a clear Portuguese message to stderr and exits with status 2 (``CommandError``
with ``returncode=2`` from code). Thin: parse, build the calendar, call the pure ``deadline``, print.
"""

from __future__ import annotations

import os
import re
import sys
from datetime import date
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from declarations.calendars import CalendarError, calendar_for, years_for
from declarations.deadlines import Calendar, Unit, deadline

ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
BR_DATE = re.compile(r"^(\d{2})/(\d{2})/(\d{4})$")
UNITS = ", ".join(unit.value for unit in Unit)
# argparse's messages, in Portuguese (argument names stay as they are).
ARGPARSE_ERRORS = {
    "the following arguments are required": "faltam os argumentos obrigatórios",
    "unrecognized arguments": "argumentos não reconhecidos",
    "expected one argument": "a opção espera um valor",
    "ignored explicit argument": "valor não aceito",
}


class DeadlineParser(CommandParser):
    """Argument errors (a missing argument, an unknown option) in Portuguese, status 2."""

    def error(self, message: str) -> NoReturn:
        for english, portuguese in ARGPARSE_ERRORS.items():
            message = message.replace(english, portuguese)
        text = f"Argumentos inválidos: {message}. Uso: manage.py deadline INÍCIO QUANTIDADE [--unit days|business-days|months] [--uf UF] [--municipal]"
        if getattr(self, "called_from_command_line", False):
            sys.stderr.write(text + "\n")
            sys.exit(2)
        raise CommandError(text, returncode=2)


def parse_day(text: str) -> date:
    """``2025-03-07`` (or ``07/03/2025``) → a date; ``ValueError`` in Portuguese otherwise."""
    text = text.strip()
    if match := ISO_DATE.match(text):
        year, month, day = (int(part) for part in match.groups())
    elif match := BR_DATE.match(text):
        day, month, year = (int(part) for part in match.groups())
    else:
        raise ValueError(f"Data inválida: {text!r}. Use o formato AAAA-MM-DD (por exemplo, 2025-03-07).")
    try:
        return date(year, month, day)
    except ValueError:
        raise ValueError(f"Data inexistente: {text!r}.") from None


def parse_amount(text: str) -> int:
    text = text.strip()
    if not re.fullmatch(r"\+?\d+", text):
        raise ValueError(
            f"Quantidade inválida: {text!r}. Informe um número inteiro de dias ou meses, 0 ou mais."
        )
    return int(text)


def parse_unit(text: str) -> Unit:
    try:
        return Unit(text.strip().lower())
    except ValueError:
        raise ValueError(f"Unidade inválida: {text!r}. Use uma destas: {UNITS}.") from None


class Command(BaseCommand):
    # A read-only computation: it needs no system checks.
    requires_system_checks: list[str] = []
    help = (
        "Calcula o último dia de um prazo (Lei 9.784/1999, art. 66) e explica a contagem. "
        "Imprime o último dia como AAAA-MM-DD na primeira linha."
    )

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.__class__ = DeadlineParser  # the same parser, with errors in Portuguese
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("start", help="dia da intimação ou do ato que inicia o prazo (AAAA-MM-DD)")
        parser.add_argument("amount", help="quantidade de dias ou meses")
        parser.add_argument("--unit", default=Unit.DAYS.value, help=f"unidade: {UNITS} (padrão: days)")
        parser.add_argument("--uf", default=None, help="UF cujos feriados estaduais se somam aos nacionais")
        parser.add_argument(
            "--municipal",
            action="store_true",
            help="considera também os feriados municipais e pontos facultativos cadastrados",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            start = parse_day(options["start"])
            amount = parse_amount(options["amount"])
            unit = parse_unit(options["unit"])
            deadline(start, amount, unit, Calendar())  # the pure rule refuses an absurd amount first
            calendar = calendar_for(
                uf=options["uf"], municipal=options["municipal"], years=years_for(start, amount, unit)
            )
            result = deadline(start, amount, unit, calendar)
        except CalendarError as exc:
            self._refuse(str(exc))
        except DatabaseError:
            self._refuse(
                "Não foi possível ler os feriados municipais no banco de dados: rode `manage.py migrate` "
                "ou omita --municipal."
            )
        except ValueError as exc:
            self._refuse(str(exc))
        sources = ["feriados nacionais"]
        if options["uf"]:
            sources.append(f"feriados estaduais ({options['uf'].strip().upper()})")
        if options["municipal"]:
            sources.append("feriados municipais e pontos facultativos cadastrados")
        lines = [result.last_day.isoformat(), *result.explanation]
        lines.append(f"Calendário: {', '.join(sources)}, além de sábados e domingos.")
        if not options["uf"]:
            lines.append("Feriados estaduais não considerados: informe a UF com --uf.")
        if not options["municipal"]:
            lines.append("Feriados municipais e pontos facultativos não considerados: use --municipal.")
        try:
            for line in lines:
                self.stdout.write(line)
            self.stdout.flush()
        except BrokenPipeError:
            # `deadline … | head -1` reads the last day and closes the pipe: the answer was given. Point
            # stdout at /dev/null so the interpreter's final flush does not fail again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())

    def _refuse(self, message: str) -> NoReturn:
        # From the command line: the message alone, in Portuguese, and status 2 (no traceback). From code
        # (call_command): an exception the caller can catch.
        if getattr(self, "_called_from_command_line", False):
            self.stderr.write(message)
            sys.exit(2)
        raise CommandError(message, returncode=2)
