"""The auditable draw of a heteroidentification commission's members from a pool (RULES §5; ADC 41).

PURE module: no Django, no project import. Anyone can recompute a draw from its published record
(seed, pool, k) with ``manage.py draw_check`` or by hand with any SHA-256 tool:

1. The **seed** is public text fixed before the draw (the digits of a published lottery result, the hash
   of the call list, …). It is put in Unicode NFC form and every run of whitespace (spaces, tabs, line
   breaks) becomes one space, none at the ends (algorithm v2; v1 only removed the surrounding whitespace, so
   a double space inside was hashed as typed but printed as one: see ``ALGORITHMS``); it is then encoded
   as UTF-8 and hashed once: ``S = SHA-256(seed)`` (32 bytes). What is printed is what is hashed.
2. Each **member** of the pool is named by a public identifier (an id, a registration number; never a
   CPF), trimmed the same way. Its key is ``K(m) = SHA-256(S ‖ m)`` (``m`` in UTF-8; ``S`` has a fixed
   length, so no two (seed, member) pairs give the same input).
3. The members are ranked by ``K(m)`` as a hexadecimal string, ascending (the identifier breaks an
   impossible tie); the first ``k`` are drawn, in that order (the order also names the substitutes: the
   next in the ranking replaces a drawn member who cannot sit).

The ranking does not depend on the order the pool is listed in, so nobody gains anything by reordering
it; the record still keeps the pool's order and its digest ``SHA-256(m1 ␊ m2 ␊ …)`` so the published list
can be checked to be the one drawn from.

Each record names its algorithm (``sha256-rank-v1`` or ``sha256-rank-v2``, the current one): a record drawn
with v1 is still recomputed with v1 (``draw(..., algorithm=...)``, ``draw_check --algorithm``).

Two steps make "fixed before the draw" checkable: the **announcement** publishes the pool, k and the seed's
public SOURCE (which lottery result, which hash) with the date from which the seed is known, before any seed
is accepted; the **draw** later takes the seed, no earlier than that date, from the announced pool and k only.
Anyone can then check the seed against its announced source and the announcement's date against the seed's.
The seed's date is strictly after the notice's day (on its own day the source may already be public), and a
pending notice whose seed's date has come is replaced only by a reasoned act (``replacement_problem``): else
a result already public could be re-rolled by announcing again.

Pinned example (tests/declarations/test_draw.py): seed ``"2026-11-30 Mega-Sena 2900: 05 12 23 34 45 56"``,
pool ``A, B, C, D, E, F, G`` and k = 5 draw the members pinned there.
"""

from __future__ import annotations

import datetime
import hashlib
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

ALGORITHM_V1 = "sha256-rank-v1"
ALGORITHM_V2 = "sha256-rank-v2"
ALGORITHM = ALGORITHM_V2  # the one new draws use
# The algorithm as the acts print it: in words, without the variables of the docstring above (a public act
# names no "S" or "K(m)"), and as exact, so anyone can redo the draw from it.
_RANKING_TEXT = (
    "codificada em UTF-8), com 32 bytes; para cada membro, a sua chave é o resumo SHA-256 desses 32 bytes "
    "seguidos do nome do membro (normalizado da mesma forma) em UTF-8; os membros são ordenados pela chave, "
    "escrita em hexadecimal, da menor para a maior; os primeiros, no número de sorteados, são os sorteados, "
    "e os seguintes, os suplentes, na ordem."
)
ALGORITHM_TEXTS = {
    ALGORITHM_V1: "Calcula-se o resumo SHA-256 da semente (sem espaços nas pontas, na forma Unicode NFC, "
    + _RANKING_TEXT,
    ALGORITHM_V2: "Calcula-se o resumo SHA-256 da semente (na forma Unicode NFC, cada sequência de espaços, "
    "tabulações ou quebras de linha trocada por um só espaço e nenhum espaço nas pontas: exatamente como "
    "impressa, " + _RANKING_TEXT,
}
ALGORITHM_TEXT = ALGORITHM_TEXTS[ALGORITHM]


class DrawError(ValueError):
    """A draw that cannot be made, with the reason in Portuguese."""


@dataclass(frozen=True, slots=True)
class Ranked:
    member: str
    key: str  # K(m), hexadecimal


@dataclass(frozen=True, slots=True)
class DrawResult:
    algorithm: str
    seed: str  # normalised
    seed_digest: str  # S, hexadecimal
    pool: tuple[str, ...]  # as given (normalised), in the order given
    pool_digest: str
    k: int
    ranking: tuple[Ranked, ...]  # every member, drawn first

    @property
    def drawn(self) -> tuple[str, ...]:
        return tuple(entry.member for entry in self.ranking[: self.k])

    @property
    def substitutes(self) -> tuple[str, ...]:
        return tuple(entry.member for entry in self.ranking[self.k :])


def normalise_v1(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip())


def normalise_v2(text: str) -> str:
    """NFC, and every run of whitespace one space, none at the ends: the text as a page prints it."""
    return " ".join(unicodedata.normalize("NFC", text).split())


ALGORITHMS = {ALGORITHM_V1: normalise_v1, ALGORITHM_V2: normalise_v2}


def normaliser(algorithm: str) -> Callable[[str], str]:
    try:
        return ALGORITHMS[algorithm]
    except KeyError:
        known = ", ".join(ALGORITHMS)
        raise DrawError(f"Algoritmo de sorteio desconhecido: {algorithm!r} (conhecidos: {known}).") from None


def normalise(text: str, algorithm: str = ALGORITHM) -> str:
    return normaliser(algorithm)(text)


def seed_digest(seed: str, algorithm: str = ALGORITHM) -> bytes:
    return hashlib.sha256(normalise(seed, algorithm).encode("utf-8")).digest()


def member_key(seed_hash: bytes, member: str, algorithm: str = ALGORITHM) -> str:
    return hashlib.sha256(seed_hash + normalise(member, algorithm).encode("utf-8")).hexdigest()


def pool_digest(pool: Sequence[str], algorithm: str = ALGORITHM) -> str:
    text = "\n".join(normalise(member, algorithm) for member in pool)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check(pool: Sequence[str], k: int, algorithm: str = ALGORITHM) -> tuple[str, ...]:
    """The pool (normalised) if ``k`` members can be drawn from it, whatever the seed; else ``DrawError``.
    The announcement of a draw is checked with it before any seed exists."""
    members = tuple(normalise(member, algorithm) for member in pool)
    if any(not member for member in members):
        raise DrawError("Há um membro sem identificador na lista de sorteáveis.")
    if any(ch in member for member in members for ch in "\n\r"):
        raise DrawError("Um identificador de membro não pode conter quebra de linha.")
    if any(ch in member for member in members for ch in ",;"):
        # They separate the pool given to ``draw_check``: the published record must be recomputable.
        raise DrawError("Um identificador de membro não pode conter vírgula nem ponto e vírgula.")
    repeated = sorted({member for member in members if members.count(member) > 1})
    if repeated:
        raise DrawError(f"Membros repetidos na lista de sorteáveis: {', '.join(repeated)}.")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise DrawError("O número de membros a sortear deve ser um inteiro maior que zero.")
    if k > len(members):
        raise DrawError(
            f"Não é possível sortear {k} {'membro' if k == 1 else 'membros'} de uma lista de {len(members)}: a lista de sorteáveis "
            "deve ter ao menos tantos nomes quantos os membros a sortear."
        )
    return members


def draw(seed: str, pool: Sequence[str], k: int, algorithm: str = ALGORITHM) -> DrawResult:
    """Draw ``k`` members of ``pool`` with the public ``seed`` (the algorithm in the module's docstring;
    ``algorithm``: the one the record names, the current one for a new draw)."""
    text = normalise(seed, algorithm)
    if not text:
        raise DrawError("Informe a semente pública do sorteio (fixada e publicada antes do sorteio).")
    members = check(pool, k, algorithm)
    digest = seed_digest(text, algorithm)
    ranking = sorted(
        (Ranked(member=member, key=member_key(digest, member, algorithm)) for member in members),
        key=lambda entry: (entry.key, entry.member),
    )
    return DrawResult(
        algorithm=algorithm,
        seed=text,
        seed_digest=digest.hex(),
        pool=members,
        pool_digest=pool_digest(members, algorithm),
        k=k,
        ranking=tuple(ranking),
    )


def parse_pool(text: str) -> tuple[str, ...]:
    """``"A, B; C"`` or one per line → ``("A", "B", "C")`` (commas, semicolons and line breaks separate)."""
    for separator in (";", "\n", "\r"):
        text = text.replace(separator, ",")
    return tuple(part.strip() for part in text.split(",") if part.strip())


# The notice's dates (draw_services) ---------------------------------------------------------------------------


def notice_problem(*, today: datetime.date, seed_known_on: datetime.date) -> str | None:
    """Why a notice of ``today`` cannot announce a seed known from ``seed_known_on``, or ``None``: the seed's
    date is strictly after the notice's day (on that day the source may already be public)."""
    if seed_known_on <= today:
        return (
            "A semente deve ser conhecida depois do dia do aviso: informe uma data posterior a "
            f"{today:%d/%m/%Y} (no próprio dia do aviso, a fonte já pode ser pública)."
        )
    return None


def replacement_problem(*, today: datetime.date, pending_known_on: datetime.date, reason: str) -> str | None:
    """Why a pending notice whose seed is known from ``pending_known_on`` cannot be replaced ``today`` with
    ``reason``, or ``None``: once that day has come, the seed may be public and a new notice would re-roll a
    known result, so only a reasoned act replaces it (its reason printed on the draw's record)."""
    if today >= pending_known_on and not " ".join(reason.split()):
        return (
            f"A semente do aviso vigente é conhecida desde {pending_known_on:%d/%m/%Y}: o aviso não pode "
            "mais ser substituído, salvo por ato fundamentado. Informe o motivo da substituição (ele constará "
            "do registro do sorteio)."
        )
    return None
