"""Replays: a stored state that no longer loads is rebuilt from the moves, and a finished run
is ranked only when replaying its moves gives exactly the stored result."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import pytest

from core import BrokenRun, Core
from rules import GAMES, replay
from tests.core.conftest import Clock, execute, query, snapshot
from tests.core.test_act import play_out

ALICE = 1001
DONSOL = GAMES["donsol"]
CURRENT = f"donsol/{DONSOL.format_version}"


def engine_tag(path: Path, run_id: int) -> str:
    sql = "SELECT json_extract(state, '$.engine') FROM runs WHERE id = ?"
    [(tag,)] = query(path, sql, (run_id,))
    return tag


def corrupt_engine_tag(path: Path, run_id: int) -> None:
    """Make the stored state look written by an engine version that no longer exists."""
    execute(
        path, "UPDATE runs SET state = json_set(state, '$.engine', 'donsol/0') WHERE id = ?",
        (run_id,),
    )


async def test_an_unloadable_state_is_rebuilt_by_replay_and_written_back(
    db_path: Path, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    async with await Core.open(db_path, clock=clock) as svc:
        run = await svc.runs.start(ALICE, "donsol", seed=0)
        run = await svc.runs.act(run.id, ALICE, 0, "take 3D")
        run = await svc.runs.act(run.id, ALICE, 1, "take 4H")
    corrupt_engine_tag(db_path, run.id)
    caplog.set_level(logging.INFO, logger="core")
    async with await Core.open(db_path, clock=clock) as svc:
        rebuilt = await svc.runs.get(run.id)
        assert rebuilt == run
        assert engine_tag(db_path, run.id) == CURRENT
        assert f"run {run.id}: stored state not loadable" in caplog.text

        corrupt_engine_tag(db_path, run.id)  # the listing repairs too
        assert await svc.runs.unfinished(ALICE) == [run]
        assert engine_tag(db_path, run.id) == CURRENT

        corrupt_engine_tag(db_path, run.id)  # and so does acting, in the same transaction
        after = await svc.runs.act(run.id, ALICE, 2, "take 8C")
        expected = replay("donsol", None, 0, ["take 3D", "take 4H", "take 8C"])
        assert DONSOL.dump(after.state) == DONSOL.dump(expected)
        assert engine_tag(db_path, run.id) == CURRENT


async def test_a_first_format_dump_with_english_events_is_rebuilt_with_their_messages(
    core: Core, db_path: Path
) -> None:
    """Format 1 stored events as plain English sentences; such a state is rebuilt by replay,
    and its events then carry their templates again (said in any language)."""
    run = await core.runs.start(ALICE, "donsol", seed=0)
    run = await core.runs.act(run.id, ALICE, 0, "take 3D")
    old = {**DONSOL.dump(run.state), "engine": "donsol/1",
           "events": [str(event) for event in run.state.events]}
    execute(db_path, "UPDATE runs SET state = ? WHERE id = ?", (json.dumps(old), run.id))
    rebuilt = await core.runs.get(run.id)
    assert rebuilt == run
    assert engine_tag(db_path, run.id) == CURRENT
    [event] = rebuilt.state.events
    assert event == "You take up 3♦ as your shield (3)."
    assert event.message.template == "You take up {card} as your shield ({value})."


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_game_rebuilds_an_unloadable_state(
    core: Core, db_path: Path, game: str
) -> None:
    rng = random.Random(game)
    run = await core.runs.start(ALICE, game, seed=3)
    for _ in range(4):
        if run.actions:
            run = await core.runs.act(run.id, ALICE, run.moves, rng.choice(run.actions))
    execute(
        db_path, "UPDATE runs SET state = json_set(state, '$.engine', ?) WHERE id = ?",
        (f"{game}/0", run.id),
    )
    rebuilt = await core.runs.get(run.id)
    assert rebuilt == run
    assert engine_tag(db_path, run.id) == f"{game}/{GAMES[game].format_version}"


async def test_a_run_whose_moves_no_longer_replay_is_reported_broken(
    core: Core, db_path: Path
) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)
    run = await core.runs.act(run.id, ALICE, 0, "take 3D")
    corrupt_engine_tag(db_path, run.id)
    execute(db_path, "UPDATE moves SET action = 'take QS' WHERE run_id = ?", (run.id,))
    before = snapshot(db_path)
    with pytest.raises(BrokenRun, match="cannot be resumed"):
        await core.runs.get(run.id)
    with pytest.raises(BrokenRun):
        await core.runs.act(run.id, ALICE, 1, "take JC")
    assert snapshot(db_path) == before


async def test_a_finished_run_is_ranked_once_its_replay_agrees(
    core: Core, db_path: Path
) -> None:
    daily = await core.daily.start_new(ALICE, "donsol")
    practice = await core.runs.start(ALICE, "donsol", seed=9)
    for run in (daily, practice):
        run = await play_out(core, run, random.Random(run.id))
        assert run.ranked and (await core.runs.get(run.id)).ranked
    assert query(db_path, "SELECT kind, ranked FROM runs ORDER BY id") == [
        ("daily", 1),
        ("practice", 1),
    ]


async def test_a_tampered_state_is_not_ranked(
    core: Core, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)
    run = await core.runs.act(run.id, ALICE, 0, "take 3D")
    # Five XP nobody earned: the state still loads, but no replay of the moves gives it.
    execute(
        db_path, "UPDATE runs SET state = json_set(state, '$.xp', 6) WHERE id = ?", (run.id,)
    )
    run = await play_out(core, await core.runs.get(run.id), random.Random(1))
    assert run.status == "over" and not run.ranked
    assert query(db_path, "SELECT ranked FROM runs WHERE id = ?", (run.id,)) == [(0,)]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(m.startswith(f"run {run.id}: replaying its") for m in warnings)


async def test_a_tampered_move_is_not_ranked(
    core: Core, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)  # room 3D JC 8C 4H
    run = await core.runs.act(run.id, ALICE, 0, "take 3D")
    execute(db_path, "UPDATE moves SET action = 'take 4H' WHERE run_id = ?", (run.id,))
    run = await play_out(core, run, random.Random(2))
    assert run.status == "over" and not run.ranked
    assert any(
        r.levelno == logging.WARNING and r.getMessage().startswith(f"run {run.id}:")
        for r in caplog.records
    )


async def test_a_run_is_read_as_stored_after_this_process_wrote_it(
    db_path: Path, clock: Clock
) -> None:
    """A process hands the next click the state it wrote itself only while the row still holds
    exactly that write: a run another process wrote since, or a row changed at the same
    version, is read from the row."""
    async with await Core.open(db_path, clock=clock) as here, \
            await Core.open(db_path, clock=clock) as there:
        run = await here.runs.start(ALICE, "donsol", seed=0)
        run = await here.runs.act(run.id, ALICE, 0, "take 3D")
        assert DONSOL.dump((await here.runs.get(run.id)).state) == DONSOL.dump(run.state)
        await there.runs.act(run.id, ALICE, 1, "take 4H")  # another process writes
        read = await here.runs.get(run.id)
        assert DONSOL.dump(read.state) == DONSOL.dump(
            replay("donsol", None, 0, ["take 3D", "take 4H"]))
        after = await here.runs.act(run.id, ALICE, 2, "take 8C")
        assert DONSOL.dump(after.state) == DONSOL.dump(
            replay("donsol", None, 0, ["take 3D", "take 4H", "take 8C"]))
        # The row changed behind this process's back at the version it wrote: the row wins.
        other = replay("donsol", None, 0, ["take 3D", "take 4H", "take JC"])
        execute(db_path, "UPDATE runs SET state = ? WHERE id = ?",
                (json.dumps(DONSOL.dump(other)), run.id))
        read = await here.runs.get(run.id)
        assert read.version == after.version
        assert DONSOL.dump(read.state) == DONSOL.dump(other) != DONSOL.dump(after.state)
