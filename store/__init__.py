"""Storage: where runs, moves and settings are kept. All SQL lives in this package.

The core talks to a :class:`~store.base.Store` only through transactions of named queries
(``store.base.Tx``), so a backend can be swapped without touching the core. The queries live
by concern (``store.runs``, ``store.settings``, ``store.posts``, ``store.boards``,
``store.records``, ``store.challenges``, ``store.series``, ``store.pars``), each written once
for both databases (``store.dialect``). SQLite (``store.sqlite`` over ``store.connections``)
is the embedded default; a ``postgresql://`` URL selects PostgreSQL (``store.postgres``, for
several bot processes sharing one database).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from store.base import Conflict, NewRun, RunChange, RunRow, Store, Tx
from store.locks import singleton
from store.sqlite import SqliteStore

if TYPE_CHECKING:
    from store.postgres import PostgresStore


def is_postgres_url(database: str | Path) -> bool:
    """Whether ``database`` is a PostgreSQL URL rather than a SQLite file path."""
    return isinstance(database, str) and database.startswith(("postgresql://", "postgres://"))


async def open_store(
    database: str | Path,
    *,
    synchronous: str = "FULL",
    read_url: str | None = None,
    pool_size: int | None = None,
) -> SqliteStore | PostgresStore:
    """Open the database: PostgreSQL for a ``postgresql://`` URL (with a pool of
    ``pool_size`` connections, and reads marked ``replica=True`` sent to ``read_url`` when
    given), else the SQLite file at ``database`` (created, with its folder, if missing;
    ``synchronous`` is its durability level)."""
    if is_postgres_url(database):
        # Imported here: psycopg is needed only by those who use PostgreSQL.
        from store.postgres import DEFAULT_POOL_SIZE, PostgresStore

        return await PostgresStore.open(
            str(database), read_url=read_url, pool_size=pool_size or DEFAULT_POOL_SIZE
        )
    return await SqliteStore.open(database, synchronous=synchronous)


__all__ = [
    "Conflict",
    "NewRun",
    "RunChange",
    "RunRow",
    "SqliteStore",
    "Store",
    "Tx",
    "is_postgres_url",
    "open_store",
    "singleton",
]
