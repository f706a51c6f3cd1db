"""``manage.py deadline`` (RULES.md §6): the last day as ``YYYY-MM-DD`` on the first line, the count
explained in Portuguese below it; exit 2 with a Portuguese message for a bad date, amount, unit or UF.
Through ``call_command`` and from the command line (the exit status and stderr a user sees): the bad
inputs in this process (tests/command_line.py), the RULES §6 example and a pipe closed early through a real
``manage.py`` subprocess."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from contests.models import Holiday, Organization
from declarations.calendars import calendar_for, organization_calendar, years_for
from declarations.deadlines import Unit
from tests.command_line import manage_in_process

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> list[str]:
    out = io.StringIO()
    call_command("deadline", *args, stdout=out)
    return out.getvalue().splitlines()


# RULES §6 examples, national holidays from the ``holidays`` package.
@pytest.mark.parametrize(
    ("args", "last"),
    [
        (("2025-03-07", "10"), "2025-03-17"),
        (("2025-04-09", "10"), "2025-04-22"),
        (("2025-11-10", "10"), "2025-11-21"),
        (("2025-03-07", "10", "--unit", "days"), "2025-03-17"),
        (("2025-01-31", "1", "--unit", "months"), "2025-02-28"),
        (("2024-01-31", "1", "--unit", "months"), "2024-02-29"),
        (("2025-11-10", "10", "--unit", "business-days"), "2025-11-25"),
        (("2026-11-13", "5", "--unit", "business-days"), "2026-11-23"),  # skips Fri 20 November
        (("2025-12-24", "1"), "2025-12-26"),  # Christmas
        (("2026-03-25", "9"), "2026-04-06"),  # Good Friday 3 April 2026, then the weekend
    ],
)
def test_rules6_examples_print_the_last_day_first(args, last):
    assert run(*args)[0] == last


def test_explanation_names_each_skipped_day_in_portuguese():
    lines = run("2025-04-09", "10")
    text = "\n".join(lines[1:])
    assert "09/04/2025 (quarta-feira)" in text
    assert "19/04/2025 (sábado)" in text
    assert "20/04/2025 (domingo)" in text
    assert "21/04/2025 (segunda-feira): Tiradentes (feriado nacional)" in text
    assert "Último dia do prazo: 22/04/2025 (terça-feira), até as 23:59:59" in text
    assert "2025-" not in text  # dates in the explanation are dd/mm/aaaa


def test_20_november_is_named_as_the_reason_for_the_move():
    text = "\n".join(run("2025-11-10", "10"))
    assert (
        "20/11/2025 (quinta-feira): Dia Nacional de Zumbi e da Consciência Negra (feriado nacional)" in text
    )


def test_uf_adds_the_states_holidays_and_only_with_uf():
    # Gaúcho Day, Sat 20 September 2025 in RS, is on a weekend; Saint George's Day in RJ is Wed 23 April.
    assert run("2025-04-13", "10")[0] == "2025-04-23"
    lines = run("2025-04-13", "10", "--uf", "RJ")
    assert lines[0] == "2025-04-24"
    assert any("23/04/2025 (quarta-feira): " in line and "estadual, RJ" in line for line in lines)
    assert run("2025-04-13", "10", "--uf", "rs")[0] == "2025-04-23"


def test_uf_carnival_in_rio_de_janeiro():
    # The package gives Carnival (Tue 4 March 2025) as a state holiday of RJ, not as a national one.
    assert run("2025-02-22", "10")[0] == "2025-03-04"
    assert run("2025-02-22", "10", "--uf", "RJ")[0] == "2025-03-05"


@pytest.mark.django_db
def test_municipal_adds_the_organisations_holidays_and_half_days():
    Holiday.objects.create(date=date(2025, 3, 17), name="Aniversário do município")
    assert run("2025-03-07", "10")[0] == "2025-03-17"
    lines = run("2025-03-07", "10", "--municipal")
    assert lines[0] == "2025-03-18"
    assert any(
        "17/03/2025 (segunda-feira): Aniversário do município (feriado municipal)" in line for line in lines
    )
    Holiday.objects.create(
        date=date(2025, 3, 18), name="Expediente até o meio-dia", kind="closure", period="afternoon"
    )
    lines = run("2025-03-07", "10", "--municipal")
    assert lines[0] == "2025-03-19"
    assert any("18/03/2025" in line and "expediente encerrado antes da hora normal" in line for line in lines)


@pytest.mark.django_db
def test_municipal_recurring_holiday_repeats_every_year():
    Holiday.objects.create(date=date(2020, 3, 17), name="Aniversário do município", recurring=True)
    assert run("2025-03-07", "10", "--municipal")[0] == "2025-03-18"
    assert run("2026-03-07", "10", "--municipal")[0] == "2026-03-18"  # Tue 17 → Wed 18
    Holiday.objects.create(date=date(2020, 3, 16), name="Ponto facultativo", recurring=False)
    assert run("2026-03-06", "10", "--municipal")[0] == "2026-03-16"  # 2020 only: not this year


@pytest.mark.django_db
def test_organization_calendar_uses_the_organisations_uf():
    Organization.objects.create(name="Prefeitura", municipality="Rio de Janeiro", state="RJ")
    calendar = organization_calendar(years=[2025])
    assert date(2025, 4, 23) in calendar.closed  # Saint George's Day, RJ
    assert date(2025, 4, 23) not in calendar_for(uf=None, municipal=True, years=[2025]).closed


def test_calendar_has_good_friday_and_20_november_from_the_holidays_package():
    calendar = calendar_for(uf=None, municipal=False, years=[2023, 2024, 2025])
    assert date(2025, 4, 18) in calendar.closed
    assert date(2024, 11, 20) in calendar.closed
    assert date(2023, 11, 20) not in calendar.closed  # national only from 2024 (Lei 14.759/2023)


def test_years_for_covers_the_whole_count():
    assert set(years_for(date(2025, 12, 20), 30, Unit.DAYS)) >= {2024, 2025, 2026}
    assert 2035 in years_for(date(2025, 3, 7), 120, Unit.MONTHS)
    assert max(years_for(date(9999, 1, 1), 3650, Unit.BUSINESS_DAYS)) == 9999


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("2025-02-30", "10"), "Data inexistente: '2025-02-30'."),
        (("07-03-2025", "10"), "Data inválida: '07-03-2025'. Use o formato AAAA-MM-DD"),
        (("2025-03-07", "dez"), "Quantidade inválida: 'dez'."),
        (("2025-03-07", "1.5"), "Quantidade inválida: '1.5'."),
        (("2025-03-07", "-3"), "Quantidade inválida: '-3'."),
        (("2025-03-07", "3651"), "Prazo absurdo: 3651 dias"),
        (("2025-03-07", "121", "--unit", "months"), "Prazo absurdo: 121 meses"),
        (
            ("2025-03-07", "10", "--unit", "weeks"),
            "Unidade inválida: 'weeks'. Use uma destas: days, business-days",
        ),
        (("2025-03-07", "10", "--uf", "XX"), "UF desconhecida: 'XX'."),
        (("9999-12-25", "10"), "O prazo sai das datas representáveis"),
    ],
)
def test_bad_input_raises_command_error_with_status_2(args, message):
    with pytest.raises(CommandError, match=message.replace(".", r"\.").replace("(", r"\(")) as caught:
        call_command("deadline", *args)
    assert caught.value.returncode == 2


def test_brazilian_date_format_is_accepted_too():
    assert run("07/03/2025", "10")[0] == "2025-03-17"


# From the command line: status 2, the message alone on stderr, no traceback ----------------------------


def manage(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DEBUG": "1", "SECRET_KEY": "deadline-tests"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "manage.py", "deadline", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_command_line_rules6_example():
    result = manage("2025-04-09", "10")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "2025-04-22"
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("2025-13-01", "10"), "Data inexistente: '2025-13-01'."),
        (("2025-03-07", "abc"), "Quantidade inválida: 'abc'."),
        (("2025-03-07", "10", "--unit", "weeks"), "Unidade inválida: 'weeks'."),
        (("2025-03-07",), "Argumentos inválidos: faltam os argumentos obrigatórios: amount."),
        (("2025-03-07", "10", "--bogus"), "Argumentos inválidos: argumentos não reconhecidos: --bogus."),
    ],
)
def test_command_line_bad_input_exits_2_with_the_portuguese_message_only(args, message):
    result = manage_in_process("deadline", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert message in result.stderr
    assert "Traceback" not in result.stderr and "CommandError" not in result.stderr


def test_command_line_piped_to_head_gives_the_last_day_without_a_traceback():
    """`manage.py deadline … | head -1` (a script reading only the last day) closes the pipe early: the
    command ends quietly instead of printing a BrokenPipeError traceback."""
    env = {**os.environ, "DEBUG": "1", "SECRET_KEY": "deadline-tests"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    reader, writer = os.pipe()
    os.close(reader)  # nobody reads: the first write fails with EPIPE, as after `head -1` exits
    result = subprocess.run(
        [sys.executable, "manage.py", "deadline", "2025-04-09", "10"],
        cwd=ROOT,
        env=env,
        stdout=writer,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    os.close(writer)
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr, result.stderr
    assert result.returncode == 0
