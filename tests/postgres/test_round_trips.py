"""What a transaction costs in round trips to PostgreSQL, counted by the store's sessions: a
transaction's BEGIN goes with its first statement, a queued write with the statement after it
(or the COMMIT), a read's COMMIT and a failed write's ROLLBACK are sent without waiting for
the answer (and still end the transaction at once), a start is three round trips and a click
four; and what pipelining does to errors: the first one is raised, nothing after it runs,
nothing of it is committed, and the connection is usable after."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import psycopg
import pytest

from core import Core
from store.dialect import Query
from store.postgres import PostgresStore
from tests.core.conftest import SECRET, Clock

ALICE = 1001
GET = Query.both("SELECT value FROM meta WHERE key = {key}")
PUT = Query.both("INSERT INTO meta (key, value) VALUES ({key}, {value})")
FAIL = Query.both("SELECT 1 / 0 AS x")
LOCK = Query.both("SELECT value FROM meta WHERE key = {key} FOR UPDATE")


async def trips(store: PostgresStore, work: Callable[[], Awaitable[Any]]) -> tuple[int, Any]:
    """The round trips ``work`` costs the store (once its statements are prepared: the same
    work is done once before, and not counted), and its result."""
    await work()
    before = store.round_trips()
    result = await work()
    return store.round_trips() - before, result


@pytest.fixture
async def store(pg_url: str) -> AsyncIterator[PostgresStore]:
    opened = await PostgresStore.open(pg_url, pool_size=1)
    yield opened
    await opened.close()


@pytest.fixture
async def core(pg_url: str) -> AsyncIterator[Core]:
    opened = await Core.open(pg_url, clock=Clock(), daily_secret=SECRET, pool_size=1)
    yield opened
    await opened.close()


async def test_begin_goes_with_the_first_statement_and_a_queued_write_with_the_next(
    store: PostgresStore,
) -> None:
    n = iter(range(1000))

    def one_write(tx: Any) -> int:
        return tx.db.change(PUT, {"key": f"w{next(n)}", "value": "v"})

    def queued_then_read(tx: Any) -> Any:
        key = f"q{next(n)}"
        tx.db.queue(PUT, {"key": key, "value": "queued"})
        return tx.db.one(GET, {"key": key})  # sees the queued write

    def only_queued(tx: Any) -> None:
        tx.db.queue(PUT, {"key": f"o{next(n)}", "value": "v"})

    def two_reads(tx: Any) -> tuple[Any, Any]:
        return tx.db.one(GET, {"key": "w0"}), tx.db.one(GET, {"key": "w1"})

    assert await trips(store, lambda: store.write(one_write)) == (2, 1)  # BEGIN+INSERT, COMMIT
    assert await trips(store, lambda: store.write(queued_then_read)) == (2, {"value": "queued"})
    assert await trips(store, lambda: store.write(only_queued)) == (1, None)  # all at once
    assert await trips(store, lambda: store.write(lambda tx: None)) == (0, None)  # nothing
    # BEGIN+SELECT, SELECT; the COMMIT is sent at once, its answer read with the next one's.
    assert await trips(store, lambda: store.read(two_reads)) == (
        2, ({"value": "v"}, {"value": "v"}))
    assert await trips(store, lambda: store.read(lambda tx: tx.meta("w0"))) == (1, "v")
    assert await store.read(lambda tx: tx.meta("o5")) == "v"  # the queued write committed


async def test_the_first_error_of_a_pipeline_is_raised_and_nothing_of_it_holds(
    store: PostgresStore,
) -> None:
    def queued_then_fails(tx: Any) -> None:
        tx.db.queue(PUT, {"key": "a", "value": "1"})
        tx.db.one(FAIL, {})

    def queued_failure(tx: Any, key: str) -> None:
        tx.db.queue(PUT, {"key": key, "value": "1"})
        tx.db.queue(PUT, {"key": key, "value": "2"})  # the same key: a unique violation
        tx.db.queue(PUT, {"key": "after", "value": "3"})

    def queued_failure_then_read(tx: Any) -> Any:
        queued_failure(tx, "c")
        return tx.db.one(GET, {"key": "c"})

    with pytest.raises(psycopg.errors.DivisionByZero):
        await store.write(queued_then_fails)
    with pytest.raises(psycopg.errors.UniqueViolation):
        await store.write(queued_failure, "b")  # raised at the COMMIT, which rolls back
    with pytest.raises(psycopg.errors.UniqueViolation):
        await store.write(queued_failure_then_read)  # raised at the read
    for key in ("a", "b", "c", "after"):
        assert await store.read(lambda tx, key=key: tx.meta(key)) is None
    await store.write(lambda tx: tx.set_meta("k", "v"))  # the connection goes on
    assert await store.read(lambda tx: tx.meta("k")) == "v"


async def test_a_start_is_three_round_trips_and_a_click_four(core: Core) -> None:
    store = core.store
    assert isinstance(store, PostgresStore)
    await core.daily.secret()
    users = iter(range(ALICE, ALICE + 100))

    async def play() -> Any:
        return await core.runs.open_practice(next(users), "donsol")

    async def daily() -> Any:
        return await core.daily.start(next(users), "donsol", name="Someone")

    spent, started = await trips(store, play)
    assert started.created and spent == 3  # BEGIN+unfinished, INSERT … RETURNING, COMMIT
    spent, again = await trips(store, lambda: core.runs.open_practice(started.run.owner_id,
                                                                       "donsol"))
    assert not again.created and again.run == started.run and spent == 2
    spent, today = await trips(store, daily)
    # BEGIN+the name+today's and yesterday's dailies, INSERT … RETURNING, COMMIT: the day's
    # rules were pinned by the start before (warming up) and are not asked again.
    assert today.created and spent == 3
    run = today.run
    run = await core.runs.act(run.id, run.owner_id, run.version, run.actions[0])  # warming up
    before = store.round_trips()
    moved = await core.runs.act(run.id, run.owner_id, run.version, run.actions[0])
    # BEGIN+SELECT … FOR UPDATE, INSERT of the move, UPDATE, COMMIT.
    assert moved.version == run.version + 1 and store.round_trips() - before == 4


def session_states(url: str) -> list[str]:
    """The state of every other client session on the database (``idle``, ``idle in
    transaction``, …)."""
    with psycopg.connect(url, autocommit=True) as conn:
        return [row[0] for row in conn.execute(
            "SELECT state FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'")]


async def settled(url: str) -> list[str]:
    """The other sessions' states once none is in a transaction (within 5 s)."""
    for _ in range(100):
        states = await asyncio.to_thread(session_states, url)
        if all(state == "idle" for state in states):
            break
        await asyncio.sleep(0.05)
    return states


async def test_a_read_and_a_refused_write_end_at_once_without_waiting_for_the_answer(
    store: PostgresStore, pg_url: str,
) -> None:
    await store.write(lambda tx: tx.set_meta("r", "0"))

    def read_two(tx: Any) -> tuple[str, str]:
        return tx.meta("r"), tx.meta("r")

    def lock_and_refuse(tx: Any) -> None:
        tx.db.one(LOCK, {"key": "r"})
        raise LookupError("refused")

    assert await store.read(read_two) == ("0", "0")
    # The session is not left in its snapshot until it is next used.
    assert await settled(pg_url) == ["idle"]
    with pytest.raises(LookupError):
        await store.write(lock_and_refuse)
    assert await settled(pg_url) == ["idle"]
    with psycopg.connect(pg_url, autocommit=True) as other:  # the row is not locked
        other.execute("SET lock_timeout = '1s'")
        with other.transaction():
            assert other.execute("SELECT value FROM meta WHERE key = 'r' FOR UPDATE"
                                 ).fetchone() == ("0",)
    assert await store.read(read_two) == ("0", "0")  # and the session goes on


async def test_a_read_whose_error_was_swallowed_is_no_result(store: PostgresStore) -> None:
    def swallow(tx: Any) -> str:
        with contextlib.suppress(psycopg.errors.DivisionByZero):
            tx.db.one(FAIL, {})
        with contextlib.suppress(psycopg.errors.InFailedSqlTransaction):
            tx.db.one(GET, {"key": "k"})
        return "done"

    with pytest.raises(psycopg.errors.InFailedSqlTransaction):
        await store.read(swallow)
    with pytest.raises(psycopg.errors.InFailedSqlTransaction):
        await store.read(swallow)  # again, in the snapshot it now starts with
    await store.write(lambda tx: tx.set_meta("k", "v"))
    assert await store.read(lambda tx: (tx.meta("k"), tx.meta("k"))) == ("v", "v")
