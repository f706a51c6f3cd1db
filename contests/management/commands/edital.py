"""``manage.py edital SLUG -o FILE.pdf``: the contest's edital as it stands now, as PDF (a draft, "minuta")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from contests.documents import edital
from contests.models import Contest


class Command(BaseCommand):
    help = (
        "Gera o PDF do edital de abertura de um concurso a partir dos dados (minuta) e mostra a verificação."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="identificador do concurso")
        parser.add_argument("-o", "--output", required=True, help="arquivo PDF de saída")

    def handle(self, *args: Any, **options: Any) -> None:
        contest = Contest.objects.select_related("policy").filter(slug=options["slug"]).first()
        if contest is None:
            raise CommandError(f"Concurso “{options['slug']}” não encontrado.")
        pdf = edital.render_edital(contest)
        Path(options["output"]).write_bytes(pdf)
        self.stdout.write(f"{options['output']}: {len(pdf)} bytes")
        report = edital.check(contest)
        for problem in report.blocking:
            self.stdout.write(f"impede a publicação – {problem}")
        for problem in report.warnings:
            self.stdout.write(f"aviso – {problem}")
