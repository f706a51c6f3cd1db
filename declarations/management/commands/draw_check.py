"""``manage.py draw_check --seed TEXT --pool "A,B,C,…" -k N [--algorithm sha256-rank-v1]``: recompute a
published draw (with the algorithm its record names; the current one by default).

Prints the drawn members, comma-separated, on the first line, then the seed's and the pool's digests and
the whole ranking with each member's key, so anyone can check a published draw record
(declarations/hetero/draw.py documents the algorithm). A bad seed, pool or k prints a clear Portuguese message to stderr and exits with
status 2. Thin: parse, call the pure ``draw``, print.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from declarations.hetero.draw import ALGORITHM, ALGORITHM_TEXTS, DrawError, draw, parse_pool


class Command(BaseCommand):
    # A read-only computation: it needs no database and no system checks.
    requires_system_checks: list[str] = []
    help = (
        "Recalcula um sorteio de membros de comissão de heteroidentificação a partir da semente pública, "
        "da lista de sorteáveis e do número de sorteados. Imprime os sorteados na primeira linha."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", required=True, help="semente pública, exatamente como publicada")
        parser.add_argument(
            "--pool", required=True, help="identificadores dos sorteáveis, separados por vírgula"
        )
        parser.add_argument("-k", type=int, required=True, help="quantos membros sortear")
        parser.add_argument(
            "--algorithm",
            default=ALGORITHM,
            choices=sorted(ALGORITHM_TEXTS),
            help=f"o algoritmo que o registro indica (padrão: {ALGORITHM}; os registros antigos, "
            "sha256-rank-v1)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            result = draw(options["seed"], parse_pool(options["pool"]), options["k"], options["algorithm"])
        except DrawError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(", ".join(result.drawn))
        self.stdout.write(f"Algoritmo {result.algorithm}: {ALGORITHM_TEXTS[result.algorithm]}")
        self.stdout.write(f"Semente: {result.seed!r}; S = {result.seed_digest}")
        self.stdout.write(
            f"Lista ({len(result.pool)}): {', '.join(result.pool)}; resumo {result.pool_digest}"
        )
        for position, entry in enumerate(result.ranking, start=1):
            role = "sorteado" if position <= result.k else "suplente"
            self.stdout.write(f"{position}. {entry.member} ({role}) K = {entry.key}")
