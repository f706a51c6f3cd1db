"""What challenges a self-declaration: the procedure on a false declaration (RULES §5)."""

from declarations.models.procedures import (
    Attachment,
    Procedure,
    ProcedureAct,
    ProcedureCounter,
    ProcedureLink,
    procedure_storage,
)

__all__ = [
    "Attachment",
    "Procedure",
    "ProcedureAct",
    "ProcedureCounter",
    "ProcedureLink",
    "procedure_storage",
]
