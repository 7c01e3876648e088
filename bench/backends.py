"""CPU per click of the real bot on SQLite and on PostgreSQL, in the same run.

Two ``python -m bot`` processes, unmodified, each against its own stand-in for Discord
(``bench/_standin``): one on a durable SQLite file, one on a durable throwaway PostgreSQL
cluster (``tests/postgres/cluster.py``; or ``--url``). Players click back to back, one game
at a time, and the phases alternate between the two backends round after round, so a change
in the machine's load hits both alike. CPU time, read from ``/proc``, is the figure that
holds still on a loaded machine: the bot process's per click on each backend, their ratio,
and the PostgreSQL server's own (every backend process of the cluster) beside it.

Afterwards every interaction got exactly one answer, every promised move is stored and every
run replays, on both databases. Needs PostgreSQL (skipped, exit 0, without it;
``REQUIRE_POSTGRES=1`` makes that a failure).

    .venv/bin/python -m bench.backends            # 200 players, Clear and Donsol, 5 rounds
    .venv/bin/python -m bench.backends --quick    # seconds: checks that it runs
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bench._sharded import check_postgres, postgres_cpu_seconds
from bench._standin.checks import answer_problems, check_database
from bench._standin.ids import is_move
from bench._standin.players import Outcome
from bench._standin.process import ROOT, BotProcess
from bench._standin.server import StandIn
from bench.load import run_phase
from rules import GAMES
from tests.postgres.cluster import DURABLE, Cluster, Unavailable

#: The bot's CPU per click on PostgreSQL against SQLite's (issue 26 §2).
RATIO_TARGET = 1.2


class PostgresBot(BotProcess):
    """``python -m bot`` on a PostgreSQL database instead of a SQLite file."""

    def __init__(self, discord: StandIn, url: str, log: Path, pool_size: int,
                 root: Path = ROOT) -> None:
        super().__init__(discord, Path("unused.sqlite3"), log, log_level="WARNING", root=root)
        self.url = url
        self.pool_size = pool_size

    def environment(self) -> dict[str, str]:
        return super().environment() | {"DATABASE_URL": self.url,
                                        "DATABASE_POOL_SIZE": str(self.pool_size)}


@dataclass
class Backend:
    """One bot process on one database, and what was measured of it."""

    name: str
    discord: StandIn
    bot: BotProcess
    user: int
    cpu: dict[str, list[float]] = field(default_factory=dict)  # ms per click, by game
    loop: dict[str, list[float]] = field(default_factory=dict)  # of it, the main thread's
    server: dict[str, list[float]] = field(default_factory=dict)  # PostgreSQL's own
    outcomes: list[Outcome] = field(default_factory=list)

    def next_users(self) -> int:
        self.user += 100_000
        return self.user


async def measure(folder: Path, url: str, data: Path | None, args: argparse.Namespace,
                  ) -> list[Backend]:
    """Both bots up; back-to-back phases per game, alternating between them each round."""
    async with contextlib.AsyncExitStack() as stack:
        backends = []
        names = ["sqlite", "postgresql"] + (["against"] if args.against else [])
        for name in names:
            discord = await stack.enter_async_context(StandIn())
            log = folder / f"{name}.log"
            bot = (BotProcess(discord, folder / "bench.sqlite3", log, log_level="WARNING")
                   if name == "sqlite" else
                   PostgresBot(discord, url, log, args.pool) if name == "postgresql" else
                   PostgresBot(discord, args.against_url, log, args.pool, root=args.against))
            stack.push_async_callback(bot.stop)
            await bot.start(timeout=60.0)
            backends.append(Backend(name, discord, bot, 10_000))
        for round_ in range(args.rounds):
            for game in args.games:
                # Each round in another order (with three, each leads in turn).
                for b in backends[round_ % len(backends):] + backends[:round_ % len(backends)]:
                    server = postgres_cpu_seconds(data) if data and b.name != "sqlite" else 0.0
                    main = main_thread_cpu(b.bot.pid)
                    phase = await run_phase(b.discord, b.bot, "back-to-back", (game,),
                                            args.players, args.burst, None, b.next_users(),
                                            is_move, args.seed + round_)
                    answered = max(phase.answered, 1)
                    b.cpu.setdefault(game, []).append(phase.cpu * 1000 / answered)
                    b.loop.setdefault(game, []).append(
                        (main_thread_cpu(b.bot.pid) - main) * 1000 / answered)
                    if data and b.name != "sqlite":
                        used = postgres_cpu_seconds(data) - server
                        b.server.setdefault(game, []).append(used * 1000 / answered)
                    b.outcomes += phase.outcomes
        for b in backends:
            await b.bot.stop()
        return backends


def main_thread_cpu(pid: int) -> float:
    """CPU seconds of the process's main thread (its event loop) so far; the rest of the
    process's is its other threads' (the store's workers, discord.py's helpers)."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def problems(backends: list[Backend], folder: Path, url: str, args: argparse.Namespace
             ) -> list[str]:
    """Every answer once, every promised move stored, every run replaying; no error logged."""
    found = []
    for b in backends:
        for problem, n in answer_problems(b.outcomes).most_common():
            found.append(f"{b.name}: {n} × {problem}")
        if b.name == "sqlite":
            db = check_database(folder / "bench.sqlite3", b.outcomes)
            found += [f"sqlite: {p}" for p in db.problems[:10]]
        else:
            pg = check_postgres(url if b.name == "postgresql" else args.against_url,
                                b.outcomes, list(b.discord.interactions.values()))
            found += [f"{b.name}: {p}" for p in pg.problems[:10]]
        found += [f"{b.name} log: {line[-160:]}" for line in b.bot.log_text().splitlines()
                  if " ERROR " in line or " CRITICAL " in line or "Traceback" in line][:5]
    return found


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):5.2f} ms ({min(values):.2f}–{max(values):.2f})"


def report(backends: list[Backend], args: argparse.Namespace) -> bool:
    """Print the table; whether every game met the ratio target."""
    sqlite, pg = backends[:2]
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}; load average before: {args.load_before}; "
          f"{args.players} players back to back, {args.rounds} rounds of {args.burst:g} s "
          "per game and backend; CPU per answered interaction, median (min–max over rounds)")
    print(f"{'game':<8} {'bot on SQLite':>24} {'bot on PostgreSQL':>24} {'ratio':>6} "
          f"{'PostgreSQL server':>24}   of the bot's: its event loop's, SQLite | PostgreSQL")
    met = True
    for game in args.games:
        ratio = statistics.median(pg.cpu[game]) / statistics.median(sqlite.cpu[game])
        met &= ratio <= RATIO_TARGET
        server = _spread(pg.server[game]) if game in pg.server else "not read"
        print(f"{game:<8} {_spread(sqlite.cpu[game]):>24} {_spread(pg.cpu[game]):>24} "
              f"{ratio:5.2f}x {server:>24}   {statistics.median(sqlite.loop[game]):.2f} | "
              f"{statistics.median(pg.loop[game]):.2f} ms")
    if len(backends) > 2:
        other = backends[2]
        for game in args.games:
            ratio = statistics.median(other.cpu[game]) / statistics.median(sqlite.cpu[game])
            server = _spread(other.server[game]) if game in other.server else "not read"
            print(f"{game:<8} {'the bot of ' + str(args.against):>49} "
                  f"{_spread(other.cpu[game]):>24} {ratio:5.2f}x {server:>24}   "
                  f"{statistics.median(other.loop[game]):.2f} ms")
        for game in args.games:  # the two bots of a round ran one after the other
            pairs = [a / b for a, b in zip(pg.cpu[game], other.cpu[game], strict=True)]
            print(f"{game:<8} this bot / the other, on PostgreSQL, round by round: "
                  + " ".join(f"{r:.2f}" for r in pairs)
                  + f"; median {statistics.median(pairs):.2f}")
    print(f"target: the bot's CPU per click on PostgreSQL within {RATIO_TARGET}x of SQLite's: "
          f"{'ok' if met else 'MISSED'}")
    return met


async def main_async(args: argparse.Namespace) -> int:
    args.load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="dd-backends-") as tmp, \
            contextlib.ExitStack() as stack:
        folder = Path(tmp)
        data = None
        url = args.url
        if url is None:
            try:
                cluster = stack.enter_context(Cluster(DURABLE))
            except Unavailable as exc:
                print(f"skipped: {exc}")
                return 1 if os.environ.get("REQUIRE_POSTGRES") == "1" else 0
            url, data = cluster.create_database("bench"), cluster.data
            if args.against:
                args.against_url = cluster.create_database("against")
        elif args.against:
            print("--against needs the throwaway cluster (no --url)")
            return 2
        backends = await measure(folder, url, data, args)
        report(backends, args)
        found = await asyncio.to_thread(problems, backends, folder, url, args)
        for line in found:
            print(f"ERROR {line}")
        if not found:
            print(f"{sum(len(b.outcomes) for b in backends)} interactions, each answered "
                  "exactly once; every promised move stored; no error")
        return 1 if found else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.backends",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="10 players, one round of a second: checks that it runs")
    parser.add_argument("--players", type=int, default=200, help="players at once (200)")
    parser.add_argument("--burst", type=float, default=8.0,
                        help="seconds of back-to-back play per game, backend and round (8)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (5)")
    parser.add_argument("--games", nargs="+", choices=tuple(GAMES), default=["clear", "donsol"],
                        help="the games played (clear donsol)")
    parser.add_argument("--pool", type=int, default=4, help="DATABASE_POOL_SIZE (4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--url", help="a PostgreSQL database to use instead of a throwaway "
                        "cluster (its server's CPU is then not read)")
    parser.add_argument("--against", type=Path, default=None,
                        help="another checkout of the project whose bot also runs on "
                        "PostgreSQL (a database of its own on the same cluster), in turn with "
                        "the other two: the code before a change, in the same run")
    parser.add_argument("--pictures", choices=("on", "off"), default="off",
                        help="table pictures (TABLE_PICTURES; default off: the same on both "
                        "backends, and not what this measures)")
    args = parser.parse_args(argv)
    if args.against is not None:
        args.against = args.against.resolve()
        if not (args.against / "bot" / "__main__.py").exists():
            parser.error(f"{args.against} is not a checkout of the project")
    os.environ["TABLE_PICTURES"] = args.pictures  # the bot processes inherit it
    if args.quick:
        args.players, args.burst, args.rounds = 10, 1.0, 1
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
