"""Series: Tomb of Four Kings runs back to back, each on a new deal, their points added up.

The rulebook's suggestion ("play three, five or ten games and add up your points, so
surviving matters"): a run counts its points only when the player got out alive. A death or
getting lost in the dark scores 0 already (the engine's score); a resigned run counts 0 too,
since its player never got out. Each run is a ``RunKind.SERIES`` run, never a daily.

A player has one series of a game going at a time: ``start`` brings back the one going, at
its current run. The next run is dealt only when the one before is over, and only once: the
key (series, number) makes a double click on "Next run" bring back the same run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.checks import check_id
from core.context import Context
from core.errors import N_, NotYourRun, Refusal
from core.model import Run, RunKind, RunStatus
from core.runs import Runs, insert_run, load
from store.base import NewRun, SeriesEntry, SeriesRow, Tx

GAME = "tomb"
LENGTHS = (3, 5, 10)


class SeriesNotFound(Refusal):
    def __init__(self) -> None:
        super().__init__(N_("That series does not exist (any more)."))


def counted(entry: SeriesEntry) -> int:
    """What a run adds to its series: its points if the player got out alive, else 0."""
    return entry.points if entry.status == RunStatus.OVER.value else 0


@dataclass(frozen=True)
class SeriesView:
    """A series and its runs so far, in order."""

    id: int
    owner_id: int
    game: str
    variant: str
    length: int
    entries: list[SeriesEntry]

    @property
    def total(self) -> int:
        return sum(counted(entry) for entry in self.entries)

    @property
    def current(self) -> SeriesEntry:
        return self.entries[-1]

    @property
    def finished(self) -> bool:
        return len(self.entries) == self.length and all(
            entry.status != RunStatus.PLAYING.value for entry in self.entries
        )

    def number_of(self, run_id: int) -> int:
        return next(entry.number for entry in self.entries if entry.run_id == run_id)


@dataclass(frozen=True)
class SeriesStart:
    """What ``/series`` gets: the series, its current run, and whether it began just now."""

    series: SeriesView
    run: Run
    created: bool


class Series:
    """Starting series, dealing their next runs, and reading them."""

    def __init__(self, ctx: Context, runs: Runs) -> None:
        self._ctx = ctx
        self._runs = runs

    async def start(
        self,
        owner_id: int,
        length: int,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> SeriesStart:
        """A new series of ``length`` runs and its first run, or the series the player has
        going (``created`` False), at its current run."""
        owner_id = check_id(owner_id, "user")
        if isinstance(length, bool) or length not in LENGTHS:
            raise Refusal(N_("A series is 3, 5 or 10 runs long."))
        dealt = self._runs.deal(
            owner_id, GAME, None, guild_id=guild_id, channel_id=channel_id,
            kind=RunKind.SERIES,
        )
        return await self._ctx.store.write(_start_tx, dealt, length, self._ctx.now())

    async def next(
        self, series_id: int, user_id: int, after: int
    ) -> tuple[SeriesView, Run, bool]:
        """The run after run number ``after``: dealt now (True), or the one dealt already.

        Refuses while run ``after`` is being played, after the last run, and for someone
        else's series.
        """
        return await self._ctx.store.write(self._next_tx, series_id, user_id, after)

    async def get(self, series_id: int) -> SeriesView:
        return await self._ctx.store.read(_view_tx, series_id)

    async def of_run(self, run_id: int) -> SeriesView | None:
        """The series a run belongs to, if any."""
        return await self._ctx.store.read(_of_run_tx, run_id)

    def _next_tx(
        self, tx: Tx, series_id: int, user_id: int, after: int
    ) -> tuple[SeriesView, Run, bool]:
        series = _view(tx, series_id)
        if series.owner_id != user_id:
            raise NotYourRun(_load(tx, series.current.run_id))
        if 0 < after < len(series.entries):  # dealt already (a second click)
            return series, _load(tx, series.entries[after].run_id), False
        if after != len(series.entries) or after < 1:
            raise Refusal(N_("That button was on an older board of this series."))
        if series.current.status == RunStatus.PLAYING.value:
            raise Refusal(N_("Finish this run first: the next one is dealt when it is over."))
        if after >= series.length:
            raise Refusal(N_("This series is over: all {length} runs are played."),
                          length=series.length)
        current = _load(tx, series.current.run_id)
        row, state = self._runs.deal(
            user_id, series.game, series.variant, guild_id=current.guild_id,
            channel_id=current.channel_id, kind=RunKind.SERIES,
        )
        run = insert_run(tx, row, state)
        tx.insert_series_run(series.id, after + 1, run.id)
        return _view(tx, series.id), run, True


def _view(tx: Tx, series_id: int) -> SeriesView:
    if isinstance(series_id, bool) or not isinstance(series_id, int):
        raise SeriesNotFound()
    row = tx.series(series_id)
    if row is None:
        raise SeriesNotFound()
    return _of_row(tx, row)


def _of_row(tx: Tx, row: SeriesRow) -> SeriesView:
    return SeriesView(row.id, row.owner_id, row.game, row.variant, row.length,
                      tx.series_entries(row.id))


def _load(tx: Tx, run_id: int) -> Run:
    row = tx.run(run_id)
    assert row is not None  # series_runs.run_id references runs
    return load(tx, row, repair=True)


def _start_tx(tx: Tx, dealt: tuple[NewRun, Any], length: int, now: str) -> SeriesStart:
    new, state = dealt
    going = tx.open_series(new.owner_id, GAME)
    if going is not None:
        series = _of_row(tx, going)
        return SeriesStart(series, _load(tx, series.current.run_id), created=False)
    series_id = tx.insert_series(new.owner_id, GAME, new.variant, length, now)
    run = insert_run(tx, new, state)
    tx.insert_series_run(series_id, 1, run.id)
    return SeriesStart(_view(tx, series_id), run, created=True)


def _view_tx(tx: Tx, series_id: int) -> SeriesView:
    return _view(tx, series_id)


def _of_run_tx(tx: Tx, run_id: int) -> SeriesView | None:
    found = tx.series_of_run(run_id)
    return None if found is None else _view(tx, found[0])
