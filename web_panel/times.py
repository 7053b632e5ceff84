"""Times as players read them: relative to now ("3 min ago" / "3 分前"), never a raw ISO stamp.

The journal stores UTC ISO 8601 stamps; a page shows how long ago that was, in the page's
language, inside a ``<time>`` element that keeps the stamp (``panel.js`` adds the phone's own
local date and time as its tooltip and keeps the words fresh).

>>> from datetime import datetime, timezone
>>> now = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)
>>> ago("2026-05-01T11:56:50+00:00", "en", now)
'3 min ago'
>>> ago("2026-05-01T11:56:50+00:00", "ja", now)
'3 分前'
>>> ago("2026-04-29T09:00:00+00:00", "en", now)
'2 days ago'
"""

from __future__ import annotations

from datetime import UTC, datetime

from markupsafe import Markup, escape

from web_panel.messages import MESSAGES

#: (seconds in the unit, the message keys for one and for several) from the largest unit down;
#: ``panel.js`` counts the same way.
_UNITS: tuple[tuple[int, str, str], ...] = (
    (86400, "ago.day", "ago.days"),
    (3600, "ago.hour", "ago.hours"),
    (60, "ago.min", "ago.mins"),
)


def parse_stamp(stamp: str) -> datetime | None:
    """A journal stamp as an aware datetime (UTC when it names no zone), or ``None``."""
    try:
        when = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def ago(stamp: str, lang: str, now: datetime | None = None) -> str:
    """How long ago ``stamp`` was, in ``lang`` ("just now" under a minute)."""
    when = parse_stamp(stamp)
    if when is None:
        return ""
    seconds = max(0, int(((now or datetime.now(UTC)) - when).total_seconds()))
    for size, one, many in _UNITS:
        if seconds >= size:
            count = seconds // size
            return MESSAGES[one if count == 1 else many][lang].format(n=count)
    return MESSAGES["ago.now"][lang]


def time_tag(stamp: str | None, lang: str) -> Markup:
    """``<time datetime=…>3 min ago</time>`` for a template (empty for no stamp)."""
    if not stamp:
        return Markup("")
    return Markup('<time datetime="{}" data-ago>{}</time>').format(
        escape(stamp), escape(ago(stamp, lang)))
