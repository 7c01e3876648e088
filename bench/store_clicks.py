"""CPU per click of the store alone, SQLite against PostgreSQL, in one process.

No Discord and no bot: players call ``core.runs.act`` back to back (a new run when one ends),
through the core, on a durable SQLite file and on a durable throwaway PostgreSQL cluster
(``tests/postgres/cluster.py``), the phases alternating between the two round after round so
that the machine's load hits both alike. What ``bench/backends.py`` measures through the whole
bot, this measures without the bot's share, which is the same on both databases: the part of
a click that the store's backend decides. CPU is this process's (every thread, from
``getrusage``), its event-loop thread's, and PostgreSQL's (every process of the cluster, from
``/proc``); SQLite's own work is inside this process, PostgreSQL's in the server, so the
server's column is the one to add when comparing like with like.

    .venv/bin/python -m bench.store_clicks               # 40 players, Clear, 5 rounds of 3 s
    .venv/bin/python -m bench.store_clicks --game donsol # more new runs (Donsol's end soon)
    .venv/bin/python -m bench.store_clicks --quick       # seconds: checks that it runs
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench._sharded import postgres_cpu_seconds
from core import Core
from core.model import Run
from rules import GAMES
from tests.postgres.cluster import DURABLE, Cluster, Unavailable


@dataclass
class Backend:
    name: str
    core: Core
    cpu: list[float] = field(default_factory=list)  # µs per click, this process
    loop: list[float] = field(default_factory=list)  # of it, the event loop's thread
    server: list[float] = field(default_factory=list)  # PostgreSQL's processes


def loop_thread_cpu() -> float:
    """CPU seconds of this (the event loop's) thread so far."""
    return time.thread_time()


async def player(core: Core, user: int, game: str, until: float, rng: random.Random,
                 clicks: list[int]) -> None:
    run: Run = await core.runs.start(user, game)
    while time.monotonic() < until:
        if not (actions := run.actions):
            run = await core.runs.start(user, game)
            continue
        run = await core.runs.act(run.id, user, run.version, rng.choice(actions))
        clicks[0] += 1


async def phase(b: Backend, args: argparse.Namespace, first_user: int, data: Path) -> None:
    clicks = [0]
    rng = random.Random(first_user)
    until = time.monotonic() + args.seconds
    cpu, loop, server = time.process_time(), loop_thread_cpu(), postgres_cpu_seconds(data)
    await asyncio.gather(*(player(b.core, first_user + i, args.game, until, rng, clicks)
                           for i in range(args.players)))
    n = max(clicks[0], 1)
    b.cpu.append((time.process_time() - cpu) * 1e6 / n)
    b.loop.append((loop_thread_cpu() - loop) * 1e6 / n)
    if b.name != "sqlite":
        b.server.append((postgres_cpu_seconds(data) - server) * 1e6 / n)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.0f} µs ({min(values):.0f}–{max(values):.0f})"


async def main_async(args: argparse.Namespace) -> int:
    load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    try:
        cluster = Cluster(DURABLE).start()
    except Unavailable as exc:
        print(f"skipped: {exc}")
        return 1 if os.environ.get("REQUIRE_POSTGRES") == "1" else 0
    try:
        with tempfile.TemporaryDirectory(prefix="dd-store-clicks-") as tmp:
            backends = [
                Backend("sqlite", await Core.open(Path(tmp) / "bench.sqlite3")),
                Backend("postgresql", await Core.open(cluster.create_database("bench"),
                                                      pool_size=args.pool)),
            ]
            try:
                user = 1000
                for round_ in range(args.rounds):
                    for b in backends if round_ % 2 == 0 else backends[::-1]:
                        user += 100_000
                        await phase(b, args, user, cluster.data)
            finally:
                for b in backends:
                    await b.core.close()
    finally:
        cluster.stop()
    sqlite, pg = backends
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}; load average before: {load_before}, after: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; {args.players} players, "
          f"{args.game}, {args.rounds} rounds of {args.seconds:g} s per backend, alternating; "
          f"PostgreSQL pool {args.pool}; CPU per click (core.runs.act), median (min–max)")
    print(f"{'':<11} {'this process':>24} {'its event loop':>24} {'PostgreSQL server':>24}")
    for b in backends:
        server = spread(b.server) if b.server else "(in the process)"
        print(f"{b.name:<11} {spread(b.cpu):>24} {spread(b.loop):>24} {server:>24}")
    print(f"ratio PostgreSQL / SQLite, this process: "
          f"{statistics.median(pg.cpu) / statistics.median(sqlite.cpu):.2f}x")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.store_clicks",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40, help="players at once (40)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds a phase (3)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (5)")
    parser.add_argument("--game", choices=tuple(GAMES), default="clear")
    parser.add_argument("--pool", type=int, default=4, help="PostgreSQL connections (4)")
    parser.add_argument("--quick", action="store_true",
                        help="5 players, 2 rounds of half a second: checks that it runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.seconds, args.rounds = 5, 0.5, 2
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
