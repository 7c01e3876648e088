"""The PostgreSQL backend on its own: the transaction has every query of ``Tx``, its
migrations match SQLite's, its advisory locks and the read replica. (The core's behaviour on
it is tested by the whole core suite, which runs on both backends: see tests/core/conftest.py.)
"""

from __future__ import annotations

import asyncio
import inspect
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from core import Core
from store import open_store
from store.base import Tx
from store.migrations import folder, load_migrations
from store.postgres import PostgresStore
from store.sqlite import SqliteStore
from store.tx import SqlTx
from tests.postgres.cluster import Cluster

ROOT = Path(__file__).resolve().parents[2]


def protocol_methods(protocol: type) -> dict[str, inspect.Signature]:
    """The queries of ``protocol`` and of the concerns' protocols it is made of."""
    return {
        name: inspect.signature(member)
        for klass in reversed(protocol.__mro__) if klass is not object
        for name, member in vars(klass).items()
        if inspect.isfunction(member) and not name.startswith("_")
    }


def test_the_transaction_has_every_query_of_tx_with_its_parameters() -> None:
    wanted = protocol_methods(Tx)
    assert len(wanted) > 50, "Tx lists no queries"
    missing = sorted(set(wanted) - set(dir(SqlTx)))
    assert missing == [], f"SqlTx lacks {missing}"
    for name, signature in wanted.items():
        have = inspect.signature(getattr(SqlTx, name))
        assert list(have.parameters) == list(signature.parameters), name


def columns_sqlite(path: Path) -> dict[str, set[str]]:
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {t: {r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')} for t in tables}
    finally:
        conn.close()


def columns_postgres(url: str) -> dict[str, set[str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name <> 'schema_version'"
        ).fetchall()
    found: dict[str, set[str]] = {}
    for table, column in rows:
        found.setdefault(table, set()).add(column)
    return found


def indexes_postgres(url: str) -> set[str]:
    with psycopg.connect(url) as conn:
        return {r[0] for r in conn.execute(
            # not those behind PRIMARY KEY and UNIQUE constraints (SQLite's have no SQL)
            "SELECT i.indexname FROM pg_indexes AS i WHERE i.schemaname = 'public' AND NOT "
            "EXISTS (SELECT 1 FROM pg_constraint AS c WHERE c.conname = i.indexname)")}


def indexes_sqlite(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")}
    finally:
        conn.close()


async def test_both_dialects_reach_the_same_tables_columns_and_indexes(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    sqlite_versions = [m.version for m in load_migrations(folder("sqlite"))]
    postgres_versions = [m.version for m in load_migrations(folder("postgresql"))]
    assert postgres_versions == sqlite_versions
    url = pg_cluster.create_database()
    lite = tmp_path / "deck.sqlite3"
    for database in (url, lite):
        store = await open_store(database)
        try:
            assert await store.migrate() == sqlite_versions[-1]
            assert await store.migrate() == sqlite_versions[-1]  # twice: nothing to do
        finally:
            await store.close()
    assert columns_postgres(url) == columns_sqlite(lite)
    assert indexes_postgres(url) == indexes_sqlite(lite)


async def test_processes_starting_together_migrate_once(pg_cluster: Cluster) -> None:
    url = pg_cluster.create_database()
    stores = [await PostgresStore.open(url, pool_size=1) for _ in range(4)]
    try:
        versions = await asyncio.gather(*(s.migrate() for s in stores))
    finally:
        for store in stores:
            await store.close()
    latest = load_migrations(folder("postgresql"))[-1].version
    assert versions == [latest] * 4
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT version FROM schema_version").fetchall() == [(latest,)]


async def test_a_failing_migration_leaves_the_previous_version(
    pg_cluster: Cluster, tmp_path: Path
) -> None:
    url = pg_cluster.create_database()
    (tmp_path / "0001_a.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    (tmp_path / "0002_b.sql").write_text(
        "CREATE TABLE b (x INTEGER);\nINSERT INTO missing VALUES (1);\n"
    )
    store = await PostgresStore.open(url, pool_size=1)
    try:
        with pytest.raises(psycopg.errors.UndefinedTable):
            await store.migrate(tmp_path)
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT version FROM schema_version").fetchall() == [(1,)]
            assert conn.execute("SELECT to_regclass('b')").fetchone() == (None,)
        (tmp_path / "0002_b.sql").unlink()
        with psycopg.connect(url) as conn:
            conn.execute("UPDATE schema_version SET version = 5")
        with pytest.raises(ValueError, match="newer than this code"):
            await store.migrate(tmp_path)
    finally:
        await store.close()


async def test_an_advisory_lock_goes_to_one_process_at_a_time(pg_url: str) -> None:
    one = await PostgresStore.open(pg_url, pool_size=1)
    two = await PostgresStore.open(pg_url, pool_size=1)
    try:
        async with one.singleton("close-challenges") as first:
            async with two.singleton("close-challenges") as second:
                assert (first, second) == (True, False)
            async with two.singleton("another job") as other:
                assert other is True
        async with two.singleton("close-challenges") as after:
            assert after is True
        # With wait=True the second waits for the first to let go.
        order: list[str] = []
        held = asyncio.Event()  # not a sleep: on a busy machine the first may take longer

        async def hold() -> None:
            async with one.singleton("sync", wait=True):
                order.append("one in")
                held.set()
                await asyncio.sleep(0.3)
                order.append("one out")

        async def queue() -> None:
            await held.wait()
            async with two.singleton("sync", wait=True) as got:
                order.append(f"two in ({got})")

        await asyncio.gather(hold(), queue())
        assert order == ["one in", "one out", "two in (True)"]
    finally:
        await one.close()
        await two.close()


async def test_a_lock_let_go_is_free_for_the_next_taker_at_once(pg_url: str) -> None:
    """The block's end lets the lock go on the server before it returns: a pass that follows
    another (the par pass after a restart, say) is never refused by the one before."""
    one = await PostgresStore.open(pg_url, pool_size=1)
    two = await PostgresStore.open(pg_url, pool_size=1)
    try:
        refused = 0
        for _ in range(40):
            async with one.singleton("solve-par") as first:
                assert first
            async with two.singleton("solve-par") as second:
                refused += not second
        assert refused == 0
    finally:
        await one.close()
        await two.close()


HOLDER = """
import asyncio, sys
from store.postgres import PostgresStore

async def main():
    store = await PostgresStore.open(sys.argv[1], pool_size=1)
    async with store.singleton("solve-deals") as mine:
        print("held" if mine else "refused", flush=True)
        await asyncio.sleep(600)

asyncio.run(main())
"""


async def test_a_killed_holder_lets_the_lock_go(pg_url: str) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, pg_url], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        assert await asyncio.to_thread(holder.stdout.readline) == "held\n"
        store = await PostgresStore.open(pg_url, pool_size=1)
        try:
            async with store.singleton("solve-deals") as mine:
                assert mine is False
            holder.kill()  # SIGKILL: no clean-up; PostgreSQL ends the session
            await asyncio.to_thread(holder.wait, 10)
            for _ in range(100):
                async with store.singleton("solve-deals") as mine:
                    if mine:
                        break
                await asyncio.sleep(0.05)
            assert mine is True
        finally:
            await store.close()
    finally:
        holder.kill()
        holder.wait()


async def test_replica_reads_go_to_the_read_url(pg_cluster: Cluster, pg_url: str) -> None:
    replica = pg_cluster.create_database()
    async with await Core.open(replica):  # the stand-in replica: migrated, but empty
        pass
    async with await Core.open(pg_url, read_url=replica, pool_size=2) as core:
        run = await core.runs.start(1001, "donsol", seed=0)
        store = core.store
        assert isinstance(store, PostgresStore)

        def count(tx: Tx) -> int:
            return len(tx.unfinished(1001, None))

        assert await store.read(count) == 1
        assert await store.read(count, replica=True) == 0  # the replica has not got it
        assert (await core.runs.get(run.id)).id == run.id  # default reads: the primary


async def test_a_read_transaction_cannot_write(pg_url: str) -> None:
    async with await Core.open(pg_url) as core:
        store = core.store
        assert isinstance(store, PostgresStore)
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            await store.read(lambda tx: tx.set_meta("k", "v"))
        assert await core.settings.meta("k") is None


def test_python_m_bot_migrate_on_postgresql(pg_cluster: Cluster, tmp_path: Path) -> None:
    url = pg_cluster.create_database()
    env = {**os.environ, "DATABASE_URL": url, "DISCORD_TOKEN": ""}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=60,
    )
    latest = load_migrations(folder("postgresql"))[-1].version
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(f": schema version {latest}")
    assert "postgresql://dungeon@" in done.stdout
    assert not (tmp_path / "data").exists()  # no SQLite file was made


async def test_the_sqlite_store_is_unchanged_by_the_choice(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "deck.sqlite3")
    try:
        assert isinstance(store, SqliteStore)
    finally:
        await store.close()


async def test_two_processes_starting_one_daily_at_once_get_the_same_run(pg_url: str) -> None:
    """Both find no daily and insert; the one-daily key lets one in, the other waits for it,
    gets Conflict (not an aborted transaction) and brings the same run back."""
    async with await Core.open(pg_url, daily_secret="s") as one, \
            await Core.open(pg_url, daily_secret="s") as two:
        for user in range(5001, 5011):
            first, second = await asyncio.gather(
                one.daily.start(user, "donsol"), two.daily.start(user, "donsol")
            )
            assert sorted([first.created, second.created]) == [False, True]
            assert first.run.id == second.run.id
        with psycopg.connect(pg_url) as conn:
            assert conn.execute(
                "SELECT count(*), count(DISTINCT owner_id) FROM runs WHERE kind = 'daily'"
            ).fetchone() == (10, 10)
