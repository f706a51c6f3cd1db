"""Issue 25, N1: nobody can fill the public page cache. An id written another way (``0004`` for ``4``)
is a 404, never the same page under a new address; a search is stored under its folded, sorted words
without repeats, in a store of its own capped per page and in all, so a flood of variants neither grows
it without bound nor pushes the real pages out."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.urls import reverse

from contests.publication import GENERATION_KEY
from contests.text_search import fold
from portal.pages import SEARCH_CACHE_ALIAS
from tests.builders import make_world

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_caches():
    for alias in ("public", SEARCH_CACHE_ALIAS):
        caches[alias].clear()
    yield
    for alias in ("public", SEARCH_CACHE_ALIAS):
        caches[alias].clear()


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return make_world(cast)


def entries(alias: str) -> int:
    """Stored entries (LocMemCache, the default), the publication's generation aside."""
    return len([key for key in stored_keys(alias) if not key.endswith(GENERATION_KEY)])


def stored_keys(alias: str) -> list[str]:
    return list(caches[alias]._cache)  # type: ignore[attr-defined]  # LocMemCache's dict


def list_url(world, kind="geral") -> str:
    return reverse("public:list", args=[world["contest"].slug, world["run"].pk, world["position"].pk, kind])


def test_n1_a_zero_padded_id_is_a_404_and_stores_nothing(client, world):
    slug, run, position = world["contest"].slug, world["run"].pk, world["position"].pk
    assert client.get(list_url(world)).status_code == 200
    stored = entries("public")
    for padded in (
        f"/publico/concursos/{slug}/resultados/0{run}/cargos/{position}/geral/",
        f"/publico/concursos/{slug}/resultados/{run}/cargos/000{position}/geral/",
        f"/publico/concursos/{slug}/resultados/00{run}/",
        f"/publico/concursos/{slug}/cargos/0{position}/nomeacoes/",
        f"/publico/concursos/{slug}/resultados/{run}/cargos/0{position}/geral.csv",
    ):
        assert client.get(padded).status_code == 404, padded
    assert entries("public") == stored
    assert client.get(f"/publico/concursos/{slug}/resultados/{run}/").status_code == 200  # as written


def test_n1_search_variants_are_one_search_and_one_stored_page(client, world):
    name = world["registration"].candidate.full_name
    first = name.split()[0]
    variants = [
        name,
        name.upper(),
        " ".join(reversed(name.split())),
        f"{name} {first} {first.lower()}",
        "  ".join(word.swapcase() for word in name.split()),
    ]
    pages_before = entries("public")
    etags = set()
    for query in variants:
        response = client.get(list_url(world), {"q": query})
        assert response.status_code == 200 and world["registration"].number in response.content.decode()
        etags.add(response["ETag"])
    assert len(etags) == 1  # one page, whatever the case, order or repeats
    assert entries(SEARCH_CACHE_ALIAS) <= 3  # the page, and its two counters
    assert entries("public") == pages_before  # searches never go to the pages' store


def test_n1_stored_searches_are_capped_per_page_and_never_push_a_page_out(client, world, settings):
    settings.PUBLIC_SEARCHES_PER_PAGE = 3
    page = client.get(list_url(world))
    stored_pages = set(stored_keys("public"))
    number = world["registration"].number
    for n in range(40):  # 40 different searches that each find somebody (a number's prefix, then words)
        response = client.get(list_url(world), {"q": f"{number} x{n}" if n else number})
        assert response.status_code == 200
    searches = [key for key in stored_keys(SEARCH_CACHE_ALIAS) if ":public:" in key]
    assert len(searches) <= 3
    assert stored_pages <= set(stored_keys("public"))  # every page still there
    assert client.get(list_url(world))["ETag"] == page["ETag"]


def test_n1_past_its_cap_a_page_s_searches_no_longer_touch_the_shared_counters(client, world, settings):
    """Once this process has seen a page's counter past its cap, that page's other searches of the same
    generation are answered without reading or moving the counters (six round trips to a shared cache);
    a publication's new generation counts again."""
    settings.PUBLIC_SEARCHES_PER_PAGE = 2
    names = sorted({r.candidate.full_name for r in world["contest"].registrations.all()})
    queries = [name.lower() for name in names]  # each finds somebody (only those are stored)
    assert len(queries) >= 7
    searches = caches[SEARCH_CACHE_ALIAS]

    def search(query: str) -> None:
        response = client.get(list_url(world), {"q": query})
        html = response.content.decode()
        assert response.status_code == 200 and "encontrad" in html and "Ninguém encontrado" not in html

    def counters() -> dict[str, int]:
        return {
            key: searches.get(key.split(":", 2)[2])
            for key in stored_keys(SEARCH_CACHE_ALIAS)
            if ":searches:" in key
        }

    for query in queries[:3]:  # two stored, the third finds the page full
        search(query)
    counted = counters()
    assert sorted(counted.values()) == [3, 3]  # the page's and the whole's: two stored, one refused
    for query in queries[3:6]:
        search(query)
    assert counters() == counted  # nothing read or moved them

    caches["public"].incr(GENERATION_KEY)  # what a publication does
    search(queries[6])
    newer = {key: value for key, value in counters().items() if key not in counted}
    assert sorted(newer.values()) == [1, 1]  # the new generation's counters: counted, and stored


def test_n1_a_search_is_answered_by_its_folded_words(client, world):
    """The box shows the search as it was run (folded, sorted), and the page's own links keep it so."""
    candidate = world["registration"].candidate
    word = candidate.full_name.split()[0]
    response = client.get(list_url(world), {"q": f"{word.upper()} {word}"})
    html = response.content.decode()
    assert f'value="{fold(word)}"' in html
