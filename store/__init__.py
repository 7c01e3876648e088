"""Storage: where runs, moves and settings are kept. All SQL lives in this package.

The core talks to a :class:`~store.base.Store` only through transactions of named queries
(``store.base.Tx``), so a backend can be swapped without touching the core. SQLite
(``store.sqlite``) is the embedded default.
"""

from __future__ import annotations

from pathlib import Path

from store.base import Conflict, NewRun, RunChange, RunRow, Store, Tx
from store.sqlite import SqliteStore


async def open_store(path: str | Path, *, synchronous: str = "FULL") -> SqliteStore:
    """Open the SQLite database file at ``path`` (created, with its folder, if missing)."""
    return await SqliteStore.open(path, synchronous=synchronous)


__all__ = [
    "Conflict",
    "NewRun",
    "RunChange",
    "RunRow",
    "SqliteStore",
    "Store",
    "Tx",
    "open_store",
]
