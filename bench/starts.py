"""Starts: the bot process's CPU per ``/daily`` and per ``/play`` that starts a run, against
the local stand-in for Discord, beside the minimal bot's ``/play``.

``bench.load`` counts starts among every interaction (a quarter of paced ones); here they are
alone: each round sends ``--starts`` commands of one kind from new players (so every
``/daily`` deals today's run, and every ``/play`` a new practice run), ``--concurrency`` at
a time, and reads the bot's CPU from ``/proc`` around them. The bots run at once, each
against its own stand-in, and take turns round by round (the order reversed every round), so
a change in the machine's background load hits them alike. ``--against CHECKOUT`` also runs
another checkout's bot (its ``python -m bot``, same interpreter): before and after a change,
in one run. ``--postgres`` runs each of those bots a second time on PostgreSQL (a durable
throwaway cluster, ``tests/postgres/cluster.py``, a database each), in turn with the others,
and reports the PostgreSQL server's own CPU per start beside. Afterwards every interaction
must have been answered exactly once, each start with a board, and no bot may have logged an
error.

    .venv/bin/python -m bench.starts                     # 5 rounds of 300 starts of each kind
    .venv/bin/python -m bench.starts --against ../main   # the same, another checkout beside
    .venv/bin/python -m bench.starts --postgres          # on SQLite and on PostgreSQL
    .venv/bin/python -m bench.starts --quick             # seconds: checks that it all runs
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench._sharded import postgres_cpu_seconds
from bench._standin.checks import answer_problems
from bench._standin.ids import is_minimal_move, is_move
from bench._standin.players import Outcome, answered, command_options, playable_on
from bench._standin.process import MINIMAL_BOT, PROJECT_BOT, ROOT, BotProcess
from bench._standin.server import StandIn
from bench.backends import PostgresBot
from rules import GAMES
from tests.postgres.cluster import DURABLE, Cluster, Unavailable


@dataclass
class Subject:
    """One bot with its stand-in, and the CPU per start it was measured at, by command."""

    name: str
    discord: StandIn
    bot: BotProcess
    commands: tuple[str, ...]
    is_move_id: Callable[[str], bool]
    postgres: bool = False
    ms: dict[str, list[float]] = field(default_factory=dict)
    server: dict[str, list[float]] = field(default_factory=dict)  # PostgreSQL's ms per start
    outcomes: list[Outcome] = field(default_factory=list)
    boardless: int = 0  # starts answered with no move to play


async def starts(subject: Subject, command: str, users: range, concurrency: int) -> float:
    """``/command`` from each of ``users`` (games in turn); the bot's CPU ms per answer."""
    discord, games = subject.discord, tuple(GAMES)
    gate = asyncio.Semaphore(concurrency)
    answers = 0

    async def one(user: int) -> None:
        nonlocal answers
        game = games[user % len(games)]
        async with gate:
            record = discord.command(user, command,
                                     command_options(discord.commands[command], game))
            subject.outcomes.append(Outcome(record, "start", game))
            if await answered(record):
                answers += 1
                message = discord.messages.get(record.message_id or 0)
                if message is None or not playable_on(message, subject.is_move_id):
                    subject.boardless += 1

    before = subject.bot.cpu_seconds()
    await asyncio.gather(*(one(user) for user in users))
    return (subject.bot.cpu_seconds() - before) * 1000 / max(answers, 1)


async def measure(args: argparse.Namespace, folder: Path, cluster: Cluster | None
                  ) -> list[Subject]:
    projects = [("project", ROOT)]
    if args.against is not None:
        projects.append((f"against {args.against}", args.against))
    # (name, command, checkout, commands, move ids, database: None for a SQLite file)
    specs: list[tuple[str, tuple[str, ...], Path, tuple[str, ...], Callable[[str], bool],
                      str | None]] = [
        (name, PROJECT_BOT, root, ("daily", "play"), is_move, None) for name, root in projects]
    if cluster is not None:
        specs += [(f"{name} on PostgreSQL", PROJECT_BOT, root, ("daily", "play"), is_move,
                   cluster.create_database(f"starts{i}"))
                  for i, (name, root) in enumerate(projects)]
    if not args.skip_minimal:
        specs.append(("minimal", MINIMAL_BOT, ROOT, ("play",), is_minimal_move, None))
    subjects: list[Subject] = []
    async with contextlib.AsyncExitStack() as stack:
        for i, (name, command, root, commands, is_move_id, url) in enumerate(specs):
            discord = await stack.enter_async_context(StandIn())
            log = folder / f"{i}.log"
            if url is None:
                bot = BotProcess(discord, folder / f"{i}.sqlite3", log, command,
                                 log_level="WARNING", root=root)
            else:
                bot = PostgresBot(discord, url, log, args.pool, root=root)
            stack.push_async_callback(bot.stop)
            await bot.start()
            subjects.append(Subject(name, discord, bot, commands, is_move_id, url is not None))
        await asyncio.sleep(1.0)  # past the start-up's own work (command sync, caches)
        user = 10_000
        for round_ in range(args.rounds):
            for subject in subjects if round_ % 2 == 0 else subjects[::-1]:
                for command in subject.commands:
                    users = range(user, user + args.starts)
                    user += args.starts
                    before = (postgres_cpu_seconds(cluster.data)
                              if cluster is not None and subject.postgres else 0.0)
                    ms = await starts(subject, command, users, args.concurrency)
                    subject.ms.setdefault(command, []).append(ms)
                    if cluster is not None and subject.postgres:
                        used = postgres_cpu_seconds(cluster.data) - before
                        subject.server.setdefault(command, []).append(
                            used * 1000 / args.starts)
        for subject in subjects:
            await subject.bot.stop()
    return subjects


def report(subjects: list[Subject], args: argparse.Namespace) -> bool:
    print(f"machine: {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}; load average before: {args.load_before}; "
          f"{args.rounds} rounds of {args.starts} starts of each kind, {args.concurrency} "
          "at a time; table pictures off")
    print("the bot's CPU per start (ms), round by round: median [range]")
    for subject in subjects:
        for command, values in subject.ms.items():
            print(f"  {subject.name:<24} /{command:<6} " + " ".join(f"{v:.2f}" for v in values)
                  + f"   {statistics.median(values):.2f} [{min(values):.2f}-{max(values):.2f}]")
            if command in subject.server:
                server = subject.server[command]
                print(f"  {'':<24} /{command:<6} PostgreSQL server: "
                      f"{statistics.median(server):.2f} [{min(server):.2f}-{max(server):.2f}]")
    # Each bot against the ones after it on the same database (the project first), and each
    # checkout on PostgreSQL against itself on SQLite.
    pairs = [(a, b) for i, a in enumerate(subjects) for b in subjects[i + 1:]
             if a.postgres == b.postgres and (i == 0 or a.postgres)]
    pairs += [(a, b) for a in subjects for b in subjects
              if a.postgres and not b.postgres and a.name == f"{b.name} on PostgreSQL"]
    for first, other in pairs:
        for command in sorted(set(first.ms) & set(other.ms)):
            ratios = [a / b for a, b in zip(first.ms[command], other.ms[command], strict=True)
                      if b > 0]
            if ratios:
                print(f"  {first.name} / {other.name}, /{command}: median "
                      f"{statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}]")
    ok = True
    for subject in subjects:
        problems = answer_problems(subject.outcomes)
        errors = [line for line in subject.bot.log_text().splitlines()
                  if " ERROR " in line or " CRITICAL " in line or "Traceback" in line]
        if problems or errors or subject.boardless:
            ok = False
            for problem, n in problems.most_common():
                print(f"{subject.name}: ERROR {n} × {problem}")
            if subject.boardless:
                print(f"{subject.name}: ERROR {subject.boardless} starts answered without a "
                      "board to play")
            for line in errors[:5]:
                print(f"{subject.name}: {line}")
        else:
            print(f"{subject.name}: {len(subject.outcomes)} starts, each answered exactly once "
                  "with a board; no error")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.starts",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one round of 10 starts of each kind: checks that it all runs")
    parser.add_argument("--starts", type=int, default=300,
                        help="starts of each kind a round, each by a new player (300)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (5)")
    parser.add_argument("--concurrency", type=int, default=20,
                        help="starts waiting for their answer at once (20)")
    parser.add_argument("--against", type=Path,
                        help="another checkout whose bot is measured beside this one's")
    parser.add_argument("--skip-minimal", action="store_true",
                        help="do not measure the minimal bot")
    parser.add_argument("--postgres", action="store_true",
                        help="also run each project bot on PostgreSQL (a durable throwaway "
                        "cluster, a database each), with the server's CPU per start")
    parser.add_argument("--pool", type=int, default=4,
                        help="DATABASE_POOL_SIZE of the bots on PostgreSQL (4)")
    args = parser.parse_args(argv)
    if args.quick:
        args.starts, args.rounds = 10, 1
    if args.against is not None:
        args.against = args.against.resolve()
        if not (args.against / "bot" / "__main__.py").exists():
            parser.error(f"{args.against} is not a checkout of the project")
    os.environ["TABLE_PICTURES"] = "off"  # the bot processes inherit it
    args.load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="dd-starts-") as tmp, \
            contextlib.ExitStack() as stack:
        cluster = None
        if args.postgres:
            try:
                cluster = stack.enter_context(Cluster(DURABLE))
            except Unavailable as exc:
                print(f"skipped: {exc}")
                return 1 if os.environ.get("REQUIRE_POSTGRES") == "1" else 0
        subjects = asyncio.run(measure(args, Path(tmp), cluster))
        return 0 if report(subjects, args) else 1


if __name__ == "__main__":
    sys.exit(main())
