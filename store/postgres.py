"""The PostgreSQL backend: a pool of psycopg connections, its migration runner and the queries.

Selected by a ``postgresql://`` URL (``DATABASE_URL``); see :func:`store.open_store`. The
core's model is kept as it is: a transaction is a plain synchronous function ``fn(tx, *args)``,
run here on a worker thread of the store's own executor with a connection of the pool, so the
core has one implementation for both backends (psycopg 3 in its synchronous form, rather than
asyncpg, whose API is async only and would need a second copy of every transaction).

Guarantees, the same as SQLite's:

- **One transaction per operation.** ``write`` commits when ``fn`` returns and rolls back if it
  raises. A read is one ``REPEATABLE READ READ ONLY`` snapshot.
- **Writes to one run are serialised.** In a write transaction, :meth:`PostgresTx.run` reads
  the row ``FOR UPDATE``: a second writer of the same run waits there until the first commits,
  then reads the run as it now is and meets the core's version check (``StaleBoard``). The
  compare-and-set in ``update_run``, the ``(run_id, number)`` key of the moves and the
  one-daily-per-player index still hold on their own.
- **Unique keys become** :class:`~store.base.Conflict`. Inserts that can break one use
  ``ON CONFLICT DO NOTHING`` and raise ``Conflict`` when nothing was inserted, so the
  transaction stays usable (PostgreSQL aborts a transaction after an error, SQLite does not).
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
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg import errors
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from store.base import (
    BoardFilter,
    BoardLine,
    Conflict,
    DayMark,
    GameStats,
    NewRun,
    RunChange,
    RunRow,
    Streak,
)
from store.migrations import folder, load_migrations
from store.sqlite import score_key

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


# ----- named queries ----------------------------------------------------------------------
# The same queries as store.sqlite, in PostgreSQL's dialect with psycopg's %(name)s parameters.

_RUN_COLUMNS = """
    id, owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day, status, outcome,
    score, state, moves, version, ranked, rules, hinted, created_at, updated_at, finished_at
"""

SELECT_RUN = f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = %(id)s"
SELECT_RUN_FOR_UPDATE = SELECT_RUN + " FOR UPDATE"

SELECT_UNFINISHED = f"""
    SELECT {_RUN_COLUMNS} FROM runs
    WHERE owner_id = %(owner_id)s AND status = 'playing'
      AND (%(game)s::text IS NULL OR game = %(game)s::text)
    ORDER BY updated_at DESC, id DESC
"""

SELECT_DAILY = f"""
    SELECT {_RUN_COLUMNS} FROM runs
    WHERE kind = 'daily' AND owner_id = %(owner_id)s AND game = %(game)s
      AND variant = %(variant)s AND day = %(day)s
"""

INSERT_RUN = """
    INSERT INTO runs (owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day,
                      status, outcome, score, score_key, score_text, points, state, moves,
                      version, ranked, rules, created_at, updated_at, finished_at)
    VALUES (%(owner_id)s, %(guild_id)s, %(channel_id)s, %(game)s, %(variant)s, %(seed)s,
            %(deck)s, %(kind)s, %(day)s, %(status)s, %(outcome)s, %(score)s, %(score_key)s,
            %(score_text)s, %(points)s, %(state)s, 0, 0, %(ranked)s, %(rules)s, %(now)s,
            %(now)s, %(finished_at)s)
    ON CONFLICT DO NOTHING
    RETURNING id
"""

# The compare-and-set: the row changes only if nobody wrote to it since version %(expected)s.
UPDATE_RUN = """
    UPDATE runs
    SET state = %(state)s, moves = %(moves)s, score = %(score)s, score_key = %(score_key)s,
        score_text = %(score_text)s, points = %(points)s, status = %(status)s,
        outcome = %(outcome)s, ranked = %(ranked)s, hinted = %(hinted)s,
        version = version + 1, updated_at = %(now)s, finished_at = %(finished_at)s
    WHERE id = %(id)s AND version = %(expected)s
"""

UPDATE_STATE = "UPDATE runs SET state = %(state)s WHERE id = %(id)s AND version = %(version)s"

INSERT_MOVE = """
    INSERT INTO moves (run_id, number, action, at)
    VALUES (%(run_id)s, %(number)s, %(action)s, %(at)s)
    ON CONFLICT DO NOTHING
"""

SELECT_ACTIONS = "SELECT action FROM moves WHERE run_id = %(run_id)s ORDER BY number"

DELETE_MOVE = "DELETE FROM moves WHERE run_id = %(run_id)s AND number = %(number)s"

SELECT_META = "SELECT value FROM meta WHERE key = %(key)s"
UPSERT_META = """
    INSERT INTO meta (key, value) VALUES (%(key)s, %(value)s)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value
"""
INSERT_META_IF_ABSENT = """
    INSERT INTO meta (key, value) VALUES (%(key)s, %(value)s) ON CONFLICT DO NOTHING
"""

SELECT_GUILD_SETTINGS = "SELECT key, value FROM guild_settings WHERE guild_id = %(guild_id)s"
UPSERT_GUILD_SETTING = """
    INSERT INTO guild_settings (guild_id, key, value) VALUES (%(guild_id)s, %(key)s, %(value)s)
    ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value
"""

SELECT_GUILDS_WITH = """
    SELECT guild_id, value FROM guild_settings WHERE key = %(key)s ORDER BY guild_id
"""
SELECT_PLAYER_SETTINGS = "SELECT key, value FROM player_settings WHERE user_id = %(user_id)s"
UPSERT_PLAYER_SETTING = """
    INSERT INTO player_settings (user_id, key, value) VALUES (%(user_id)s, %(key)s, %(value)s)
    ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value
"""
UPSERT_PLAYER = """
    INSERT INTO players (user_id, name, updated_at) VALUES (%(user_id)s, %(name)s, %(now)s)
    ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
    WHERE players.name <> excluded.name
"""

# A day's board: the partial indexes' own condition; equal scores share a rank and are listed
# by name (lower-cased and compared byte by byte, as SQLite does), never by time.
_BOARD_WHERE = """
    r.kind = 'daily' AND r.ranked = 1 AND r.game = %(game)s AND r.variant = %(variant)s
    AND r.day = %(day)s AND (%(guild_id)s::bigint IS NULL OR r.guild_id = %(guild_id)s::bigint)
    AND (%(max_owner_id)s::bigint IS NULL OR r.owner_id <= %(max_owner_id)s::bigint)
"""
_BOARD_RANK = f"""
    1 + (SELECT count(*) FROM runs AS r
         WHERE {_BOARD_WHERE} AND r.score_key > b.score_key)
"""
_BOARD_NAME = "lower(coalesce(p.name, '') COLLATE \"C\")"
SELECT_BOARD = f"""
    SELECT {_BOARD_RANK} AS rank, b.id, b.owner_id, coalesce(p.name, '') AS name, b.score,
           b.score_text, b.status, b.outcome
    FROM runs AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
    WHERE {_BOARD_WHERE.replace("r.", "b.")}
    ORDER BY b.score_key DESC, {_BOARD_NAME}, b.owner_id
    LIMIT %(limit)s OFFSET %(offset)s
"""
SELECT_BOARD_SIZE = f"SELECT count(*) AS size FROM runs AS r WHERE {_BOARD_WHERE}"
SELECT_BOARD_LINE = f"""
    SELECT {_BOARD_RANK} AS rank, b.id, b.owner_id, coalesce(p.name, '') AS name, b.score,
           b.score_text, b.status, b.outcome
    FROM runs AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
    WHERE {_BOARD_WHERE.replace("r.", "b.")} AND b.owner_id = %(owner_id)s
"""

SELECT_GAME_STATS = """
    SELECT count(*) AS finished,
           count(*) FILTER (WHERE outcome = 'won') AS wins,
           max(score_key) AS best_key,
           avg(points)::float8 AS average_points,
           count(*) FILTER (WHERE kind = 'daily') AS dailies,
           coalesce(sum(hinted), 0) AS hinted
    FROM runs
    WHERE owner_id = %(owner_id)s AND game = %(game)s AND status <> 'playing'
"""
SELECT_BEST = """
    SELECT score, score_text FROM runs
    WHERE owner_id = %(owner_id)s AND game = %(game)s AND status <> 'playing'
      AND score_key = %(key)s
    ORDER BY finished_at LIMIT 1
"""
# Gaps and islands: consecutive days minus their row number are constant along a streak.
SELECT_STREAKS = """
    WITH days AS (
        SELECT DISTINCT day, day::date - DATE '1970-01-01' AS n FROM runs
        WHERE kind = 'daily' AND owner_id = %(owner_id)s AND game = %(game)s
          AND status <> 'playing'
    ),
    islands AS (SELECT day, n - row_number() OVER (ORDER BY n) AS island FROM days)
    SELECT min(day) AS first, max(day) AS last, count(*) AS length
    FROM islands GROUP BY island ORDER BY max(day) DESC
"""
SELECT_DAILY_MARKS = """
    SELECT day, status, outcome, score_text FROM runs
    WHERE kind = 'daily' AND owner_id = %(owner_id)s AND game = %(game)s
      AND status <> 'playing' AND day >= %(since)s
    ORDER BY day, variant
"""

CLAIM_POST = """
    INSERT INTO daily_posts (guild_id, day, status, at)
    VALUES (%(guild_id)s, %(day)s, 'claimed', %(now)s)
    ON CONFLICT DO NOTHING
"""
FINISH_POST = """
    UPDATE daily_posts SET status = %(status)s, channel_id = %(channel_id)s,
                           message_id = %(message_id)s, note = %(note)s, at = %(now)s
    WHERE guild_id = %(guild_id)s AND day = %(day)s
"""
SELECT_POST_STATUS = """
    SELECT status FROM daily_posts WHERE guild_id = %(guild_id)s AND day = %(day)s
"""


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class PostgresTx:
    """The named queries over one connection inside one transaction.

    ``write`` says whether the transaction may write; if so, :meth:`run` locks the row it
    reads until the transaction ends.
    """

    def __init__(self, conn: psycopg.Connection[Any], write: bool) -> None:
        self.conn = conn
        self.write = write

    def _rows(self, query: str, params: dict[str, Any]) -> list[dict[str, Any]]:
        return self.conn.execute(query, params).fetchall()  # type: ignore[arg-type]

    def _one(self, query: str, params: dict[str, Any]) -> dict[str, Any] | None:
        return self.conn.execute(query, params).fetchone()  # type: ignore[arg-type]

    def _count(self, query: str, params: dict[str, Any]) -> int:
        return self.conn.execute(query, params).rowcount  # type: ignore[arg-type]

    # ----- runs -----------------------------------------------------------------------------

    def run(self, run_id: int) -> RunRow | None:
        row = self._one(SELECT_RUN_FOR_UPDATE if self.write else SELECT_RUN, {"id": run_id})
        return None if row is None else _run_row(row)

    def unfinished(self, owner_id: int, game: str | None) -> list[RunRow]:
        rows = self._rows(SELECT_UNFINISHED, {"owner_id": owner_id, "game": game})
        return [_run_row(row) for row in rows]

    def daily_run(self, owner_id: int, game: str, variant: str, day: str) -> RunRow | None:
        params = {"owner_id": owner_id, "game": game, "variant": variant, "day": day}
        row = self._one(SELECT_DAILY, params)
        return None if row is None else _run_row(row)

    def insert_run(self, run: NewRun) -> int:
        params = {
            "owner_id": run.owner_id, "guild_id": run.guild_id, "channel_id": run.channel_id,
            "game": run.game, "variant": run.variant, "seed": str(run.seed),
            "deck": None if run.deck is None else _json(list(run.deck)), "kind": run.kind,
            "day": run.day, "status": run.status, "outcome": run.outcome,
            "score": _json(run.score), "score_key": score_key(run.score),
            "state": _json(run.state), "ranked": int(run.ranked), "rules": run.rules,
            "now": run.now, "finished_at": run.finished_at, "score_text": run.score_text,
            "points": run.points,
        }
        row = self._one(INSERT_RUN, params)
        if row is None:
            raise Conflict(f"a {run.kind} run with this key exists already")
        return int(row["id"])

    def update_run(self, change: RunChange) -> bool:
        params = {
            "id": change.id, "expected": change.expected, "state": _json(change.state),
            "moves": change.moves, "score": _json(change.score),
            "score_key": score_key(change.score), "status": change.status,
            "outcome": change.outcome, "ranked": int(change.ranked),
            "hinted": int(change.hinted), "now": change.now, "finished_at": change.finished_at,
            "score_text": change.score_text, "points": change.points,
        }
        return self._count(UPDATE_RUN, params) == 1

    def update_state(self, run_id: int, version: int, state: dict[str, Any]) -> bool:
        params = {"id": run_id, "version": version, "state": _json(state)}
        return self._count(UPDATE_STATE, params) == 1

    # ----- moves ----------------------------------------------------------------------------

    def append_move(self, run_id: int, number: int, action: str, at: str) -> None:
        params = {"run_id": run_id, "number": number, "action": action, "at": at}
        if self._count(INSERT_MOVE, params) != 1:
            raise Conflict(f"run {run_id} has a move {number} already")

    def actions(self, run_id: int) -> list[str]:
        return [row["action"] for row in self._rows(SELECT_ACTIONS, {"run_id": run_id})]

    def delete_move(self, run_id: int, number: int) -> None:
        self._count(DELETE_MOVE, {"run_id": run_id, "number": number})

    # ----- meta and settings ----------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self._one(SELECT_META, {"key": key})
        return None if row is None else row["value"]

    def set_meta(self, key: str, value: str) -> None:
        self._count(UPSERT_META, {"key": key, "value": value})

    def add_meta(self, key: str, value: str) -> str:
        self._count(INSERT_META_IF_ABSENT, {"key": key, "value": value})
        stored = self.meta(key)
        assert stored is not None
        return stored

    def guild_settings(self, guild_id: int) -> dict[str, str]:
        rows = self._rows(SELECT_GUILD_SETTINGS, {"guild_id": guild_id})
        return {row["key"]: row["value"] for row in rows}

    def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        params = {"guild_id": guild_id, "key": key, "value": value}
        self._count(UPSERT_GUILD_SETTING, params)

    def guilds_with_setting(self, key: str) -> list[tuple[int, str]]:
        return [(row["guild_id"], row["value"])
                for row in self._rows(SELECT_GUILDS_WITH, {"key": key})]

    def player_settings(self, user_id: int) -> dict[str, str]:
        rows = self._rows(SELECT_PLAYER_SETTINGS, {"user_id": user_id})
        return {row["key"]: row["value"] for row in rows}

    def set_player_setting(self, user_id: int, key: str, value: str) -> None:
        self._count(UPSERT_PLAYER_SETTING, {"user_id": user_id, "key": key, "value": value})

    def set_player_name(self, user_id: int, name: str, now: str) -> None:
        self._count(UPSERT_PLAYER, {"user_id": user_id, "name": name, "now": now})

    # ----- boards, stats and streaks --------------------------------------------------------

    def board(self, where: BoardFilter, limit: int, offset: int) -> list[BoardLine]:
        params = {**_board_params(where), "limit": limit, "offset": offset}
        return [_board_line(row) for row in self._rows(SELECT_BOARD, params)]

    def board_size(self, where: BoardFilter) -> int:
        row = self._one(SELECT_BOARD_SIZE, _board_params(where))
        assert row is not None
        return int(row["size"])

    def board_line(self, where: BoardFilter, owner_id: int) -> BoardLine | None:
        params = {**_board_params(where), "owner_id": owner_id}
        row = self._one(SELECT_BOARD_LINE, params)
        return None if row is None else _board_line(row)

    def game_stats(self, owner_id: int, game: str) -> GameStats:
        params = {"owner_id": owner_id, "game": game}
        row = self._one(SELECT_GAME_STATS, params)
        assert row is not None
        best_score, best_text = None, None
        if row["best_key"] is not None:
            best = self._one(SELECT_BEST, {**params, "key": row["best_key"]})
            assert best is not None
            best_score, best_text = json.loads(best["score"]), best["score_text"]
        return GameStats(
            game=game, finished=row["finished"], wins=row["wins"], best_score=best_score,
            best_text=best_text, average_points=row["average_points"], dailies=row["dailies"],
            hinted=int(row["hinted"]),
        )

    def streaks(self, owner_id: int, game: str) -> list[Streak]:
        rows = self._rows(SELECT_STREAKS, {"owner_id": owner_id, "game": game})
        return [Streak(row["first"], row["last"], row["length"]) for row in rows]

    def daily_marks(self, owner_id: int, game: str, since: str) -> list[DayMark]:
        params = {"owner_id": owner_id, "game": game, "since": since}
        return [
            DayMark(row["day"], row["status"], row["outcome"], row["outcome"] == "won",
                    row["score_text"])
            for row in self._rows(SELECT_DAILY_MARKS, params)
        ]

    # ----- the daily post -------------------------------------------------------------------

    def claim_post(self, guild_id: int, day: str, now: str) -> bool:
        return self._count(CLAIM_POST, {"guild_id": guild_id, "day": day, "now": now}) == 1

    def finish_post(
        self, guild_id: int, day: str, status: str, channel_id: int | None,
        message_id: int | None, note: str | None, now: str,
    ) -> None:
        self._count(FINISH_POST, {
            "guild_id": guild_id, "day": day, "status": status, "channel_id": channel_id,
            "message_id": message_id, "note": note, "now": now,
        })

    def post_status(self, guild_id: int, day: str) -> str | None:
        row = self._one(SELECT_POST_STATUS, {"guild_id": guild_id, "day": day})
        return None if row is None else row["status"]


def _board_params(where: BoardFilter) -> dict[str, Any]:
    return {
        "game": where.game, "variant": where.variant, "day": where.day,
        "guild_id": where.guild_id, "max_owner_id": where.max_owner_id,
    }


def _board_line(row: dict[str, Any]) -> BoardLine:
    return BoardLine(
        rank=row["rank"], run_id=row["id"], owner_id=row["owner_id"], name=row["name"],
        score=json.loads(row["score"]), score_text=row["score_text"], status=row["status"],
        outcome=row["outcome"],
    )


def _run_row(row: dict[str, Any]) -> RunRow:
    return RunRow(
        id=row["id"],
        owner_id=row["owner_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        variant=row["variant"],
        seed=int(row["seed"]),
        deck=None if row["deck"] is None else tuple(json.loads(row["deck"])),
        kind=row["kind"],
        day=row["day"],
        status=row["status"],
        outcome=row["outcome"],
        score=json.loads(row["score"]),
        state=_state(row["state"]),
        moves=row["moves"],
        version=row["version"],
        ranked=bool(row["ranked"]),
        rules=row["rules"],
        hinted=bool(row["hinted"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
    )


def _state(text: str) -> dict[str, Any]:
    # An unreadable state is the core's to repair by replay, not a reason to lose the row.
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
