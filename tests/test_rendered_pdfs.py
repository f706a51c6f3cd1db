"""The tests' PDF cache (tests/rendered_pdfs.py): the same HTML rendered once, by this process or read from
the folder another process or run left; a named file's content, not its address, in the key."""

from __future__ import annotations

from pathlib import Path

from tests.rendered_pdfs import PdfCache


class Renderer:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, html: str) -> bytes:
        self.calls.append(html)
        return f"%PDF {len(self.calls)}".encode()


def page(image: Path) -> str:
    return f'<img src="{image.as_uri()}"><p>Edital</p>'


def test_the_same_html_is_rendered_once_and_read_back_by_another_process(tmp_path):
    image = tmp_path / "brasao.png"
    image.write_bytes(b"png one")
    folder = tmp_path / "pdfs"
    first = PdfCache(Renderer(), folder=folder)
    pdf = first(page(image))
    assert first(page(image)) == pdf and len(first.render_pdf.calls) == 1 and first.hits == 1
    other = PdfCache(Renderer(), folder=folder)  # the other worker, or the next run
    assert other(page(image)) == pdf and other.render_pdf.calls == [] and other.from_disk == 1


def test_the_key_holds_a_named_file_s_content_not_its_address(tmp_path):
    one, moved = tmp_path / "a" / "brasao.png", tmp_path / "b" / "brasao.png"
    for path in (one, moved):
        path.parent.mkdir()
        path.write_bytes(b"png one")
    cache = PdfCache(Renderer(), folder=tmp_path / "pdfs")
    pdf = cache(page(one))
    assert cache(page(moved)) == pdf  # the same emblem in another test's folder
    changed = tmp_path / "c" / "brasao.png"
    changed.parent.mkdir()
    changed.write_bytes(b"png two")
    assert cache(page(changed)) != pdf and len(cache.render_pdf.calls) == 2


def test_told_to_render_again_it_reads_nothing_from_the_folder(tmp_path, monkeypatch):
    image = tmp_path / "brasao.png"
    image.write_bytes(b"png one")
    PdfCache(Renderer(), folder=tmp_path / "pdfs")(page(image))
    monkeypatch.setenv("COTAS_TEST_PDF", "1")
    again = PdfCache(Renderer(), folder=tmp_path / "pdfs")
    again(page(image))
    assert len(again.render_pdf.calls) == 1 and again.from_disk == 0
