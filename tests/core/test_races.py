"""Two clicks on the same board at the same time: exactly one is applied, the other is stale."""

from __future__ import annotations

import asyncio
import multiprocessing
from pathlib import Path

from core import Core, Run, StaleBoard
from tests.core import racer
from tests.core.conftest import Clock, query

ALICE = 1001


def outcomes(results: list[Run | BaseException]) -> list[str]:
    return sorted(type(r).__name__ for r in results)


async def test_simultaneous_acts_on_one_connection(core: Core, db_path: Path) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)
    results = await asyncio.gather(
        *(core.runs.act(run.id, ALICE, 0, action) for action in run.actions * 2),
        return_exceptions=True,
    )
    assert outcomes(results) == ["Run"] + ["StaleBoard"] * (len(results) - 1)
    (applied,) = [r for r in results if isinstance(r, Run)]
    assert all(r.run == applied for r in results if isinstance(r, StaleBoard))
    assert query(db_path, "SELECT count(*), max(number) FROM moves") == [(1, 1)]
    assert (await core.runs.get(run.id)).moves == 1


async def test_simultaneous_acts_from_two_connections(db_path: Path, clock: Clock) -> None:
    async with (
        await Core.open(db_path, clock=clock) as one,
        await Core.open(db_path, clock=clock) as two,
    ):
        for seed in range(5):
            run = await one.runs.start(ALICE, "donsol", seed=seed)
            action = run.actions[0]
            results = await asyncio.gather(
                one.runs.act(run.id, ALICE, 0, action),
                two.runs.act(run.id, ALICE, 0, action),
                return_exceptions=True,
            )
            assert outcomes(results) == ["Run", "StaleBoard"]
    assert query(db_path, "SELECT count(*), count(DISTINCT run_id) FROM moves") == [(5, 5)]


async def test_simultaneous_acts_from_two_processes(db_path: Path, clock: Clock) -> None:
    async with await Core.open(db_path, clock=clock) as core:
        run_ids = [(await core.runs.start(ALICE, "donsol", seed=s)).id for s in range(8)]
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    results = context.Queue()
    players = [
        context.Process(target=racer.race, args=(str(db_path), ALICE, run_ids, barrier, results))
        for _ in range(2)
    ]
    for player in players:
        player.start()
    reports = [await asyncio.to_thread(results.get, True, 60) for _ in range(2 * len(run_ids))]
    for player in players:
        await asyncio.to_thread(player.join, 60)
        assert player.exitcode == 0
    for run_id in run_ids:
        assert sorted(r for i, r in reports if i == run_id) == ["applied", "stale at 1"]
    assert query(db_path, "SELECT run_id, number FROM moves ORDER BY run_id") == [
        (run_id, 1) for run_id in run_ids
    ]
    async with await Core.open(db_path, clock=clock) as core:
        assert [(await core.runs.get(i)).moves for i in run_ids] == [1] * len(run_ids)
