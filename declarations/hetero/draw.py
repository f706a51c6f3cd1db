"""The auditable draw of a heteroidentification commission's members from a pool (RULES §5; ADC 41).

PURE module: no Django, no project import. Anyone can recompute a draw from its published record
(seed, pool, k) with ``manage.py draw_check`` or by hand with any SHA-256 tool:

1. The **seed** is public text fixed before the draw (the digits of a published lottery result, the hash
   of the call list, …). Surrounding whitespace is removed and the text is put in Unicode NFC form; it is
   then encoded as UTF-8 and hashed once: ``S = SHA-256(seed)`` (32 bytes).
2. Each **member** of the pool is named by a public identifier (an id, a registration number; never a
   CPF), trimmed the same way. Its key is ``K(m) = SHA-256(S ‖ m)`` (``m`` in UTF-8; ``S`` has a fixed
   length, so no two (seed, member) pairs give the same input).
3. The members are ranked by ``K(m)`` as a hexadecimal string, ascending (the identifier breaks an
   impossible tie); the first ``k`` are drawn, in that order (the order also names the substitutes: the
   next in the ranking replaces a drawn member who cannot sit).

The ranking does not depend on the order the pool is listed in, so nobody gains anything by reordering
it; the record still keeps the pool's order and its digest ``SHA-256(m1 ␊ m2 ␊ …)`` so the published list
can be checked to be the one drawn from.

Two steps make "fixed before the draw" checkable: the **announcement** publishes the pool, k and the seed's
public SOURCE (which lottery result, which hash) with the date from which the seed is known, before any seed
is accepted; the **draw** later takes the seed, no earlier than that date, from the announced pool and k only.
Anyone can then check the seed against its announced source and the announcement's date against the seed's.

Pinned example (tests/declarations/test_draw.py): seed ``"2026-11-30 Mega-Sena 2900: 05 12 23 34 45 56"``,
pool ``A, B, C, D, E, F, G`` and k = 5 draw the members pinned there.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

ALGORITHM = "sha256-rank-v1"
# The algorithm as the acts print it: in words, without the variables of the docstring above (a public act
# names no "S" or "K(m)"), and as exact, so anyone can redo the draw from it.
ALGORITHM_TEXT = (
    "Calcula-se o resumo SHA-256 da semente (sem espaços nas pontas, na forma Unicode NFC, codificada em "
    "UTF-8), com 32 bytes; para cada membro, a sua chave é o resumo SHA-256 desses 32 bytes seguidos do "
    "nome do membro em UTF-8; os membros são ordenados pela chave, escrita em hexadecimal, da menor para a "
    "maior; os primeiros, no número de sorteados, são os sorteados, e os seguintes, os suplentes, na ordem."
)


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


def normalise(text: str) -> str:
    return unicodedata.normalize("NFC", text.strip())


def seed_digest(seed: str) -> bytes:
    return hashlib.sha256(normalise(seed).encode("utf-8")).digest()


def member_key(seed_hash: bytes, member: str) -> str:
    return hashlib.sha256(seed_hash + normalise(member).encode("utf-8")).hexdigest()


def pool_digest(pool: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(normalise(member) for member in pool).encode("utf-8")).hexdigest()


def check(pool: Sequence[str], k: int) -> tuple[str, ...]:
    """The pool (normalised) if ``k`` members can be drawn from it, whatever the seed; else ``DrawError``.
    The announcement of a draw is checked with it before any seed exists."""
    members = tuple(normalise(member) for member in pool)
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


def draw(seed: str, pool: Sequence[str], k: int) -> DrawResult:
    """Draw ``k`` members of ``pool`` with the public ``seed`` (the algorithm in the module's docstring)."""
    text = normalise(seed)
    if not text:
        raise DrawError("Informe a semente pública do sorteio (fixada e publicada antes do sorteio).")
    members = check(pool, k)
    digest = seed_digest(text)
    ranking = sorted(
        (Ranked(member=member, key=member_key(digest, member)) for member in members),
        key=lambda entry: (entry.key, entry.member),
    )
    return DrawResult(
        algorithm=ALGORITHM,
        seed=text,
        seed_digest=digest.hex(),
        pool=members,
        pool_digest=pool_digest(members),
        k=k,
        ranking=tuple(ranking),
    )


def parse_pool(text: str) -> tuple[str, ...]:
    """``"A, B; C"`` or one per line → ``("A", "B", "C")`` (commas, semicolons and line breaks separate)."""
    for separator in (";", "\n", "\r"):
        text = text.replace(separator, ",")
    return tuple(part.strip() for part in text.split(",") if part.strip())
