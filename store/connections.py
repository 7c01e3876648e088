"""SQLite's connections: one writer with group commit, and a pool of readers.

Every transaction is a plain function ``fn(tx, *args)`` run as one job on a connection's
thread: one thread hop per transaction, not one per statement. In WAL mode readers never wait
for the writer, nor the writer for them; and with several readers, a slow read (a week's board
over a million runs) holds up one reader only, not the reads of every click behind it.

Across processes, writers use ``BEGIN IMMEDIATE`` and wait for each other through SQLite's
busy timeout.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from store.dialect import SqliteDb
from store.tx import SqlTx

T = TypeVar("T")

SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
BUSY_TIMEOUT_MS = 5000
#: Read connections (each with its thread): reads at once before one waits for another.
READERS = 4


def connect(path: Path, synchronous: str, busy_timeout_ms: int, *,
            read_only: bool = False) -> sqlite3.Connection:
    """A connection in WAL mode with foreign keys on; ``read_only`` refuses writes (as a
    PostgreSQL read transaction does)."""
    # isolation_level=None: the sqlite3 module starts no transaction of its own; ours are
    # explicit BEGIN ... COMMIT.
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute(f"PRAGMA synchronous = {synchronous}")  # checked against SYNCHRONOUS
        conn.execute("PRAGMA foreign_keys = ON")
        if read_only:
            conn.execute("PRAGMA query_only = ON")
    except BaseException:
        conn.close()
        raise
    return conn


def transaction(
    conn: sqlite3.Connection, begin: str, fn: Callable[..., T], args: Sequence[Any]
) -> T:
    """Run ``fn(tx, *args)`` between ``begin`` and COMMIT (ROLLBACK if it raises)."""
    conn.execute(begin)
    try:
        result = fn(SqlTx(SqliteDb(conn)), *args)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


class Readers:
    """``size`` read connections, each used by one job at a time on a thread of the pool's:
    as many threads as connections, so a job never waits for a connection it could not get."""

    def __init__(self, executor: ThreadPoolExecutor, conns: list[sqlite3.Connection]) -> None:
        self._executor = executor
        self._conns = conns
        self._free: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        for conn in conns:
            self._free.put(conn)

    @classmethod
    async def open(cls, path: Path, synchronous: str, busy_timeout_ms: int,
                   size: int = READERS) -> Readers:
        """Raises ``ValueError`` for a size below 1."""
        if size < 1:
            raise ValueError(f"the number of readers must be at least 1, not {size}")
        executor = ThreadPoolExecutor(size, thread_name_prefix="sqlite-reader")
        conns: list[sqlite3.Connection] = []
        loop = asyncio.get_running_loop()
        try:
            for _ in range(size):
                conns.append(await loop.run_in_executor(
                    executor, lambda: connect(path, synchronous, busy_timeout_ms, read_only=True)
                ))
        except BaseException:
            for conn in conns:
                conn.close()
            executor.shutdown(wait=False)
            raise
        return cls(executor, conns)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(conn, *args)`` on a free reader."""
        return await asyncio.wrap_future(self._executor.submit(self._run, fn, args))

    def _run(self, fn: Callable[..., T], args: Sequence[Any]) -> T:
        conn = self._free.get()
        try:
            return fn(conn, *args)
        finally:
            self._free.put(conn)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(tx, *args)`` in a read transaction (one consistent snapshot)."""
        return await self.call(transaction, "BEGIN", fn, args)

    async def close(self) -> None:
        """Close the connections once the reads under way are done."""
        await asyncio.to_thread(self._executor.shutdown, True)
        for conn in self._conns:
            conn.close()


@dataclass
class _Job:
    """A write transaction waiting for its batch: the function, its arguments, its result."""

    fn: Callable[..., Any]
    args: Sequence[Any]
    future: asyncio.Future[Any]


class Writer:
    """The connection for write transactions, on a thread of its own, with group commit."""

    def __init__(self, executor: ThreadPoolExecutor, conn: sqlite3.Connection) -> None:
        self._executor = executor
        self._conn = conn
        self._closed = False
        # Group commit: write transactions that arrive while a batch is being written wait
        # here and go together in the next one (see ``write``); ``_idle`` is clear while one
        # is being written.
        self._queued: list[_Job] = []
        self._idle = asyncio.Event()
        self._idle.set()

    @classmethod
    async def open(cls, path: Path, synchronous: str, busy_timeout_ms: int) -> Writer:
        executor = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
        try:
            conn = await asyncio.get_running_loop().run_in_executor(
                executor, connect, path, synchronous, busy_timeout_ms
            )
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(executor, conn)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(conn, *args)`` on the writer's thread, outside group commit (migrations)."""
        return await asyncio.wrap_future(self._executor.submit(fn, self._conn, *args))

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(tx, *args)`` in a write transaction, committed durably when it returns.

        If ``fn`` raises, everything it wrote is rolled back and the exception propagates.

        Group commit: while one batch of writes is on the disk, the writes that arrive wait,
        and then all of them run in one transaction, each inside a savepoint of its own (a
        write that raises is rolled back to its savepoint alone), with one durable commit for
        all. Each still returns only after that commit, so an answer never promises a write
        that could be lost; alone, a write is its own batch. Under load this turns many syncs
        to disk into one.

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
            if self._closed:
                raise RuntimeError("the store is closed")
            done = self._executor.submit(write_batch, self._conn, batch)
        except BaseException as exc:
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

    async def close(self) -> None:
        """Close the connection, once the writes already asked for are committed."""
        await self._idle.wait()
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, self._conn.close)
        finally:
            self._executor.shutdown(wait=False)


def write_batch(conn: sqlite3.Connection, batch: list[_Job]) -> list[tuple[bool, Any]]:
    """Run the batch's writes in one transaction, each in its savepoint; one commit."""
    if len(batch) == 1:  # the common case at low load: no savepoint needed
        job = batch[0]
        try:
            return [(True, transaction(conn, "BEGIN IMMEDIATE", job.fn, job.args))]
        except Exception as exc:
            return [(False, exc)]
    outcomes: list[tuple[bool, Any]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        tx = SqlTx(SqliteDb(conn))
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
