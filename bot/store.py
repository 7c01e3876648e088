"""SQLite storage: the one aiosqlite connection, the migration runner and the named queries.

Every transaction is a plain function ``fn(conn, *args)`` over a ``sqlite3.Connection`` that
:meth:`Store.read` / :meth:`Store.write` run on aiosqlite's connection thread as a single
job. One job per transaction means one thread hop per transaction (instead of one per
statement), and since the thread runs jobs one after another, two transactions on one
connection can never interleave: the serialisation an ``asyncio.Lock`` would give, without
holding a lock across awaits. Across processes, writers use ``BEGIN IMMEDIATE`` and wait for
each other through SQLite's busy timeout.

The SQL lives here as named, parameterised queries; callers above (``bot/service.py``) use the
small functions at the end of this module and never write SQL themselves.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")

#: The migrations shipped with the project, applied at startup.
MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
BUSY_TIMEOUT_MS = 5000

_MIGRATION_NAME = re.compile(r"^(\d+)_[\w-]+\.sql$")


class Store:
    """One long-lived aiosqlite connection in WAL mode with foreign keys on.

    ``synchronous`` is ``FULL`` by default: a commit returns only once it is durable.
    """

    def __init__(self, conn: aiosqlite.Connection, raw: sqlite3.Connection) -> None:
        self._conn = conn
        self._raw = raw

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> Store:
        """Open (creating it and its folder if needed) the database file at ``path``.

        Raises ``ValueError`` for an unknown ``synchronous`` level.
        """
        level = synchronous.upper()
        if level not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {level!r}")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module starts no transaction of its own; ours are
        # explicit BEGIN ... COMMIT.
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            # aiosqlite has no public "run this callable on your thread"; its private
            # ``_execute`` (present in every release) is what each of its own methods uses.
            raw: sqlite3.Connection = conn._conn
            store = cls(conn, raw)
            await store._call(_configure, level, busy_timeout_ms)
        except BaseException:
            await conn.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (waiting for queued transactions first)."""
        await self._conn.close()

    async def migrate(self, folder: str | Path = MIGRATIONS) -> int:
        """Apply the migrations of ``folder`` that are newer than the database; return its version.

        Each file runs in one transaction together with its ``PRAGMA user_version`` bump.
        Raises ``ValueError`` for a badly named migration file or a database newer than them.
        """
        return await self._call(_migrate, folder)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` in a read transaction (one consistent snapshot)."""
        return await self._call(_transaction, "BEGIN", fn, args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(conn, *args)`` in a write transaction, committed durably when it returns.

        If ``fn`` raises, everything it wrote is rolled back and the exception propagates.
        """
        return await self._call(_transaction, "BEGIN IMMEDIATE", fn, args)

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        return await self._conn._execute(fn, self._raw, *args)


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
        result = fn(conn, *args)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


# ----- migrations -------------------------------------------------------------------------


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file: its version (the number) and its statements."""

    version: int
    name: str
    statements: tuple[str, ...]


def load_migrations(folder: str | Path) -> list[Migration]:
    """The ``NNNN_name.sql`` files of ``folder``, in version order.

    Raises ``ValueError`` for another kind of ``.sql`` file name or a version used twice.
    """
    found: dict[int, Migration] = {}
    for path in sorted(Path(folder).glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise ValueError(f"migration {path.name!r} is not named like 0001_description.sql")
        version = int(match.group(1))
        if version < 1 or version in found:
            raise ValueError(f"migration {path.name!r}: version {version} is zero or used twice")
        text = path.read_text(encoding="utf-8")
        found[version] = Migration(version, path.name, split_statements(text, path.name))
    return [found[v] for v in sorted(found)]


def split_statements(sql: str, name: str = "<sql>") -> tuple[str, ...]:
    """Split a script into complete statements (semicolons in strings, comments and triggers
    are respected through ``sqlite3.complete_statement``)."""
    statements: list[str] = []
    pending = ""
    *pieces, rest = sql.split(";")
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if _strip_comments(pending + rest).strip():
        raise ValueError(f"{name}: the last statement has no closing semicolon")
    return tuple(s for s in statements if _strip_comments(s).strip(" \n\t;"))


def _strip_comments(sql: str) -> str:
    return re.sub(r"--[^\n]*", "", sql)


def _migrate(conn: sqlite3.Connection, folder: str | Path) -> int:
    migrations = load_migrations(folder)
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
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have applied it while we waited for the write lock.
            current = user_version(conn)
            if migration.version > current:
                for statement in migration.statements:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {migration.version:d}")
                current = migration.version
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return current


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database file."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


# ----- named queries ----------------------------------------------------------------------

_RUN_COLUMNS = """
    id, owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day, status, outcome,
    score, state, moves, ranked, created_at, updated_at, finished_at
"""

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
                      status, outcome, score, state, moves, ranked, created_at, updated_at,
                      finished_at)
    VALUES (:owner_id, :guild_id, :channel_id, :game, :variant, :seed, :deck, :kind, :day,
            :status, :outcome, :score, :state, 0, :ranked, :now, :now, :finished_at)
"""

# The compare-and-set: the row changes only if nobody moved since :expected.
UPDATE_RUN = """
    UPDATE runs
    SET state = :state, moves = :moves, score = :score, status = :status, outcome = :outcome,
        ranked = :ranked, updated_at = :now, finished_at = :finished_at
    WHERE id = :id AND moves = :expected
"""

UPDATE_STATE = "UPDATE runs SET state = :state WHERE id = :id AND moves = :moves"

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


# ----- the functions transactions are made of ---------------------------------------------


def fetch_run(conn: sqlite3.Connection, run_id: int) -> sqlite3.Row | None:
    """The run's row, or None."""
    return conn.execute(SELECT_RUN, {"id": run_id}).fetchone()


def fetch_unfinished(
    conn: sqlite3.Connection, owner_id: int, game: str | None
) -> list[sqlite3.Row]:
    """A player's runs still being played, most recently played first."""
    return conn.execute(SELECT_UNFINISHED, {"owner_id": owner_id, "game": game}).fetchall()


def fetch_daily(
    conn: sqlite3.Connection, owner_id: int, game: str, variant: str, day: str
) -> sqlite3.Row | None:
    """The player's daily run of that game, variant and day, or None."""
    params = {"owner_id": owner_id, "game": game, "variant": variant, "day": day}
    return conn.execute(SELECT_DAILY, params).fetchone()


def insert_run(conn: sqlite3.Connection, **fields: Any) -> int:
    """Insert a run (``INSERT_RUN``'s parameters) and return its id."""
    cursor = conn.execute(INSERT_RUN, fields)
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def update_run(conn: sqlite3.Connection, **fields: Any) -> bool:
    """Compare-and-set a run (``UPDATE_RUN``'s parameters); False if it had moved meanwhile."""
    return conn.execute(UPDATE_RUN, fields).rowcount == 1


def update_state(conn: sqlite3.Connection, run_id: int, moves: int, state: str) -> bool:
    """Replace a run's stored state if it is still at ``moves`` moves."""
    params = {"id": run_id, "moves": moves, "state": state}
    return conn.execute(UPDATE_STATE, params).rowcount == 1


def append_move(conn: sqlite3.Connection, run_id: int, number: int, action: str, at: str) -> None:
    """Log move ``number``; ``sqlite3.IntegrityError`` if that number is taken."""
    conn.execute(INSERT_MOVE, {"run_id": run_id, "number": number, "action": action, "at": at})


def fetch_actions(conn: sqlite3.Connection, run_id: int) -> list[str]:
    """The run's logged actions, in order."""
    return [row[0] for row in conn.execute(SELECT_ACTIONS, {"run_id": run_id})]


def delete_move(conn: sqlite3.Connection, run_id: int, number: int) -> None:
    """Remove move ``number`` from the log (undo)."""
    conn.execute(DELETE_MOVE, {"run_id": run_id, "number": number})


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    """A meta value, or None."""
    row = conn.execute(SELECT_META, {"key": key}).fetchone()
    return None if row is None else row[0]


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    """Set a meta value."""
    conn.execute(UPSERT_META, {"key": key, "value": value})


def add_meta(conn: sqlite3.Connection, key: str, value: str) -> str:
    """Set ``key`` unless it is set already; return the value it now has."""
    conn.execute(INSERT_META_IF_ABSENT, {"key": key, "value": value})
    stored = get_meta(conn, key)
    assert stored is not None
    return stored


def guild_settings(conn: sqlite3.Connection, guild_id: int) -> dict[str, str]:
    """A guild's settings as a dict."""
    return dict(conn.execute(SELECT_GUILD_SETTINGS, {"guild_id": guild_id}).fetchall())


def set_guild_setting(conn: sqlite3.Connection, guild_id: int, key: str, value: str) -> None:
    """Set one of a guild's settings."""
    conn.execute(UPSERT_GUILD_SETTING, {"guild_id": guild_id, "key": key, "value": value})
