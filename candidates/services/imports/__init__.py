"""Importing registrations and scores from the exam organiser's files (CSV or XLSX).

The same service serves the command (``manage.py import_registrations``, any size) and the web
(files up to ``WEB_IMPORT_MAX_ROWS``). A view uses it in four steps::

    table = parse_upload(request.FILES["file"], max_rows=WEB_IMPORT_MAX_ROWS)   # ImportFileError
    mapping = suggest_mapping(contest, table.headers)        # {header: target}; the clerk may edit it
    result = preview(contest, table, mapping)                # Preview: counts, rows, problems; no write
    result = commit(contest, table, mapping, by=request.user)  # Result; ImportRejected writes nothing

``parse_upload(file, *, max_rows=None, filename="") -> Table``
    ``file`` is a path, bytes, or a binary file object. Encodings: UTF-8 (with or without BOM), UTF-16
    with BOM, else Windows-1252. Separator sniffed among ``;``, ``,``, tab and ``|``. XLSX: the first
    sheet with data, read as a stream; title rows above the header are skipped. ``Table.rows`` keeps each
    row's line in the file so problems can name it; ``Table.problems`` the cells the reader could not take
    (the preview reports them). Every size is bounded while reading (``limits``: cells, columns, rows,
    and with ``max_rows`` the web's byte budgets); past one, ``ImportFileError``.
``save_table(table, binary_handle)`` / ``load_table(binary_stream) -> Table``
    The table as JSON lines: the web wizard reads the upload once and keeps the table between its steps.
``suggest_mapping(contest, headers) -> dict[str, str]``
    The contest's saved ``ImportMapping`` for the headers it knows, then accent- and case-insensitive
    synonyms ("Inscrição", "Nº de inscrição", "Cota Negros", "PcD", "Nota Objetiva"...). Targets: the keys
    of ``FIELDS`` (``number``, ``full_name``, ``social_name``, ``cpf``, ``birth_date``, ``email``, ``phone``,
    ``address``, ``position``, ``registered_on``, ``racial``, ``category``, ``declared_on``, ``pcd``,
    ``preferred_reserve``, ``jury_service``, ``final_score``, ``absent``), ``phase:<name>`` for a phase's
    score, ``""`` to ignore the column. ``mapping_choices(contest)`` lists them with labels for a form.
``preview(contest, table, mapping=None, *, today=None, phase_specs=None, progress=None) -> Preview``
    Counts (``new``, ``updated``, ``unchanged``, ``per_position``), the first rows as understood
    (``rows``), the rows that change and how (``changed_rows``), the phases it would create, notices,
    and every problem (``Problem(line, column, message)``, Portuguese). ``preview.ok`` is False when there
    is any problem. ``today`` decides whether registrations have closed (the contest's
    ``registration_end``); ``phase_specs`` ({name: PhaseSpec}) gives the maximum and pass mark of phases
    the file brings and the contest does not have yet (otherwise the maximum is deduced from the scores
    and shown for checking, with no pass mark).
``commit(contest, table, mapping, by, *, today=None, phase_specs=None, progress=None, expected=None)``
    Re-checks under a lock on the contest and writes everything in one transaction, every row with its
    history row naming ``by`` and the file (new rows by PostgreSQL ``COPY``, or simple-history's
    ``bulk_create_with_history`` on other databases; changed rows by ``bulk_update_with_history``: see
    ``writing``), saves the mapping, or raises ``ImportRejected`` (with ``.preview``) and writes nothing.
    Re-importing the same file changes nothing. ``progress(stage, done, total)`` is called as it goes.
    ``expected``: the ``Preview.fingerprint`` the clerk saw; when the plan differs (the data changed
    since), ``ImportChanged`` (an ``ImportRejected``) and nothing is written. Returns a ``Result``.

Modules: ``files`` (reading; ``xlsx`` streams a workbook, ``limits`` bounds both), ``cells`` (one cell),
``mapping`` (fields and synonyms), ``rows`` (a row and its cells' parsers), ``plan`` (checks and what
changes), ``racial`` (the racial option of each row, a checker the planner holds; the rules are
``candidates.engine.eligibility``'s), ``report`` (what the clerk reads), ``writing`` (bulk writes). The
importer sets no registration status; a status change goes through ``candidates.services.status``.

Rules applied per row: CPF check digits (leading zeros restored); one row per inscription number; the
position by code or title; scores within the phase's maximum (two decimals, rounded half up; ``AUSENTE``
for absent); the racial option only with a category the policy's ``beneficiary_groups`` allow, never
declared after ``registration_end``, never added to or removed from an already imported registration
after registrations close (that is a renunciation or a clerk's justified correction, done on the
registration, RULES §5); a renunciation recorded in the system prevails over the file. A mapped empty
cell clears the value (the file is the organiser's record), except the category, which only ever adds
precision. Registrations in the system and not in the file are left alone (the preview counts them).
"""

from __future__ import annotations

from candidates.services.imports.files import (
    WEB_IMPORT_MAX_ROWS,
    ImportFileError,
    Table,
    load_table,
    parse_upload,
    save_table,
)
from candidates.services.imports.mapping import (
    FIELDS,
    IGNORE,
    PHASE_PREFIX,
    target_label,
)
from candidates.services.imports.report import (
    ImportChanged,
    ImportRejected,
    PhaseSpec,
    Preview,
    Problem,
    Result,
    RowView,
    confirmed_phase_specs,
)
from candidates.services.imports.run import commit, import_refusal, preview
from candidates.services.imports.suggestions import mapping_choices, suggest_mapping

__all__ = [
    "FIELDS",
    "IGNORE",
    "PHASE_PREFIX",
    "WEB_IMPORT_MAX_ROWS",
    "ImportChanged",
    "ImportFileError",
    "ImportRejected",
    "PhaseSpec",
    "Preview",
    "Problem",
    "Result",
    "RowView",
    "Table",
    "commit",
    "confirmed_phase_specs",
    "import_refusal",
    "load_table",
    "mapping_choices",
    "parse_upload",
    "preview",
    "save_table",
    "suggest_mapping",
    "target_label",
]
