"""One home per helper (code review): a candidate's name as shown is ``Candidate.display_name`` (the social
name where given, else the civil name), never rebuilt beside it; a day plus or minus days is
``contests.calendar.add_days``. A source scan, no database.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

from contests.calendar import add_days

ROOT = Path(__file__).resolve().parent.parent
APPS = ("candidates", "contests", "declarations", "portal", "workspace", "monitoring")
REBUILT_NAME = re.compile(r"social_name\s+or\b|social_name\|default")
# Its one home; a query of bare values (no model instance to ask) that picks the same name.
ALLOWED = {
    "candidates/models/registrations.py",
    "candidates/documents.py",  # values_list rows, not candidates
    # Another engineer's area at the time of this test (court orders): to use display_name there too.
    "declarations/courts/previews.py",
    "templates/declarations/court_order_detail.html",
}


def test_display_name_is_rebuilt_nowhere_else():
    sources = [p for app in APPS for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts]
    sources += list((ROOT / "templates").rglob("*.html"))
    hits = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources
        if str(path.relative_to(ROOT)) not in ALLOWED
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if REBUILT_NAME.search(line)
    ]
    assert hits == []


def test_add_days_is_the_one_day_arithmetic_and_never_raises():
    assert add_days(datetime.date(2026, 3, 2), 1) == datetime.date(2026, 3, 3)
    assert add_days(datetime.date(2026, 3, 1), -1) == datetime.date(2026, 2, 28)
    assert add_days(datetime.date.max, 1) is None
    assert add_days(datetime.date.min, -1) is None


def test_law_term_counts_the_day_before_with_add_days():
    source = (ROOT / "contests" / "law_term.py").read_text()
    assert "timedelta" not in source
