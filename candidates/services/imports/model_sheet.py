"""The model spreadsheet the upload page offers: the columns the importer recognises, named as
``mapping.suggest`` maps them by itself, the contest's phases as score columns, and a second sheet saying
what each column takes. A test uploads it back and checks that every column maps to its field."""

from __future__ import annotations

import io
from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from candidates.services.imports.cells import fold
from candidates.services.imports.mapping import FIELDS, PHASE_WORDS

# What each column takes: (required for a new registration, format, example).
COLUMN_NOTES: dict[str, tuple[str, str, str]] = {
    "number": ("sim", "número de inscrição da organizadora (letras, números, ponto, barra ou hífen)", "1001"),
    "full_name": ("sim", "nome civil completo", "Maria da Silva Santos"),
    "social_name": ("não", "nome social, quando a pessoa o informou", ""),
    "cpf": ("sim", "11 dígitos, com ou sem pontuação; formate a coluna como texto", "036.881.690-77"),
    "birth_date": ("não", "dd/mm/aaaa (desempate pela idade)", "13/05/1990"),
    "email": ("não", "endereço de e-mail", "maria@exemplo.com.br"),
    "phone": ("não", "telefone com DDD", "(55) 99999-0000"),
    "address": ("não", "endereço completo, para intimações", "Rua das Flores, 100, Centro"),
    "position": ("sim", "código ou nome do cargo, como cadastrado no concurso", "TLEG"),
    "registered_on": ("não", "dd/mm/aaaa", "15/02/2026"),
    "racial": ("não", "S ou N: concorre às vagas reservadas pela autodeclaração", "S"),
    "category": ("não", "preta, parda (ou indígena, quando a lei prevê)", "parda"),
    "declared_on": ("não", "dd/mm/aaaa; em branco, a data da inscrição", ""),
    "pcd": ("não", "S ou N: concorre às vagas de pessoas com deficiência", "N"),
    "preferred_reserve": ("não", "racial ou PcD, quando concorre às duas", ""),
    "jury_service": ("não", "S ou N (desempate, CPP art. 440)", "N"),
    "final_score": ("não", "número com vírgula decimal; só quando o concurso não tem fases", ""),
    "absent": ("não", "S ou N: faltou a uma prova", "N"),
}
MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def phase_header(name: str) -> str:
    """A phase's column: its name when it already reads as a score ("Nota Objetiva"), else "Nota <name>"."""
    folded = fold(name)
    return name if any(folded.startswith(word) for word in PHASE_WORDS) else f"Nota {name}"


def model_columns(phase_names: Sequence[str]) -> list[tuple[str, str]]:
    """(header, target) of the model's columns, in the order of ``FIELDS`` and then the phases."""
    columns = [
        (field.label, field.key) for field in FIELDS if not (phase_names and field.key == "final_score")
    ]
    columns += [(phase_header(name), f"phase:{name}") for name in phase_names]
    return columns


def model_workbook(*, phase_names: Sequence[str] = ()) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Inscrições"
    columns = model_columns(phase_names)
    sheet.append([header for header, _ in columns])
    bold = Font(bold=True)
    for index, (header, target) in enumerate(columns, start=1):
        cell = sheet.cell(row=1, column=index)
        cell.font = bold
        letter = get_column_letter(index)
        sheet.column_dimensions[letter].width = max(14, min(len(header) + 4, 40))
        if target in ("cpf", "number"):
            # Text, so that a spreadsheet keeps a CPF's leading zeros and never writes it as 3,7E+09.
            for row in range(2, 1002):
                sheet.cell(row=row, column=index).number_format = "@"
    sheet.freeze_panes = "A2"

    notes = workbook.create_sheet("Instruções")
    notes.append(["Coluna", "Obrigatória em inscrição nova", "O que informar", "Exemplo"])
    for cell in notes[1]:
        cell.font = bold
    for header, target in columns:
        if target.startswith("phase:"):
            notes.append(
                [header, "não", "nota da fase, com vírgula decimal; em branco se não corrigida", "72,5"]
            )
        else:
            notes.append([header, *COLUMN_NOTES[target]])
    notes.append([])
    notes.append(["A primeira aba recebe uma linha por inscrição. Colunas sem uso podem ser apagadas."])
    notes.append(["Dados pessoais (LGPD): guarde e envie este arquivo somente pelos canais oficiais."])
    for letter, width in zip("ABCD", (40, 16, 70, 28), strict=True):
        notes.column_dimensions[letter].width = width

    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
