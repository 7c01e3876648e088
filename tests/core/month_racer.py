"""A bot process closing a month, for the two-process month close race (importable by
``spawn``): the rating pass and the champions' close, as the rating and champion loops run
them, each server's post stood in for by its record (the process id as the message)."""

from __future__ import annotations

import asyncio
import os
from datetime import datetime
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier

from core import Core
from core.seasons import POSTED

TIMEOUT = 30.0


def close_month(path: str, now: str, barrier: Barrier, results: Queue) -> None:
    """Wait for the other process, then close the month closed at ``now``: rate the closed
    days and post each due server's champions it claims. Reports what it did."""
    asyncio.run(_close_month(path, datetime.fromisoformat(now), barrier, results))


async def _close_month(path: str, now: datetime, barrier: Barrier, results: Queue) -> None:
    async with await Core.open(path, clock=lambda: now) as core:
        month = core.seasons.closed_month(now)
        assert month is not None
        await asyncio.to_thread(barrier.wait, TIMEOUT)

        async def champions() -> list[int]:
            posted = []
            for due in await core.seasons.pending(month):
                if await core.seasons.claim(due.guild_id, month):
                    await core.seasons.compose(due.guild_id, month)
                    await core.seasons.finish(due.guild_id, month, POSTED,
                                              channel_id=due.channel_id, message_id=os.getpid())
                    posted.append(due.guild_id)
            return posted

        rated, posted = await asyncio.gather(core.ratings.run_due(now), champions())
        results.put({"pid": os.getpid(), "posted": posted,
                     "rated": [(r.game, r.variant, r.day) for r in rated]})
