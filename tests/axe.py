"""Accessibility checks with axe-core (vendored in ``tests/vendor/axe-core``), for the browser tests.

``violations(page)`` injects axe into the page Playwright has open and returns what it reports for WCAG
2.0/2.1 A and AA (and axe's best practices); ``assert_accessible(page)`` fails the test with a readable
list. The staff pages must have no violation of any impact; the public pages none serious or
critical and we hold them to the same bar.

axe's answer is a function of the document (its DOM as it stands), the stylesheets and scripts it loads,
the viewport, axe's own source and the browser: ``Verdicts`` keeps each answer in
``.pytest_cache/axe-results/`` under a digest of all of them, and the next ``make test``, or the other
worker, takes it instead of running axe over the same document again (about 170 ms a page; the staff
sweep opens some 200). Left out of the digest: what a reader never sees (the hidden inputs' values, the
CSRF and form tokens new at every request; a task's id, a UUID) and what lays out the same whatever its
digits (the time printed after a date: a run a minute later prints another). Anything else that differs,
a word, an attribute, a byte of ``static/``, is another document and axe runs. A clean checkout (CI) runs
axe on every page; answers older than two days go, and ``COTAS_TEST_AXE=1`` runs axe everywhere.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from tests import kept_files

AXE_VERSION = "4.14.1"
AXE_SOURCE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
IMPACTS = ("minor", "moderate", "serious", "critical")


_SOURCE: str | None = None
ROOT = Path(__file__).resolve().parent.parent
# Never shown, or laid out the same whatever their value: a hidden input's value (CSRF and form tokens), a
# task's UUID, the time printed after a date ("06/12/2026 12:08" and "13:09").
UNSEEN = (
    (re.compile(r'(<input type="hidden"[^>]*? value=")[^"]*(")'), r"\1…\2"),
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "uuid"),
    (re.compile(r"(\d\d/\d\d/\d{4},? (?:às )?)\d\d:\d\d:\d\d"), r"\1hh:mm:ss"),
    (re.compile(r"(\d\d/\d\d/\d{4},? (?:às )?)\d\d:\d\d(?=\D)"), r"\1hh:mm"),
)


def _source() -> str:
    global _SOURCE
    if _SOURCE is None:
        _SOURCE = AXE_SOURCE.read_text(encoding="utf-8") + "\n;undefined"
    return _SOURCE


def preload(page: Any) -> None:
    """axe in every document ``page``'s context opens from now on, evaluated as the document is created,
    for a test that checks page after page: injected after each load it cost some 30 ms more a page (the
    sweeps over every staff and public page). Every page of the context pays for it, so a journey that
    checks only some of its pages does not call this."""
    page.context.add_init_script(_source())


class Verdicts:
    """axe's answers kept on disk by a digest of what they depend on (the module's docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.refresh = bool(os.environ.get("COTAS_TEST_AXE"))
        self._environment: dict[str, bytes] = {}
        self.ran = self.reused = 0

    def environment(self, browser_version: str) -> bytes:
        """axe's source, the browser's version and every file of ``static/`` (the pages' CSS and scripts)."""
        found = self._environment.get(browser_version)
        if found is None:
            digest = hashlib.sha256(_source().encode())
            digest.update(browser_version.encode())
            for path in sorted((ROOT / "static").rglob("*")):
                if path.is_file():
                    digest.update(str(path.relative_to(ROOT)).encode())
                    digest.update(path.read_bytes())
            found = self._environment[browser_version] = digest.digest()
        return found

    def key(self, html: str, viewport: object, browser_version: str) -> str:
        for pattern, replacement in UNSEEN:
            html = pattern.sub(replacement, html)
        digest = hashlib.sha256(self.environment(browser_version))
        digest.update(json.dumps(viewport, sort_keys=True).encode())
        digest.update(html.encode())
        return digest.hexdigest()[:40]

    def get(self, key: str) -> list[dict[str, Any]] | None:
        if self.refresh:
            return None
        with contextlib.suppress(OSError, ValueError):
            found = json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
            self.reused += 1
            return found
        return None

    def put(self, key: str, found: list[dict[str, Any]]) -> None:
        self.ran += 1
        kept_files.write_whole(self.folder / f"{key}.json", json.dumps(found).encode())

    def prune(self) -> None:
        """Answers older than two days go (a document of an older checkout rarely comes back)."""
        kept_files.prune(self.folder, "*.json")


VERDICTS = Verdicts(ROOT / ".pytest_cache" / "axe-results")


def violations(page: Any, *, impacts: tuple[str, ...] = IMPACTS) -> list[dict[str, Any]]:
    html = _settled_html(page)
    key = VERDICTS.key(html, page.viewport_size, page.context.browser.version)
    found = VERDICTS.get(key)
    if found is None:
        found = _run_axe(page)
        VERDICTS.put(key, found)
    return [v for v in found if (v.get("impact") or "minor") in impacts]


def _settled_html(page: Any) -> str:
    """The document's HTML once it has loaded. A test that checks a page right after clicking a link can
    find the next document committed but not yet parsed (``document.documentElement`` is then null): the
    check waits for the load instead of failing on a page that is still arriving."""
    for _ in range(50):
        page.wait_for_load_state("load")
        try:
            html = page.evaluate(
                "() => document.readyState === 'complete' && document.documentElement"
                " ? document.documentElement.outerHTML : null"
            )
        except Exception as error:  # the document went away while it was read: read the next one
            if "Execution context was destroyed" not in str(error):
                raise
            html = None
        if html is not None:
            return html
        page.wait_for_timeout(20)
    raise AssertionError(f"A página não terminou de carregar: {page.url}")


def _run_axe(page: Any) -> list[dict[str, Any]]:
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated through the DevTools protocol, which the page's strict CSP does not govern (an inline
        # <script> tag would be refused, and the CSP must stay as it is).
        page.evaluate(_source())
    # Only the violations come back, every node of each: axe still runs every rule of the tags, but does not
    # gather the passes' and the inapplicable rules' nodes nor send them over (half the time of each page).
    found = page.evaluate(
        """async (tags) => (await window.axe.run(document, {
            runOnly: {type: 'tag', values: tags}, resultTypes: ['violations'],
        })).violations""",
        TAGS,
    )
    return found


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for violation in found:
        targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
        lines.append(f"[{violation['impact']}] {violation['id']}: {violation['help']} — {targets}")
    return "\n".join(lines)


def assert_accessible(page: Any, *, impacts: tuple[str, ...] = IMPACTS) -> None:
    found = violations(page, impacts=impacts)
    assert not found, f"axe-core {AXE_VERSION} em {page.url}:\n{describe(found)}"
