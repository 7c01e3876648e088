"""The runs a process last saw committed (``core.known``): a click's write starts from the run
it already has, reading only the row's version, and never from anything another process, a
refusal or a forgotten run could have made untrue."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from core import Core, IllegalMove, RunNotFound, StaleBoard
from core.known import KnownRuns
from core.model import Run
from rules import GAMES, replay
from store.records import RecordsSql
from tests.core.conftest import SECRET, Clock, count_row_reads, snapshot

ALICE = 1001


@pytest.fixture
def row_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the run rows read whole (``Tx.run``), by any core, from now on."""
    return count_row_reads(monkeypatch)


def replayed(run: Run, log: list[str]) -> dict[str, Any]:
    return GAMES[run.game].dump(replay(run.game, run.variant, run.seed, log, run.deck))


async def test_a_click_on_a_run_this_process_wrote_does_not_read_the_row(
    core: Core, row_reads: list[int]
) -> None:
    rng = random.Random(3)
    run = await core.runs.start(ALICE, "clear", seed=4)
    log: list[str] = []
    for _ in range(6):
        action = rng.choice(run.actions)
        run = await core.runs.act(run.id, ALICE, run.version, action)
        log.append(action)
    assert row_reads == []  # each write checked the version alone
    assert run.version == 6 and GAMES["clear"].dump(run.state) == replayed(run, log)
    assert await core.runs.moves(run.id) == log
    # What it wrote is what a reader finds.
    assert await core.runs.get(run.id) == run


async def test_another_process_s_write_is_seen_by_the_next_click(
    db_path: Path, clock: Clock, row_reads: list[int]
) -> None:
    """Two bot processes on one database: each write checks, in its transaction, that the
    row is at the version it starts from; a board of a version gone is refused as stale, and
    a version only the other process wrote is read."""
    first = await Core.open(db_path, clock=clock, daily_secret=SECRET)
    second = await Core.open(db_path, clock=clock, daily_secret=SECRET)
    try:
        run = await first.runs.start(ALICE, "donsol", seed=0)  # room 3D JC 8C 4H
        run = await first.runs.act(run.id, ALICE, 0, "take 3D")
        there = await second.runs.act(run.id, ALICE, 1, "take 4H")  # read: second knew none
        assert row_reads == [run.id]
        before = snapshot(db_path)
        with pytest.raises(StaleBoard) as stale:
            await first.runs.act(run.id, ALICE, 1, "take JC")
        assert stale.value.run == there  # the board redrawn as it is now
        assert snapshot(db_path) == before
        # The board of the version the other process wrote: the first reads it and moves on.
        after = await first.runs.act(run.id, ALICE, 2, "take 8C")
        assert after.version == 3
        assert GAMES["donsol"].dump(after.state) == replayed(after, ["take 3D", "take 4H",
                                                                        "take 8C"])
        assert await second.runs.get(run.id) == after
    finally:
        await first.close()
        await second.close()


async def test_a_refused_click_leaves_what_is_known_as_it_was(
    core: Core, db_path: Path, row_reads: list[int]
) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)
    run = await core.runs.act(run.id, ALICE, 0, "take 3D")
    before = snapshot(db_path)
    with pytest.raises(IllegalMove):
        await core.runs.act(run.id, ALICE, 1, "take QS")
    assert snapshot(db_path) == before
    after = await core.runs.act(run.id, ALICE, 1, "take 4H")
    assert after.version == 2 and row_reads == []


async def test_a_first_step_shows_the_known_run_of_the_board_s_version(
    db_path: Path, clock: Clock
) -> None:
    """``Runs.shown`` (a step that only redraws the player's board) answers from what the
    process knows at the board's version; another process's move since makes that step's
    board out of date, and the move clicked on it is refused as stale."""
    first = await Core.open(db_path, clock=clock, daily_secret=SECRET)
    second = await Core.open(db_path, clock=clock, daily_secret=SECRET)
    try:
        run = await first.runs.start(ALICE, "donsol", seed=0)
        assert await first.runs.shown(run.id, 0) is run
        moved = await second.runs.act(run.id, ALICE, 0, "take 3D")
        assert await first.runs.shown(run.id, 0) is run  # known, and gone
        with pytest.raises(StaleBoard):
            await first.runs.act(run.id, ALICE, 0, "take 4H")
        assert await first.runs.shown(run.id, 1) == moved  # not known: read
        with pytest.raises(RunNotFound):
            await first.runs.shown(run.id + 1, 0)
    finally:
        await first.close()
        await second.close()


def test_the_newest_version_is_kept_and_the_least_recently_put_goes_first() -> None:
    def run(run_id: int, version: int) -> Any:
        return type("R", (), {"id": run_id, "version": version})()

    known = KnownRuns(limit=2)
    one_v2 = known.put(run(1, 2))
    known.put(run(1, 1))  # an older answer arriving late
    assert known.get(1) is one_v2 and known.at(1, 2) is one_v2 and known.at(1, 1) is None
    known.put(run(2, 0))
    known.put(run(1, 3))  # run 1 put last: run 2 is now the least recently put
    known.put(run(3, 0))
    assert known.get(2) is None and known.at(1, 3) is not None and known.get(3) is not None
    assert len(known) == 2
    known.forget(1)
    assert known.get(1) is None


async def test_the_write_that_ends_a_run_reads_the_players_best_before_it(
    db_path: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The result card's personal best comes from the write that ended the run, not from a
    read after it; another process (which did not write it) reads the same answer."""
    asked: list[int] = []
    prior_best = RecordsSql.prior_best

    def counted(self: RecordsSql, owner_id: int, *args: Any) -> Any:
        asked.append(owner_id)
        return prior_best(self, owner_id, *args)

    monkeypatch.setattr(RecordsSql, "prior_best", counted)
    first = await Core.open(db_path, clock=clock, daily_secret=SECRET)
    second = await Core.open(db_path, clock=clock, daily_secret=SECRET)
    try:
        rng = random.Random(8)
        bests = []
        for seed in (1, 2):
            run = await first.runs.start(ALICE, "donsol", seed=seed)
            before = len(asked)
            while not run.over:
                clock.advance(seconds=1)
                run = await first.runs.act(run.id, ALICE, run.version, rng.choice(run.actions))
            assert len(asked) == before + 1  # once, by the write that ended it
            best = await first.rankings.personal_best(run)
            assert len(asked) == before + 1
            assert best == await second.rankings.personal_best(run)  # read there
            assert len(asked) > before + 1  # (PostgreSQL may run a read twice the first time)
            bests.append(best)
        assert bests[0].runs == 0 and bests[1].runs == 1
        resigned = await first.runs.start(ALICE, "donsol", seed=3)
        before = len(asked)
        resigned = await first.runs.resign(resigned.id, ALICE, 0)
        mine = await first.rankings.personal_best(resigned)
        assert len(asked) == before + 1 and mine.runs == 2
        assert mine == await second.rankings.personal_best(resigned)
    finally:
        await first.close()
        await second.close()
