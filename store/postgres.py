"""The PostgreSQL backend: connections pinned to worker threads, its migration runner and the
queries.

Selected by a ``postgresql://`` URL (``DATABASE_URL``); see :func:`store.open_store`. The
core's model is kept as it is: a transaction is a plain synchronous function ``fn(tx, *args)``,
run here on one of the store's worker threads (:class:`Lanes`), each with a connection of its
own (:class:`Session`), so the core has one implementation for both backends (psycopg 3 in its
synchronous form, rather than asyncpg or ``psycopg.AsyncConnection``, whose statements are
awaited and would need a second copy of every transaction).

What a transaction costs the bot's process here is mostly per round trip to the server, so
the store spends as few as it can and as little on each (measured in ``bench/README.md``):

- a statement is prepared on its connection at first use and then run by name through
  libpq, its parameters and rows adapted by psycopg's own adapters, without a cursor;
- a connection stays with its thread: no pool checkout and return per transaction;
- ``BEGIN`` waits for the transaction's first statement and goes to the server with it, in
  one round trip (libpq's pipeline mode), as does a write queued with :meth:`PostgresDb.queue`
  (whose row count nobody reads): a write costs its statements and its ``COMMIT``;
- a read's ``COMMIT`` and a failed write's ``ROLLBACK`` are sent without waiting for the
  answer (read when the connection is next used): nothing waits on them, and the snapshot or
  the locks go at once all the same; a read of several statements costs those statements;
- a read whose function runs one statement runs it alone, outside a transaction (one
  statement is one snapshot already): one round trip instead of three; the first time a
  read's function asks for a second statement it runs again in a snapshot, as it does from
  then on.

The queries are the concern modules' (``store.runs``, ``store.boards``, …), each written once
for both databases (see ``store.dialect``); :class:`PostgresDb` runs their PostgreSQL text.

Guarantees, the same as SQLite's:

- **One transaction per operation.** ``write`` commits when ``fn`` returns and rolls back if it
  raises. A read is one ``REPEATABLE READ READ ONLY`` snapshot (or one statement, which is
  one snapshot, on a session that is read-only by default).
- **Writes to one run are serialised.** In a write transaction, :meth:`~store.runs.RunsSql.run`
  reads the row ``FOR UPDATE``: a second writer of the same run waits there until the first commits,
  then reads the run as it now is and meets the core's version check (``StaleBoard``). The
  compare-and-set in ``update_run``, the ``(run_id, number)`` key of the moves and the
  one-daily-per-player index still hold on their own.
- **Unique keys become** :class:`~store.base.Conflict`, and the transaction stays usable
  (PostgreSQL aborts a transaction after an error, SQLite does not): every insert that may
  hit a unique key says ``ON CONFLICT DO NOTHING``, and no row in means Conflict.
- **Deadlocks and serialisation failures** (which PostgreSQL may raise when two transactions
  lock rows in opposite orders) roll back and run ``fn`` again, up to :data:`RETRIES` times.
  So does a transaction whose connection broke before its ``COMMIT`` (nothing of it holds),
  on a new connection; a ``COMMIT`` cut short is not run again (it may have committed).

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
import logging
import queue
import re
import select
import threading
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg import errors, pq
from psycopg.adapt import PyFormat, Transformer
from psycopg.rows import dict_row

from store.dialect import POSTGRESQL, Query, Row
from store.migrations import folder, load_migrations
from store.tx import SqlTx

T = TypeVar("T")
log = logging.getLogger(__name__)

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
    """Connections to one PostgreSQL database (and optionally a read replica), each pinned to
    a worker thread of its own (:class:`Lanes`).

    ``pool_size`` connections (and threads) to the primary, as many to the replica: a
    transaction never waits for a connection while holding a thread.
    """

    dialect = POSTGRESQL

    def __init__(self, url: str, lanes: Lanes, replica: Lanes | None) -> None:
        self.url = url
        self._lanes = lanes
        self._replica = replica

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
        opened: list[Lanes] = []
        try:
            for target in (url, read_url):
                if target:
                    sessions = [Session(target, timeout) for _ in range(pool_size)]
                    lanes = Lanes(sessions, "postgres")
                    opened.append(lanes)
                    await asyncio.to_thread(lanes.connect)
        except BaseException:
            for lanes in opened:
                lanes.close()
            raise
        return cls(url, opened[0], opened[1] if len(opened) > 1 else None)

    async def close(self) -> None:
        """Close every connection (transactions under way finish first)."""
        for lanes in (self._lanes, self._replica):
            if lanes is not None:
                await asyncio.to_thread(lanes.close, True)

    async def migrate(self, path: str | Path | None = None) -> int:
        """Apply the migrations (of ``path``, default the shipped PostgreSQL ones) newer than
        the database, each file in one transaction with its version bump, under an advisory
        lock (processes starting together migrate once); return the schema version.

        Raises ``ValueError`` for a badly named file or a database newer than the migrations.
        """
        return await self._lanes.run(_migrate, folder(POSTGRESQL) if path is None else
                                     Path(path))

    def round_trips(self) -> int:
        """Round trips to the primary this store's connections have made so far (what the
        tests count)."""
        return sum(session.round_trips for session in self._lanes.sessions)

    async def read(self, fn: Callable[..., T], *args: Any, replica: bool = False) -> T:
        """Run ``fn(tx, *args)`` in a read-only snapshot, on the replica if ``replica`` and
        one is configured."""
        lanes = self._replica if replica and self._replica is not None else self._lanes
        return await lanes.run(_transaction, False, fn, args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(tx, *args)`` in a write transaction, committed when it returns.

        If ``fn`` raises, everything it wrote is rolled back and the exception propagates.
        """
        return await self._lanes.run(_transaction, True, fn, args)

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
        got = False
        try:
            got = await asyncio.to_thread(_lock, conn, lock_key(name), wait)
            yield got
        finally:
            # Let go before closing: a closed connection's server session ends a moment
            # later, and until then the lock would still refuse the next taker.
            await asyncio.to_thread(_release, conn, lock_key(name) if got else None)


class Session:
    """One connection, used by one lane's thread only, opened again when it breaks, and the
    statements prepared on it.

    Its session is read-only by default (``default_transaction_read_only``): a write
    transaction says ``READ WRITE`` in its ``BEGIN``, and a read that runs as one statement
    outside a transaction (see :func:`_transaction`) cannot write.

    The store's statements go through psycopg's libpq layer (``pgconn``) and its adapters
    (a ``Transformer``) rather than a cursor: each is prepared on the connection at its first
    use and then executed by name, its parameters dumped and its rows loaded by the very code a
    cursor uses (so values and errors are psycopg's own), without the cursor's per-statement
    machinery, which costs the bot's process about as much again as the statement (see
    ``bench/README.md``). libpq waits for the server with the GIL released.

    What needs no answer of its own waits in :attr:`_pending` (the transaction's ``BEGIN``,
    writes queued by :meth:`queue`) and goes out with the next statement or command, all in
    one pipeline (libpq's pipeline mode: one send, one wait, the answers in order): a
    transaction of one statement and its ``COMMIT`` is two round trips, not three. The first
    error among them is raised when that statement runs; what came after it was not run.
    """

    def __init__(self, url: str, timeout: float) -> None:
        self.url = url
        self.timeout = timeout
        self.conn: psycopg.Connection[Any] | None = None
        self._pgconn: Any = None
        self._transformer: Transformer | None = None
        self._encoding = "utf-8"
        # (statement, parameter types) -> (its name on the connection, its columns' names)
        self._prepared: dict[tuple[bytes, tuple[int, ...]], list[Any]] = {}
        # Prepared statements to send with the next one: (name, parameters, their formats).
        self._pending: list[tuple[bytes, Sequence[Any] | None, Sequence[int] | None]] = []
        self._poll: Any = None
        self._unread = False  # the last transaction's end was sent, its answer not read
        #: Round trips to the server so far: each time a statement (or a pipeline of them)
        #: was sent and its answer waited for, a statement's preparation included (the end
        #: of a read or of a failed transaction is sent, not waited for). Counted by tests.
        self.round_trips = 0

    def connection(self) -> psycopg.Connection[Any]:
        """The open connection (a new one if there is none, or it broke), the answers to the
        last transaction's end read."""
        if self._unread:
            self._settle()
        if self.conn is None or self.conn.closed:
            self._prepared.clear()
            # prepare_threshold=None: psycopg prepares nothing of its own here. Once it has,
            # a ROLLBACK or a DROP it sees makes it send DEALLOCATE ALL, which would also drop
            # the statements this session prepared (and still thinks it has).
            self.conn = psycopg.connect(self.url, autocommit=True, row_factory=dict_row,
                                        connect_timeout=max(1, int(self.timeout)),
                                        prepare_threshold=None)
            try:
                self.conn.execute("SET default_transaction_read_only = on")
            except BaseException:
                self.conn.close()
                raise
            self._pgconn = self.conn.pgconn
            self._transformer = Transformer(self.conn)
            self._encoding = self.conn.info.encoding
            self._pending.clear()
            self._unread = False
            self._poll = select.poll()
            self._poll.register(self._pgconn.socket, select.POLLIN)
        return self.conn

    def begin(self, sql: bytes) -> None:
        """Start a transaction (``sql``, a ``BEGIN``) with the next round trip."""
        self._pending[:] = [(self._prepare(sql, ())[0], None, None)]

    def discard(self) -> None:
        """Forget what was waiting to be sent (the transaction it was for has ended)."""
        self._pending.clear()

    def command(self, sql: bytes) -> bytes:
        """Run a statement without parameters (``COMMIT``, ``ROLLBACK``); its command tag.

        A transaction that never got past its ``BEGIN`` ends without a word to the server.
        """
        if not self._pending:
            self.round_trips += 1
            return self._check(self._pgconn.exec_(sql)).command_status or b""
        if sql in _ENDS and self._begun_only():
            return sql
        return self._pipeline((self._prepare(sql, ())[0], None, None)).command_status or b""

    def execute(self, text: str, params: Mapping[str, Any], rows: bool) -> Any:
        """Run ``text`` (psycopg's ``%(name)s`` markers) with ``params``: its rows as dicts if
        ``rows``, else the number of rows it changed."""
        prepared, dumped, formats = self._bind(text, params)
        if self._pending:
            result = self._pipeline((prepared[0], dumped, formats))
        else:
            self.round_trips += 1
            result = self._check(self._pgconn.exec_prepared(prepared[0], dumped, formats))
        if not rows:
            return result.ntuples if result.status == TUPLES_OK else int(
                result.command_tuples or 0)
        if prepared[1] is None:
            prepared[1] = [(result.fname(i) or b"").decode(self._encoding)
                           for i in range(result.nfields)]
        columns = prepared[1]
        tr = self._transformer
        assert tr is not None
        tr.set_pgresult(result)
        return tr.load_rows(0, result.ntuples,
                            lambda values: dict(zip(columns, values, strict=True)))

    def queue(self, text: str, params: Mapping[str, Any]) -> None:
        """Send ``text`` with ``params`` with the next statement or command (see the class)."""
        prepared, dumped, formats = self._bind(text, params)
        # The formats copied: the transformer's list is its own, made anew by the next dump.
        self._pending.append((prepared[0], dumped, tuple(formats)))

    def _bind(self, text: str, params: Mapping[str, Any],
              ) -> tuple[list[Any], Sequence[Any], Sequence[int]]:
        """``text`` prepared (``[name, columns]``), ``params`` dumped in its markers' order,
        and their formats."""
        sql, names = _numbered(text)
        tr = self._transformer
        assert tr is not None
        dumped = tr.dump_sequence([params[name] for name in names], _AUTO[len(names)])
        return self._prepare(sql, tr.types), dumped, tr.formats

    def _prepare(self, sql: bytes, types: tuple[int, ...]) -> list[Any]:
        """``[name, columns]`` of ``sql`` prepared on this connection (now, if it was not)."""
        key = (sql, types)
        prepared = self._prepared.get(key)
        if prepared is None:
            # Never reached by the store's own queries; not while statements wait to be sent.
            if len(self._prepared) >= MAX_PREPARED and not self._pending:
                self.round_trips += 1
                self._check(self._pgconn.exec_(b"DEALLOCATE ALL"))
                self._prepared.clear()
            name = f"dd_{len(self._prepared)}".encode()
            self.round_trips += 1
            self._check(self._pgconn.prepare(name, sql, types or None))
            prepared = self._prepared[key] = [name, None]
        return prepared

    def _pipeline(self, last: tuple[bytes, Sequence[Any] | None, Sequence[int] | None]) -> Any:
        """Send what is pending and ``last`` in one pipeline; ``last``'s result, once every
        answer is in (the first error among them raised)."""
        self._pending.append(last)
        self.round_trips += 1
        self._send()
        results = self._receive()
        for result in results:
            self._check(result)
        return results[-1]

    def end(self, sql: bytes) -> None:
        """End the transaction with ``sql`` (a read's ``COMMIT``, a ``ROLLBACK``) without
        waiting for the server's answer: it is read when the session is next used (see
        :meth:`connection`). Nothing waits on what these answer (a read-only snapshot has
        nothing to make durable; a rollback undoes), and sending at once lets go of the
        snapshot and of the rows locked without delay."""
        if self._begun_only():
            return
        self._pending.append((self._prepare(sql, ())[0], None, None))
        try:
            self._send()
        except psycopg.OperationalError:  # the connection broke: the next use opens another
            return
        self._unread = True

    def _begun_only(self) -> bool:
        """Whether all that is pending is the transaction's ``BEGIN``, not sent: then it is
        dropped, and the transaction ends without a word to the server."""
        if len(self._pending) == 1 and self._pending[0][1] is None:
            self._pending.clear()
            return True
        return False

    def _settle(self) -> None:
        """Read the answers to the last :meth:`end` (long arrived, as a rule)."""
        self._unread = False
        try:
            results = self._receive()
        except psycopg.OperationalError:
            return  # closed: the caller opens a new connection
        for result in results:
            if result.status not in (TUPLES_OK, COMMAND_OK):
                log.warning("ending a transaction failed: %s",
                            result.get_error_message(self._encoding).strip())

    def _send(self) -> None:
        """What is pending, sent in one pipeline ended by a sync (:meth:`_receive` reads
        the answers)."""
        pg = self._pgconn
        sends, self._pending = self._pending, []
        try:
            pg.enter_pipeline_mode()
            for name, values, formats in sends:
                pg.send_query_prepared(name, values, formats)
            pg.pipeline_sync()
        except BaseException:
            self.close()  # opened anew when next used
            raise

    def _receive(self) -> list[Any]:
        """The results of the pipeline :meth:`_send` sent, once they are all in."""
        pg = self._pgconn
        results = []
        try:
            while True:  # each statement's result, each followed by None; then the sync's
                while pg.is_busy():
                    self._poll.poll()  # the GIL released while the server works
                    pg.consume_input()
                result = pg.get_result()
                if result is None:
                    if pg.status == pq.ConnStatus.BAD:
                        raise psycopg.OperationalError("the connection was lost")
                elif result.status == PIPELINE_SYNC:
                    break
                else:
                    results.append(result)
            pg.exit_pipeline_mode()
        except BaseException:
            # Cut short (the connection broke): it is closed, and opened anew when next used.
            self.close()
            raise
        return results

    def _check(self, result: Any) -> Any:
        if result.status in (TUPLES_OK, COMMAND_OK):
            return result
        if self._pgconn.status == pq.ConnStatus.BAD:
            raise psycopg.OperationalError(
                f"the connection was lost: {result.get_error_message(self._encoding).strip()}")
        raise errors.error_from_result(result, encoding=self._encoding)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


_MARKER = re.compile(r"%\((\w+)\)s")
#: Statements prepared on one connection before they are all let go (the store's own
#: queries are fewer; a text built anew for each call would otherwise pile up).
MAX_PREPARED = 1000
_AUTO = [[PyFormat.AUTO] * n for n in range(100)]
TUPLES_OK = pq.ExecStatus.TUPLES_OK
COMMAND_OK = pq.ExecStatus.COMMAND_OK
PIPELINE_SYNC = pq.ExecStatus.PIPELINE_SYNC
#: What ends a transaction.
_ENDS = (b"COMMIT", b"ROLLBACK")


@functools.lru_cache(maxsize=4096)
def _numbered(text: str) -> tuple[bytes, tuple[str, ...]]:
    """``text`` with its ``%(name)s`` markers as ``$1``, ``$2``, … and the names in order."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match.group(1) not in names:
            names.append(match.group(1))
        return f"${names.index(match.group(1)) + 1}"

    return _MARKER.sub(number, text).encode(), tuple(names)


class Lanes:
    """Worker threads, each with its :class:`Session`, taking jobs from one queue; their
    results handed back to the event loop in batches.

    A connection pinned to a thread costs no checkout and no return per transaction. What a
    transaction costs the bot's process beyond its statements is otherwise mostly the
    handoff: ``run_in_executor`` chains a ``concurrent.futures.Future`` to an asyncio one and
    wakes the loop once per job. Here a job carries the asyncio future itself, and a thread
    finishing a job wakes the loop only when no earlier result is still waiting to be
    delivered: under load one wake-up hands back the results of many transactions.
    """

    def __init__(self, sessions: list[Session], name: str) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[..., Any], tuple[Any, ...],
                                            asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        # Results not yet handed back, by the loop awaiting them.
        self._done: dict[asyncio.AbstractEventLoop,
                         list[tuple[asyncio.Future[Any], bool, Any]]] = {}
        self._closed = False
        self.sessions = sessions
        self._threads = [threading.Thread(target=self._work, args=(session,),
                                          name=f"{name}-{i}", daemon=True)
                         for i, session in enumerate(sessions)]
        self._started = False

    def connect(self) -> None:
        """Open every connection (``psycopg.OperationalError`` if one cannot be), then start
        the threads."""
        for session in self.sessions:
            session.connection()
        for thread in self._threads:
            thread.start()
        self._started = True

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(session, *args)`` on a free thread; its result (or exception) here."""
        if self._closed:
            raise RuntimeError("the store is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((fn, args, future))
        return await future

    def close(self, wait: bool = False) -> None:
        """Let each thread end once the jobs already queued are done (with ``wait``, wait for
        them), and close the connections."""
        self._closed = True
        if not self._started:
            for session in self.sessions:
                session.close()
            return
        for _ in self._threads:
            self._jobs.put(None)
        if wait:
            for thread in self._threads:
                thread.join()

    def _work(self, session: Session) -> None:
        try:
            while (job := self._jobs.get()) is not None:
                fn, args, future = job
                try:
                    outcome = (future, True, fn(session, *args))
                except BaseException as exc:  # handed to the awaiting task, as an executor does
                    outcome = (future, False, exc)
                loop = future.get_loop()
                with self._lock:
                    waiting = self._done.setdefault(loop, [])
                    waiting.append(outcome)
                    wake = len(waiting) == 1
                if wake:
                    with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                        loop.call_soon_threadsafe(self._deliver, loop)
        finally:
            session.close()

    def _deliver(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            done = self._done.pop(loop, [])
        for future, ok, value in done:
            if future.done():  # the caller gave up waiting (cancelled)
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)


def _lock(conn: psycopg.Connection[Any], key: int, wait: bool) -> bool:
    if wait:
        conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        return True
    row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
    return bool(row and row[0])


def _release(conn: psycopg.Connection[Any], key: int | None) -> None:
    try:
        if key is not None and not conn.closed:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
    finally:
        conn.close()


_TRANSIENT = (errors.DeadlockDetected, errors.SerializationFailure)
BEGIN_WRITE = b"BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE"
BEGIN_READ = b"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
#: The read functions (their code) seen running more than one statement: they start with a
#: snapshot of their own, the others run their one statement outside a transaction.
_SEVERAL: set[Any] = set()


class _Several(BaseException):
    """A read run as one statement asked for a second one: it needs a snapshot (a
    ``BaseException``, so that no ``except Exception`` in ``fn`` takes it for its own)."""


def _code(fn: Callable[..., Any]) -> Any:
    fn = getattr(fn, "__func__", fn)
    return getattr(fn, "__code__", fn)


def _transaction(session: Session, write: bool, fn: Callable[..., T], args: Sequence[Any]
                 ) -> T:
    """Run ``fn(tx, *args)`` in one transaction on the session's connection.

    A read whose function has only ever run one statement runs it outside a transaction (in
    autocommit, on the read-only session): one statement is one snapshot already, and this
    costs one round trip where ``BEGIN``, the statement and ``COMMIT`` cost three. When it asks
    for a second statement, that attempt stops and the function runs again in a ``REPEATABLE
    READ`` snapshot, as it will from then on.
    """
    attempt = 0
    while True:
        conn = session.connection()
        single = not write and _code(fn) not in _SEVERAL
        db = PostgresDb(session, write, single)
        try:
            if not single:
                session.begin(BEGIN_WRITE if write else BEGIN_READ)  # sent with what comes next
            result = fn(SqlTx(db), *args)
            if write:
                db.committing = True
                if session.command(b"COMMIT") != b"COMMIT":  # a failed transaction ends so
                    raise errors.InFailedSqlTransaction(
                        "the transaction had failed: it was rolled back, not committed")
            elif not single:
                # A read's snapshot ends without waiting for the server's word: nothing in it
                # is to be made durable. One that had failed is no result (its answers stop
                # at the error), as a write's is not.
                if conn.info.transaction_status == pq.TransactionStatus.INERROR:
                    raise errors.InFailedSqlTransaction(
                        "the transaction had failed: it was rolled back")
                session.end(b"COMMIT")
            return result
        except _Several:
            _SEVERAL.add(_code(fn))
            continue
        except _TRANSIENT as exc:
            _rollback(session)
            attempt += 1
            if attempt > RETRIES:
                raise
            log.info("transaction %s rolled back (%s); running it again",
                     getattr(fn, "__name__", fn), type(exc).__name__)
        except psycopg.OperationalError:
            # The connection broke (the server restarted, or ended the session). Before
            # COMMIT nothing of this transaction holds, so it runs again on a new one; a
            # COMMIT cut short may or may not have committed, and that is the caller's to
            # hear. An open connection with an error of its own is not retried.
            if not conn.closed:
                _rollback(session)
                raise
            attempt += 1
            if db.committing or attempt > RETRIES:
                raise
            log.warning("the connection to %s broke; running %s again on a new one",
                        redact_url(session.url), getattr(fn, "__name__", fn))
        except BaseException:
            _rollback(session)
            raise


def _rollback(session: Session) -> None:
    """End a failed transaction on the session's own path (libpq, as its BEGIN went),
    without waiting for the server's answer (see :meth:`Session.end`)."""
    session.discard()
    conn = session.conn
    if (conn is not None and not conn.closed
            and conn.info.transaction_status != pq.TransactionStatus.IDLE):
        session.end(b"ROLLBACK")


def _migrate(session: Session, path: Path) -> int:
    migrations = load_migrations(path)
    latest = migrations[-1].version if migrations else 0
    conn = session.connection()
    conn.read_only = False  # its BEGINs say READ WRITE (the session's default is read-only)
    try:
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
    finally:
        with contextlib.suppress(psycopg.Error):
            conn.read_only = None
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


class PostgresDb:
    """:class:`~store.dialect.Db` over a session's connection inside one transaction (rows as
    dicts). In a write transaction reads lock the rows they read (``FOR UPDATE``).
    ``single``: a read allowed one statement only (see :func:`_transaction`)."""

    def __init__(self, session: Session, write: bool, single: bool = False) -> None:
        self.session = session
        self.locks_rows = write
        self.single = single
        self.committing = False
        self._statements = 0

    def _execute(self, query: Query, params: Mapping[str, Any], rows: bool) -> Any:
        if self.single:
            self._statements += 1
            if self._statements > 1:
                raise _Several
        return self.session.execute(query.postgresql, params, rows)

    def one(self, query: Query, params: Mapping[str, Any]) -> Row | None:
        rows = self._execute(query, params, True)
        return rows[0] if rows else None

    def all(self, query: Query, params: Mapping[str, Any]) -> list[Row]:
        return self._execute(query, params, True)  # type: ignore[no-any-return]

    def change(self, query: Query, params: Mapping[str, Any]) -> int:
        return self._execute(query, params, False)  # type: ignore[no-any-return]

    def queue(self, query: Query, params: Mapping[str, Any]) -> None:
        if self.single:  # a read writes nothing: in its snapshot, the server will refuse it
            raise _Several
        self.session.queue(query.postgresql, params)
