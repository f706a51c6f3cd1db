"""Portuguese wording shared by the screens: real plurals instead of "vaga(s)" (issue 13)."""

from __future__ import annotations


def plural(n: int, one: str, many: str) -> str:
    """``n`` followed by the singular or the plural words: ``plural(2, "vaga aberta", "vagas abertas")``."""
    return f"{n} {one if n == 1 else many}"


# The access log's actions (``contests.audit.log_access``), as the auditor reads them.
ACCESS_ACTIONS = {
    "view": "Consulta",
    "view_sensitive": "Consulta de dado sensível",
    "document": "Emissão de documento",
    "download": "Download de anexo",
    "portal": "Acesso pela página do candidato",
    "login_locked": "Bloqueio de entrada",
}


def access_action(action: str) -> str:
    return ACCESS_ACTIONS.get(action, action)
