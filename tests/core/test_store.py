"""The store on its own, on both backends: what counts as a win is the caller's to say, a
refused insert is Conflict with the transaction still usable, and on SQLite a slow read holds
up no other read and the database file is private."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import stat
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from core import Core
from store import open_store
from store.base import Conflict, NewRun, Tx
from store.sqlite import SqliteStore
from tests.core.conftest import SECRET, Clock

ALICE = 1001


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[object]:
    opened = await open_store(db_path)
    await opened.migrate()
    yield opened
    await opened.close()


def new_run(outcome: str | None, day: str, *, kind: str = "daily") -> NewRun:
    return NewRun(
        owner_id=ALICE, guild_id=None, channel_id=None, game="quest", variant="normal",
        seed=1, deck=None, kind=kind, day=day, status="playing" if outcome is None else "over",
        outcome=outcome, score=[3], state={}, ranked=False, rules="quest/1",
        now=f"{day}T12:00:00Z", finished_at=None if outcome is None else f"{day}T12:30:00Z",
        score_text="3 rooms", points=3,
    )


async def test_the_store_counts_as_wins_the_outcomes_the_caller_names(store) -> None:
    days = {"2026-12-01": "cleared", "2026-12-02": "won", "2026-12-03": "fled",
            "2026-12-04": "cleared"}

    def insert(tx: Tx) -> None:
        for day, outcome in days.items():
            tx.insert_run(new_run(outcome, day))

    await store.write(insert)

    def record(tx: Tx, wins: frozenset[str]):
        return (tx.game_stats(ALICE, "quest", wins),
                tx.daily_marks(ALICE, "quest", "2026-12-01", wins))

    stats, marks = await store.read(record, frozenset({"cleared"}))
    assert (stats.finished, stats.wins, stats.dailies, stats.average_points) == (4, 2, 4, 3.0)
    assert [(m.day, m.won) for m in marks] == [
        ("2026-12-01", True), ("2026-12-02", False), ("2026-12-03", False),
        ("2026-12-04", True),
    ]  # "won" is no win of this game's: the store has no word of its own
    stats, marks = await store.read(record, frozenset())
    assert stats.wins == 0 and not any(m.won for m in marks)
    assert (await store.read(record, frozenset({"won", "fled"})))[0].wins == 2


async def test_a_refused_insert_is_conflict_and_the_transaction_goes_on(store) -> None:
    """The one-daily key refuses a second daily; the same transaction then reads on (on
    PostgreSQL an error would have aborted it)."""
    first = (await store.write(lambda tx: tx.insert_run(new_run(None, "2026-12-01")))).id

    def refused(insert) -> str:
        try:
            insert()
        except Conflict:
            return "conflict"
        return "inserted"

    def twice(tx: Tx) -> tuple[str, str, int | None, list[str]]:
        daily = refused(lambda: tx.insert_run(new_run(None, "2026-12-01")))
        tx.append_move(first, 1, "a", "2026-12-01T12:01:00Z")
        move = refused(lambda: tx.append_move(first, 1, "b", "2026-12-01T12:02:00Z"))
        return daily, move, tx.run_version(first), tx.actions(first)

    assert await store.write(twice) == ("conflict", "conflict", 0, ["a"])


@pytest.mark.sqlite_only
async def test_a_slow_read_does_not_delay_a_clicks_read(db_path: Path) -> None:
    """A board that takes long to add up (a week's board over a million runs) holds one
    reader; the read of a click on another player's run is answered meanwhile."""
    async with await Core.open(db_path, clock=Clock(), daily_secret=SECRET) as core:
        run = await core.runs.start(ALICE, "donsol", seed=3)
        reading, release = threading.Event(), threading.Event()

        def slow_board(tx: Tx) -> int:
            size = len(tx.unfinished(ALICE, None))
            reading.set()
            release.wait(10)  # the board is still being added up
            return size

        slow = asyncio.ensure_future(core.store.read(slow_board))
        await asyncio.to_thread(reading.wait, 10)
        try:
            started = time.perf_counter()
            seen = await asyncio.wait_for(core.runs.get(run.id), 2)
            waited = time.perf_counter() - started
        finally:
            release.set()
        assert seen.id == run.id
        assert waited < 0.5, f"the click's read waited {waited:.2f} s behind the slow read"
        assert await slow == 1


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)  # the usual default: files 0644 unless made otherwise
    try:
        yield
    finally:
        os.umask(previous)


@pytest.mark.sqlite_only
async def test_the_database_file_and_its_wal_are_readable_by_their_owner_alone(
    db_path: Path, umask_022: None
) -> None:
    store = await SqliteStore.open(db_path)
    try:
        await store.migrate()
        await store.write(lambda tx: tx.set_meta("k", "v"))
        modes = {suffix: stat.S_IMODE(os.stat(f"{db_path}{suffix}").st_mode)
                 for suffix in ("", "-wal", "-shm")}
    finally:
        await store.close()
    assert modes == {"": 0o600, "-wal": 0o600, "-shm": 0o600}


async def test_an_inserted_run_comes_back_as_it_reads_back(store) -> None:
    """``insert_run`` hands back the row as stored (its insert's RETURNING): the very run a
    read of it gives, later in the same transaction and after it, whatever its columns hold."""
    shapes = [
        new_run(None, "2026-12-01"),
        dataclasses.replace(new_run("cleared", "2026-12-02"), guild_id=(1 << 62) + 5,
                            channel_id=(1 << 61) + 7, ranked=True,
                            score=[999_999, 0, 12], score_text="Über 3 · 🗡"),
        dataclasses.replace(new_run(None, "2026-12-01", kind="practice"),
                            seed=(1 << 64) - 1, deck=("10H", "QS", "A♠"),
                            state={"room": ["3D", "JC"], "hp": 21, "nested": {"a": [1, None]}},
                            day=None),
    ]

    def insert_and_read(tx: Tx) -> list[tuple[object, object]]:
        inserted = [tx.insert_run(shape) for shape in shapes]
        return [(row, tx.run(row.id)) for row in inserted]

    pairs = await store.write(insert_and_read)
    for (inserted, read), shape in zip(pairs, shapes, strict=True):
        assert inserted == read
        assert inserted == await store.read(lambda tx, i=inserted.id: tx.run(i))
        assert (inserted.seed, inserted.deck, inserted.state, inserted.version, inserted.moves,
                inserted.hinted) == (shape.seed, shape.deck, shape.state, 0, 0, False)
