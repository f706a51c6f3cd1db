"""How much a private link may file (issue 25 N8): at most ``LINK_FILING_MAX_FILES``/``LINK_FILING_MAX_MB``
per filing and ``LINK_DAILY_MAX_FILES``/``LINK_DAILY_MAX_MB`` a day; ``services.candidate_file`` refuses
with the message, the link's row locked."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.utils import timezone

from declarations.models import FilingReceipt, ProcedureLink


def link_volume_refusal(
    link: ProcedureLink, filed_by: str, uploads: Sequence[UploadedFile], now: datetime.datetime
) -> str:
    """Why ``uploads`` exceed what a private link may file (issue 25 N8): per filing, and per day summed
    over the link's receipts of the local day; "" when they fit."""
    mb = 1024 * 1024
    count, size = len(uploads), sum(upload.size or 0 for upload in uploads)
    if count > settings.LINK_FILING_MAX_FILES or size > settings.LINK_FILING_MAX_MB * mb:
        return (
            f"Cada protocolo aceita até {settings.LINK_FILING_MAX_FILES} arquivos e "
            f"{settings.LINK_FILING_MAX_MB} MB no total (foram {count}, {size / mb:.1f} MB): divida os arquivos "
            "em mais de um protocolo."
        )
    if not uploads:
        return ""
    day = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    earlier = FilingReceipt.objects.filter(
        act__procedure=link.procedure, filed_by=filed_by, received_at__gte=day
    )
    files = [entry for receipt in earlier.values_list("files", flat=True) for entry in receipt]
    day_count, day_size = len(files) + count, sum(int(entry.get("size") or 0) for entry in files) + size
    if day_count > settings.LINK_DAILY_MAX_FILES or day_size > settings.LINK_DAILY_MAX_MB * mb:
        return (
            f"Pelo link chegam até {settings.LINK_DAILY_MAX_FILES} arquivos e {settings.LINK_DAILY_MAX_MB} MB por "
            "dia: o limite de hoje foi atingido. Envie o restante amanhã ou entregue-o no protocolo do órgão."
        )
    return ""
