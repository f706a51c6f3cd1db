"""The shape of ``declarations/`` (DESIGN.md, STYLE.md "One shape per sub-domain"): each sub-domain is a
package with the same files. Imports inside functions and module sizes are held for every app by
``tests/test_layers.py``. No database."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUB_DOMAINS = ("procedure", "hetero")
SHAPE = ("rules.py", "services.py", "selectors.py", "documents.py", "forms.py", "urls.py")


@pytest.mark.parametrize("package", SUB_DOMAINS)
def test_each_sub_domain_has_the_same_files(package):
    folder = ROOT / "declarations" / package
    assert [name for name in SHAPE if not (folder / name).exists()] == []
    assert (folder / "views.py").exists() or (folder / "views" / "__init__.py").exists()
