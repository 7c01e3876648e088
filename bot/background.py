"""A pass repeated in the background: the first some seconds after start, then every so
often, a failed pass logged and tried again next time, stopped by cancelling.

The cogs whose work runs for no particular interaction (solving pars, rating days) each own
one :class:`Repeating`; tests leave it unstarted and call the pass themselves with their own
clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)


class Repeating:
    """``work()`` after ``first`` seconds, then every ``every`` seconds, until :meth:`stop`."""

    def __init__(self, name: str, work: Callable[[], Awaitable[Any]], *, first: float,
                 every: float) -> None:
        self.name = name
        self._work = work
        self._first = first
        self._every = every
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._loop(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        await asyncio.sleep(self._first)
        while True:
            try:
                await self._work()
            except Exception:  # a failed pass (a dead worker, the database) ends no task
                log.exception("%s: the pass failed; trying again in %.0f s", self.name,
                              self._every)
            await asyncio.sleep(self._every)
