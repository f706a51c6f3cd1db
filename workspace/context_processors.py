"""``workspace``: what every staff page needs: the organisation's name and the navigation by role."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse

from contests.models import Organization

APP_NAME = "Cotas"

# (label, URL name, permission that opens the page, or a tuple of them: any one opens it). The first
# matching prefix marks the current entry.
NAVIGATION: tuple[tuple[str, str, str | tuple[str, ...]], ...] = (
    ("Concursos", "contests:list", "contests.view_contest"),
    ("Processos", "declarations:list", "declarations.view_procedure"),
    (
        "Heteroidentificação",
        "declarations:hetero_sessions",
        ("declarations.view_session", "declarations.record_opinion"),
    ),
    ("Ordens judiciais", "declarations:court_orders", "declarations.view_courtorder"),
    ("Políticas de reserva", "contests:policy_list", "contests.view_policy_list"),
    ("Relatórios da lei", "monitoring:report", "monitoring.view_law_report"),
    ("Feriados", "contests:holiday_list", "contests.view_holiday"),
    ("Organização", "contests:organization", "contests.view_organization"),
    ("Registro de acessos", "contests:accesslog_list", "contests.view_accesslog"),
)


def _navigation(request: HttpRequest) -> list[dict[str, object]]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return []
    entries: list[dict[str, object]] = []
    for label, url_name, permission in NAVIGATION:
        permissions = permission if isinstance(permission, tuple) else (permission,)
        if not any(user.has_perm(p) for p in permissions):
            continue
        try:
            url = reverse(url_name)
        except NoReverseMatch:
            continue
        entries.append({"label": label, "url": url})
    if user.is_superuser:
        entries.append({"label": "Administração", "url": reverse("admin:index")})
    # The longest matching prefix is the current page's section (/organizacao/feriados/ is "Feriados").
    matches = [e for e in entries if request.path.startswith(str(e["url"]))]
    if matches:
        max(matches, key=lambda e: len(str(e["url"])))["current"] = True
    return entries


def workspace(request: HttpRequest) -> dict[str, object]:
    organization = Organization.current()
    return {
        "workspace": {
            "organization": organization,
            "organization_name": organization.name if organization else "Organização não configurada",
            "app_name": APP_NAME,
            "navigation": _navigation(request),
        }
    }
