"""Deployment checks (``manage.py check --deploy``): several worker processes with a cache of each
process's own would each keep their own public pages and counters, so a publication would show in one
worker and not the next (issue 25). The worker count is ``WEB_CONCURRENCY``, which gunicorn itself reads
for its number of workers (docs/operations.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register

from contests.public_generation import per_process

# The caches every worker must share; "rosters" holds immutable lists and is per process by design.
SHARED_ALIASES = ("default", "public")


@register(Tags.caches, deploy=True)
def workers_share_their_caches(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    workers = getattr(settings, "WEB_CONCURRENCY", 1)
    if workers <= 1:
        return []
    messages: list[CheckMessage] = []
    for alias in SHARED_ALIASES:
        if per_process(alias):
            variable = "PUBLIC_CACHE_URL" if alias == "public" else "CACHE_URL"
            messages.append(
                Warning(
                    f"WEB_CONCURRENCY={workers}, mas o cache {alias!r} é de cada processo: cada worker teria as "
                    "suas páginas públicas e os seus contadores.",
                    hint=f"Defina {variable} com um cache compartilhado (redis://…; docs/operations.md).",
                    id="cotas.W001",
                )
            )
    if "cache" in getattr(settings, "AXES_HANDLER", "").lower() and per_process("default"):
        messages.append(
            Warning(
                f"WEB_CONCURRENCY={workers}, mas as tentativas de login ficam no cache de cada processo.",
                hint="Use o AXES_HANDLER do banco (o padrão do projeto) ou um CACHE_URL compartilhado.",
                id="cotas.W002",
            )
        )
    return messages
