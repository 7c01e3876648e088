"""A player in another process, for the two-process race test (importable by ``spawn``)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from core import Core, StaleBoard

TIMEOUT = 30.0


def race(path: str, owner_id: int, run_ids: list[int], barrier: Barrier, results: Queue) -> None:
    """For each run: wait for the other process, then act on it as move 1."""
    asyncio.run(_race(path, owner_id, run_ids, barrier, results))


async def _race(
    path: str, owner_id: int, run_ids: list[int], barrier: Barrier, results: Queue
) -> None:
    async with await Core.open(path) as core:
        for run_id in run_ids:
            run = await core.runs.get(run_id)
            await asyncio.to_thread(barrier.wait, TIMEOUT)
            try:
                await core.runs.act(run_id, owner_id, 0, run.actions[0])
                results.put((run_id, "applied"))
            except StaleBoard as exc:
                results.put((run_id, f"stale at {exc.run.moves}"))


def rate(path: str, now: str, barrier: Barrier, results: Queue) -> None:
    """Wait for the other process, then run a rating pass at ``now``; report the days rated."""
    asyncio.run(_rate(path, now, barrier, results))


async def _rate(path: str, now: str, barrier: Barrier, results: Queue) -> None:
    async with await Core.open(path) as core:
        await asyncio.to_thread(barrier.wait, TIMEOUT)
        rated = await core.ratings.run_due(datetime.fromisoformat(now))
        results.put([(r.game, r.variant, r.day) for r in rated])
