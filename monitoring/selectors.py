"""What the public site reads of the law's reports (issue 23): only the published ones (a LawReport exists
only with its published document), their figures as published (aggregates, privacy applied)."""

from __future__ import annotations

from django.db.models import QuerySet

from monitoring.models import LawReport


def published_reports() -> QuerySet[LawReport]:
    return (
        LawReport.objects.select_related("policy", "document")
        .defer("document__pdf")
        .order_by("policy__name", "kind", "number", "-document__version")
    )


def published_report(code: str) -> LawReport | None:
    return published_reports().filter(document__code=code.upper()).first()
