"""Which column is which: the importable fields, their synonyms, and the suggested mapping.

A mapping is a dict ``{header: target}``; a target is a field key from ``FIELDS``, ``phase:<name>`` for
a phase's score, or ``""`` to ignore the column. It is saved per contest (``ImportMapping``), so the
next file from the same organiser maps itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from candidates.services.imports.cells import fold

PHASE_PREFIX = "phase:"
PHASE_NAME_MAX_LENGTH = 100  # Phase.name
IGNORE = ""


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    synonyms: tuple[str, ...]
    keywords: tuple[str, ...] = ()


FIELDS: tuple[Field, ...] = (
    Field(
        "number",
        "Número de inscrição",
        (
            "inscricao",
            "numero de inscricao",
            "numero da inscricao",
            "n inscricao",
            "no inscricao",
            "nr inscricao",
            "num inscricao",
            "inscricao numero",
            "n da inscricao",
            "insc",
            "n insc",
            "matricula",
        ),
        ("inscricao", "insc"),
    ),
    Field(
        "full_name",
        "Nome civil",
        (
            "nome",
            "nome completo",
            "nome do candidato",
            "nome da candidata",
            "candidato",
            "candidata",
            "nome civil",
            "nome de registro",
        ),
        ("nome",),
    ),
    Field("social_name", "Nome social", ("nome social", "social"), ("social",)),
    Field("cpf", "CPF", ("cpf", "n cpf", "no cpf", "cpf do candidato", "numero do cpf"), ("cpf",)),
    Field(
        "birth_date",
        "Data de nascimento",
        (
            "data de nascimento",
            "nascimento",
            "data nascimento",
            "dt nascimento",
            "dt nasc",
            "data nasc",
            "nasc",
        ),
        ("nasc",),
    ),
    Field("email", "E-mail", ("e mail", "email", "correio eletronico", "endereco eletronico"), ("mail",)),
    Field(
        "phone",
        "Telefone",
        ("telefone", "celular", "fone", "tel", "telefone celular", "contato"),
        ("fone", "celular"),
    ),
    Field(
        "address", "Endereço para intimações", ("endereco", "endereco completo", "logradouro"), ("endereco",)
    ),
    Field(
        "position",
        "Cargo",
        (
            "cargo",
            "codigo do cargo",
            "cod cargo",
            "cargo codigo",
            "emprego",
            "cargo emprego",
            "funcao",
            "cargo pretendido",
            "opcao de cargo",
        ),
        ("cargo", "emprego"),
    ),
    Field(
        "registered_on", "Data da inscrição", ("data da inscricao", "data de inscricao", "dt inscricao"), ()
    ),
    Field(
        "racial",
        "Reserva racial (S/N)",
        (
            "cota negros",
            "cota negro",
            "cota",
            "cotista",
            "cota racial",
            "reserva racial",
            "negro",
            "negros",
            "vagas negros",
            "concorre cota",
            "concorre as vagas reservadas",
            "autodeclarado negro",
            "ppp",
            "ppi",
            "cota negros e indios",
            "cota ppi",
            "reserva negros",
        ),
        ("negro", "racial", "cota", "cotista"),
    ),
    Field(
        "category",
        "Categoria declarada (cor/raça)",
        (
            "cor raca",
            "raca cor",
            "cor",
            "raca",
            "categoria",
            "autodeclaracao",
            "etnia",
            "cor ou raca",
            "categoria declarada",
        ),
        ("raca",),
    ),
    Field("declared_on", "Data da autodeclaração", ("data da autodeclaracao", "data da declaracao"), ()),
    Field(
        "pcd",
        "Reserva PcD (S/N)",
        (
            "pcd",
            "deficiente",
            "pessoa com deficiencia",
            "pne",
            "deficiencia",
            "cota pcd",
            "reserva pcd",
            "vagas pcd",
            "portador de deficiencia",
        ),
        ("pcd", "deficien", "pne"),
    ),
    Field(
        "preferred_reserve",
        "Reserva preferida (convocação simultânea)",
        ("reserva preferida", "opcao de reserva", "preferencia de reserva", "opcao convocacao simultanea"),
        ("preferi",),
    ),
    Field(
        "jury_service",
        "Exerceu a função de jurado (S/N)",
        ("jurado", "funcao de jurado", "exerceu jurado"),
        ("jurado",),
    ),
    Field(
        "final_score",
        "Nota final",
        (
            "nota final",
            "total",
            "nota total",
            "pontuacao final",
            "pontuacao total",
            "media final",
            "total de pontos",
        ),
        (),
    ),
    Field("absent", "Ausente (S/N)", ("ausente", "faltou", "ausencia", "faltoso"), ("ausen", "falt")),
)
FIELDS_BY_KEY = {f.key: f for f in FIELDS}
REQUIRED_FOR_NEW = ("full_name", "cpf", "position")
# Keywords are tried most specific first: "Cota PcD" is PcD, "Nome do cargo" is the position.
KEYWORD_ORDER = (
    "social_name",
    "cpf",
    "email",
    "pcd",
    "jury_service",
    "preferred_reserve",
    "absent",
    "number",
    "birth_date",
    "phone",
    "address",
    "position",
    "racial",
    "category",
    "full_name",
)
PHASE_WORDS = ("nota", "pontuacao", "pontos", "prova", "fase", "avaliacao")
PHASE_STOPWORDS = {
    "nota",
    "notas",
    "pontuacao",
    "pontos",
    "prova",
    "fase",
    "da",
    "de",
    "do",
    "na",
    "no",
    "em",
}

_SYNONYMS = {fold(s): f.key for f in FIELDS for s in f.synonyms}
_COMPACT_SYNONYMS = {key.replace(" ", ""): field for key, field in _SYNONYMS.items()}  # "C.P.F." is "cpf"


def phase_target(name: str) -> str:
    return f"{PHASE_PREFIX}{name}"


def phase_name(target: str) -> str | None:
    return target[len(PHASE_PREFIX) :].strip() if target.startswith(PHASE_PREFIX) else None


def target_label(target: str) -> str:
    if target == IGNORE:
        return "(ignorar)"
    name = phase_name(target)
    if name is not None:
        return f"Nota da fase: {name}"
    field = FIELDS_BY_KEY.get(target)
    return field.label if field else target


def phase_core(name: str) -> str:
    """The words that name a phase, without "nota", "prova"...: "Nota Objetiva" ~ "Prova objetiva"."""
    words = [w for w in fold(name).split() if w not in PHASE_STOPWORDS]
    return " ".join(words) or fold(name)


def _field_for(header: str) -> str | None:
    folded = fold(header)
    if not folded:
        return None
    if folded in _SYNONYMS:
        return _SYNONYMS[folded]
    if folded.replace(" ", "") in _COMPACT_SYNONYMS:
        return _COMPACT_SYNONYMS[folded.replace(" ", "")]
    words = folded.split()
    if ("final" in words or "total" in words) and any(
        w in folded for w in ("nota", "pontua", "media", "total")
    ):
        return "final_score"
    if "data" in words or "dt" in words:
        if "nasc" in folded:
            return "birth_date"
        if "declara" in folded:
            return "declared_on"
        if "inscri" in folded:
            return "registered_on"
        return None
    for key in KEYWORD_ORDER:
        if any(keyword in folded for keyword in FIELDS_BY_KEY[key].keywords):
            return key
    return None


def _is_phase_header(header: str) -> bool:
    folded = fold(header)
    return any(folded.startswith(word) or f" {word}" in f" {folded}" for word in PHASE_WORDS)


def looks_like_header(cells: Sequence[str]) -> bool:
    """At least two cells name known fields: the header row, not a title above it."""
    return sum(1 for cell in cells if cell and (_field_for(cell) or _is_phase_header(cell))) >= 2


def suggest(
    headers: Iterable[str], *, phase_names: Sequence[str] = (), saved: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The suggested mapping: the saved one for headers it knows, then synonyms, then keywords."""
    saved = saved or {}
    existing = {phase_core(name): name for name in phase_names}
    mapping: dict[str, str] = {}
    used: set[str] = set()
    headers = list(headers)
    for header in headers:
        if header in saved and is_known_target(saved[header]):
            mapping[header] = saved[header]
            if saved[header] and not saved[header].startswith(PHASE_PREFIX):
                used.add(saved[header])
    for header in headers:
        if header in mapping:
            continue
        key = _field_for(header)
        if key and key not in used:
            mapping[header] = key
            used.add(key)
        elif _is_phase_header(header) and key != "final_score":
            name = existing.get(phase_core(header), header)
            mapping[header] = phase_target(name)
        else:
            mapping[header] = IGNORE
    return mapping


def target_refusal(target: str) -> str | None:
    """Why ``target`` cannot be a column's target, or None."""
    if not is_known_target(target):
        return f"campo “{target}” desconhecido no mapeamento"
    name = phase_name(target)
    if name is not None and len(name) > PHASE_NAME_MAX_LENGTH:
        return (
            f"nome de fase com mais de {PHASE_NAME_MAX_LENGTH} caracteres ({len(name)}): encurte o cabeçalho "
            "ou associe a coluna a uma fase existente"
        )
    return None


def is_known_target(target: str) -> bool:
    return target == IGNORE or target in FIELDS_BY_KEY or bool(phase_name(target))
