"""Times as a player sees them: Discord timestamps, which each reader's app shows in their own
time zone and keeps counting down (``<t:UNIX:R>``, ``<t:UNIX:t>``, ``<t:UNIX:f>``).

Discord renders them in message text, embed descriptions and field values only (not in
titles, footers, author names or button labels), so those say times in words or not at all.
The core states times in UTC words ("2026-12-05 01:00 UTC", as the terminal and the logs read
them); :func:`localized` turns such words in a refusal into timestamps on their way out.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from core.clock import utc

#: A time as the core words it: ``2026-12-05 01:00 UTC``.
UTC_WORDS = re.compile(r"(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}) UTC")


def _stamp(moment: datetime, style: str) -> str:
    return f"<t:{int(utc(moment).timestamp())}:{style}>"


def countdown(moment: datetime) -> str:
    """``in 5 hours`` (or ``2 hours ago``), counted live by the reader's app."""
    return _stamp(moment, "R")


def clock(moment: datetime) -> str:
    """The time of day in the reader's zone: ``02:00``."""
    return _stamp(moment, "t")


def date_time(moment: datetime) -> str:
    """The date and time in the reader's zone: ``5 December 2026 02:00``."""
    return _stamp(moment, "f")


def at(moment: datetime) -> str:
    """``5 December 2026 02:00 (in 13 hours)``: when, and how long from now."""
    return f"{date_time(moment)} ({countdown(moment)})"


def localized(text: str) -> str:
    """``text`` with each ``YYYY-MM-DD HH:MM UTC`` the core wrote made a timestamp."""
    def stamp(match: re.Match[str]) -> str:
        day, hour, minute = match.groups()
        moment = datetime.fromisoformat(f"{day}T{hour}:{minute}").replace(tzinfo=UTC)
        return at(moment)

    return UTC_WORDS.sub(stamp, text)
