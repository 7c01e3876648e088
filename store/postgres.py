"""The PostgreSQL backend: a pool of psycopg connections, its migration runner and the queries.

Selected by a ``postgresql://`` URL (``DATABASE_URL``); see :func:`store.open_store`. The
core's model is kept as it is: a transaction is a plain synchronous function ``fn(tx, *args)``,
run here on a worker thread of the store's own executor with a connection of the pool, so the
core has one implementation for both backends (psycopg 3 in its synchronous form, rather than
asyncpg, whose API is async only and would need a second copy of every transaction).

The queries are SQLite's: :class:`PostgresTx` is :class:`~store.sqlite.SqliteTx` over
:class:`SqliteDialect`, a connection that takes SQLite's SQL (``:name`` parameters) and runs
it on PostgreSQL. Portable SQL is written once; what differs is written again here (see
:data:`IDENTITY_TABLES`, :func:`translate` and the methods :class:`PostgresTx` overrides).

Guarantees, the same as SQLite's:

- **One transaction per operation.** ``write`` commits when ``fn`` returns and rolls back if it
  raises. A read is one ``REPEATABLE READ READ ONLY`` snapshot.
- **Writes to one run are serialised.** In a write transaction, :meth:`PostgresTx.run` reads
  the row ``FOR UPDATE``: a second writer of the same run waits there until the first commits,
  then reads the run as it now is and meets the core's version check (``StaleBoard``). The
  compare-and-set in ``update_run``, the ``(run_id, number)`` key of the moves and the
  one-daily-per-player index still hold on their own.
- **Unique keys become** :class:`~store.base.Conflict`, and the transaction stays usable
  (PostgreSQL aborts a transaction after an error, SQLite does not): the run and move inserts
  use ``ON CONFLICT DO NOTHING``; any other INSERT runs in a savepoint.
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
import functools
import hashlib
import json
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg import errors
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from store import sqlite
from store.base import Conflict, GameStats, NewRun, RunRow
from store.migrations import folder, load_migrations

T = TypeVar("T")
log = logging.getLogger(__name__)

DIALECT = "postgresql"
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

    dialect = DIALECT

    def __init__(
        self, url: str, pool: ConnectionPool, replica: ConnectionPool | None, pool_size: int
    ) -> None:
        self.url = url
        self._pool = pool
        self._replica = replica
        self._executor = ThreadPoolExecutor(
            max_workers=pool_size * (2 if replica is not None else 1),
            thread_name_prefix="postgres",
        )

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
        self._executor.shutdown(wait=False)

    async def migrate(self, path: str | Path | None = None) -> int:
        """Apply the migrations (of ``path``, default the shipped PostgreSQL ones) newer than
        the database, each file in one transaction with its version bump, under an advisory
        lock (processes starting together migrate once); return the schema version.

        Raises ``ValueError`` for a badly named file or a database newer than the migrations.
        """
        return await self._call(self._pool, _migrate, folder(DIALECT) if path is None else
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
        try:
            got = await asyncio.to_thread(_lock, conn, lock_key(name), wait)
            yield got
        finally:
            await asyncio.to_thread(conn.close)

    async def _call(self, pool: ConnectionPool, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, pool, *args))


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
                    return fn(PostgresTx(conn, write), *args)
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


# ----- the queries --------------------------------------------------------------------------
# PostgresTx is SqliteTx (store.sqlite) over a connection that speaks SQLite's SQL: its named
# queries are portable SQL, so each runs here as written, its ``:name`` parameters turned into
# psycopg's. Only what differs between the dialects is written again below: reading a run in a
# write transaction locks it, inserts that may hit a unique key use ON CONFLICT (PostgreSQL
# aborts the transaction on an error), and the few statements in SQLite's own words.

#: Tables whose ``id`` PostgreSQL generates: an INSERT into one returns it (``lastrowid``).
IDENTITY_TABLES = frozenset({"runs", "challenges", "series"})

_PARAMETER = re.compile(r"'(?:[^']|'')*'|::|:([A-Za-z_]\w*)|\?|%")
_INSERT = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
#: SQLite's words with PostgreSQL's equivalent (day numbers for streaks).
_DIALECT = ((re.compile(r"julianday\(([^()]*)\)"), r"(\1::date - DATE '1970-01-01')"),)


@functools.lru_cache(maxsize=1024)
def translate(query: str) -> tuple[str, bool, bool]:
    """SQLite's ``query`` as psycopg takes it: ``(sql, returns_id, may_conflict)``.

    ``:name`` and ``?`` become ``%(name)s`` and ``%s`` (not inside quotes, not ``::casts``),
    a literal ``%`` is doubled, an INSERT into an identity table gets ``RETURNING id``, and
    an INSERT without ON CONFLICT is marked as one that may break a unique key.
    """

    def swap(match: re.Match[str]) -> str:
        token = match.group(0)
        if token.startswith("'") or token == "::":
            return token
        if token == "?":
            return "%s"
        if token == "%":
            return "%%"
        return f"%({match.group(1)})s"

    sql = _PARAMETER.sub(swap, query)
    for pattern, replacement in _DIALECT:
        sql = pattern.sub(replacement, sql)
    insert = _INSERT.match(sql)
    returns_id = bool(insert and insert.group(1).lower() in IDENTITY_TABLES
                      and "RETURNING" not in sql.upper())
    if returns_id:
        sql = sql.rstrip().rstrip(";") + " RETURNING id"
    may_conflict = bool(insert) and "ON CONFLICT" not in sql.upper()
    return sql, returns_id, may_conflict


class Row(tuple):  # type: ignore[type-arg]
    """A result row read by position or by column name, like ``sqlite3.Row``."""

    _index: dict[str, int]

    def __new__(cls, values: Sequence[Any], index: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._index = index
        return row

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        if isinstance(key, str):
            return super().__getitem__(self._index[key])
        return super().__getitem__(key)

    def keys(self) -> list[str]:
        return list(self._index)


def _row_factory(cursor: Any) -> Callable[[Sequence[Any]], Row]:
    index = {column.name: i for i, column in enumerate(cursor.description or ())}

    def make(values: Sequence[Any]) -> Row:
        # numeric (avg, sums of bigints) as float, as SQLite hands them up
        return Row([float(v) if isinstance(v, Decimal) else v for v in values], index)

    return make


class _Cursor:
    """What SqliteTx reads of a cursor: rows, ``rowcount`` and ``lastrowid``."""

    def __init__(self, cursor: psycopg.Cursor[Any], lastrowid: int | None) -> None:
        self._cursor = cursor
        self.rowcount = cursor.rowcount
        self.lastrowid = lastrowid

    def fetchone(self) -> Any:
        return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._cursor)


class SqliteDialect:
    """A psycopg connection with ``sqlite3.Connection``'s ``execute``: SQLite's SQL in,
    ``sqlite3.IntegrityError`` out for a broken unique key (the transaction stays usable: an
    INSERT that may break one runs in a savepoint)."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.pg = conn

    def execute(self, query: str, params: Any = ()) -> _Cursor:
        sql, returns_id, may_conflict = translate(query)
        cursor = self.pg.cursor(row_factory=_row_factory)
        try:
            if may_conflict:
                with self.pg.transaction():
                    cursor.execute(sql, params or None)  # type: ignore[call-overload]
            else:
                cursor.execute(sql, params or None)  # type: ignore[call-overload]
        except errors.UniqueViolation as exc:
            raise sqlite3.IntegrityError(f"UNIQUE constraint failed: {exc.diag.constraint_name}"
                                         ) from None
        lastrowid = None
        if returns_id:
            row = cursor.fetchone()
            lastrowid = None if row is None else int(row[0])
        return _Cursor(cursor, lastrowid)


SELECT_RUN_FOR_UPDATE = sqlite.SELECT_RUN + " FOR UPDATE"
# A NULL parameter has no type in PostgreSQL: say it is text.
SELECT_UNFINISHED = sqlite.SELECT_UNFINISHED.replace(
    "(:game IS NULL OR game = :game)", "(CAST(:game AS TEXT) IS NULL OR game = :game)"
)
INSERT_RUN = sqlite.INSERT_RUN.rstrip() + "\n    ON CONFLICT DO NOTHING"
INSERT_MOVE = sqlite.INSERT_MOVE.rstrip() + "\n    ON CONFLICT DO NOTHING"
SELECT_GAME_STATS = """
    SELECT count(*) AS finished,
           count(*) FILTER (WHERE outcome = 'won') AS wins,
           max(score_key) AS best_key,
           avg(points) AS average_points,
           count(*) FILTER (WHERE kind = 'daily') AS dailies,
           coalesce(sum(hinted), 0) AS hinted
    FROM runs
    WHERE owner_id = :owner_id AND game = :game AND status <> 'playing'
"""


class PostgresTx(sqlite.SqliteTx):
    """The named queries of :class:`~store.sqlite.SqliteTx` on PostgreSQL.

    ``write`` says whether the transaction may write; if so, :meth:`run` locks the row it
    reads until the transaction ends.
    """

    def __init__(self, conn: psycopg.Connection[Any], write: bool) -> None:
        super().__init__(SqliteDialect(conn))  # type: ignore[arg-type]
        self.write = write

    def run(self, run_id: int) -> RunRow | None:
        if not self.write:
            return super().run(run_id)
        row = self.conn.execute(SELECT_RUN_FOR_UPDATE, {"id": run_id}).fetchone()
        return None if row is None else sqlite._run_row(row)

    def unfinished(self, owner_id: int, game: str | None) -> list[RunRow]:
        rows = self.conn.execute(SELECT_UNFINISHED, {"owner_id": owner_id, "game": game})
        return [sqlite._run_row(row) for row in rows]

    def insert_run(self, run: NewRun) -> int:
        params = {
            "owner_id": run.owner_id, "guild_id": run.guild_id, "channel_id": run.channel_id,
            "game": run.game, "variant": run.variant, "seed": str(run.seed),
            "deck": None if run.deck is None else sqlite._json(list(run.deck)),
            "kind": run.kind, "day": run.day, "status": run.status, "outcome": run.outcome,
            "score": sqlite._json(run.score), "score_key": sqlite.score_key(run.score),
            "state": sqlite._json(run.state), "ranked": int(run.ranked), "rules": run.rules,
            "now": run.now, "finished_at": run.finished_at, "score_text": run.score_text,
            "points": run.points,
        }
        run_id = self.conn.execute(INSERT_RUN, params).lastrowid
        if run_id is None:  # ON CONFLICT DO NOTHING: the one-daily key said no
            raise Conflict(f"a {run.kind} run with this key exists already")
        return run_id

    def append_move(self, run_id: int, number: int, action: str, at: str) -> None:
        params = {"run_id": run_id, "number": number, "action": action, "at": at}
        if self.conn.execute(INSERT_MOVE, params).rowcount != 1:
            raise Conflict(f"run {run_id} has a move {number} already")

    def game_stats(self, owner_id: int, game: str) -> GameStats:
        params = {"owner_id": owner_id, "game": game}
        row = self.conn.execute(SELECT_GAME_STATS, params).fetchone()
        best_score, best_text = None, None
        if row["best_key"] is not None:
            best = self.conn.execute(
                sqlite.SELECT_BEST, {**params, "key": row["best_key"]}
            ).fetchone()
            best_score, best_text = json.loads(best["score"]), best["score_text"]
        return GameStats(
            game=game, finished=row["finished"], wins=row["wins"], best_score=best_score,
            best_text=best_text, average_points=row["average_points"], dailies=row["dailies"],
            hinted=row["hinted"],
        )
