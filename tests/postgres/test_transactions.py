"""How the PostgreSQL store runs transactions: a deadlock is rolled back and run again, the
queries a click repeats are prepared on the server, the worker threads hand every result
(or exception) back to the caller that asked for it, however many are under way at once, a
connection the server ended is replaced without an error, a read of several statements sees
one snapshot, a transaction that failed is never reported committed, and a refusal on a
new database leaves the store's prepared statements in place."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

import psycopg
import pytest

from store.base import Conflict
from store.dialect import Query
from store.postgres import PostgresStore

LOCK = Query.both("SELECT value FROM meta WHERE key = {key} FOR UPDATE")
SET = Query.both("UPDATE meta SET value = {value} WHERE key = {key}")
PREPARED = Query.both("SELECT statement FROM pg_prepared_statements")


async def test_a_deadlock_is_rolled_back_and_run_again(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url, pool_size=2)
    try:
        await store.write(lambda tx: (tx.set_meta("a", "0"), tx.set_meta("b", "0")))
        meet = threading.Barrier(2, timeout=10)
        attempts = {"a": 0, "b": 0}

        def lock_both(tx: Any, first: str, second: str) -> int:
            attempts[first] += 1
            tx.db.one(LOCK, {"key": first})
            if attempts[first] == 1:  # the first time, each holds one row the other wants
                meet.wait()
            tx.db.one(LOCK, {"key": second})
            tx.db.change(SET, {"key": first, "value": str(attempts[first])})
            return attempts[first]

        done = await asyncio.wait_for(asyncio.gather(
            store.write(lock_both, "a", "b"), store.write(lock_both, "b", "a")), 30)
        # PostgreSQL broke the deadlock by failing one; the store ran that one again (maybe
        # more than once: its second try may meet the other halfway through again).
        assert done == [attempts["a"], attempts["b"]]
        assert max(done) >= 2
        assert [await store.read(lambda tx: tx.meta("a")),
                await store.read(lambda tx: tx.meta("b"))] == [str(n) for n in done]
    finally:
        await store.close()


async def test_a_query_run_again_and_again_is_prepared_on_the_server(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url, pool_size=1)  # one connection: one session
    try:
        await store.write(lambda tx: tx.set_meta("k", "v"))
        for _ in range(6):
            assert await store.write(lambda tx: tx.db.one(LOCK, {"key": "k"})) == {"value": "v"}
        prepared = await store.read(lambda tx: tx.db.all(PREPARED, {}))
        assert any("FOR UPDATE" in row["statement"] and "meta" in row["statement"]
                   for row in prepared)
    finally:
        await store.close()


async def test_many_transactions_at_once_each_get_their_own_answer(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url, pool_size=4)
    try:
        def write(tx: Any, i: int) -> int:
            if i % 7 == 3:
                tx.add_meta("taken", "first")  # only the first one gets in
                raise Conflict(f"refused {i}")
            tx.set_meta(f"k{i}", str(i))
            return i * 10

        outcomes = await asyncio.gather(*(store.write(write, i) for i in range(200)),
                                        return_exceptions=True)
        for i, outcome in enumerate(outcomes):
            if i % 7 == 3:
                assert isinstance(outcome, Conflict) and str(outcome) == f"refused {i}"
            else:
                assert outcome == i * 10
        # A refused write left nothing behind (it was rolled back), a good one is stored.
        assert await store.read(lambda tx: tx.meta("taken")) is None
        assert await store.read(lambda tx: tx.meta("k198")) == "198"
    finally:
        await store.close()


async def test_a_caller_that_stops_waiting_leaves_the_others_their_answers(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url, pool_size=1)
    try:
        release = threading.Event()

        def slow(tx: Any) -> str:
            release.wait(10)
            tx.set_meta("slow", "done")
            return "slow"

        first = asyncio.create_task(store.write(slow))
        second = asyncio.create_task(store.write(lambda tx: tx.set_meta("next", "ok") or "next"))
        await asyncio.sleep(0.1)
        first.cancel()
        release.set()
        assert await asyncio.wait_for(second, 10) == "next"
        with pytest.raises(asyncio.CancelledError):
            await first
        # The transaction itself was not cut short: it had started, and it committed.
        assert await store.read(lambda tx: tx.meta("slow")) == "done"
    finally:
        await store.close()


async def test_a_closed_store_refuses_new_transactions(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url, pool_size=1)
    await store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await store.write(lambda tx: tx.set_meta("k", "v"))


PID = Query.both("SELECT pg_backend_pid() AS pid")
A_THEN_B = (Query.both("SELECT value FROM meta WHERE key = 'a'"),
            Query.both("SELECT value FROM meta WHERE key = 'b'"))


def _end_other_sessions(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        return len(conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND backend_type = 'client backend'").fetchall())


async def test_transactions_go_on_after_the_server_ends_every_connection(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url, pool_size=2)
    try:
        await store.write(lambda tx: tx.set_meta("k", "0"))
        before = {(await store.read(lambda tx: tx.db.one(PID, {})))["pid"] for _ in range(8)}
        assert await asyncio.to_thread(_end_other_sessions, pg_url) >= 2
        # Each transaction finds its connection gone before it has done anything: it runs
        # again on a new one, and neither the reads nor the writes see an error.
        for i in range(1, 6):
            await store.write(lambda tx, i=i: tx.set_meta("k", str(i)))
        assert await store.read(lambda tx: tx.meta("k")) == "5"
        after = {(await store.read(lambda tx: tx.db.one(PID, {})))["pid"] for _ in range(8)}
        assert not before & after  # new sessions, pinned again
        assert await asyncio.to_thread(_end_other_sessions, pg_url) >= 1
        assert await store.read(lambda tx: tx.meta("k")) == "5"  # a read alone, too
    finally:
        await store.close()


async def test_a_read_of_several_statements_sees_one_snapshot(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url, pool_size=1)
    try:
        await store.write(lambda tx: (tx.set_meta("a", "0"), tx.set_meta("b", "0")))
        writer = await asyncio.to_thread(psycopg.connect, pg_url, autocommit=True)
        calls = []

        def read_a_then_b(tx: Any) -> tuple[str, str]:
            a = tx.db.one(A_THEN_B[0], {})["value"]
            calls.append(a)
            # Between the two reads another session changes both, and commits.
            writer.execute("UPDATE meta SET value = %s WHERE key IN ('a', 'b')",
                           (str(len(calls)),))
            return a, tx.db.one(A_THEN_B[1], {})["value"]

        for _ in range(3):
            a, b = await store.read(read_a_then_b)
            assert a == b  # b as of a's snapshot, not as the other session left it
        writer.close()
    finally:
        await store.close()


async def test_a_transaction_that_failed_is_not_reported_committed(pg_url: str) -> None:
    store = await PostgresStore.open(pg_url, pool_size=1)
    try:
        def swallow(tx: Any) -> str:
            tx.set_meta("k", "v")
            # Caught, but the transaction is aborted all the same: its COMMIT rolls back.
            with contextlib.suppress(psycopg.errors.DivisionByZero):
                tx.db.one(Query.both("SELECT 1 / 0 AS x"), {})
            return "done"

        with pytest.raises(psycopg.errors.InFailedSqlTransaction):
            await store.write(swallow)
        assert await store.read(lambda tx: tx.meta("k")) is None
        await store.write(lambda tx: tx.set_meta("k", "w"))  # and the connection is usable
        assert await store.read(lambda tx: tx.meta("k")) == "w"
    finally:
        await store.close()


async def test_statements_stay_prepared_after_a_refusal_on_a_new_database(pg_url: str) -> None:
    # A new database is migrated on a worker's connection through psycopg, which prepares the
    # migrations' repeated UPDATE of its own and, on seeing a migration's DROP, queues a
    # DEALLOCATE ALL for its next statement there: the ROLLBACK of the first refusal. That
    # dropped the store's statements too, and every click after it failed with "prepared
    # statement ... does not exist" (seen in bench.backends on a fresh cluster).
    fresh = f"dd_fresh_{threading.get_ident() % 100000}"
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {fresh}")  # type: ignore[arg-type]
        admin.execute(f"CREATE DATABASE {fresh}")  # type: ignore[arg-type]
    url = psycopg.conninfo.make_conninfo(pg_url, dbname=fresh)
    store = await PostgresStore.open(url, pool_size=1)
    try:
        await store.migrate()
        await store.write(lambda tx: tx.set_meta("r", "0"))

        def refuse(tx: Any) -> None:
            tx.db.one(LOCK, {"key": "r"})
            raise LookupError("refused")

        for _ in range(3):
            with pytest.raises(LookupError):
                await store.write(refuse)
            await store.write(lambda tx: tx.db.one(LOCK, {"key": "r"}))
            assert await store.read(lambda tx: tx.meta("r")) == "0"
    finally:
        await store.close()
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {fresh} WITH (FORCE)")  # type: ignore[arg-type]

