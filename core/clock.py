"""Time for the core: an injectable clock, UTC days and the timestamps runs are stamped with."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime

#: Returns the current moment; tests inject one that moves only when told to.
Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive datetime from an injected clock is taken to be UTC already."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def timestamp(moment: datetime) -> str:
    """The stored form of a moment: ISO 8601, UTC, milliseconds (sorts as text)."""
    return utc(moment).isoformat(timespec="milliseconds")


def utc_day(moment: datetime) -> date:
    return utc(moment).date()


def parse_timestamp(text: str) -> datetime:
    return utc(datetime.fromisoformat(text))
