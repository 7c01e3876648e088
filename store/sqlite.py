"""The SQLite backend: a database file, its connections (``store.connections``), its
migration runner and its backup.

The file is created readable by its owner alone (0600), like the token it sits beside; SQLite
gives its ``-wal`` and ``-shm`` files the database file's own permissions.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from store.connections import BUSY_TIMEOUT_MS, READERS, SYNCHRONOUS, Readers, Writer
from store.dialect import SQLITE
from store.migrations import folder, load_migrations

T = TypeVar("T")

#: The permissions of a database file this store creates.
FILE_MODE = 0o600


class SqliteStore:
    """A SQLite file in WAL mode with foreign keys on, through a writer (with group commit)
    and a pool of readers.

    In WAL mode readers never wait for the writer: a read (a leaderboard, a /daily lookup)
    does not queue behind a commit's sync to disk, a click's write does not queue behind a
    slow read, and a click's read does not queue behind a slow read either (another reader
    takes it). ``synchronous`` is ``FULL`` by default: a commit returns only once it is
    durable.
    """

    dialect = SQLITE

    def __init__(self, path: Path, writer: Writer, readers: Readers) -> None:
        self.path = path
        self._writer = writer
        self._readers = readers

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        readers: int = READERS,
    ) -> SqliteStore:
        """Open (creating it, 0600, and its folder if needed) the database file at ``path``,
        with ``readers`` read connections.

        Raises ``ValueError`` for an unknown ``synchronous`` level or fewer than one reader.
        """
        level = synchronous.upper()
        if level not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {level!r}")
        if readers < 1:
            raise ValueError(f"the number of readers must be at least 1, not {readers}")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Made here, private, before SQLite would make it with the default 0644.
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE))
        writer = await Writer.open(path, level, busy_timeout_ms)
        try:
            pool = await Readers.open(path, level, busy_timeout_ms, readers)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, pool)

    async def close(self) -> None:
        """Close every connection, once the writes already asked for are committed."""
        await self._writer.close()
        await self._readers.close()

    async def migrate(self, path: str | Path | None = None) -> int:
        """Apply the migrations (of ``path``, default the shipped SQLite ones) that are newer
        than the database; return its version.

        Each file runs in one transaction together with its ``PRAGMA user_version`` bump.
        Raises ``ValueError`` for a badly named migration file or a database newer than them.
        """
        return await self._writer.call(_migrate, folder(SQLITE) if path is None else Path(path))

    async def read(self, fn: Callable[..., T], *args: Any, replica: bool = False) -> T:
        """Run ``fn(tx, *args)`` in a read transaction (one consistent snapshot) on a free
        reader. A SQLite file has no replica: ``replica`` changes nothing."""
        return await self._readers.read(fn, *args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(tx, *args)`` in a write transaction, committed durably when it returns
        (with group commit: see :meth:`store.connections.Writer.write`).

        If ``fn`` raises, everything it wrote is rolled back and the exception propagates.
        """
        return await self._writer.write(fn, *args)

    async def backup(self, target: str | Path) -> None:
        """Copy the database, consistently, to the file ``target`` while it stays in use."""
        await self._readers.call(_backup, Path(target))


def _backup(conn: sqlite3.Connection, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    copy = sqlite3.connect(target)
    try:
        conn.backup(copy)
    finally:
        copy.close()


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database file."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _migrate(conn: sqlite3.Connection, path: Path) -> int:
    migrations = load_migrations(path)
    latest = migrations[-1].version if migrations else 0
    current = user_version(conn)
    if current > latest:
        raise ValueError(
            f"the database is at schema version {current}, newer than this code ({latest}): "
            "run a newer release"
        )
    for migration in migrations:
        if migration.version <= current:
            continue
        # Table rebuilds need foreign keys off; the switch is a no-op inside a transaction.
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have applied it while we waited for the write lock.
            current = user_version(conn)
            if migration.version > current:
                for statement in migration.statements:
                    conn.execute(statement)
                broken = conn.execute("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise ValueError(f"{migration.name} breaks {len(broken)} foreign keys")
                conn.execute(f"PRAGMA user_version = {migration.version:d}")
                current = migration.version
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            conn.execute("PRAGMA foreign_keys = ON")
    return current
