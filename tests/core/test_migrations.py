"""The migration runner and ``python -m bot migrate``, on real database files."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.migrate import migrate
from store.migrations import folder, load_migrations, split_statements
from store.sqlite import SqliteStore as Store
from tests.core.conftest import execute, query

MIGRATIONS = folder("sqlite")

ROOT = Path(__file__).resolve().parents[2]
LATEST = load_migrations(MIGRATIONS)[-1].version


def write(folder: Path, name: str, sql: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(sql, encoding="utf-8")


async def migrate_up_to(db_path: Path, tmp_path: Path, version: int) -> None:
    """Bring the file to ``version`` with this release's own migrations up to it: a database
    as an older release left it."""
    for migration in sorted(MIGRATIONS.glob("*.sql")):
        if int(migration.name[:4]) <= version:
            write(tmp_path / "migrations", migration.name,
                  migration.read_text(encoding="utf-8"))
    assert await migrate(db_path, tmp_path / "migrations") == version


def schema(path: Path) -> list[tuple[str, str]]:
    return query(path, "SELECT name, sql FROM sqlite_master ORDER BY name")


async def test_a_fresh_file_reaches_the_latest_version(db_path: Path) -> None:
    assert await migrate(db_path) == LATEST
    assert query(db_path, "PRAGMA user_version") == [(LATEST,)]
    tables = {name for (name,) in query(db_path, "SELECT name FROM sqlite_master")}
    assert {"runs", "moves", "guild_settings", "meta", "runs_one_daily"} <= tables


async def test_running_twice_changes_nothing(db_path: Path) -> None:
    await migrate(db_path)
    execute(db_path, "INSERT INTO meta (key, value) VALUES ('k', 'v')")
    before = schema(db_path)
    assert await migrate(db_path) == LATEST
    assert schema(db_path) == before
    assert query(db_path, "SELECT key, value FROM meta") == [("k", "v")]


async def test_an_older_file_is_upgraded_with_its_data_kept(tmp_path: Path, db_path: Path) -> None:
    folder = tmp_path / "migrations"
    write(folder, "0001_players.sql", "CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT);")
    assert await migrate(db_path, folder) == 1
    execute(db_path, "INSERT INTO players (name) VALUES ('Ada; the first')")
    # Version 2 adds a column, a table, and a trigger whose body holds semicolons.
    write(
        folder,
        "0002_scores.sql",
        """
        -- a comment; with a semicolon
        ALTER TABLE players ADD COLUMN best INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE log (note TEXT);
        CREATE TRIGGER players_log AFTER UPDATE ON players BEGIN
            INSERT INTO log (note) VALUES ('updated; ' || new.name);
        END;
        """,
    )
    assert await migrate(db_path, folder) == 2
    assert query(db_path, "SELECT id, name, best FROM players") == [(1, "Ada; the first", 0)]
    execute(db_path, "UPDATE players SET best = 7")
    assert query(db_path, "SELECT note FROM log") == [("updated; Ada; the first",)]
    assert await migrate(db_path, folder) == 2


async def test_a_failing_migration_leaves_the_previous_version(
    tmp_path: Path, db_path: Path
) -> None:
    folder = tmp_path / "migrations"
    write(folder, "0001_a.sql", "CREATE TABLE a (x INTEGER);")
    write(folder, "0002_b.sql", "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);")
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        await migrate(db_path, folder)
    assert query(db_path, "PRAGMA user_version") == [(1,)]
    assert query(db_path, "SELECT name FROM sqlite_master WHERE name = 'b'") == []


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path, db_path: Path) -> None:
    await migrate(db_path)
    execute(db_path, f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(ValueError, match="newer than this code"):
        await migrate(db_path)


def test_badly_named_migrations_and_unterminated_statements_are_refused(tmp_path: Path) -> None:
    write(tmp_path, "initial.sql", "CREATE TABLE t (x);")
    with pytest.raises(ValueError, match=r"0001_description\.sql"):
        load_migrations(tmp_path)
    with pytest.raises(ValueError, match="no closing semicolon"):
        split_statements("CREATE TABLE t (x);\nCREATE TABLE u (y)")


async def test_connection_settings(db_path: Path) -> None:
    db = await Store.open(db_path)
    names = ("journal_mode", "foreign_keys", "synchronous", "busy_timeout", "query_only")

    def pragmas(tx) -> list[object]:
        return [tx.db.conn.execute(f"PRAGMA {name}").fetchone()[0] for name in names]

    try:
        read, written = await db.read(pragmas), await db.write(pragmas)
    finally:
        await db.close()
    assert read == ["wal", 1, 2, 5000, 1]  # synchronous 2 = FULL; readers refuse writes
    assert written == ["wal", 1, 2, 5000, 0]
    with pytest.raises(ValueError, match="synchronous"):
        await Store.open(db_path, synchronous="SOMETIMES")


def test_python_m_bot_migrate_prints_the_version(tmp_path: Path) -> None:
    path = tmp_path / "data" / "bot.sqlite3"
    env = {**os.environ, "DATABASE_PATH": str(path), "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-m", "bot", "migrate"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert f"schema version {LATEST}" in done.stdout
    assert query(path, "PRAGMA user_version") == [(LATEST,)]


async def test_version_11_starts_each_rated_players_history_at_their_last_rated_day(
    tmp_path: Path, db_path: Path
) -> None:
    """A file rated before rating_history existed: each player's one known point, their
    rating after their last rated day, is kept as it stood."""
    await migrate_up_to(db_path, tmp_path, 10)
    execute(db_path, "INSERT INTO ratings VALUES ('tomb', 'standard', 5, 27.5, 6.1, 1368, 3, "
            "'2026-12-03'), ('clear', 'standard', 6, 24.0, 7.9, 1012, 1, '2026-12-01')")
    assert await migrate(db_path) == LATEST
    assert query(db_path, "SELECT * FROM rating_history ORDER BY owner_id") == [
        ("tomb", "standard", 5, "2026-12-03", 27.5, 6.1, 1368),
        ("clear", "standard", 6, "2026-12-01", 24.0, 7.9, 1012),
    ]


async def test_versions_17_and_18_count_each_players_ended_runs_and_go_on_counting(
    tmp_path: Path, db_path: Path
) -> None:
    """A file from before finished_runs: each player's ended runs of a game and variant are
    counted once (the runs still being played are not); the runs keep no count of their own
    (their cards count the runs before them as before), and the next run to end counts on."""
    await migrate_up_to(db_path, tmp_path, 16)
    for owner, variant, status in ((5, "normal", "over"), (5, "normal", "resigned"),
                                   (5, "normal", "playing"), (5, "easy", "over"),
                                   (6, "normal", "over")):
        execute(db_path, "INSERT INTO runs (owner_id, game, variant, seed, kind, status, score,"
                " state, rules, created_at, updated_at, finished_at) VALUES (?, 'donsol', ?,"
                " '1', 'practice', ?, '[0, 0]', '{}', 'donsol/1', '2026-12-01', '2026-12-01',"
                " ?)", (owner, variant, status, None if status == "playing" else "2026-12-01"))
    assert await migrate(db_path) == LATEST
    assert query(db_path, "SELECT * FROM finished_runs ORDER BY owner_id, variant") == [
        (5, "donsol", "easy", 1), (5, "donsol", "normal", 2), (6, "donsol", "normal", 1),
    ]
    assert query(db_path, "SELECT count(*) FROM runs WHERE prior_runs IS NOT NULL") == [(0,)]
    # Version 18: their totals per outcome (none here: '') for the player's record.
    assert query(db_path, "SELECT * FROM player_totals ORDER BY owner_id, variant") == [
        (5, "donsol", "easy", "", 1, "", 0, 0, 0), (5, "donsol", "normal", "", 2, "", 0, 0, 0),
        (6, "donsol", "normal", "", 1, "", 0, 0, 0),
    ]
    execute(db_path, "UPDATE runs SET status = 'resigned', finished_at = '2026-12-02' "
            "WHERE status = 'playing'")
    assert query(db_path, "SELECT prior_runs FROM runs WHERE finished_at = '2026-12-02'") == [
        (2,)
    ]
    assert query(db_path, "SELECT runs FROM finished_runs WHERE owner_id = 5 AND "
                 "variant = 'normal'") == [(3,)]
    assert query(db_path, "SELECT runs FROM player_totals WHERE owner_id = 5 AND "
                 "variant = 'normal'") == [(3,)]
