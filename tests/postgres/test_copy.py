"""``python -m bot copy-to postgresql://…``: a SQLite database moved into an empty PostgreSQL
one, row for row, and the bot carrying on there as it was."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from core import Core
from store.copy import CopyRefused, copy_to_postgres
from tests.core.conftest import Clock
from tests.postgres.cluster import Cluster

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB = 1001, 2002


async def fill(path: Path) -> dict[str, int]:
    """A SQLite database with something in every kind of row; the ids of two runs."""
    clock = Clock()
    async with await Core.open(path, clock=clock) as core:  # the daily secret kept in meta
        practice = await core.runs.start(ALICE, "donsol", seed=0, guild_id=7)
        practice = await core.runs.act(practice.id, ALICE, 0, "take 3D")
        practice = await core.runs.act(practice.id, ALICE, 1, "take 4H")
        daily = await core.daily.start_new(BOB, "tomb", guild_id=7)
        daily = await core.runs.act(daily.id, BOB, 0, daily.actions[0])
        if not daily.over:  # the secret, so the deal, is new each time: one move may end it
            await core.runs.resign(daily.id, BOB, daily.version)
        await core.settings.set_player(ALICE, "private", "yes")
        await core.settings.set_meta("commands.sha256:1:global", "abc")
        await core.rankings.remember_name(BOB, "Bob ‘the brave’")
        return {"practice": practice.id, "daily": daily.id}


def rows(url: str, table: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()  # type: ignore[call-overload]
        return int(row[0])


def sqlite_rows(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0])
    finally:
        conn.close()


async def test_a_copy_has_every_row_and_the_bot_carries_on(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    source = tmp_path / "deck.sqlite3"
    ids = await fill(source)
    url = pg_cluster.create_database()
    report = await copy_to_postgres(source, url)
    tables = {t.name: t for t in report.tables}
    assert {"runs", "moves", "meta", "player_settings", "players"} <= set(tables)
    for name, table in tables.items():
        assert table.rows == sqlite_rows(source, name) == rows(url, name), name
    assert tables["moves"].rows == 3 and tables["runs"].rows == 2

    clock = Clock()
    async with (
        await Core.open(source, clock=clock) as before,
        await Core.open(url, clock=clock) as after,
    ):
        for run_id in ids.values():
            assert await after.runs.get(run_id) == await before.runs.get(run_id)
            assert await after.runs.moves(run_id) == await before.runs.moves(run_id)
        assert await after.daily.secret() == await before.daily.secret()  # same dailies
        # The month's totals come over as they were, not added again by the runs' triggers
        # (and those work again after the copy: a new daily ranks on the month's board).
        month = await before.rankings.month("tomb", guild_id=7)
        assert month.size == 1 and await after.rankings.month("tomb", guild_id=7) == month
        assert tables["period_points"].rows == 4  # week and month, everyone and the server
        assert await after.settings.player(ALICE) == await before.settings.player(ALICE)
        assert await after.settings.player(ALICE) != {}
        # Play on: the next move and a new run (with an id past the copied ones).
        run = await after.runs.get(ids["practice"])
        run = await after.runs.act(run.id, ALICE, run.version, run.actions[0])
        assert run.moves == 3
        fresh = await after.runs.start(ALICE, "clear")
        assert fresh.id == max(ids.values()) + 1
        daily = await after.daily.start_new(ALICE, "tomb", guild_id=7)
        await after.runs.resign(daily.id, ALICE, daily.version)
        assert (await after.rankings.month("tomb", guild_id=7)).size == 2


async def test_a_target_with_rows_is_refused_and_left_alone(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    source = tmp_path / "deck.sqlite3"
    await fill(source)
    url = pg_cluster.create_database()
    async with await Core.open(url) as core:
        await core.runs.start(3003, "donsol", seed=5)
    with pytest.raises(CopyRefused) as refused:
        await copy_to_postgres(source, url)
    message = str(refused.value)
    assert message == (
        f"The target database postgresql://dungeon@{pg_cluster.folder}/"
        f"{url.split('@/')[1].split('?')[0]} is not empty (table runs has 1 rows): copy-to "
        "only fills an empty database."
    )
    assert rows(url, "runs") == 1 and rows(url, "moves") == 0


async def test_a_missing_source_or_a_dead_server_is_one_sentence(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    with pytest.raises(CopyRefused, match=r"^There is no SQLite database at .*nothing\.sqlite3\.$"):
        await copy_to_postgres(tmp_path / "nothing.sqlite3", pg_cluster.create_database())
    source = tmp_path / "deck.sqlite3"
    await fill(source)
    dead = f"postgresql://dungeon@/nowhere?host={tmp_path}&connect_timeout=2"
    started = time.monotonic()
    with pytest.raises(CopyRefused) as refused:
        await copy_to_postgres(source, dead)
    assert time.monotonic() - started < 5, "not the pool's 30 s of retries"
    assert str(refused.value) == (
        f"Cannot connect to PostgreSQL: no such file or directory at {tmp_path}/.s.PGSQL.5432."
    )


def test_python_m_bot_copy_to(pg_cluster: Cluster, tmp_path: Path) -> None:
    source = tmp_path / "deck.sqlite3"
    import asyncio

    asyncio.run(fill(source))
    url = pg_cluster.create_database()
    env = {**os.environ, "DATABASE_PATH": str(source), "DATABASE_URL": "", "DISCORD_TOKEN": ""}

    def copy_to() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "copy-to", url], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=120,
        )

    done = copy_to()
    assert done.returncode == 0, done.stderr
    assert "runs: 2 rows, content hash" in done.stdout
    assert "moves: 3 rows, content hash" in done.stdout
    assert "checked row for row" in done.stdout
    again = copy_to()  # the target is no longer empty
    assert again.returncode == 1
    assert again.stdout == ""
    assert again.stderr.count("\n") == 1 and "is not empty" in again.stderr


def indexes(url: str) -> dict[str, str]:
    """Every index of the database, by name, with its definition."""
    with psycopg.connect(url) as conn:
        found = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'").fetchall()
    return {name: made_by for name, made_by in found}


async def test_a_copy_keeps_every_index_and_leaves_the_planner_statistics(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    source = tmp_path / "deck.sqlite3"
    await fill(source)
    url, migrated = pg_cluster.create_database(), pg_cluster.create_database()
    async with await Core.open(migrated):
        pass
    await copy_to_postgres(source, url)
    assert indexes(url) == indexes(migrated)
    assert len(indexes(url)) > 20
    with psycopg.connect(url) as conn:  # the copy analyzed what it copied
        unanalyzed = conn.execute(
            "SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NULL "
            "AND relname IN ('runs', 'moves', 'period_points')").fetchall()
        # and wrote the rows frozen: no first read has to mark them committed
        # (HEAP_XMIN_FROZEN: both of the tuple's "inserted by" bits set)
        conn.execute("CREATE EXTENSION pageinspect")
        frozen = conn.execute(
            "SELECT count(*) FILTER (WHERE t_infomask & 768 = 768), count(*) "
            "FROM heap_page_items(get_raw_page('runs', 0))").fetchone()
    assert unanalyzed == []
    assert frozen == (2, 2)


async def test_a_copy_failing_at_an_index_writes_nothing_and_keeps_the_indexes(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    source = tmp_path / "deck.sqlite3"
    await fill(source)
    lite = sqlite3.connect(source)  # two dailies of one day: runs_one_daily refuses them
    with lite:
        lite.execute("DROP INDEX runs_one_daily")
        columns = ", ".join(row[1] for row in lite.execute("PRAGMA table_info(runs)")
                            if row[1] != "id")
        lite.execute(f"INSERT INTO runs ({columns}) SELECT {columns} FROM runs "
                     "WHERE kind = 'daily'")
    lite.close()
    url = pg_cluster.create_database()
    async with await Core.open(url):
        pass
    before = indexes(url)
    with pytest.raises(CopyRefused, match=r"said: could not create unique index .runs_one_daily"):
        await copy_to_postgres(source, url)
    assert indexes(url) == before and "runs_one_daily" in before
    assert rows(url, "runs") == 0 and rows(url, "moves") == 0
