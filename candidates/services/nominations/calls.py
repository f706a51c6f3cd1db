"""A call: who the next seats of a position would go to (the preview, nothing written) and the act that
nominates them (RULES §4)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from candidates.engine import allocation
from candidates.models import Nomination, Registration
from candidates.services.nominations.loading import (
    _check_validity,
    _check_version,
    _error,
    _load,
    _published,
    _save,
)
from candidates.tasks import send_nomination_emails
from contests.audit import User
from contests.models import Position, Publication, add_days
from contests.wording import plural

MAX_CALL = 500


# Reads ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PreviewRow:
    seat: int
    kind: str
    list: str
    registration: Registration
    reverted: bool
    compensated: bool
    why: str
    reason: allocation.Reason | None = None  # the why as data, for the screen to format
    on_hold: bool = False  # kept for the candidate by a court order (RULES §4 item 8): made on hold


@dataclass(frozen=True)
class Preview:
    """Who the next call of ``count`` would nominate, and why, before anyone confirms it."""

    count: int
    rows: tuple[PreviewRow, ...]
    compensated: tuple[PreviewRow, ...]
    messages: tuple[str, ...]
    stopped: bool
    vacancies: int
    version: int


@transaction.atomic
def nominations_preview(*, position: Position, count: int) -> Preview:
    """Who ``nominations_call`` with ``count`` would nominate now, and why (nothing is written)."""
    if count < 1:
        raise ValidationError({"count": "Convoque ao menos uma vaga."})
    loaded = _load(position, lock=False)
    change = allocation.preview_call(loaded.state, min(count, MAX_CALL))
    regs = Registration.objects.select_related("candidate").in_bulk(
        [loaded.reg_of[n.candidate] for n in (*change.nominated, *change.changed)]
    )

    def row(nom: allocation.Nomination) -> PreviewRow:
        return PreviewRow(
            nom.seat,
            nom.kind,
            nom.list,
            regs[loaded.reg_of[nom.candidate]],
            nom.reverted,
            nom.compensated,
            nom.why,
            nom.reason,
            nom.status == allocation.ON_HOLD,
        )

    messages = [*loaded.messages]
    if not change.nominated:
        messages.append("Não há vaga a preencher nem candidato a convocar neste cargo agora.")
    elif len(change.nominated) < count:
        messages.append(
            f"Só {plural(len(change.nominated), 'vaga pode ser preenchida', 'vagas podem ser preenchidas')} agora "
            f"({plural(loaded.state.vacancies, 'aberta', 'abertas')})."
        )
    if change.stopped:
        messages.append("A chamada para: não há mais candidatos aprovados a convocar.")
    return Preview(
        count=count,
        rows=tuple(row(n) for n in change.nominated),
        compensated=tuple(row(n) for n in change.changed),
        messages=tuple(messages),
        stopped=change.stopped,
        vacancies=loaded.state.vacancies,
        version=loaded.ledger.version,
    )


def state_for(position: Position) -> allocation.State:
    """The engine's state for ``position`` now (read only), e.g. for the lists as they stand."""
    return _load(position, lock=False).state


# Writes -----------------------------------------------------------------------------------------------


@transaction.atomic
def nominations_call(
    *,
    position: Position,
    count: int,
    act_number: str,
    act_date: datetime.date,
    by: User | None,
    gazette_edition: str = "",
    gazette_page: str = "",
    gazette_date: datetime.date | None = None,
    notified_gazette: bool = True,
    notified_email: bool = False,
    notified_letter: bool = False,
    today: datetime.date | None = None,
    expected_version: int | None = None,
) -> list[Nomination]:
    """Nominate the next ``count`` seats of ``position`` by one act (RULES §4).

    Freed seats first (lowest number first), then new ones, never more than the vacancies open. The
    deadline to take office runs from the act's publication (``gazette_date``, else ``act_date``) for the
    contest's ``office_deadline_days``. ``today`` (default: the act's date) must fall within the contest's
    validity. ``expected_version`` is the ledger version the clerk's preview showed: if another operation
    came in between, the call is refused so the clerk sees the new preview.
    """
    if count < 1:
        raise ValidationError({"count": "Convoque ao menos uma vaga."})
    if count > MAX_CALL:
        raise ValidationError({"count": f"Convoque no máximo {MAX_CALL} vagas por ato."})
    act_number = act_number.strip()
    if not act_number:
        raise ValidationError({"act_number": "Informe o número do ato de nomeação."})
    publication = gazette_date or act_date
    if publication < act_date:
        raise ValidationError({"gazette_date": "A publicação não pode ser anterior ao ato."})
    loaded = _load(position, lock=True)
    _check_validity(loaded.contest, today or act_date)
    _check_version(loaded, expected_version)
    office_deadline = add_days(publication, loaded.contest.office_deadline_days)
    if office_deadline is None:
        raise ValidationError(
            {
                "gazette_date": "Data da publicação fora do calendário: o prazo para a posse passaria do ano 9999."
            }
        )
    try:
        state, change = allocation.apply(loaded.state, allocation.Call(count))
    except allocation.AllocationError as error:
        raise _error(error) from None
    if not change.nominated:
        raise ValidationError("Não há vaga a preencher nem candidato a convocar neste cargo agora.")
    no_email: set[int] = set()
    if notified_email:
        ids = [loaded.reg_of[n.candidate] for n in change.nominated]
        no_email = set(
            Registration.objects.filter(pk__in=ids, candidate__email="").values_list("pk", flat=True)
        )
        if no_email and not (notified_gazette or notified_letter):
            numbers = sorted(Registration.objects.filter(pk__in=no_email).values_list("number", flat=True))
            raise ValidationError(
                {
                    "notified_email": f"Sem e-mail cadastrado: inscrição {', '.join(numbers)}. Marque também a "
                    "carta com aviso de recebimento (ou a publicação no diário oficial): o e-mail só vai a quem "
                    "tem endereço."
                }
            )
    act = {
        "act_number": act_number,
        "act_date": act_date,
        "gazette_edition": gazette_edition.strip(),
        "gazette_page": gazette_page.strip(),
        "gazette_date": gazette_date,
        "notified_gazette": notified_gazette,
        "notified_email": notified_email,
        "notified_letter": notified_letter,
        "office_deadline": office_deadline,
    }
    reason = f"Nomeação: ato {act_number} de {act_date:%d/%m/%Y}"
    created = _save(
        loaded,
        state,
        by=by,
        reason=reason,
        act=act,
        act_overrides={pk: {"notified_email": False} for pk in no_email},
        ended_on=today or act_date,
    )
    emails = [n.pk for n in created if n.notified_email]
    if emails:
        transaction.on_commit(lambda: send_nomination_emails.enqueue(nomination_ids=emails))
    _published(
        loaded.position,
        kind=Publication.Kind.NOMINATION_CALL,
        title=f"Nomeação de {plural(len(created), 'candidato', 'candidatos')} para "
        f"{loaded.position.title} ({act_number})",
        by=by,
    )
    return created
