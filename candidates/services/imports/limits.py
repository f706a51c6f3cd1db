"""What an uploaded file may hold before the reader stops, and the error that says so.

Every limit is checked while the file is read, before what it guards is held in memory: a small file can
declare (or decompress to) gigabytes. The command (``manage.py import_registrations``) reads files the
operator chose and has no row or size limit; the per-cell and per-row ones apply everywhere.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from contests.wording import thousands

WEB_IMPORT_MAX_ROWS = 20_000
# The most characters one cell may hold: Excel's own limit, so no real spreadsheet passes it.
MAX_CELL_CHARS = 32_767
# Columns a row may use; an organiser's file has a few dozen. Data beyond it refuses the file.
MAX_COLUMNS = 200
# Rows above the header searched for it (titles); they count towards the row limit while reading.
HEADER_SEARCH_ROWS = 20
# The web's bounds on what an XLSX decompresses to (per zip member) and on the table once read (the
# sizes of the values kept, as ``sys.getsizeof`` counts them, plus a pointer each).
WEB_XML_MEMBER_BYTES = 64 * 1024 * 1024
WEB_SMALL_MEMBER_BYTES = 16 * 1024 * 1024  # workbook, relationships, styles
WEB_TABLE_BYTES = 96 * 1024 * 1024
POINTER = 8


class ImportFileError(ValueError):
    """The file cannot be read at all; ``str()`` is the Portuguese reason."""


@dataclass(frozen=True)
class Limits:
    """``None`` is no limit (the command)."""

    max_rows: int | None = None
    member_bytes: int | None = None
    small_member_bytes: int | None = None
    table_bytes: int | None = None

    @classmethod
    def for_rows(cls, max_rows: int | None) -> Limits:
        """The command's (no ``max_rows``) or the web's limits."""
        if max_rows is None:
            return cls()
        return cls(max_rows, WEB_XML_MEMBER_BYTES, WEB_SMALL_MEMBER_BYTES, WEB_TABLE_BYTES)


# What a clerk can do with a file too big for the web: no command-line advice on a clerk's screen;
# the support staff know the command (docs/operations.md).
TOO_BIG_ADVICE = (
    "Divida-o em arquivos menores, cada um com a linha de títulos, ou peça ao suporte técnico que o importe "
    "no servidor, com as mesmas regras e a mesma prévia."
)


def too_many_rows(count: str, max_rows: int) -> ImportFileError:
    return ImportFileError(
        f"O arquivo tem {count} linhas de dados; a importação pela web aceita até {thousands(max_rows)}. "
        + TOO_BIG_ADVICE
    )


def too_many_columns(line: int, column: int) -> ImportFileError:
    return ImportFileError(
        f"A linha {line} tem dados na {thousands(column)}ª coluna; a importação aceita até {MAX_COLUMNS} "
        "colunas. Apague as colunas em excesso e envie o arquivo de novo."
    )


def too_long_cell() -> str:
    return (
        f"célula com mais de {thousands(MAX_CELL_CHARS)} caracteres (o limite de uma célula do Excel): "
        "o conteúdo não foi lido"
    )


class Budget:
    """The memory a table may take while it is read; spends as values are kept, refuses past the limit."""

    def __init__(self, limits: Limits):
        self.left = limits.table_bytes

    def spend_value(self, value: Any) -> None:
        if self.left is not None:
            self.left -= sys.getsizeof(value) + POINTER
            self._check()

    def spend_row(self, cells: Sequence[Any]) -> None:
        if self.left is not None:
            self.left -= sys.getsizeof(cells) + 64 + sum(sys.getsizeof(c) for c in cells if c is not None)
            self._check()

    def _check(self) -> None:
        if self.left is not None and self.left < 0:
            raise ImportFileError(
                f"O arquivo ocupa, depois de lido, mais de {WEB_TABLE_BYTES // (1024 * 1024)} MB: grande demais "
                "para a importação pela web. " + TOO_BIG_ADVICE
            )
