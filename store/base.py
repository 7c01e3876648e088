"""What every storage backend provides: the rows it hands up, and the transaction interface.

The core runs each operation as one transaction: a plain function ``fn(tx, *args)`` that a
backend runs on a worker thread of its own (see :meth:`Store.read` and :meth:`Store.write`).
``tx`` offers named queries only; the core never sees SQL, a driver's row type or its errors.
A unique-key violation becomes :class:`Conflict` and nothing else.

:class:`Tx` is the composition of the concerns' interfaces, each in its own module with its
queries and rows (``store.runs``, ``store.settings``, ``store.posts``, ``store.boards``,
``store.records``, ``store.challenges``, ``store.series``, ``store.pars``,
``store.seasons``, ``store.ratings``, ``store.reminders``); the rows are
named here too, where the core imports them from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from store.boards import BoardFilter, BoardLine, Boards, PeriodFilter, PeriodLine
from store.challenges import (
    ChallengeEntry,
    ChallengeRow,
    Challenges,
    ChallengeStats,
    NewChallenge,
)
from store.dialect import Conflict
from store.pars import ParRecord, ParRow, Pars, TurnRow
from store.posts import Posts
from store.ratings import DayResult, RatingFilter, RatingLine, RatingRow, Ratings
from store.records import DayMark, GameStats, PriorBest, Records, Streak
from store.reminders import AtRisk, Reminders
from store.runs import NewRun, RunChange, RunRow, Runs
from store.seasons import Seasons
from store.series import Series, SeriesBest, SeriesEntry, SeriesRow
from store.settings import Settings

T = TypeVar("T")


class Tx(
    Runs, Settings, Posts, Boards, Records, Challenges, Series, Pars, Seasons, Ratings,
    Reminders, Protocol,
):
    """The named queries of one transaction (all synchronous: they run on the store's thread)."""


class Store(Protocol):
    """A database: transactions in, results out. Open with the backend's ``open``."""

    async def read(self, fn: Callable[..., T], *args: Any, replica: bool = False) -> T:
        """Run ``fn(tx, *args)`` in a read transaction (one consistent snapshot); with
        ``replica``, on the read replica when the backend has one (a little behind)."""
        ...

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(tx, *args)`` in a write transaction, committed durably when it returns;
        if ``fn`` raises, nothing it wrote stays and the exception propagates."""
        ...

    async def migrate(self) -> int:
        """Apply pending migrations; return the schema version."""
        ...

    async def close(self) -> None: ...


__all__ = [
    "AtRisk", "BoardFilter", "BoardLine", "ChallengeEntry", "ChallengeRow", "ChallengeStats",
    "Conflict",
    "DayMark", "DayResult", "GameStats", "NewChallenge", "NewRun", "ParRecord", "ParRow",
    "PeriodFilter", "PeriodLine", "PriorBest", "RatingFilter", "RatingLine", "RatingRow",
    "RunChange", "RunRow", "SeriesBest", "SeriesEntry", "SeriesRow", "Store", "Streak",
    "TurnRow", "Tx",
]
