"""Writes of the acts after a final decision (``finality``: revision, art. 65; annulment, arts. 53–54); the
reversal they may cause is ``reversals``'.

The revision and the request for it go through ``services.act_record`` (the state machine refuses a revision
that would worsen the sanction, with the reason); the annulment adds the art. 54 check; their notice goes
through the one notice path (``services.notice_send``).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from contests.audit import User
from declarations.models import Procedure, ProcedureAct
from declarations.procedure import finality, rules, services
from declarations.procedure.selectors import case_state


@transaction.atomic
def annulment_record(
    *,
    procedure: Procedure,
    by: User,
    today: datetime.date,
    text: str,
    bad_faith: bool = False,
    uploads: Sequence[UploadedFile] = (),
    protected: bool = False,
) -> ProcedureAct:
    """Annul the decision in force for illegality (Lei 9.784 art. 53), reasoned; a decision favourable to
    the candidate more than five years old only on proven bad faith (art. 54). A falsity annulled falls with
    its effects (``reversals.reversal_record``, from ``services.act_record``)."""
    procedure = services._locked(procedure)
    state = case_state(procedure, today=today)
    reason = finality.annulment_art54_refusal(state.records, today=today, bad_faith=bad_faith)
    if reason:
        raise ValidationError({"bad_faith": reason})
    if bad_faith:
        text = f"{text.strip()}\n\nMá-fé comprovada nos autos (Lei 9.784 art. 54)."
    return services.act_record(
        procedure=procedure,
        kind=rules.Act.ANNULMENT,
        by=by,
        today=today,
        text=text,
        uploads=uploads,
        protected=protected,
    )
