"""What challenges a self-declaration: heteroidentification and the procedure on a false declaration, and the
law both follow, kept beside each policy version (RULES §5); and the court orders a contest lives under."""

from declarations.models.courts import CourtOrder, CourtOrderEffect
from declarations.models.hetero_appeals import AppealAttachment, SecondCall
from declarations.models.heteroidentification import (
    Appeal,
    Commission,
    CommissionMember,
    DrawAnnouncement,
    MemberDraw,
    Opinion,
    Session,
    Verification,
    VerificationLink,
)
from declarations.models.law import ProcedureLaw
from declarations.models.links import PrivateLink
from declarations.models.procedures import (
    Attachment,
    Procedure,
    ProcedureAct,
    ProcedureCounter,
    ProcedureLink,
    procedure_storage,
)
from declarations.models.receipts import FilingReceipt, FilingReceiptCounter
from declarations.models.reversals import ProcedureReversal

__all__ = [
    "Appeal",
    "AppealAttachment",
    "Attachment",
    "Commission",
    "CommissionMember",
    "CourtOrder",
    "CourtOrderEffect",
    "DrawAnnouncement",
    "FilingReceipt",
    "FilingReceiptCounter",
    "MemberDraw",
    "Opinion",
    "PrivateLink",
    "Procedure",
    "ProcedureAct",
    "ProcedureCounter",
    "ProcedureLaw",
    "ProcedureLink",
    "ProcedureReversal",
    "SecondCall",
    "Session",
    "Verification",
    "VerificationLink",
    "procedure_storage",
]
