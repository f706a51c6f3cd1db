"""What challenges a self-declaration: heteroidentification and the procedure on a false declaration (RULES §5)."""

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
from declarations.models.links import PrivateLink
from declarations.models.procedures import (
    Attachment,
    Procedure,
    ProcedureAct,
    ProcedureCounter,
    ProcedureLink,
    procedure_storage,
)

__all__ = [
    "Appeal",
    "Attachment",
    "Commission",
    "CommissionMember",
    "DrawAnnouncement",
    "MemberDraw",
    "Opinion",
    "PrivateLink",
    "Procedure",
    "ProcedureAct",
    "ProcedureCounter",
    "ProcedureLink",
    "Session",
    "Verification",
    "VerificationLink",
    "procedure_storage",
]
