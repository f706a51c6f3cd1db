"""A court order on a contest, for the screens' tests and the permission matrix."""

from __future__ import annotations

import datetime

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from declarations.courts import services

# A published number (TRF4): its check digits hold.
CASE_NUMBER = "5046512-94.2016.4.04.7000"
PDF = b"%PDF-1.4\n% decisao\n%%EOF\n"


def make_court_order(contest, by, registrations=(), **overrides):
    today = timezone.localdate()
    data = {
        "contest": contest,
        "case_number": CASE_NUMBER,
        "court": "",
        "body": "13ª Vara Federal de Curitiba",
        "kind": "injunction",
        "decided_on": today - datetime.timedelta(days=3),
        "notified_on": today - datetime.timedelta(days=2),
        "compliance_days": 5,
        "compliance_unit": "business-days",
        "effect": "keep_seat" if registrations else "suspend_act",
        "scope": ("candidate" if len(registrations) == 1 else "group") if registrations else "contest",
        "position": None,
        "list_name": "",
        "registrations": list(registrations),
        "duration": "final_judgment",
        "until": None,
        "summary": "Reservar a vaga até o julgamento.",
        "upload": SimpleUploadedFile("decisao.pdf", PDF, content_type="application/pdf"),
    }
    return services.court_order_record(**(data | overrides), by=by, today=today)


def make_courts_world(cast, contest, registration) -> dict:
    return {"court_order": make_court_order(contest, cast["legal"], [registration])}
