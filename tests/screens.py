"""Screenshots of the browser tests, for a person to look at: taken only when asked.

A full-page screenshot has Chromium paint the whole page in software (``--disable-gpu``): the journeys'
module took 44 s with its screenshots and 31 s without, so ``make test`` takes none. To look at the
screens a flow went through, name a folder:

    COTAS_SCREENSHOTS=/tmp/cotas-telas make test PYTEST_ARGS="-m browser"

and every browser test leaves its screenshots there (``<name>.png``), named after the step.
"""

from __future__ import annotations

import os
from typing import Any

FOLDER = os.environ.get("COTAS_SCREENSHOTS", "")


def screenshot(page: Any, name: str) -> None:
    """The whole of ``page`` in ``FOLDER/<name>.png`` when screenshots were asked for; nothing otherwise."""
    if not FOLDER:
        return
    os.makedirs(FOLDER, exist_ok=True)
    page.screenshot(path=os.path.join(FOLDER, f"{name}.png"), full_page=True)
