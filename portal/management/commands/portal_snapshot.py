"""Write the public portal's static snapshot again (portal/snapshots.py): every public page as a file in the
``snapshots`` storage, the files of pages no longer public removed. Idempotent: a page whose bytes did not
change is not rewritten. After a deploy (a template changed every page) or to fill a new storage.

    manage.py portal_snapshot                 # the site and every published contest
    manage.py portal_snapshot --contest SLUG  # the site and one contest (removed if no longer public)
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from portal.snapshots import rebuild


class Command(BaseCommand):
    help = "Reescreve as páginas públicas publicadas como arquivos estáticos (snapshot do portal)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--contest", metavar="SLUG", help="só este concurso (e as páginas do portal)")

    def handle(self, *args, contest: str | None = None, **options) -> None:
        started = time.perf_counter()
        outcome = rebuild(contest or None)
        message = f"Snapshot do portal: {outcome} em {time.perf_counter() - started:.1f} s."
        if outcome.failed:
            raise CommandError(message)
        self.stdout.write(message)
