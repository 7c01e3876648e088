"""Two clicks on the same board at the same time: exactly one is applied, the other is stale."""

from __future__ import annotations

import asyncio
import multiprocessing
from pathlib import Path

from bot.service import GameService, Run, StaleBoard
from tests.service import racer
from tests.service.conftest import Clock, query

ALICE = 1001


def outcomes(results: list[Run | BaseException]) -> list[str]:
    return sorted(type(r).__name__ for r in results)


async def test_simultaneous_acts_on_one_connection(service: GameService, db_path: Path) -> None:
    run = await service.start_run(ALICE, "donsol", seed=0)
    results = await asyncio.gather(
        *(service.act(run.id, ALICE, 0, action) for action in run.actions * 2),
        return_exceptions=True,
    )
    assert outcomes(results) == ["Run"] + ["StaleBoard"] * (len(results) - 1)
    (applied,) = [r for r in results if isinstance(r, Run)]
    assert all(r.run == applied for r in results if isinstance(r, StaleBoard))
    assert query(db_path, "SELECT count(*), max(number) FROM moves") == [(1, 1)]
    assert (await service.get_run(run.id)).moves == 1


async def test_simultaneous_acts_from_two_connections(db_path: Path, clock: Clock) -> None:
    async with (
        await GameService.open(db_path, clock=clock) as one,
        await GameService.open(db_path, clock=clock) as two,
    ):
        for seed in range(5):
            run = await one.start_run(ALICE, "donsol", seed=seed)
            action = run.actions[0]
            results = await asyncio.gather(
                one.act(run.id, ALICE, 0, action),
                two.act(run.id, ALICE, 0, action),
                return_exceptions=True,
            )
            assert outcomes(results) == ["Run", "StaleBoard"]
    assert query(db_path, "SELECT count(*), count(DISTINCT run_id) FROM moves") == [(5, 5)]


async def test_simultaneous_acts_from_two_processes(db_path: Path, clock: Clock) -> None:
    async with await GameService.open(db_path, clock=clock) as service:
        run_ids = [(await service.start_run(ALICE, "donsol", seed=s)).id for s in range(8)]
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
    async with await GameService.open(db_path, clock=clock) as service:
        assert [(await service.get_run(i)).moves for i in run_ids] == [1] * len(run_ids)
