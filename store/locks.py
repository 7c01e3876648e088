"""Work that must run in one process only, whatever the number of bot processes.

With several bot processes on one PostgreSQL database (shards), work for no particular server
(closing expired challenges, solving the day's deals, syncing the slash commands) must not run
in each of them::

    async with singleton(core.store, "close-challenges") as mine:
        if mine:
            ...  # only one process at a time gets here

On PostgreSQL this is a session advisory lock (``pg_try_advisory_lock``, or
``pg_advisory_lock`` with ``wait=True``): it goes with the session if the process holding it
dies, so another process takes the work over on its next try. On SQLite, which one process
uses, every caller gets it.

The lock keeps two processes from doing the work *at the same time*; for work to happen
*once* (not once per process, one after the other), record that it is done in the same
database (a meta key such as ``solved:2026-12-01``) and check it under the lock.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any


@contextlib.asynccontextmanager
async def singleton(store: Any, name: str, *, wait: bool = False) -> AsyncIterator[bool]:
    """Yield whether this process may do the work ``name`` now (held for the block).

    With ``wait``, wait for the process holding it instead (then always True): for work
    that each process must see done but only one may do at a time, such as a sync that finds
    nothing left to do once another process made it.
    """
    take = getattr(store, "singleton", None)
    if take is None:
        yield True
        return
    async with take(name, wait=wait) as mine:
        yield mine
