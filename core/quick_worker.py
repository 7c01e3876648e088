"""A worker process for short jobs asked many times a second (the table pictures), reached by
the event loop itself over a socket pair.

``ProcessPoolExecutor`` hands every job through two threads of its own (one feeding the call
queue, one managing results) and a future chained back to the loop: measured at 0.26–0.6 ms
of the asking process's CPU a job, more than the worker takes to draw a table. Here a job is
one length-prefixed pickle written to the socket, and its result one read back by the loop:
no thread in between. For the long jobs (a par, a hint) that cost is nothing beside the job,
and the pool's other lanes keep ``ProcessPoolExecutor``, which can also be told to cancel.

A dead worker (killed, out of memory) fails every job it had, and every job asked of it
after, with ``BrokenProcessPool``, as a broken pool does; its owner (``core.workers``) then
makes a new one. Closing lets the worker finish the jobs it was given (pictures take
milliseconds), then it exits on the socket's end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import pickle
import socket
import struct
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

#: A message's length, before its pickle.
_HEADER = struct.Struct("!I")
#: Seconds :meth:`QuickWorker.close` waits for the jobs under way before it ends the process.
CLOSE_WAIT = 5.0


class QuickWorker:
    """One worker process, started (spawn) on the first job."""

    def __init__(self, initializer: Callable[..., None] | None = None,
                 initargs: tuple[Any, ...] = (),
                 starting: Callable[[], contextlib.AbstractContextManager[Any]] | None = None,
                 ) -> None:
        self._initializer = initializer
        self._initargs = initargs
        #: Entered around a process's start (``core.workers`` keeps the main script out).
        self._starting = starting or contextlib.nullcontext
        self.process: multiprocessing.process.BaseProcess | None = None
        self._answers: _Answers | None = None
        self._next = 0
        self._lock = asyncio.Lock()  # one process started, however many jobs ask at once
        self._dead = False

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker process; its result, or its exception raised here.
        ``BrokenProcessPool`` when the process died before it answered."""
        if self._dead:
            raise BrokenProcessPool("the worker process died")
        if self._answers is None:
            async with self._lock:
                if self._answers is None:
                    await self._start()
        answers = self._answers
        assert answers is not None
        job = self._next
        self._next += 1
        return await answers.ask(job, pickle.dumps((job, fn, args), pickle.HIGHEST_PROTOCOL))

    async def _start(self) -> None:
        ours, theirs = socket.socketpair()
        try:
            process = multiprocessing.get_context("spawn").Process(
                target=serve, args=(theirs, self._initializer, self._initargs),
                name="dungeon-deck quick worker",
                # Ended when this process exits, even with answers nobody reads left to send.
                daemon=True)
            with self._starting():
                process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()  # the child has its own copy
        answers = _Answers(self)
        # A protocol, not a reading task: the answers are handled as they arrive, and
        # nothing waits on the loop between jobs.
        await asyncio.get_running_loop().create_unix_connection(lambda: answers, sock=ours)
        self.process, self._answers = process, answers

    def _lost(self, answers: _Answers) -> None:
        if self._answers is answers:  # not closed by us: the process died
            self._answers = None
            self._dead = True

    def close(self) -> None:
        """No more jobs: the worker finishes the ones it was given, then exits on the
        socket's end. With none under way it is waited for (ended after :data:`CLOSE_WAIT`
        if it has not gone); with some, their answers still reach their callers while the
        loop runs (waiting here would stop the loop from reading them), and the process,
        a daemon, is ended at this process's exit at the latest."""
        answers, process = self._answers, self.process
        self._answers = None
        if answers is None or process is None:
            return
        if answers.finish():
            return
        process.join(CLOSE_WAIT)
        if process.is_alive():
            log.warning("the quick worker did not exit in %.0f s; ending it", CLOSE_WAIT)
            process.terminate()


class _Answers(asyncio.Protocol):
    """The parent's end of the socket: sends the jobs, hands each answer to its job's
    future, and fails those still waiting when the worker's end closes."""

    def __init__(self, worker: QuickWorker) -> None:
        self._worker = worker
        self._transport: asyncio.WriteTransport | None = None
        self._buffer = bytearray()
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._lost = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]

    async def ask(self, job: int, data: bytes) -> Any:
        if self._lost or self._transport is None:
            raise BrokenProcessPool("the worker process died")
        future = asyncio.get_running_loop().create_future()
        self._waiting[job] = future
        self._transport.write(_HEADER.pack(len(data)) + data)
        try:
            return await future
        finally:
            self._waiting.pop(job, None)

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        while len(buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(buffer)
            end = _HEADER.size + size
            if len(buffer) < end:
                return
            job, ok, value = pickle.loads(bytes(buffer[_HEADER.size:end]))
            del buffer[:end]
            future = self._waiting.get(job)
            if future is None or future.done():  # its caller stopped waiting
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        self._worker._lost(self)
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(BrokenProcessPool("the worker process died"))

    def finish(self) -> bool:
        """Send no more jobs (the worker exits once it has answered them); whether some
        are still waiting for their answer."""
        if self._transport is not None and not self._lost:
            with contextlib.suppress(OSError, RuntimeError):
                self._transport.write_eof()
        return any(not future.done() for future in self._waiting.values())


def serve(sock: socket.socket, initializer: Callable[..., None] | None,
          initargs: tuple[Any, ...]) -> None:
    """In the worker process: answer each job in turn until the socket's other end is done
    writing."""
    if initializer is not None:
        initializer(*initargs)
    # The asker gone (killed: its end of the socket is closed) leaves nobody to answer: the
    # worker exits quietly, as it does on the asker's clean end.
    with sock, sock.makefile("rb") as incoming, contextlib.suppress(ConnectionError):
        while True:
            header = incoming.read(_HEADER.size)
            if len(header) < _HEADER.size:
                return  # no more jobs
            (size,) = _HEADER.unpack(header)
            job, fn, args = pickle.loads(incoming.read(size))
            try:
                answer: tuple[int, bool, Any] = (job, True, fn(*args))
            except Exception as exc:
                answer = (job, False, exc)
            try:
                data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # a result or an exception that cannot be sent back
                data = pickle.dumps((job, False, RuntimeError(
                    f"the worker's answer could not be sent back: {exc!r}")))
            sock.sendall(_HEADER.pack(len(data)) + data)
