"""``act``: exactly one action applied and committed, or a distinct refusal that writes nothing."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest

from core import (
    Core,
    IllegalMove,
    NotYourRun,
    Run,
    RunNotFound,
    RunOver,
    StaleBoard,
)
from rules import GAMES, replay
from tests.core.conftest import Clock, query, snapshot

ALICE, BOB = 1001, 2002


async def play_out(core: Core, run: Run, rng: random.Random) -> Run:
    """Random legal actions until the run is over."""
    for _ in range(5000):
        if run.over:
            return run
        run = await core.runs.act(run.id, run.owner_id, run.version, rng.choice(run.actions))
    raise AssertionError(f"run {run.id} did not end")


async def test_an_action_commits_the_move_and_the_state_together(
    core: Core, clock: Clock, db_path: Path
) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)  # room 3D JC 8C 4H
    clock.advance(seconds=5)
    after = await core.runs.act(run.id, ALICE, 0, "take 3D")
    assert after.moves == 1 and after.view["shield"] == "3D" and after.score == [1, 21]
    assert after.updated_at == "2026-12-01T12:00:05.000+00:00" and after.status == "playing"
    assert query(db_path, "SELECT run_id, number, action, at FROM moves") == [
        (run.id, 1, "take 3D", "2026-12-01T12:00:05.000+00:00")
    ]
    (stored,) = query(db_path, "SELECT moves, state, score FROM runs")
    assert stored[0] == 1 and stored[2] == "[1,21]"
    assert GAMES["donsol"].load(json.loads(stored[1])) == after.state
    assert await core.runs.get(run.id) == after


async def test_every_refusal_is_distinct_and_writes_nothing(
    core: Core, db_path: Path
) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)
    run = await core.runs.act(run.id, ALICE, 0, "take 3D")
    before = snapshot(db_path)

    with pytest.raises(NotYourRun, match="belongs to someone else") as other:
        await core.runs.act(run.id, BOB, 1, "take JC")
    assert other.value.run.owner_id == ALICE

    for expected in (0, 2, 7):  # behind, and ahead
        with pytest.raises(StaleBoard, match="out of date") as stale:
            await core.runs.act(run.id, ALICE, expected, "take JC")
        assert stale.value.run == run  # the current run, to redraw

    with pytest.raises(IllegalMove) as illegal:
        await core.runs.act(run.id, ALICE, 1, "take 3D")
    reason = GAMES["donsol"].refusal(run.state, "take 3D")
    assert illegal.value.reason == reason == str(illegal.value) == "3♦ is not in this room."
    for nonsense in ("", "fly away", "take", "x" * 500):
        with pytest.raises(IllegalMove):
            await core.runs.act(run.id, ALICE, 1, nonsense)

    with pytest.raises(RunNotFound):
        await core.runs.act(run.id + 1, ALICE, 1, "take JC")
    assert snapshot(db_path) == before


async def test_a_finished_run_refuses_further_actions(
    core: Core, db_path: Path
) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)
    run = await play_out(core, run, random.Random(3))
    before = snapshot(db_path)
    with pytest.raises(RunOver, match="already over") as over:
        await core.runs.act(run.id, ALICE, run.moves, "escape")
    assert over.value.run == run
    assert snapshot(db_path) == before


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_random_runs_of_every_game_end_ranked_and_replay(
    core: Core, clock: Clock, game: str
) -> None:
    rng = random.Random(game)
    for i in range(3):
        run = await core.runs.start(ALICE, game, rng.choice(GAMES[game].variants), seed=i)
        clock.advance(seconds=1)
        run = await play_out(core, run, rng)
        engine = GAMES[game]
        view = engine.view(run.state)
        assert run.status == "over" and run.actions == [] and run.ranked
        assert run.outcome == view["outcome"] is not None and run.score == view["score"]
        assert run.finished_at == run.updated_at
        log = await core.runs.moves(run.id)
        assert len(log) == run.moves
        assert engine.dump(replay(game, run.variant, run.seed, log)) == engine.dump(run.state)
        assert await core.runs.get(run.id) == run
    assert await core.runs.unfinished(ALICE) == []


@pytest.mark.sqlite_only
async def test_a_move_writes_the_runs_row_and_the_move_and_no_index(
    core: Core, db_path: Path
) -> None:
    # A move commits the pages it changes to the write-ahead log: the run's row and its move,
    # and no index page (a statement that set a column an index holds, changed or not, would
    # rewrite that index's entry too: one more page to write and sync on every click).
    rng = random.Random(5)
    run = await core.runs.start(ALICE, "donsol", seed=0)
    for _ in range(2):
        run = await core.runs.act(run.id, ALICE, run.version, rng.choice(run.actions))
    outside = sqlite3.connect(db_path)
    try:
        assert outside.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
        run = await core.runs.act(run.id, ALICE, run.version, rng.choice(run.actions))
        assert not run.over
        _, frames, _ = outside.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        outside.close()
    assert frames == 2
    # A write that changes more than a move does (the hint mark) still writes all of it.
    run = await core.runs.mark_hinted(run.id, ALICE, run.version)
    assert query(db_path, "SELECT hinted, version FROM runs") == [(1, run.version)]
    run = await core.runs.act(run.id, ALICE, run.version, rng.choice(run.actions))
    assert query(db_path, "SELECT hinted, version FROM runs") == [(1, run.version)]
