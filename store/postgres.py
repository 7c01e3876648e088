"""The PostgreSQL backend: a pool of psycopg connections, its migration runner and the queries.

Selected by a ``postgresql://`` URL (``DATABASE_URL``); see :func:`store.open_store`. The
core's model is kept as it is: a transaction is a plain synchronous function ``fn(tx, *args)``,
run here on one of the store's worker threads (:class:`Lanes`) with a connection of the pool,
so the core has one implementation for both backends (psycopg 3 in its synchronous form,
rather than asyncpg or ``psycopg.AsyncConnection``, whose statements are awaited and would need
a second copy of every transaction). Measured on 2 cores, the synchronous driver is also the
cheaper: a statement costs about 18 µs of CPU through ``psycopg.Connection`` and 37 µs through
``AsyncConnection`` (each await goes round the event loop), against one hop to a thread and
back per transaction (about 37 µs through ``run_in_executor``, less through :class:`Lanes`).
Prepared statements are psycopg's own: a query is prepared on its connection from its fifth
use (``prepare_threshold``), so a click's statements are prepared ones.

The queries are the concern modules' (``store.runs``, ``store.boards``, …), each written once
for both databases (see ``store.dialect``); :class:`PostgresDb` runs their PostgreSQL text.

Guarantees, the same as SQLite's:

- **One transaction per operation.** ``write`` commits when ``fn`` returns and rolls back if it
  raises. A read is one ``REPEATABLE READ READ ONLY`` snapshot.
- **Writes to one run are serialised.** In a write transaction, :meth:`~store.runs.RunsSql.run`
  reads the row ``FOR UPDATE``: a second writer of the same run waits there until the first commits,
  then reads the run as it now is and meets the core's version check (``StaleBoard``). The
  compare-and-set in ``update_run``, the ``(run_id, number)`` key of the moves and the
  one-daily-per-player index still hold on their own.
- **Unique keys become** :class:`~store.base.Conflict`, and the transaction stays usable
  (PostgreSQL aborts a transaction after an error, SQLite does not): every insert that may
  hit a unique key says ``ON CONFLICT DO NOTHING``, and no row in means Conflict.
- **Deadlocks and serialisation failures** (which PostgreSQL may raise when two transactions
  lock rows in opposite orders) roll back and run ``fn`` again, up to :data:`RETRIES` times.

Reads may go to a replica (``DATABASE_READ_URL``) with ``read(fn, *args, replica=True)``; they
then see the primary as of the replica's lag.

:meth:`PostgresStore.singleton` takes a PostgreSQL advisory lock for work that must run in one
process only (see ``store.locks``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import queue
import threading
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg import errors
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from store.dialect import POSTGRESQL, Query, Row
from store.migrations import folder, load_migrations
from store.tx import SqlTx

T = TypeVar("T")
log = logging.getLogger(__name__)

DEFAULT_POOL_SIZE = 4
#: How often a transaction that hit a deadlock or serialisation failure is run again.
RETRIES = 5
#: Seconds to wait for a connection when the pool opens (and later for a free one).
CONNECT_TIMEOUT = 30.0
#: The advisory lock key that serialises migration runners (several processes start at once).
MIGRATION_LOCK = 0x44756E67656F6E  # "Dungeon"
SCHEMA_TABLE = "schema_version"


def lock_key(name: str) -> int:
    """The signed 64-bit advisory-lock key of ``name`` (stable across processes and versions)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


def redact_url(url: str) -> str:
    """The URL without its password, for logs and messages."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://…"
    host = info.get("host", "")
    port = f":{info['port']}" if "port" in info else ""
    user = f"{info['user']}@" if "user" in info else ""
    return f"postgresql://{user}{host}{port}/{info.get('dbname', '')}"


class PostgresStore:
    """A pool of connections to one PostgreSQL database (and optionally a read replica).

    ``pool_size`` connections at most, and as many worker threads, so a transaction never
    waits for a connection while holding a thread.
    """

    dialect = POSTGRESQL

    def __init__(
        self, url: str, pool: ConnectionPool, replica: ConnectionPool | None, pool_size: int
    ) -> None:
        self.url = url
        self._pool = pool
        self._replica = replica
        self._lanes = Lanes(pool_size * (2 if replica is not None else 1), "postgres")

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        read_url: str | None = None,
        pool_size: int = DEFAULT_POOL_SIZE,
        timeout: float = CONNECT_TIMEOUT,
    ) -> PostgresStore:
        """Connect to the database at ``url`` (and the replica at ``read_url``).

        Raises ``ValueError`` for a pool size below 1 and ``psycopg.OperationalError`` when
        the server cannot be reached within ``timeout`` seconds.
        """
        if pool_size < 1:
            raise ValueError(f"the pool size must be at least 1, not {pool_size}")
        pool = _pool(url, pool_size, timeout)
        replica = _pool(read_url, pool_size, timeout) if read_url else None
        try:
            await asyncio.to_thread(pool.open, True, timeout)
            if replica is not None:
                await asyncio.to_thread(replica.open, True, timeout)
        except BaseException:
            await asyncio.to_thread(_close_pools, pool, replica)
            raise
        return cls(url, pool, replica, pool_size)

    async def close(self) -> None:
        """Close every connection (transactions under way finish first)."""
        await asyncio.to_thread(_close_pools, self._pool, self._replica)
        self._lanes.close()

    async def migrate(self, path: str | Path | None = None) -> int:
        """Apply the migrations (of ``path``, default the shipped PostgreSQL ones) newer than
        the database, each file in one transaction with its version bump, under an advisory
        lock (processes starting together migrate once); return the schema version.

        Raises ``ValueError`` for a badly named file or a database newer than the migrations.
        """
        return await self._call(self._pool, _migrate, folder(POSTGRESQL) if path is None else
                                Path(path))

    async def read(self, fn: Callable[..., T], *args: Any, replica: bool = False) -> T:
        """Run ``fn(tx, *args)`` in a read-only snapshot, on the replica if ``replica`` and
        one is configured."""
        pool = self._replica if replica and self._replica is not None else self._pool
        return await self._call(pool, _transaction, False, fn, args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(tx, *args)`` in a write transaction, committed when it returns.

        If ``fn`` raises, everything it wrote is rolled back and the exception propagates.
        """
        return await self._call(self._pool, _transaction, True, fn, args)

    @contextlib.asynccontextmanager
    async def singleton(self, name: str, *, wait: bool = False) -> AsyncIterator[bool]:
        """Hold the advisory lock ``name`` for the block if no other session holds it (with
        ``wait``: once the session holding it lets it go).

        Yields whether this process got it. The lock lives on a connection of its own, so it
        goes when the block ends or the process dies (PostgreSQL ends the session).
        """
        conn = await asyncio.to_thread(
            psycopg.connect, self.url, autocommit=True, connect_timeout=int(CONNECT_TIMEOUT)
        )
        got = False
        try:
            got = await asyncio.to_thread(_lock, conn, lock_key(name), wait)
            yield got
        finally:
            # Let go before closing: a closed connection's server session ends a moment
            # later, and until then the lock would still refuse the next taker.
            await asyncio.to_thread(_release, conn, lock_key(name) if got else None)

    async def _call(self, pool: ConnectionPool, fn: Callable[..., T], *args: Any) -> T:
        return await self._lanes.run(fn, pool, *args)


class Lanes:
    """Worker threads taking jobs from one queue, their results handed back to the event loop
    in batches.

    What a transaction costs the bot's process beyond its statements is mostly this handoff:
    ``run_in_executor`` chains a ``concurrent.futures.Future`` to an asyncio one and wakes the
    loop once per job. Here a job carries the asyncio future itself, and a thread finishing a
    job wakes the loop only when no earlier result is still waiting to be delivered: under
    load one wake-up hands back the results of many transactions.
    """

    def __init__(self, threads: int, name: str) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[..., Any], tuple[Any, ...],
                                            asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        # Results not yet handed back, by the loop awaiting them.
        self._done: dict[asyncio.AbstractEventLoop,
                         list[tuple[asyncio.Future[Any], bool, Any]]] = {}
        self._closed = False
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True)
                         for i in range(threads)]
        for thread in self._threads:
            thread.start()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a free thread; its result (or exception) here."""
        if self._closed:
            raise RuntimeError("the store is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((fn, args, future))
        return await future

    def close(self) -> None:
        """Let each thread end once the jobs already queued are done."""
        self._closed = True
        for _ in self._threads:
            self._jobs.put(None)

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, args, future = job
            try:
                outcome = (future, True, fn(*args))
            except BaseException as exc:  # handed to the awaiting task, as an executor does
                outcome = (future, False, exc)
            loop = future.get_loop()
            with self._lock:
                waiting = self._done.setdefault(loop, [])
                waiting.append(outcome)
                wake = len(waiting) == 1
            if wake:
                with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                    loop.call_soon_threadsafe(self._deliver, loop)

    def _deliver(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            done = self._done.pop(loop, [])
        for future, ok, value in done:
            if future.done():  # the caller gave up waiting (cancelled)
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)


def _pool(url: str, size: int, timeout: float) -> ConnectionPool:
    return ConnectionPool(
        url,
        min_size=1,
        max_size=size,
        timeout=timeout,
        open=False,
        kwargs={"autocommit": True, "row_factory": dict_row},
        name=redact_url(url),
    )


def _close_pools(*pools: ConnectionPool | None) -> None:
    for pool in pools:
        if pool is not None:
            pool.close()


def _lock(conn: psycopg.Connection[Any], key: int, wait: bool) -> bool:
    if wait:
        conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        return True
    row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
    return bool(row and row[0])


def _release(conn: psycopg.Connection[Any], key: int | None) -> None:
    try:
        if key is not None and not conn.closed:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
    finally:
        conn.close()


_TRANSIENT = (errors.DeadlockDetected, errors.SerializationFailure)


def _transaction(
    pool: ConnectionPool, write: bool, fn: Callable[..., T], args: Sequence[Any]
) -> T:
    for attempt in range(RETRIES + 1):
        with pool.connection() as conn:
            conn.isolation_level = (
                psycopg.IsolationLevel.READ_COMMITTED if write
                else psycopg.IsolationLevel.REPEATABLE_READ
            )
            conn.read_only = not write
            try:
                with conn.transaction():
                    return fn(SqlTx(PostgresDb(conn, write)), *args)
            except _TRANSIENT as exc:
                if attempt == RETRIES:
                    raise
                log.info("transaction %s rolled back (%s); running it again",
                         getattr(fn, "__name__", fn), type(exc).__name__)
    raise AssertionError("unreachable")  # pragma: no cover


def _migrate(pool: ConnectionPool, path: Path) -> int:
    migrations = load_migrations(path)
    latest = migrations[-1].version if migrations else 0
    with pool.connection() as conn:
        conn.isolation_level = None
        conn.read_only = False
        # Several bot processes may start at once: one migrates, the others wait here and
        # then find the work done.
        conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            with conn.transaction():
                current = schema_version(conn)
            if current > latest:
                raise ValueError(
                    f"the database is at schema version {current}, newer than this code "
                    f"({latest}): run a newer release"
                )
            for migration in migrations:
                if migration.version > current:
                    # One file, one transaction, its version bump included: a failing file
                    # leaves the database at the version before it.
                    with conn.transaction():
                        for statement in migration.statements:
                            conn.execute(statement)  # type: ignore[arg-type]
                        conn.execute(f"UPDATE {SCHEMA_TABLE} SET version = %s",
                                     (migration.version,))
                    current = migration.version
        finally:
            # A broken connection has ended its session, and the lock with it.
            with contextlib.suppress(psycopg.Error):
                conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    return current


def schema_version(conn: psycopg.Connection[Any]) -> int:
    """The schema version recorded in the database (its ``schema_version`` table, created at
    version 0 when missing)."""
    conn.execute(f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER NOT NULL)")
    row = conn.execute(f"SELECT version FROM {SCHEMA_TABLE}").fetchone()
    if row is None:
        conn.execute(f"INSERT INTO {SCHEMA_TABLE} (version) VALUES (0)")
        return 0
    return int(_first(row))


def _first(row: Any) -> Any:
    return next(iter(row.values())) if isinstance(row, dict) else row[0]


class PostgresDb:
    """:class:`~store.dialect.Db` over a psycopg connection inside one transaction (rows as
    dicts). In a write transaction reads lock the rows they read (``FOR UPDATE``)."""

    def __init__(self, conn: psycopg.Connection[Any], write: bool) -> None:
        self.conn = conn
        self.locks_rows = write

    def one(self, query: Query, params: Mapping[str, Any]) -> Row | None:
        rows = self.conn.execute(query.postgresql, params).fetchall()  # type: ignore[arg-type]
        return rows[0] if rows else None

    def all(self, query: Query, params: Mapping[str, Any]) -> list[Row]:
        return self.conn.execute(query.postgresql, params).fetchall()  # type: ignore[arg-type]

    def change(self, query: Query, params: Mapping[str, Any]) -> int:
        return self.conn.execute(query.postgresql, params).rowcount  # type: ignore[arg-type]
