"""The draw's printed record is what was hashed (declarations/hetero/draw.py, algorithm v2; ADC 41: a draw
anyone can redo): a seed or a name typed with double spaces or tabs is hashed as printed, the pool is printed
in the published order, and the record read back from its PDF is recomputed by ``draw_check``; a record of
the older algorithm v1 still recomputes with v1."""

from __future__ import annotations

import io
import re
import shlex

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from declarations.hetero import draw as draw_rules
from declarations.hetero import draw_services
from declarations.hetero import services as hs
from declarations.hetero.documents import Signer, draw_context, draw_publish
from declarations.models import MemberDraw
from tests.builders import make_contest
from tests.declarations.test_draw_services import KNOWN_ON, SOURCE, at

pytestmark = pytest.mark.django_db
SIGNER = Signer("Ana Souza", "Procuradora")
TYPED_SEED = "Mega-Sena  concurso 2950:\t05 12  23 34 45 56 "
TYPED_NAMES = [
    "Zélia  Prado",
    "Bruno\tCosta",
    "Ana Maria   Reis",
    "Carla Dias",
    "Davi Lima",
    "Elisa Nunes",
    "Flávio  Rocha",
]
PEOPLE = [
    hs.MemberInput(name=name, office="Servidor(a)", gender=("feminino", "masculino")[i % 2], colour=("preta", "parda", "branca")[i % 3])
    for i, name in enumerate(TYPED_NAMES)
]  # fmt: skip


def drawn_record(cast, seed=TYPED_SEED):
    contest = make_contest(pcd_percent=0)
    announcement = draw_services.draw_announce(
        contest=contest, kind="first", pool=PEOPLE, seed_source=SOURCE, seed_known_on=KNOWN_ON,
        by=cast["legal"], now=at(KNOWN_ON.replace(day=1)), signer=SIGNER,
    )  # fmt: skip
    formed = draw_services.draw_perform(
        announcement=announcement, seed=seed, formed_on=KNOWN_ON, by=cast["legal"], now=at(KNOWN_ON, 21)
    )
    return formed.draw


def found(pattern: str, text: str) -> re.Match:
    match = re.search(pattern, text)
    assert match is not None, f"{pattern!r} not in the printed record"
    return match


def read_back(pdf: bytes) -> dict:
    """What a reader takes from the printed record: the seed, the algorithm, k, the pool in the published
    order with each key's start, and the drawn members in order."""
    lines = [
        line.strip() for page in PdfReader(io.BytesIO(pdf)).pages for line in page.extract_text().splitlines()
    ]
    text = " ".join(" ".join(lines).split())
    seed = found(r"SEMENTE PÚBLICA (.+?) Resumo SHA-256 da semente: ([0-9a-f]{64})", text)
    rows = [
        m.groups()
        for line in lines
        if (m := re.fullmatch(r"(\d+) (.+) ([0-9a-f]{16})… (\d+)º (sorteado|suplente)", line))
    ]
    drawn = found(r"Sorteados: (.+?)\.(?: Suplentes|$| Foram)", text).group(1)
    return {
        "seed": seed.group(1),
        "seed_digest": seed.group(2),
        "algorithm": found(r"ALGORITMO \((SHA256-RANK-V\d)\)", text).group(1).lower(),
        "k": int(found(r"Foram sorteados (\d+)", text).group(1)),
        "pool": [(int(n), member, key, int(position)) for n, member, key, position, _ in rows],
        "drawn": [re.sub(r"^\d+º ", "", part) for part in drawn.split("; ")],
    }  # fmt: skip


def test_adc41_a_draw_is_recomputed_by_draw_check_from_its_printed_pdf(cast):
    record = drawn_record(cast)
    document = draw_publish(record=record, by=cast["legal"], signer=SIGNER)
    printed = read_back(bytes(document.pdf))
    # The pool is printed in the published order (the notice's), not in the draw's.
    assert [n for n, *_ in printed["pool"]] == list(range(1, 8))
    assert [member for _, member, *_ in printed["pool"]] == [" ".join(name.split()) for name in TYPED_NAMES]
    out = io.StringIO()
    call_command(
        "draw_check", "--seed", printed["seed"], "--pool", ", ".join(m for _, m, *_ in printed["pool"]),
        "-k", str(printed["k"]), "--algorithm", printed["algorithm"], stdout=out,
    )  # fmt: skip
    lines = out.getvalue().splitlines()
    assert lines[0] == ", ".join(printed["drawn"]) == ", ".join(record.drawn)
    assert f"S = {printed['seed_digest']}" in out.getvalue()
    keys = dict(
        re.findall(r"^\d+\. (.+) \((?:sorteado|suplente)\) K = ([0-9a-f]{64})$", out.getvalue(), re.M)
    )
    positions = {m: n for n, m in enumerate(re.findall(r"^\d+\. (.+) \(", out.getvalue(), re.M), start=1)}
    for _, member, key_start, position in printed["pool"]:
        assert keys[member].startswith(key_start) and positions[member] == position


def test_adc41_the_record_stores_the_algorithm_and_what_it_hashed(cast):
    record = drawn_record(cast)
    assert record.algorithm == record.announcement.algorithm == draw_rules.ALGORITHM_V2
    assert record.seed == "Mega-Sena concurso 2950: 05 12 23 34 45 56"
    assert record.pool == [" ".join(name.split()) for name in TYPED_NAMES]
    assert [entry["name"] for entry in record.announcement.pool] == record.pool  # the notice prints it too
    assert record.drawn == list(draw_rules.draw(" ".join(TYPED_SEED.split()), record.pool, 5).drawn)


def test_adc41_an_old_v1_record_still_recomputes_with_v1(client, cast):
    record = drawn_record(cast)
    typed_pool = [name.strip() for name in TYPED_NAMES]  # v1 hashed the inner spaces as typed
    v1 = draw_rules.draw(TYPED_SEED, typed_pool, 5, draw_rules.ALGORITHM_V1)
    assert v1.seed_digest != draw_rules.draw(TYPED_SEED, typed_pool, 5).seed_digest  # v1 is not v2 here
    MemberDraw.objects.filter(pk=record.pk).update(
        algorithm=v1.algorithm, seed=v1.seed, pool=list(v1.pool), pool_digest=v1.pool_digest,
        result=[entry.member for entry in v1.ranking], announcement=None,
    )  # fmt: skip
    record.refresh_from_db()
    page = client.get(reverse("public:hetero_draw", args=[record.pk])).content.decode()
    assert "confere com o registro" in page and "NÃO confere" not in page and "sha256-rank-v1" in page
    command = draw_context(record)["command"]
    assert "--algorithm sha256-rank-v1" in command
    out = io.StringIO()
    call_command(*shlex.split(command)[1:], stdout=out)
    assert out.getvalue().splitlines()[0] == ", ".join(v1.drawn)
