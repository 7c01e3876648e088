"""Worker processes for CPU-heavy pure work (the solver, hints): never on the event loop.

The solver and the hints are pure Python that holds the GIL while it runs, so a thread would
still stall the bot's event loop; they run in separate processes instead. Three lanes, each a
``ProcessPoolExecutor`` of one process, started (spawn, so no copy of the bot's sockets or
threads) on first use:

- ``background``: long searches nobody waits for (each closed day's par);
- ``interactive``: what a player waits for (a hint, a replay's turning point), so a par being
  solved never holds a hint up;
- ``pictures``: the table pictures the Discord adapter attaches to boards (drawing holds the
  GIL too). A picture is asked for on almost every click, so this lane is a
  :class:`~core.quick_worker.QuickWorker`, which the event loop reaches over a socket pair:
  the pool's own threads cost the bot more CPU a picture than the drawing costs the worker.

What runs there must be a module-level function of plain, picklable arguments.

A worker ends with the bot: a stop closes the lanes, and a bot that dies without closing them
(killed, out of memory) leaves no worker behind either, since each one watches its parent
and exits once it is gone (otherwise a solver would keep a core busy for nobody).

A worker takes its stop signals (SIGTERM, SIGINT) from the bot alone. The bot's stop signal
reaches its workers too when it is sent to the bot's process group (Ctrl-C in a terminal,
GNU ``timeout``) or to its cgroup (``systemctl stop``: systemd's default
``KillMode=control-group``); a worker that died of it broke every picture of the clicks the
bot was still answering (each seen as a worker death). The bot stops its workers itself once
those clicks are answered; SIGKILL still ends a worker at once (the bot starts a new one).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.machinery
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from core.quick_worker import QuickWorker

log = logging.getLogger(__name__)

T = TypeVar("T")

BACKGROUND = "background"
INTERACTIVE = "interactive"
#: Table pictures: a few milliseconds each, one per click, never behind a hint or a par.
PICTURES = "pictures"
LANES = (BACKGROUND, INTERACTIVE, PICTURES)


class Workers:
    """The worker processes of one core; :meth:`close` ends them."""

    def __init__(self) -> None:
        self._pools: dict[str, ProcessPoolExecutor] = {}
        self._pictures: QuickWorker | None = None
        self._closed = False
        #: Worker processes found dead, by lane; and who is told of each (``bot.metrics``).
        self.deaths: dict[str, int] = dict.fromkeys(LANES, 0)
        self.on_death: Callable[[str], None] | None = None

    def _pool(self, lane: str) -> ProcessPoolExecutor:
        if lane not in LANES:
            raise ValueError(f"no worker lane {lane!r}")
        if self._closed:
            raise RuntimeError("the workers are closed")
        pool = self._pools.get(lane)
        if pool is None:
            pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=follow_parent, initargs=(os.getpid(), NICENESS.get(lane, 0)),
            )
            self._pools[lane] = pool
        return pool

    def _quick(self) -> QuickWorker:
        if self._closed:
            raise RuntimeError("the workers are closed")
        if self._pictures is None:
            self._pictures = QuickWorker(follow_parent, (os.getpid(), NICENESS[PICTURES]),
                                         starting=_main_left_alone)
        return self._pictures

    async def run(self, lane: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the lane's worker process; its result (or its exception)."""
        if lane == PICTURES:
            return await self._run_quick(fn, *args)
        pool = self._pool(lane)
        loop = asyncio.get_running_loop()
        try:
            # The pool starts its process (or a new one for a dead one) in this call.
            with _main_left_alone():
                future = loop.run_in_executor(pool, functools.partial(fn, *args))
            return await future
        except BrokenProcessPool:
            # The process died (killed, out of memory): the next call starts a new one.
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            if self._pools.get(lane) is pool:  # one death, however many calls it broke
                del self._pools[lane]
                await self._buried(lane, processes)
            raise

    async def _run_quick(self, fn: Callable[..., T], *args: Any) -> T:
        worker = self._quick()
        try:
            return await worker.run(fn, *args)
        except BrokenProcessPool:
            if self._pictures is worker:  # one death, however many calls it broke
                self._pictures = None
                await self._buried(PICTURES, [worker.process] if worker.process else [])
            raise

    async def _buried(self, lane: str,
                      processes: list[multiprocessing.process.BaseProcess]) -> None:
        """Count a lane's worker death, tell ``on_death``, and log it with the exit codes."""
        self.deaths[lane] += 1
        if self.on_death is not None:
            self.on_death(lane)
        # Off the event loop: the dead process may take a moment to be waited for.
        codes = await asyncio.to_thread(_exit_codes, processes)
        log.error("the %s worker process died (exit codes %s); starting a new one on the "
                  "next call", lane, codes)

    def close(self) -> None:
        """End the worker processes now, work in progress included (a par being solved is
        solved again after the next start: nothing was stored); the pictures under way are
        finished first (they take milliseconds)."""
        self._closed = True
        if self._pictures is not None:
            self._pictures.close()
            self._pictures = None
        for pool in self._pools.values():
            # ProcessPoolExecutor (before Python 3.14) cannot kill a busy worker, and
            # shutdown would wait for its search to end; the processes are terminated.
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()
        self._pools.clear()


@contextlib.contextmanager
def _main_left_alone() -> Iterator[None]:
    """While a worker process is started: a spawned child runs the parent's main script again
    (as ``__mp_main__``, so that functions defined there can be unpickled). What runs in a
    worker is always a function of a module (see the module's docstring), never of the main
    script; and a program that embeds the core without an ``if __name__ == "__main__":``
    guard (a script, a benchmark) ran once more in every worker: opening the database and
    writing to it, then failing, and the hint or replay waiting for that worker failed (a
    "disk I/O error", a broken pool) or never came. A main module named like a package's
    ``__main__`` (as ``python -m bot``'s is) is one the child does not run."""
    main = sys.modules.get("__main__")
    stand_in = types.ModuleType("__main__")
    stand_in.__spec__ = importlib.machinery.ModuleSpec("core.workers.__main__", None)
    sys.modules["__main__"] = stand_in
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


def _exit_codes(processes: list[multiprocessing.process.BaseProcess]) -> list[int | None]:
    """The exit codes of a broken pool's processes. The pool finds a worker dead as soon as
    its end of the pipe closes, which can be before the process can be waited for, and the
    pool's own thread waits for it too: whichever of two waits loses gets nothing, and the
    code reads None until the winner has stored it."""
    deadline = time.monotonic() + EXIT_WAIT
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        while process.exitcode is None and time.monotonic() < deadline:
            time.sleep(0.01)
    return [process.exitcode for process in processes]


#: Seconds a dead worker's exit code is waited for (it has exited: a few milliseconds).
EXIT_WAIT = 2.0

#: Seconds between a worker's looks at whether the bot that started it is still there.
PARENT_CHECK = 1.0

#: How much lower than the bot's the scheduling priority of a lane's worker is (``nice``):
#: pictures and pars use the CPU the bot leaves, so that on a small machine under load clicks
#: are answered first and pictures are left out (``bot.dressing``) instead of clicks slowed.
#: Hints keep the bot's: a player is waiting for one.
NICENESS = {PICTURES: 10, BACKGROUND: 15}


#: The signals that stop the bot; a worker obeys them only when the bot sends them.
STOP_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT})


def follow_parent(parent: int, niceness: int = 0) -> None:
    """In a worker process: lower its priority by ``niceness``, exit as soon as ``parent`` is
    no longer its parent, and take stop signals from ``parent`` alone (see the module's
    docstring)."""
    if niceness:
        os.nice(niceness)
    # Blocked here, before the watch thread starts, so in every thread of the process (a
    # thread inherits the mask of the one that starts it): a stop signal then waits for the
    # watch thread's sigtimedwait instead of killing the process or interrupting its work.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)

    def watch() -> None:
        while os.getppid() == parent:
            sent = signal.sigtimedwait(STOP_SIGNALS, PARENT_CHECK)
            if sent is not None and sent.si_pid == parent:
                # The bot ending this worker (Process.terminate, a broken pool): die of it.
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
                signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
            # From anyone else (the terminal, a group or cgroup kill): the bot got it too and
            # stops its workers itself once its clicks are answered.
        os._exit(0)  # mid-task too: nobody is left to take the result

    threading.Thread(target=watch, name="follow parent", daemon=True).start()
