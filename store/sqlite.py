"""The SQLite backend: its two connections, its migration runner and the named queries.

Every transaction is a plain function ``fn(tx, *args)`` that :meth:`SqliteStore.read` runs on
aiosqlite's connection thread and :meth:`SqliteStore.write` on the writer's thread, each as a
single job. One job per transaction means one thread hop per transaction (instead of one per
statement), and since each thread runs its jobs one after another, two transactions on one
connection never interleave.
Across processes, writers use ``BEGIN IMMEDIATE`` and wait for each other through SQLite's
busy timeout.

The SQL lives here as named, parameterised queries; :class:`SqliteTx` turns rows into the
plain dataclasses of ``store.base`` and ``sqlite3.IntegrityError`` into ``Conflict``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from store.base import (
    BoardFilter,
    BoardLine,
    ChallengeEntry,
    ChallengeRow,
    ChallengeStats,
    Conflict,
    DayMark,
    GameStats,
    NewChallenge,
    NewRun,
    ParRecord,
    ParRow,
    RunChange,
    RunRow,
    SeriesBest,
    SeriesEntry,
    SeriesRow,
    Streak,
    TurnRow,
    WeekFilter,
    WeekLine,
)
from store.migrations import folder, load_migrations

T = TypeVar("T")

SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
BUSY_TIMEOUT_MS = 5000
DIALECT = "sqlite"


class SqliteStore:
    """A SQLite file in WAL mode with foreign keys on, through two connections: aiosqlite's
    for reads (and migrations and backups), and a writer of its own for write transactions.

    In WAL mode readers never wait for the writer: a read (a leaderboard, a /daily lookup)
    does not queue behind a commit's sync to disk, and a click's write does not queue behind
    a slow read. ``synchronous`` is ``FULL`` by default: a commit returns only once it is
    durable.
    """

    dialect = DIALECT

    def __init__(self, conn: aiosqlite.Connection, raw: sqlite3.Connection, path: Path,
                 writer: _Writer) -> None:
        self._conn = conn
        self._raw = raw
        self._writer = writer
        self.path = path
        # Group commit: write transactions that arrive while a batch is being written wait
        # here and go together in the next one (see ``write``); ``_idle`` is clear while one
        # is being written.
        self._queued: list[_Job] = []
        self._idle = asyncio.Event()
        self._idle.set()

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> SqliteStore:
        """Open (creating it and its folder if needed) the database file at ``path``.

        Raises ``ValueError`` for an unknown ``synchronous`` level.
        """
        level = synchronous.upper()
        if level not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {level!r}")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module starts no transaction of its own; ours are
        # explicit BEGIN ... COMMIT.
        conn = await aiosqlite.connect(path, isolation_level=None)
        writer: _Writer | None = None
        try:
            # aiosqlite has no public "run this callable on your thread"; its private
            # ``_execute`` (present in every release) is what each of its own methods uses,
            # and ``_conn`` is the sqlite3 connection that thread owns.
            raw: sqlite3.Connection = conn._conn
            await conn._execute(_configure, raw, level, busy_timeout_ms)
            writer = await _Writer.open(path, level, busy_timeout_ms)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, raw, path, writer)

    async def close(self) -> None:
        """Close both connections, once the writes already asked for are committed."""
        await self._idle.wait()
        await self._writer.close()
        await self._conn.close()

    async def migrate(self, path: str | Path | None = None) -> int:
        """Apply the migrations (of ``path``, default the shipped SQLite ones) that are newer
        than the database; return its version.

        Each file runs in one transaction together with its ``PRAGMA user_version`` bump.
        Raises ``ValueError`` for a badly named migration file or a database newer than them.
        """
        return await self._call(_migrate, folder(DIALECT) if path is None else Path(path))

    async def read(self, fn: Callable[..., T], *args: Any, replica: bool = False) -> T:
        """Run ``fn(tx, *args)`` in a read transaction (one consistent snapshot). A SQLite
        file has no replica: ``replica`` changes nothing."""
        return await self._call(_transaction, "BEGIN", fn, args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(tx, *args)`` in a write transaction, committed durably when it returns.

        If ``fn`` raises, everything it wrote is rolled back and the exception propagates.

        Group commit: while one batch of writes is on the disk, the writes that arrive wait,
        and then all of them run in one transaction, each inside a savepoint of its own (a
        write that raises is rolled back to its savepoint alone), with one durable commit for
        all. Each still returns only after that commit, so an answer never promises a write
        that could be lost; alone, a write is its own batch, as before. Under load this turns
        many syncs to disk into one.

        A write that finds the writer idle hands its batch to the writer thread at once, and
        the batch's results are handed out by a callback: no task in between, so a click's
        write costs no extra turns of the event loop, each of which would wait for whatever
        else the loop has to do.
        """
        loop = asyncio.get_running_loop()
        job = _Job(fn, args, loop.create_future())
        self._queued.append(job)
        if self._idle.is_set():
            self._next_batch(loop)
        return await job.future

    def _next_batch(self, loop: asyncio.AbstractEventLoop) -> None:
        batch, self._queued = self._queued, []
        self._idle.clear()
        try:
            done = self._writer.submit(_write_batch, batch)
        except BaseException as exc:  # the writer is closed
            self._finish_batch(loop, batch, None, exc)
            return

        def finished(future: concurrent.futures.Future[list[tuple[bool, Any]]]) -> None:
            try:
                outcome = future.result()
            except BaseException as exc:  # the commit failed: none of the batch holds
                loop.call_soon_threadsafe(self._finish_batch, loop, batch, None, exc)
            else:
                loop.call_soon_threadsafe(self._finish_batch, loop, batch, outcome, None)

        done.add_done_callback(finished)

    def _finish_batch(self, loop: asyncio.AbstractEventLoop, batch: list[_Job],
                      outcomes: list[tuple[bool, Any]] | None,
                      failure: BaseException | None) -> None:
        for i, job in enumerate(batch):
            if job.future.done():  # the caller gave up waiting (cancelled)
                continue
            if outcomes is None:
                job.future.set_exception(failure or RuntimeError("the write failed"))
                continue
            ok, value = outcomes[i]
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(value)
        if self._queued:
            self._next_batch(loop)
        else:
            self._idle.set()

    async def backup(self, target: str | Path) -> None:
        """Copy the database, consistently, to the file ``target`` while it stays in use."""
        await self._call(_backup, Path(target))

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        return await self._conn._execute(fn, self._raw, *args)


class _Writer:
    """The connection for write transactions, on a thread of its own."""

    def __init__(self, executor: ThreadPoolExecutor, conn: sqlite3.Connection) -> None:
        self._executor = executor
        self._conn = conn
        self._closed = False

    @classmethod
    async def open(cls, path: Path, synchronous: str, busy_timeout_ms: int) -> _Writer:
        executor = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")

        def connect() -> sqlite3.Connection:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            try:
                _configure(conn, synchronous, busy_timeout_ms)
            except BaseException:
                conn.close()
                raise
            return conn

        try:
            conn = await asyncio.get_running_loop().run_in_executor(executor, connect)
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(executor, conn)

    def submit(self, fn: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        return self._executor.submit(fn, self._conn, *args)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, self._conn.close)
        finally:
            self._executor.shutdown(wait=False)


def _configure(conn: sqlite3.Connection, synchronous: str, busy_timeout_ms: int) -> None:
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")  # checked against SYNCHRONOUS
    conn.execute("PRAGMA foreign_keys = ON")


def _transaction(
    conn: sqlite3.Connection, begin: str, fn: Callable[..., T], args: Sequence[Any]
) -> T:
    conn.execute(begin)
    try:
        result = fn(SqliteTx(conn), *args)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


@dataclass
class _Job:
    """A write transaction waiting for its batch: the function, its arguments, its result."""

    fn: Callable[..., Any]
    args: Sequence[Any]
    future: asyncio.Future[Any]


def _write_batch(conn: sqlite3.Connection, batch: list[_Job]) -> list[tuple[bool, Any]]:
    """Run the batch's writes in one transaction, each in its savepoint; one commit."""
    if len(batch) == 1:  # the common case at low load: no savepoint needed
        job = batch[0]
        try:
            return [(True, _transaction(conn, "BEGIN IMMEDIATE", job.fn, job.args))]
        except Exception as exc:
            return [(False, exc)]
    outcomes: list[tuple[bool, Any]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        tx = SqliteTx(conn)
        for job in batch:
            conn.execute("SAVEPOINT job")
            try:
                outcomes.append((True, job.fn(tx, *job.args)))
            except Exception as exc:
                conn.execute("ROLLBACK TO job")
                outcomes.append((False, exc))
            conn.execute("RELEASE job")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


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


# ----- named queries ----------------------------------------------------------------------

_RUN_COLUMNS = """
    id, owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day, status, outcome,
    score, state, moves, version, ranked, rules, hinted, created_at, updated_at, finished_at
"""

RUN_VERSION = "SELECT version FROM runs WHERE id = :id"
SELECT_RUN = f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = :id"

SELECT_UNFINISHED = f"""
    SELECT {_RUN_COLUMNS} FROM runs
    WHERE owner_id = :owner_id AND status = 'playing' AND (:game IS NULL OR game = :game)
    ORDER BY updated_at DESC, id DESC
"""

SELECT_DAILY = f"""
    SELECT {_RUN_COLUMNS} FROM runs
    WHERE kind = 'daily' AND owner_id = :owner_id AND game = :game AND variant = :variant
      AND day = :day
"""

INSERT_RUN = """
    INSERT INTO runs (owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day,
                      status, outcome, score, score_key, score_text, points, state, moves,
                      version, ranked, rules, created_at, updated_at, finished_at)
    VALUES (:owner_id, :guild_id, :channel_id, :game, :variant, :seed, :deck, :kind, :day,
            :status, :outcome, :score, :score_key, :score_text, :points, :state, 0, 0, :ranked,
            :rules, :now, :now, :finished_at)
"""

# The compare-and-set: the row changes only if nobody wrote to it since version :expected.
UPDATE_RUN = """
    UPDATE runs
    SET state = :state, moves = :moves, score = :score, score_key = :score_key,
        score_text = :score_text, points = :points, status = :status, outcome = :outcome,
        ranked = :ranked, hinted = :hinted,
        version = version + 1, updated_at = :now, finished_at = :finished_at
    WHERE id = :id AND version = :expected
"""

UPDATE_STATE = "UPDATE runs SET state = :state WHERE id = :id AND version = :version"

INSERT_MOVE = """
    INSERT INTO moves (run_id, number, action, at) VALUES (:run_id, :number, :action, :at)
"""

SELECT_ACTIONS = "SELECT action FROM moves WHERE run_id = :run_id ORDER BY number"

DELETE_MOVE = "DELETE FROM moves WHERE run_id = :run_id AND number = :number"

SELECT_META = "SELECT value FROM meta WHERE key = :key"
UPSERT_META = """
    INSERT INTO meta (key, value) VALUES (:key, :value)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value
"""
INSERT_META_IF_ABSENT = "INSERT INTO meta (key, value) VALUES (:key, :value) ON CONFLICT DO NOTHING"

SELECT_GUILD_SETTINGS = "SELECT key, value FROM guild_settings WHERE guild_id = :guild_id"
UPSERT_GUILD_SETTING = """
    INSERT INTO guild_settings (guild_id, key, value) VALUES (:guild_id, :key, :value)
    ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value
"""

SELECT_GUILDS_WITH = "SELECT guild_id, value FROM guild_settings WHERE key = :key ORDER BY guild_id"
SELECT_PLAYER_SETTINGS = "SELECT key, value FROM player_settings WHERE user_id = :user_id"
UPSERT_PLAYER_SETTING = """
    INSERT INTO player_settings (user_id, key, value) VALUES (:user_id, :key, :value)
    ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value
"""
UPSERT_PLAYER = """
    INSERT INTO players (user_id, name, updated_at) VALUES (:user_id, :name, :now)
    ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
    WHERE players.name <> excluded.name
"""

# A day's board: the ranked dailies of one game, variant and day; equal scores share a rank
# and are listed by name, never by time. The filter is the partial indexes' own condition and
# is written out per scope (global, a server, a server with a minimum account age) rather than
# as `:guild_id IS NULL OR ...`: SQLite plans a statement before it sees the values, and only a
# plain `guild_id = :guild_id` lets it range-scan `runs_guild_board`, while the global filter
# is answered from `runs_board` alone, without reading a table row.
_BOARD_WHERE = """
    r.kind = 'daily' AND r.ranked = 1 AND r.game = :game AND r.variant = :variant
    AND r.day = :day
"""
_BOARD_GUILD = " AND r.guild_id = :guild_id"
_BOARD_AGE = " AND r.owner_id <= :max_owner_id"


@dataclass(frozen=True)
class BoardQueries:
    """The board statements of one scope.

    A page is read in three steps that never touch the lines above it (a rank counted per
    line, or a window over the whole board, costs a deep page a walk of everything above it):
    ``keys`` walks the index to the page's first and last score, ``above`` counts the runs
    that score higher than the first, and ``band`` takes the runs between the two scores —
    the page plus the rest of the tie groups at its edges — ranked from that count. The board
    indexes hold the owner, so all three read the index (and ``players``) alone.
    """

    keys: str
    above: str
    band: str
    size: str
    line: str


def _board_queries(where: str) -> BoardQueries:
    on_b = where.replace("r.", "b.")
    line = """
        b.id, b.owner_id, coalesce(p.name, '') AS name, b.score, b.score_text, b.status,
        b.outcome
    """
    return BoardQueries(
        keys=f"""
            SELECT r.score_key FROM runs AS r WHERE {where}
            ORDER BY r.score_key DESC LIMIT :limit OFFSET :offset
        """,
        above=f"SELECT count(*) FROM runs AS r WHERE {where} AND r.score_key > :key",
        # The band is ranked and cut from the index and the names alone; only the page's
        # own lines then read their runs.
        band=f"""
            WITH band AS (
                SELECT b.id, b.score_key, b.owner_id, coalesce(p.name, '') AS name,
                       rank() OVER (ORDER BY b.score_key DESC) AS rank
                FROM runs AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
                WHERE {on_b} AND b.score_key BETWEEN :bottom AND :top
                ORDER BY b.score_key DESC, lower(coalesce(p.name, '')), b.owner_id
                LIMIT :limit OFFSET :skip
            )
            SELECT :above + band.rank AS rank, b.id, b.owner_id, band.name, b.score,
                   b.score_text, b.status, b.outcome
            FROM band JOIN runs AS b ON b.id = band.id
            ORDER BY band.score_key DESC, lower(band.name), band.owner_id
        """,
        size=f"SELECT count(*) FROM runs AS r WHERE {where}",
        line=f"""
            SELECT 1 + (SELECT count(*) FROM runs AS r
                        WHERE {where} AND r.score_key > b.score_key) AS rank, {line}
            FROM runs AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
            WHERE {on_b} AND b.owner_id = :owner_id
        """,
    )


#: By (a server's board, with a minimum account age).
BOARD_QUERIES = {
    (guild, age): _board_queries(
        _BOARD_WHERE + (_BOARD_GUILD if guild else "") + (_BOARD_AGE if age else "")
    )
    for guild in (False, True)
    for age in (False, True)
}


def board_queries(where: BoardFilter) -> BoardQueries:
    """The statements of ``where``'s scope."""
    return BOARD_QUERIES[where.guild_id is not None, where.max_owner_id is not None]


SELECT_GAME_STATS = """
    SELECT count(*) AS finished,
           coalesce(sum(outcome = 'won'), 0) AS wins,
           max(score_key) AS best_key,
           avg(points) AS average_points,
           coalesce(sum(kind = 'daily'), 0) AS dailies,
           coalesce(sum(hinted), 0) AS hinted
    FROM runs
    WHERE owner_id = :owner_id AND game = :game AND status <> 'playing'
"""
SELECT_BEST = """
    SELECT score, score_text FROM runs
    WHERE owner_id = :owner_id AND game = :game AND status <> 'playing' AND score_key = :key
    ORDER BY finished_at LIMIT 1
"""
# Gaps and islands: consecutive days minus their row number are constant along a streak.
SELECT_STREAKS = """
    WITH days AS (
        SELECT DISTINCT day, CAST(julianday(day) AS INTEGER) AS n FROM runs
        WHERE kind = 'daily' AND owner_id = :owner_id AND game = :game AND status <> 'playing'
    ),
    islands AS (SELECT day, n - row_number() OVER (ORDER BY n) AS island FROM days)
    SELECT min(day) AS first, max(day) AS last, count(*) AS length
    FROM islands GROUP BY island ORDER BY last DESC
"""
SELECT_DAILY_MARKS = """
    SELECT day, status, outcome, score_text FROM runs
    WHERE kind = 'daily' AND owner_id = :owner_id AND game = :game AND status <> 'playing'
      AND day >= :since
    ORDER BY day, variant
"""

CLAIM_POST = """
    INSERT INTO daily_posts (guild_id, day, status, at) VALUES (:guild_id, :day, 'claimed', :now)
    ON CONFLICT DO NOTHING
"""
FINISH_POST = """
    UPDATE daily_posts SET status = :status, channel_id = :channel_id, message_id = :message_id,
                           note = :note, at = :now
    WHERE guild_id = :guild_id AND day = :day
"""
SELECT_POST_STATUS = "SELECT status FROM daily_posts WHERE guild_id = :guild_id AND day = :day"


# ----- challenges ---------------------------------------------------------------------------

_CHALLENGE_COLUMNS = """
    id, owner_id, opponent_id, guild_id, channel_id, message_id, game, variant, seed,
    created_at, deadline, closed_at
"""
INSERT_CHALLENGE = """
    INSERT INTO challenges (owner_id, opponent_id, guild_id, channel_id, game, variant, seed,
                            created_at, deadline)
    VALUES (:owner_id, :opponent_id, :guild_id, :channel_id, :game, :variant, :seed,
            :created_at, :deadline)
"""
SELECT_CHALLENGE = f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = :id"
SET_CHALLENGE_CARD = """
    UPDATE challenges SET channel_id = :channel_id, message_id = :message_id WHERE id = :id
"""
CLOSE_CHALLENGE = "UPDATE challenges SET closed_at = :now WHERE id = :id AND closed_at IS NULL"
SELECT_DUE_CHALLENGES = """
    SELECT id FROM challenges WHERE closed_at IS NULL AND deadline <= :now
    ORDER BY deadline, id LIMIT :limit
"""
# A player's open challenges: their own, those they play, and those naming them.
SELECT_OPEN_CHALLENGES = f"""
    SELECT {_CHALLENGE_COLUMNS} FROM challenges AS c
    WHERE c.closed_at IS NULL AND (
        c.owner_id = :user_id OR c.opponent_id = :user_id
        OR EXISTS (SELECT 1 FROM challenge_runs AS cr
                   WHERE cr.challenge_id = c.id AND cr.owner_id = :user_id))
    ORDER BY c.deadline, c.id LIMIT :limit
"""
INSERT_CHALLENGE_RUN = """
    INSERT INTO challenge_runs (challenge_id, owner_id, run_id)
    VALUES (:challenge_id, :owner_id, :run_id)
"""
SELECT_CHALLENGE_RUN = """
    SELECT run_id FROM challenge_runs WHERE challenge_id = :challenge_id AND owner_id = :owner_id
"""
SELECT_CHALLENGE_OF_RUN = "SELECT challenge_id FROM challenge_runs WHERE run_id = :run_id"
# A card's lines: best score first, equal scores by name (never by time).
SELECT_CHALLENGE_ENTRIES = """
    SELECT cr.owner_id, coalesce(p.name, '') AS name, r.id AS run_id, r.status, r.outcome,
           r.score, r.score_text, cr.unfinished
    FROM challenge_runs AS cr
    JOIN runs AS r ON r.id = cr.run_id
    LEFT JOIN players AS p ON p.user_id = cr.owner_id
    WHERE cr.challenge_id = :challenge_id
    ORDER BY r.score_key DESC, lower(coalesce(p.name, '')), cr.owner_id
"""
MARK_UNFINISHED = """
    UPDATE challenge_runs SET unfinished = 1
    WHERE challenge_id = :challenge_id AND owner_id = :owner_id
"""
# Played: the player's finished challenge runs. Won: of a closed challenge with another
# player in it, nobody scored higher (a shared first place is a win).
SELECT_CHALLENGE_STATS = """
    SELECT count(*) AS played,
           coalesce(sum(CASE WHEN c.closed_at IS NOT NULL
               AND EXISTS (SELECT 1 FROM challenge_runs AS o
                           WHERE o.challenge_id = c.id AND o.owner_id <> cr.owner_id)
               AND NOT EXISTS (SELECT 1 FROM challenge_runs AS o JOIN runs AS ro ON ro.id = o.run_id
                               WHERE o.challenge_id = c.id AND ro.score_key > r.score_key)
               THEN 1 ELSE 0 END), 0) AS won
    FROM challenge_runs AS cr
    JOIN challenges AS c ON c.id = cr.challenge_id
    JOIN runs AS r ON r.id = cr.run_id
    WHERE cr.owner_id = :owner_id AND c.game = :game AND r.status <> 'playing'
"""

# ----- series -------------------------------------------------------------------------------

_SERIES_COLUMNS = "s.id, s.owner_id, s.game, s.variant, s.length, s.created_at"
INSERT_SERIES = """
    INSERT INTO series (owner_id, game, variant, length, created_at)
    VALUES (:owner_id, :game, :variant, :length, :now)
"""
SELECT_SERIES = f"SELECT {_SERIES_COLUMNS} FROM series AS s WHERE s.id = :id"
# The player's series still going: not all its runs dealt, or one still being played.
SELECT_OPEN_SERIES = f"""
    SELECT {_SERIES_COLUMNS} FROM series AS s
    WHERE s.owner_id = :owner_id AND s.game = :game AND (
        (SELECT count(*) FROM series_runs AS sr WHERE sr.series_id = s.id) < s.length
        OR EXISTS (SELECT 1 FROM series_runs AS sr JOIN runs AS r ON r.id = sr.run_id
                   WHERE sr.series_id = s.id AND r.status = 'playing'))
    ORDER BY s.id DESC LIMIT 1
"""
INSERT_SERIES_RUN = """
    INSERT INTO series_runs (series_id, number, run_id) VALUES (:series_id, :number, :run_id)
"""
SELECT_SERIES_OF_RUN = "SELECT series_id, number FROM series_runs WHERE run_id = :run_id"
SELECT_SERIES_ENTRIES = """
    SELECT sr.number, sr.run_id, r.status, r.outcome, r.points, r.score_text
    FROM series_runs AS sr JOIN runs AS r ON r.id = sr.run_id
    WHERE sr.series_id = :series_id ORDER BY sr.number
"""
# A run counts its points only if it ended with the player out alive (status 'over' and the
# engine's score; a death or getting lost scores 0 already); a resigned run counts 0.
SELECT_SERIES_BEST = """
    SELECT s.length AS length, max(t.total) AS best, count(*) AS played
    FROM series AS s JOIN (
        SELECT sr.series_id,
               sum(CASE WHEN r.status = 'over' THEN r.points ELSE 0 END) AS total,
               count(*) AS dealt,
               sum(CASE WHEN r.status = 'playing' THEN 1 ELSE 0 END) AS playing
        FROM series_runs AS sr
        JOIN series AS o ON o.id = sr.series_id
        JOIN runs AS r ON r.id = sr.run_id
        WHERE o.owner_id = :owner_id AND o.game = :game
        GROUP BY sr.series_id
    ) AS t ON t.series_id = s.id
    WHERE t.dealt = s.length AND t.playing = 0
    GROUP BY s.length ORDER BY s.length
"""

# ----- the week's board ---------------------------------------------------------------------


def _week_queries(guild: bool, age: bool) -> tuple[str, str]:
    """``(page, size)`` of a week's board in one scope: each player's points over the week's
    ranked dailies, added up; equal totals share a rank and are listed by name. ``page``
    adds the sums up once (from the ``runs_week`` indexes alone) and returns the page's lines,
    the viewer's own line and the board's size together."""
    where = (
        "r.kind = 'daily' AND r.ranked = 1 AND r.game = :game AND r.variant = :variant"
        " AND r.day >= :first AND r.day <= :last"
        + (" AND r.guild_id = :guild_id" if guild else "")
        + (" AND r.owner_id <= :max_owner_id" if age else "")
    )
    ranked = f"""
        WITH totals AS (
            SELECT r.owner_id, sum(r.points) AS total, count(*) AS days
            FROM runs AS r WHERE {where} GROUP BY r.owner_id
        ),
        ranked AS (
            SELECT t.owner_id, coalesce(p.name, '') AS name, t.total, t.days,
                   rank() OVER (ORDER BY t.total DESC) AS rank,
                   row_number() OVER (
                       ORDER BY t.total DESC, lower(coalesce(p.name, '')), t.owner_id
                   ) AS pos,
                   count(*) OVER () AS size
            FROM totals AS t LEFT JOIN players AS p ON p.user_id = t.owner_id
        )
    """
    page = f"""{ranked}
        SELECT rank, owner_id, name, total, days, pos, size FROM ranked
        WHERE (pos > :offset AND pos <= :offset + :limit) OR owner_id = :owner_id
        ORDER BY pos
    """
    size = f"SELECT count(DISTINCT r.owner_id) FROM runs AS r WHERE {where}"
    return page, size


WEEK_QUERIES = {
    (guild, age): _week_queries(guild, age) for guild in (False, True) for age in (False, True)
}


# ----- par and turning points ---------------------------------------------------------------

_PAR_COLUMNS = """
    game, variant, day, rules, score, score_text, won, exact, actions, nodes, seconds, solved_at
"""
SELECT_PAR = f"""
    SELECT {_PAR_COLUMNS} FROM pars WHERE game = :game AND variant = :variant AND day = :day
"""
INSERT_PAR = """
    INSERT INTO pars (game, variant, day, rules, score, score_key, score_text, won, exact,
                      actions, nodes, seconds, solved_at)
    VALUES (:game, :variant, :day, :rules, :score, :score_key, :score_text, :won, :exact,
            :actions, :nodes, :seconds, :solved_at)
    ON CONFLICT DO NOTHING
"""
#: How many runs of a board's scope scored at least a score (the par), by scope as
#: BOARD_QUERIES: the same partial indexes answer it.
REACHED_QUERIES = {
    (guild, age): "SELECT count(*) FROM runs AS r WHERE " + _BOARD_WHERE
    + (_BOARD_GUILD if guild else "") + (_BOARD_AGE if age else "") + " AND r.score_key >= :key"
    for guild in (False, True)
    for age in (False, True)
}
# A player's finished dailies on days with a par, and those that scored at least the par.
SELECT_PAR_RECORD = """
    SELECT count(*) AS played,
           coalesce(sum(CASE WHEN r.score_key >= p.score_key THEN 1 ELSE 0 END), 0) AS reached
    FROM runs AS r
    JOIN pars AS p ON p.game = r.game AND p.variant = r.variant AND p.day = r.day
    WHERE r.kind = 'daily' AND r.owner_id = :owner_id AND r.game = :game
      AND r.status <> 'playing'
"""
SELECT_TURN = "SELECT run_id, step, text, nodes, computed_at FROM run_turns WHERE run_id = :run_id"
INSERT_TURN = """
    INSERT INTO run_turns (run_id, step, text, nodes, computed_at)
    VALUES (:run_id, :step, :text, :nodes, :computed_at)
    ON CONFLICT DO NOTHING
"""


def score_key(score: Sequence[int]) -> str:
    """Text that sorts like the score list (parts zero-padded): what leaderboards index."""
    return ".".join(f"{max(0, min(int(part), 999_999)):06d}" for part in score)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class SqliteTx:
    """The named queries over one connection inside one transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    # ----- runs -----------------------------------------------------------------------------

    def run(self, run_id: int) -> RunRow | None:
        row = self.conn.execute(SELECT_RUN, {"id": run_id}).fetchone()
        return None if row is None else _run_row(row)

    def run_version(self, run_id: int) -> int | None:
        row = self.conn.execute(RUN_VERSION, {"id": run_id}).fetchone()
        return None if row is None else int(row[0])

    def unfinished(self, owner_id: int, game: str | None) -> list[RunRow]:
        rows = self.conn.execute(SELECT_UNFINISHED, {"owner_id": owner_id, "game": game})
        return [_run_row(row) for row in rows]

    def daily_run(self, owner_id: int, game: str, variant: str, day: str) -> RunRow | None:
        params = {"owner_id": owner_id, "game": game, "variant": variant, "day": day}
        row = self.conn.execute(SELECT_DAILY, params).fetchone()
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
        try:
            cursor = self.conn.execute(INSERT_RUN, params)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def update_run(self, change: RunChange) -> bool:
        params = {
            "id": change.id, "expected": change.expected, "state": _json(change.state),
            "moves": change.moves, "score": _json(change.score),
            "score_key": score_key(change.score), "status": change.status,
            "outcome": change.outcome, "ranked": int(change.ranked),
            "hinted": int(change.hinted), "now": change.now, "finished_at": change.finished_at,
            "score_text": change.score_text, "points": change.points,
        }
        return self.conn.execute(UPDATE_RUN, params).rowcount == 1

    def update_state(self, run_id: int, version: int, state: dict[str, Any]) -> bool:
        params = {"id": run_id, "version": version, "state": _json(state)}
        return self.conn.execute(UPDATE_STATE, params).rowcount == 1

    # ----- moves ----------------------------------------------------------------------------

    def append_move(self, run_id: int, number: int, action: str, at: str) -> None:
        params = {"run_id": run_id, "number": number, "action": action, "at": at}
        try:
            self.conn.execute(INSERT_MOVE, params)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None

    def actions(self, run_id: int) -> list[str]:
        return [row[0] for row in self.conn.execute(SELECT_ACTIONS, {"run_id": run_id})]

    def delete_move(self, run_id: int, number: int) -> None:
        self.conn.execute(DELETE_MOVE, {"run_id": run_id, "number": number})

    # ----- meta and settings ----------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.conn.execute(SELECT_META, {"key": key}).fetchone()
        return None if row is None else row[0]

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(UPSERT_META, {"key": key, "value": value})

    def add_meta(self, key: str, value: str) -> str:
        self.conn.execute(INSERT_META_IF_ABSENT, {"key": key, "value": value})
        stored = self.meta(key)
        assert stored is not None
        return stored

    def guild_settings(self, guild_id: int) -> dict[str, str]:
        rows = self.conn.execute(SELECT_GUILD_SETTINGS, {"guild_id": guild_id}).fetchall()
        return {row[0]: row[1] for row in rows}

    def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        self.conn.execute(UPSERT_GUILD_SETTING, {"guild_id": guild_id, "key": key, "value": value})

    def guilds_with_setting(self, key: str) -> list[tuple[int, str]]:
        return [(row[0], row[1]) for row in self.conn.execute(SELECT_GUILDS_WITH, {"key": key})]

    def player_settings(self, user_id: int) -> dict[str, str]:
        rows = self.conn.execute(SELECT_PLAYER_SETTINGS, {"user_id": user_id}).fetchall()
        return {row[0]: row[1] for row in rows}

    def set_player_setting(self, user_id: int, key: str, value: str) -> None:
        self.conn.execute(UPSERT_PLAYER_SETTING, {"user_id": user_id, "key": key, "value": value})

    def set_player_name(self, user_id: int, name: str, now: str) -> None:
        self.conn.execute(UPSERT_PLAYER, {"user_id": user_id, "name": name, "now": now})

    # ----- boards, stats and streaks --------------------------------------------------------

    def board(self, where: BoardFilter, limit: int, offset: int) -> list[BoardLine]:
        queries, params = board_queries(where), _board_params(where)
        keys = [row[0] for row in self.conn.execute(
            queries.keys, {**params, "limit": limit, "offset": offset}
        )]
        if not keys:
            return []
        top, bottom = keys[0], keys[-1]
        above = int(self.conn.execute(queries.above, {**params, "key": top}).fetchone()[0])
        band = {**params, "above": above, "top": top, "bottom": bottom, "limit": limit,
                "skip": offset - above}
        return [_board_line(row) for row in self.conn.execute(queries.band, band)]

    def board_size(self, where: BoardFilter) -> int:
        size = board_queries(where).size
        return int(self.conn.execute(size, _board_params(where)).fetchone()[0])

    def board_line(self, where: BoardFilter, owner_id: int) -> BoardLine | None:
        params = {**_board_params(where), "owner_id": owner_id}
        row = self.conn.execute(board_queries(where).line, params).fetchone()
        return None if row is None else _board_line(row)

    def game_stats(self, owner_id: int, game: str) -> GameStats:
        params = {"owner_id": owner_id, "game": game}
        row = self.conn.execute(SELECT_GAME_STATS, params).fetchone()
        best_score, best_text = None, None
        if row["best_key"] is not None:
            best = self.conn.execute(SELECT_BEST, {**params, "key": row["best_key"]}).fetchone()
            best_score, best_text = json.loads(best["score"]), best["score_text"]
        return GameStats(
            game=game, finished=row["finished"], wins=row["wins"], best_score=best_score,
            best_text=best_text, average_points=row["average_points"], dailies=row["dailies"],
            hinted=row["hinted"],
        )

    def streaks(self, owner_id: int, game: str) -> list[Streak]:
        rows = self.conn.execute(SELECT_STREAKS, {"owner_id": owner_id, "game": game})
        return [Streak(row["first"], row["last"], row["length"]) for row in rows]

    def daily_marks(self, owner_id: int, game: str, since: str) -> list[DayMark]:
        params = {"owner_id": owner_id, "game": game, "since": since}
        return [
            DayMark(row["day"], row["status"], row["outcome"], row["outcome"] == "won",
                    row["score_text"])
            for row in self.conn.execute(SELECT_DAILY_MARKS, params)
        ]

    # ----- the daily post -------------------------------------------------------------------

    def claim_post(self, guild_id: int, day: str, now: str) -> bool:
        params = {"guild_id": guild_id, "day": day, "now": now}
        return self.conn.execute(CLAIM_POST, params).rowcount == 1

    def finish_post(
        self, guild_id: int, day: str, status: str, channel_id: int | None,
        message_id: int | None, note: str | None, now: str,
    ) -> None:
        self.conn.execute(FINISH_POST, {
            "guild_id": guild_id, "day": day, "status": status, "channel_id": channel_id,
            "message_id": message_id, "note": note, "now": now,
        })

    def post_status(self, guild_id: int, day: str) -> str | None:
        row = self.conn.execute(SELECT_POST_STATUS, {"guild_id": guild_id, "day": day}).fetchone()
        return None if row is None else row[0]


    # ----- challenges -----------------------------------------------------------------------

    def insert_challenge(self, challenge: NewChallenge) -> int:
        params = {
            "owner_id": challenge.owner_id, "opponent_id": challenge.opponent_id,
            "guild_id": challenge.guild_id, "channel_id": challenge.channel_id,
            "game": challenge.game, "variant": challenge.variant, "seed": str(challenge.seed),
            "created_at": challenge.created_at, "deadline": challenge.deadline,
        }
        cursor = self.conn.execute(INSERT_CHALLENGE, params)
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = self.conn.execute(SELECT_CHALLENGE, {"id": challenge_id}).fetchone()
        return None if row is None else _challenge_row(row)

    def set_challenge_card(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        self.conn.execute(SET_CHALLENGE_CARD, {
            "id": challenge_id, "channel_id": channel_id, "message_id": message_id,
        })

    def close_challenge(self, challenge_id: int, now: str) -> bool:
        return self.conn.execute(CLOSE_CHALLENGE, {"id": challenge_id, "now": now}).rowcount == 1

    def due_challenges(self, now: str, limit: int) -> list[int]:
        rows = self.conn.execute(SELECT_DUE_CHALLENGES, {"now": now, "limit": limit})
        return [row[0] for row in rows]

    def open_challenges(self, user_id: int, limit: int) -> list[ChallengeRow]:
        rows = self.conn.execute(SELECT_OPEN_CHALLENGES, {"user_id": user_id, "limit": limit})
        return [_challenge_row(row) for row in rows]

    def insert_challenge_run(self, challenge_id: int, owner_id: int, run_id: int) -> None:
        params = {"challenge_id": challenge_id, "owner_id": owner_id, "run_id": run_id}
        try:
            self.conn.execute(INSERT_CHALLENGE_RUN, params)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None

    def challenge_run(self, challenge_id: int, owner_id: int) -> int | None:
        params = {"challenge_id": challenge_id, "owner_id": owner_id}
        row = self.conn.execute(SELECT_CHALLENGE_RUN, params).fetchone()
        return None if row is None else row[0]

    def challenge_of_run(self, run_id: int) -> int | None:
        row = self.conn.execute(SELECT_CHALLENGE_OF_RUN, {"run_id": run_id}).fetchone()
        return None if row is None else row[0]

    def challenge_entries(self, challenge_id: int) -> list[ChallengeEntry]:
        rows = self.conn.execute(SELECT_CHALLENGE_ENTRIES, {"challenge_id": challenge_id})
        return [
            ChallengeEntry(
                owner_id=row["owner_id"], name=row["name"], run_id=row["run_id"],
                status=row["status"], outcome=row["outcome"], score=json.loads(row["score"]),
                score_text=row["score_text"], unfinished=bool(row["unfinished"]),
            )
            for row in rows
        ]

    def mark_unfinished(self, challenge_id: int, owner_id: int) -> None:
        self.conn.execute(MARK_UNFINISHED, {"challenge_id": challenge_id, "owner_id": owner_id})

    def challenge_stats(self, owner_id: int, game: str) -> ChallengeStats:
        row = self.conn.execute(
            SELECT_CHALLENGE_STATS, {"owner_id": owner_id, "game": game}
        ).fetchone()
        return ChallengeStats(played=row["played"], won=row["won"])

    # ----- series ---------------------------------------------------------------------------

    def insert_series(self, owner_id: int, game: str, variant: str, length: int,
                      now: str) -> int:
        cursor = self.conn.execute(INSERT_SERIES, {
            "owner_id": owner_id, "game": game, "variant": variant, "length": length,
            "now": now,
        })
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def series(self, series_id: int) -> SeriesRow | None:
        row = self.conn.execute(SELECT_SERIES, {"id": series_id}).fetchone()
        return None if row is None else _series_row(row)

    def open_series(self, owner_id: int, game: str) -> SeriesRow | None:
        row = self.conn.execute(
            SELECT_OPEN_SERIES, {"owner_id": owner_id, "game": game}
        ).fetchone()
        return None if row is None else _series_row(row)

    def insert_series_run(self, series_id: int, number: int, run_id: int) -> None:
        params = {"series_id": series_id, "number": number, "run_id": run_id}
        try:
            self.conn.execute(INSERT_SERIES_RUN, params)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None

    def series_of_run(self, run_id: int) -> tuple[int, int] | None:
        row = self.conn.execute(SELECT_SERIES_OF_RUN, {"run_id": run_id}).fetchone()
        return None if row is None else (row[0], row[1])

    def series_entries(self, series_id: int) -> list[SeriesEntry]:
        rows = self.conn.execute(SELECT_SERIES_ENTRIES, {"series_id": series_id})
        return [
            SeriesEntry(number=row["number"], run_id=row["run_id"], status=row["status"],
                        outcome=row["outcome"], points=row["points"],
                        score_text=row["score_text"])
            for row in rows
        ]

    def series_best(self, owner_id: int, game: str) -> list[SeriesBest]:
        rows = self.conn.execute(SELECT_SERIES_BEST, {"owner_id": owner_id, "game": game})
        return [SeriesBest(row["length"], row["best"], row["played"]) for row in rows]

    # ----- the week's board -----------------------------------------------------------------

    def week_page(
        self, where: WeekFilter, limit: int, offset: int, viewer_id: int | None
    ) -> tuple[list[WeekLine], WeekLine | None, int]:
        page, size = _week_queries_of(where)
        params = {**_week_params(where), "limit": limit, "offset": offset,
                  "owner_id": -1 if viewer_id is None else viewer_id}
        rows = self.conn.execute(page, params).fetchall()
        lines = [_week_line(row) for row in rows if offset < row["pos"] <= offset + limit]
        own = next((_week_line(row) for row in rows if not offset < row["pos"] <= offset + limit
                    and row["owner_id"] == viewer_id), None)
        if rows:
            return lines, own, int(rows[0]["size"])
        # Past the end and no line of the viewer's: the size alone.
        return [], None, int(self.conn.execute(size, _week_params(where)).fetchone()[0])

    # ----- par and turning points -----------------------------------------------------------

    def par(self, game: str, variant: str, day: str) -> ParRow | None:
        params = {"game": game, "variant": variant, "day": day}
        row = self.conn.execute(SELECT_PAR, params).fetchone()
        if row is None:
            return None
        return ParRow(
            game=row["game"], variant=row["variant"], day=row["day"], rules=row["rules"],
            score=json.loads(row["score"]), score_text=row["score_text"], won=bool(row["won"]),
            exact=bool(row["exact"]), actions=json.loads(row["actions"]), nodes=row["nodes"],
            seconds=float(row["seconds"]), solved_at=row["solved_at"],
        )

    def insert_par(self, par: ParRow) -> bool:
        params = {
            "game": par.game, "variant": par.variant, "day": par.day, "rules": par.rules,
            "score": _json(par.score), "score_key": score_key(par.score),
            "score_text": par.score_text, "won": int(par.won), "exact": int(par.exact),
            "actions": _json(par.actions), "nodes": par.nodes, "seconds": par.seconds,
            "solved_at": par.solved_at,
        }
        return self.conn.execute(INSERT_PAR, params).rowcount == 1

    def board_reached(self, where: BoardFilter, score: list[int]) -> int:
        query = REACHED_QUERIES[where.guild_id is not None, where.max_owner_id is not None]
        params = {**_board_params(where), "key": score_key(score)}
        return int(self.conn.execute(query, params).fetchone()[0])

    def par_record(self, owner_id: int, game: str) -> ParRecord:
        row = self.conn.execute(
            SELECT_PAR_RECORD, {"owner_id": owner_id, "game": game}
        ).fetchone()
        return ParRecord(played=int(row["played"]), reached=int(row["reached"]))

    def turn(self, run_id: int) -> TurnRow | None:
        row = self.conn.execute(SELECT_TURN, {"run_id": run_id}).fetchone()
        if row is None:
            return None
        return TurnRow(run_id=row["run_id"], step=row["step"], text=row["text"],
                       nodes=row["nodes"], computed_at=row["computed_at"])

    def insert_turn(self, turn: TurnRow) -> None:
        self.conn.execute(INSERT_TURN, {
            "run_id": turn.run_id, "step": turn.step, "text": turn.text, "nodes": turn.nodes,
            "computed_at": turn.computed_at,
        })


def _board_params(where: BoardFilter) -> dict[str, Any]:
    return {
        "game": where.game, "variant": where.variant, "day": where.day,
        "guild_id": where.guild_id, "max_owner_id": where.max_owner_id,
    }


def _board_line(row: sqlite3.Row) -> BoardLine:
    return BoardLine(
        rank=row["rank"], run_id=row["id"], owner_id=row["owner_id"], name=row["name"],
        score=json.loads(row["score"]), score_text=row["score_text"], status=row["status"],
        outcome=row["outcome"],
    )


def _challenge_row(row: sqlite3.Row) -> ChallengeRow:
    return ChallengeRow(
        id=row["id"], owner_id=row["owner_id"], opponent_id=row["opponent_id"],
        guild_id=row["guild_id"], channel_id=row["channel_id"], message_id=row["message_id"],
        game=row["game"], variant=row["variant"], seed=int(row["seed"]),
        created_at=row["created_at"], deadline=row["deadline"], closed_at=row["closed_at"],
    )


def _series_row(row: sqlite3.Row) -> SeriesRow:
    return SeriesRow(
        id=row["id"], owner_id=row["owner_id"], game=row["game"], variant=row["variant"],
        length=row["length"], created_at=row["created_at"],
    )


def _week_queries_of(where: WeekFilter) -> tuple[str, str]:
    return WEEK_QUERIES[where.guild_id is not None, where.max_owner_id is not None]


def _week_params(where: WeekFilter) -> dict[str, Any]:
    return {
        "game": where.game, "variant": where.variant, "first": where.first, "last": where.last,
        "guild_id": where.guild_id, "max_owner_id": where.max_owner_id,
    }


def _week_line(row: sqlite3.Row) -> WeekLine:
    return WeekLine(rank=row["rank"], owner_id=row["owner_id"], name=row["name"],
                    total=row["total"], days=row["days"])

def _run_row(row: sqlite3.Row) -> RunRow:
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
