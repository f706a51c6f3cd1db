"""Accessibility checks with axe-core (vendored in ``tests/vendor/axe-core``), for the browser tests.

``violations(page)`` injects axe into the page Playwright has open and returns what it reports for WCAG
2.0/2.1 A and AA (and axe's best practices); ``assert_accessible(page)`` fails the test with a readable
list. The staff pages must have no violation of any impact; the public pages none serious or
critical and we hold them to the same bar.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE_VERSION = "4.14.1"
AXE_SOURCE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
IMPACTS = ("minor", "moderate", "serious", "critical")


_SOURCE: str | None = None


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


def violations(page: Any, *, impacts: tuple[str, ...] = IMPACTS) -> list[dict[str, Any]]:
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
    return [v for v in found if (v.get("impact") or "minor") in impacts]


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for violation in found:
        targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
        lines.append(f"[{violation['impact']}] {violation['id']}: {violation['help']} — {targets}")
    return "\n".join(lines)


def assert_accessible(page: Any, *, impacts: tuple[str, ...] = IMPACTS) -> None:
    found = violations(page, impacts=impacts)
    assert not found, f"axe-core {AXE_VERSION} em {page.url}:\n{describe(found)}"
