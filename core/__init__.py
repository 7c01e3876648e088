"""The core: what Dungeon Deck does, with no Discord in it.

One module per concern, each a small class over a shared :class:`~core.context.Context`
(the store, the clock, fresh seeds):

- ``runs``: starting, reading and playing runs (act, undo, resign, abandon);
- ``daily``: daily seeds, commitments, day numbers, the daily's window and runs;
- ``rankings``: a day's leaderboards, a player's standing, stats and streaks (``names``: the
  name a player is listed by, kept by ``/daily``'s start in its own transaction);
- ``settings``: per-server settings, player preferences and meta values;
- ``challenges``: one fresh deal played by friends, compared on a card, closed at a deadline;
- ``series``: Tomb of Four Kings runs back to back, their points added up.
- ``seasons``: each month's champions, posted once per server, and the champion role;
- ``par``: each closed day's deals solved once (the best score they allow), on boards and stats;
- ``ratings``: each closed day's global board rated once, in order (openskill), and the
  rating board; ``skill`` the rating of a day, ``freezes`` the streak freezes;
- ``hints``: a good move for a practice run, from what its player can know;
- ``replays``: finished dailies of closed days step by step, with their turning point;
- ``lookback``: a closed day's look back at a player's daily (par, percentile, the day's best,
  the turning point) and the stats card's figures;
- ``workers``: the processes the solver and the hints run in, off the event loop.

:class:`Core` opens a store and wires them together; the Discord adapter (``bot/``), the
tests and the benchmarks all drive it the same way::

    core = await Core.open("data/dungeon-deck.sqlite3")
    run = await core.runs.start(user_id, "donsol")
    run = await core.runs.act(run.id, user_id, run.version, run.actions[0])
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.challenges import Challenges
from core.clock import Clock, system_clock
from core.context import Context, random_seed
from core.daily import Daily, ranking_window
from core.errors import (
    AlreadyPlayed,
    BadRequest,
    BrokenRun,
    CannotUndo,
    IllegalMove,
    NotYourRun,
    Refusal,
    RunNotFound,
    RunOver,
    StaleBoard,
)
from core.hints import Hints
from core.lookback import LookBacks
from core.model import Run, RunKind, RunStatus
from core.par import Pars
from core.rankings import Rankings
from core.ratings import Ratings
from core.replays import Replays
from core.runs import Runs
from core.seasons import Seasons
from core.series import Series
from core.settings import Settings
from core.workers import Workers
from store import open_store
from store.base import Store


class Core:
    """Every concern of the core over one store. Open with :meth:`open`, end with :meth:`close`."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Clock | None = None,
        random_seed: Callable[[], int] | None = None,
        daily_secret: str | None = None,
    ) -> None:
        self.store = store
        self.ctx = Context(store, clock or system_clock, random_seed or _random_seed)
        self.runs = Runs(self.ctx, ranking_window)
        self.daily = Daily(self.ctx, self.runs, daily_secret)
        self.settings = Settings(self.ctx)
        self.rankings = Rankings(self.ctx, self.daily)
        self.challenges = Challenges(self.ctx, self.runs)
        self.series = Series(self.ctx, self.runs)
        self.seasons = Seasons(self.ctx)
        #: Worker processes for the solver and hints (started on first use, ended by close).
        self.workers = Workers()
        self.par = Pars(self.ctx, self.daily, self.workers)
        self.ratings = Ratings(self.ctx, self.daily)
        self.hints = Hints(self.runs, self.workers)
        self.replays = Replays(self.ctx, self.runs, self.workers)
        self.lookback = LookBacks(self.ctx, self.daily, self.runs, self.replays, self.ratings)

    @classmethod
    async def open(
        cls,
        database: str | Path,
        *,
        clock: Clock | None = None,
        random_seed: Callable[[], int] | None = None,
        daily_secret: str | None = None,
        synchronous: str = "FULL",
        read_url: str | None = None,
        pool_size: int | None = None,
    ) -> Core:
        """Open the database (a SQLite file path, or a ``postgresql://`` URL with its read
        replica's URL and pool size: see ``store.open_store``), apply pending migrations and
        return the core."""
        store = await open_store(
            database, synchronous=synchronous, read_url=read_url, pool_size=pool_size
        )
        try:
            await store.migrate()
            return cls(store, clock=clock, random_seed=random_seed, daily_secret=daily_secret)
        except BaseException:
            await store.close()
            raise

    async def close(self) -> None:
        self.workers.close()
        await self.store.close()

    async def __aenter__(self) -> Core:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


_random_seed = random_seed

__all__ = [
    "AlreadyPlayed",
    "BadRequest",
    "BrokenRun",
    "CannotUndo",
    "Core",
    "IllegalMove",
    "NotYourRun",
    "Refusal",
    "Run",
    "RunKind",
    "RunNotFound",
    "RunOver",
    "RunStatus",
    "StaleBoard",
]
