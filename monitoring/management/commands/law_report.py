"""``manage.py law_report POLICY_SLUG --from AAAA-MM-DD --to AAAA-MM-DD [--contest SLUG]... [--format csv|json|pdf]
[--output FILE]``: the law's report (issue 23) without the browser, aggregates only. ``--format pdf`` renders
the report's draft (a "minuta": the act itself is published from the report screen, signed and verifiable)
with the same tables and charts."""

from __future__ import annotations

import csv
import datetime
import io
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from contests.documents.render import Stamp
from contests.models import Policy
from monitoring import acts, tables
from monitoring.indicators import Scope, contests_in


def _day(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError as error:
        raise CommandError(f"Data inválida: {text!r} (use AAAA-MM-DD).") from error


def render(scope: Scope, fmt: str) -> str:
    found = tables.rows(scope)
    if fmt == "json":
        data = {
            "politica": scope.policy.slug,
            "periodo": {"de": scope.start.isoformat(), "ate": scope.end.isoformat()},
            "concursos": [c.slug for c in contests_in(scope)],
            "dicionario": tables.DICTIONARY,
            "linhas": [row.as_dict() for row in found],
        }
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=tables.COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in found:
        writer.writerow(row.as_dict())
    return out.getvalue()


class Command(BaseCommand):
    help = (
        "Imprime os indicadores da lei (agregados, com supressão de células pequenas) em CSV ou JSON, ou "
        "grava a minuta do relatório em PDF (--format pdf --output ARQUIVO)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("policy", help="Identificador da política (lei).")
        parser.add_argument("--from", dest="start", required=True, help="Início do período (AAAA-MM-DD).")
        parser.add_argument("--to", dest="end", required=True, help="Fim do período (AAAA-MM-DD).")
        parser.add_argument("--contest", action="append", default=[], help="Identificador de concurso.")
        parser.add_argument("--format", choices=("csv", "json", "pdf"), default="csv")
        parser.add_argument("--output", help="Arquivo de saída (padrão: a saída padrão; o PDF o exige).")
        parser.add_argument("--kind", choices=("periodic", "final"), default="periodic", help="Tipo (PDF).")
        parser.add_argument("--number", type=int, default=1, help="Número do relatório periódico (PDF).")
        parser.add_argument("--conclusions", default="", help="Conclusões (PDF: a minuta, sem publicar).")
        parser.add_argument("--recommendation", default="", help="Recomendação sobre a prorrogação (PDF).")

    def handle(self, *args: Any, **options: Any) -> None:
        policy = Policy.objects.filter(slug=options["policy"]).first()
        if policy is None:
            raise CommandError(f"Política desconhecida: {options['policy']}.")
        start, end = _day(options["start"]), _day(options["end"])
        if end < start:
            raise CommandError("O fim do período é anterior ao início.")
        scope = Scope(policy, start, end, tuple(options["contest"]))
        if options["format"] == "pdf":
            if not options["output"]:
                raise CommandError("O PDF vai para um arquivo: informe --output.")
            written = acts.Written(
                options["kind"],
                options["number"],
                options["conclusions"] or "[Conclusões: a escrever pelo órgão de acompanhamento.]",
                options["recommendation"],
                "",
                "",
            )
            pdf = acts.render(scope, written, Stamp(draft=True))
            with open(options["output"], "wb") as target:
                target.write(pdf)
            return
        text = render(scope, options["format"])
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as target:
                target.write(text)
        else:
            self.stdout.write(text, ending="")
