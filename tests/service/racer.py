"""A player in another process, for the two-process race test (importable by ``spawn``)."""

from __future__ import annotations

import asyncio
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from bot.service import GameService, StaleBoard

TIMEOUT = 30.0


def race(path: str, owner_id: int, run_ids: list[int], barrier: Barrier, results: Queue) -> None:
    """For each run: wait for the other process, then act on it as move 1."""
    asyncio.run(_race(path, owner_id, run_ids, barrier, results))


async def _race(
    path: str, owner_id: int, run_ids: list[int], barrier: Barrier, results: Queue
) -> None:
    async with await GameService.open(path) as service:
        for run_id in run_ids:
            run = await service.get_run(run_id)
            await asyncio.to_thread(barrier.wait, TIMEOUT)
            try:
                await service.act(run_id, owner_id, 0, run.actions[0])
                results.put((run_id, "applied"))
            except StaleBoard as exc:
                results.put((run_id, f"stale at {exc.run.moves}"))
