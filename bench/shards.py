"""Shards across processes: 1, 2 and 4 bot processes on one PostgreSQL database.

The real bot (``python -m bot``, unmodified) runs with ``DATABASE_URL``, ``SHARD_COUNT`` and
``SHARD_IDS`` against the load benchmark's stand-in for Discord, here with one gateway
connection per shard and one guild per shard (``bench/_sharded.py``). PostgreSQL is a
throwaway cluster in a temporary folder, with every commit durable (``fsync``,
``synchronous_commit`` on), as in production.

1. **Scaling.** For 1, 2 and 4 processes (the same shards dealt among them), players click
   back to back (each as soon as the last click is answered): clicks answered a second, p50
   and p99 latency, and the CPU used by the bot processes, PostgreSQL and this driver (the
   players and the stand-in), each as a share of one core — where it stops scaling shows as
   the resource that is full.
2. **One board for every shard.** A player on a shard of process 0 plays today's daily to the
   end; a player on a shard of process 1 asks for the global leaderboard and must see them.
3. **Crash.** Under load on several processes, one is killed with SIGKILL: the players of the
   other processes' shards keep playing without a single failed or erroneous answer; when the
   killed process is started again its shards are served again; afterwards every promised
   move (a click answered with the updated board) is in the database, every run replays, and
   no process logged an error.

    .venv/bin/python -m bench.shards           # 4 shards; 1, 2, 4 processes; 24 players, 15 s
    .venv/bin/python -m bench.shards --quick   # 2 shards, 2 processes, 8 players: seconds
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import re
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from bench._sharded import (
    PLAYER_SHARD,
    ShardedStandIn,
    ShardProcess,
    check_postgres,
    postgres_cpu_seconds,
    split_shards,
)
from bench._standin import payloads as p
from bench._standin.checks import answer_problems
from bench._standin.ids import is_move
from bench._standin.players import Load, Outcome, answered, play, playable_on
from bench._standin.server import Interaction
from rules import GAMES
from tests.postgres.cluster import DURABLE, Cluster, Unavailable

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
DAILY_GAME = "donsol"


@dataclass
class Scaling:
    """One configuration measured."""

    processes: int
    shards: list[tuple[int, ...]]
    seconds: float
    clicks: list[float]  # latencies (ms) of the move clicks answered in the window
    bot_cpu: list[float]  # CPU seconds per process in the window
    postgres_cpu: float
    driver_cpu: float
    problems: Counter[str] = field(default_factory=Counter)
    database: str = ""

    @property
    def rate(self) -> float:
        return len(self.clicks) / self.seconds


def cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def pct(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def log_errors(processes: list[ShardProcess]) -> list[str]:
    """The ERROR and CRITICAL lines of the processes' logs, and the exception each traceback
    ends with."""
    found = []
    for proc in processes:
        lines = _ANSI.sub("", proc.log_text()).splitlines()
        for i, line in enumerate(lines):
            if " ERROR " in line or " CRITICAL " in line:
                found.append(f"{proc.log.name}: {line}")
            elif line.startswith("Traceback"):
                end = next((j for j in range(i + 1, len(lines))
                            if lines[j] and not lines[j].startswith(" ")), i)
                found.append(f"{proc.log.name}: traceback: {lines[end]}")
    return found


async def start_all(processes: list[ShardProcess]) -> None:
    await asyncio.gather(*(proc.start(timeout=120) for proc in processes))


async def wait_synced(discord: ShardedStandIn, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while "play" not in discord.commands:
        if time.monotonic() > deadline:
            raise TimeoutError("the bot did not sync its commands")
        await asyncio.sleep(0.05)


def start_players(load: Load, discord: ShardedStandIn, users: range, seed: int,
                  pace: float | None) -> list[asyncio.Task[None]]:
    async def player(user: int) -> None:
        PLAYER_SHARD.set(discord.shard_of_user(user))  # this task's own context
        await play(load, user, seed * 1_000_003 + user, pace)

    return [asyncio.create_task(player(user)) for user in users]


async def stop_players(load: Load, tasks: list[asyncio.Task[None]]) -> None:
    load.stop.set()
    _, pending = await asyncio.wait(tasks, timeout=15)
    for task in pending:  # a player waiting for a shard that is not coming back
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@dataclass
class Session:
    """Bot processes up on one database and one stand-in, and every outcome so far."""

    url: str
    discord: ShardedStandIn
    procs: list[ShardProcess]
    outcomes: list[Outcome] = field(default_factory=list)


@contextlib.asynccontextmanager
async def session(cluster: Cluster, folder: Path, processes: int, shard_count: int,
                  args: argparse.Namespace) -> AsyncIterator[Session]:
    url = cluster.create_database(f"shards{processes}")
    async with ShardedStandIn(shard_count) as discord:
        procs = [ShardProcess(discord, url, ids, folder / f"{processes}p-{i}.log",
                              pool_size=args.pool)
                 for i, ids in enumerate(split_shards(shard_count, processes))]
        try:
            await start_all(procs)
            await wait_synced(discord)
            yield Session(url, discord, procs)
        finally:
            for proc in procs:
                await proc.stop()


async def measure(s: Session, cluster: Cluster, args: argparse.Namespace) -> Scaling:
    """Players back to back; the figures of a window after a warm-up."""
    load = Load(s.discord, tuple(GAMES))
    tasks = start_players(load, s.discord, range(10_000, 10_000 + args.players), args.seed,
                          None)
    await asyncio.sleep(args.warmup)
    bots = [proc.cpu_seconds() for proc in s.procs]
    pg, driver = postgres_cpu_seconds(cluster.data), cpu_self()
    begin = time.perf_counter()
    await asyncio.sleep(args.seconds)
    end = time.perf_counter()
    bot_cpu = [proc.cpu_seconds() - cpu for proc, cpu in zip(s.procs, bots, strict=True)]
    pg_cpu, driver_cpu = postgres_cpu_seconds(cluster.data) - pg, cpu_self() - driver
    await stop_players(load, tasks)
    s.outcomes += load.outcomes
    window = [o.record.latency * 1000 for o in load.outcomes
              if o.kind == "click" and o.record.latency is not None
              and begin <= o.record.sent_at and o.record.answered_at is not None
              and o.record.answered_at <= end]
    result = Scaling(len(s.procs), [proc.shard_ids for proc in s.procs], end - begin, window,
                     bot_cpu, pg_cpu, driver_cpu)
    result.problems = serious(answer_problems(load.outcomes))
    return result


async def check_session(s: Session) -> tuple[str, list[str]]:
    """The database against every outcome of the session, and the processes' logs."""
    check = await asyncio.to_thread(check_postgres, s.url, s.outcomes,
                                    list(s.discord.interactions.values()))
    summary = f"{check.runs} runs, {check.moves} moves replayed"
    problems = [f"database: {problem}" for problem in check.problems[:5]]
    problems += [f"log: {line[-160:]}" for line in log_errors(s.procs)[:5]]
    return summary, problems


def serious(found: Counter[str]) -> Counter[str]:
    # A refused click is a bad click answered as such (the players send some on purpose).
    return Counter({k: n for k, n in found.items() if k != "click refused"})


async def play_to_the_end(discord: ShardedStandIn, user: int, command: str,
                          options: list[dict[str, object]]) -> Interaction | None:
    """Send ``/command`` and click the first move until the board has none; the command."""
    PLAYER_SHARD.set(discord.shard_of_user(user))
    record = discord.command(user, command, options)
    if not await answered(record) or record.message_id is None:
        return None
    for _ in range(2000):
        # A move, or on a two-step board's first step (Clear's "which card?") a card.
        moves = playable_on(discord.messages[record.message_id], is_move)
        if not moves:
            break
        click = discord.click(user, record.message_id, moves[0])
        if not await answered(click):
            return None
    return record


async def daily_across(s: Session) -> list[str]:
    """A daily played through process 0, on the global board read through process 1."""
    discord = s.discord
    if "daily" not in discord.commands or "leaderboard" not in discord.commands:
        return ["daily: SKIPPED: the bot has no /daily and /leaderboard to show it with"]
    count = discord.shard_count
    player = 20_000 * count + s.procs[0].shard_ids[0]  # on a shard of process 0
    reader = 30_000 * count + s.procs[1].shard_ids[0]  # on a shard of process 1
    game = {"name": "game", "type": p.OPTION_STRING, "value": DAILY_GAME}
    if await play_to_the_end(discord, player, "daily", [game]) is None:
        return ["daily: FAILED: the daily could not be played through process 0"]
    PLAYER_SHARD.set(discord.shard_of_user(reader))
    board = discord.command(reader, "leaderboard", [
        game, {"name": "scope", "type": p.OPTION_STRING, "value": "global"}])
    await answered(board)
    name = p.user(player)["username"]
    shown = name in board.text
    return [
        f"daily: player {player} (shard {discord.shard_of_user(player)}, process 0) played "
        f"today's {DAILY_GAME} to the end; player {reader} (shard "
        f"{discord.shard_of_user(reader)}, process 1) asked /leaderboard scope:global",
        f"daily: {'OK' if shown else 'FAILED'}: the board read through process 1 "
        f"{'shows' if shown else 'does not show'} {name}",
    ]


async def crash(s: Session, args: argparse.Namespace) -> list[str]:
    """Kill -9 the last process under load; the others must not notice; restart it."""
    discord, victim = s.discord, s.procs[-1]
    load = Load(discord, tuple(GAMES))
    tasks = start_players(load, discord, range(40_000, 40_000 + args.players), args.seed + 1,
                          args.pace)
    await asyncio.sleep(args.crash_seconds)
    killed_at = time.perf_counter()
    await victim.kill()
    await asyncio.sleep(args.crash_seconds)
    restarted_at = time.perf_counter()
    await victim.start(timeout=120)
    back_at = time.perf_counter()
    await asyncio.sleep(args.crash_seconds)
    await stop_players(load, tasks)
    s.outcomes += load.outcomes
    down = set(victim.shard_ids)

    def on_victim(outcome: Outcome) -> bool:
        return discord.shard_of_user(outcome.record.user_id % (1 << 40)) in down

    others = [o for o in load.outcomes if not on_victim(o)]
    other_problems = serious(answer_problems(others))
    served_after = sum(1 for o in load.outcomes if on_victim(o)
                       and o.record.sent_at >= back_at and o.record.answered_at is not None)
    promised = sum(1 for o in load.outcomes if o.promised is not None)
    lines = [
        f"crash: {len(s.procs)} processes, {discord.shard_count} shards, {args.players} "
        f"players at {args.pace:g} s a click; SIGKILL to process {len(s.procs) - 1} (shards "
        f"{','.join(map(str, victim.shard_ids))}), restarted {restarted_at - killed_at:.1f} s "
        f"later, serving again {back_at - restarted_at:.1f} s after that",
        f"crash: the other shards: {len(others)} interactions, " + (
            "every one answered, none failed" if not other_problems else "PROBLEMS: "
            + ", ".join(f"{n} × {k}" for k, n in other_problems.items())),
        f"crash: the killed process's shards: {served_after} interactions answered after "
        f"its restart ({'OK' if served_after else 'FAILED: none'})",
        f"crash: {promised} moves promised during the crash phase (checked with the rest "
        "below)",
    ]
    if other_problems or not served_after:
        lines.append("crash: FAILED")
    return lines


def report(results: list[Scaling], args: argparse.Namespace, shard_count: int) -> bool:
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores, {platform.processor() or platform.machine()}, Python "
          f"{platform.python_version()}; load average before: {args.load_before}; "
          f"PostgreSQL durable (fsync on, synchronous_commit on), pool {args.pool} a process; "
          f"{shard_count} shards; {args.players} players clicking back to back; "
          f"{args.seconds:g} s measured; table pictures {args.pictures}")
    print("CPU as % of one core during the window; the machine has "
          f"{cores * 100} %")
    print(f"{'processes':>9} {'shards':<14} {'clicks/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'bot CPU each':<22} {'PostgreSQL':>10} {'driver':>7} {'total':>6}   "
          "CPU ms per click: bots, PostgreSQL, driver")
    ok = True
    for r in results:
        def per(cpu: float, r: Scaling = r) -> float:
            return 1000 * cpu / max(len(r.clicks), 1)

        each = " ".join(f"{100 * c / r.seconds:.0f}" for c in r.bot_cpu)
        total = 100 * (sum(r.bot_cpu) + r.postgres_cpu + r.driver_cpu) / r.seconds
        shards = " ".join(",".join(map(str, s)) for s in r.shards)
        print(f"{r.processes:>9} {shards:<14} {r.rate:9.0f} {pct(r.clicks, 50):8.1f} "
              f"{pct(r.clicks, 99):8.1f} {each + ' %':<22} "
              f"{100 * r.postgres_cpu / r.seconds:9.0f}% {100 * r.driver_cpu / r.seconds:6.0f}%"
              f" {total:5.0f}%   {per(sum(r.bot_cpu)):.1f}, {per(r.postgres_cpu):.1f}, "
              f"{per(r.driver_cpu):.1f}")
    for r in results:
        status = "no error" if not r.problems else ", ".join(
            f"{n} × {k}" for k, n in r.problems.most_common())
        print(f"{r.processes} process(es): {r.database}; {status}")
        ok = ok and not r.problems
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())} (other "
          "processes on the machine take the CPU the total leaves)")
    if len(results) > 1:
        best = max(results, key=lambda r: r.rate)
        busiest = max(
            [("the bot processes", sum(best.bot_cpu)), ("PostgreSQL", best.postgres_cpu),
             ("the driver (players and stand-in)", best.driver_cpu)], key=lambda x: x[1])
        total = (sum(best.bot_cpu) + best.postgres_cpu + best.driver_cpu) / best.seconds
        print(f"most clicks/s with {best.processes} process(es); there the machine's CPU is "
              f"{100 * total / cores:.0f} % busy, the largest share taken by {busiest[0]} "
              f"({100 * busiest[1] / best.seconds:.0f} % of a core)")
    return ok


async def main_async(args: argparse.Namespace) -> bool:
    args.load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    shard_count = 2 if args.quick else 4
    counts = (2,) if args.quick else (1, 2, 4)
    with tempfile.TemporaryDirectory(prefix="dd-shards-") as tmp, contextlib.ExitStack() as stack:
        folder = Path(tmp)
        try:
            cluster = stack.enter_context(Cluster(DURABLE))
        except Unavailable as exc:
            if os.environ.get("REQUIRE_POSTGRES") == "1":
                print(f"bench.shards needs PostgreSQL: {exc}", file=sys.stderr)
                return False
            print(f"bench.shards skipped: it needs PostgreSQL, and {exc}")
            return True
        results, lines = [], []
        for n in counts:
            async with session(cluster, folder, n, shard_count, args) as s:
                # The last setup also shows the board (first: the measured players' own dailies
                # would push this one off its first page) and the crash.
                if n == counts[-1]:
                    lines += await daily_across(s)
                result = await measure(s, cluster, args)
                if n == counts[-1]:
                    lines += await crash(s, args)
                result.database, found = await check_session(s)
                for problem in found:
                    result.problems[problem] += 1
            results.append(result)
        ok = report(results, args, shard_count)
        for line in lines:
            print(line)
        ok = ok and not any("FAILED" in line for line in lines)
    print("OK" if ok else "FAILED")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.shards", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2 shards on 2 processes, "
                        "a few players for a few seconds: checks that it all runs")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None, help="measured per config")
    parser.add_argument("--pool", type=int, default=4, help="DATABASE_POOL_SIZE per process")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pictures", choices=("on", "off"), default="on",
                        help="table pictures (TABLE_PICTURES; default on, as served)")
    args = parser.parse_args(argv)
    os.environ["TABLE_PICTURES"] = args.pictures  # the bot processes inherit it
    quick = args.quick
    args.players = args.players or (8 if quick else 24)
    args.seconds = args.seconds or (3.0 if quick else 15.0)
    args.warmup = 1.0 if quick else 3.0
    args.crash_seconds = 2.0 if quick else 5.0
    args.pace = 0.5
    return 0 if asyncio.run(main_async(args)) else 1


if __name__ == "__main__":
    sys.exit(main())
