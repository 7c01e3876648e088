"""Core throughput and latency: simulated players clicking through ``core.runs.act``.

On a database file in a temporary folder (durable commits: WAL, ``synchronous=FULL``):

1. saturation — ``--players`` players (default 50) click back to back for ``--seconds``;
   prints moves per second and the cost of one ``act`` (elapsed / moves), beside a bare loop
   of single-row durable INSERT + COMMIT on the same settings, and the ratio (target <= 3x);
2. paced load — ``--paced-players`` players (default 200) each click about every
   ``--interval`` seconds (default 0.5: about 400 clicks per second offered); prints p50 / p99
   of ``act`` (target: p99 under 10 ms).

Each player plays random legal runs (a new one when a run ends) of the chosen games.
Run: ``.venv/bin/python -m bench.service`` (``--help`` for the options; ``--quick``: a
tiny size that checks that it runs).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import aiosqlite

from core import Core, Run
from rules import GAMES
from store import open_store

RATIO_TARGET = 3.0
P99_TARGET_MS = 10.0


class Player:
    """One simulated player: random legal actions, a new run whenever one ends."""

    def __init__(self, core: Core, user_id: int, games: list[str]) -> None:
        self.core = core
        self.user_id = user_id
        self.games = games
        self.rng = random.Random(user_id)
        self.run: Run | None = None

    async def click(self) -> float:
        """Make one move; return how long ``act`` took, in seconds."""
        if self.run is None or self.run.over:
            game = self.rng.choice(self.games)
            variant = self.rng.choice(GAMES[game].variants)
            self.run = await self.core.runs.start(self.user_id, game, variant)
        run = self.run
        action = self.rng.choice(run.actions)
        start = time.perf_counter()
        self.run = await self.core.runs.act(run.id, self.user_id, run.version, action)
        return time.perf_counter() - start


async def saturation(
    path: Path, players: int, seconds: float, games: list[str]
) -> tuple[int, float, list[float]]:
    """Every player clicks back to back until the time is up; (moves, elapsed, latencies)."""
    latencies: list[float] = []
    async with await Core.open(path) as core:
        crowd = [Player(core, 1 + i, games) for i in range(players)]
        for player in crowd:  # deal every first run before the clock starts
            await player.click()
        start = time.perf_counter()
        deadline = start + seconds

        async def play(player: Player) -> None:
            while time.perf_counter() < deadline:
                latencies.append(await player.click())

        await asyncio.gather(*(play(p) for p in crowd))
        elapsed = time.perf_counter() - start
    return len(latencies), elapsed, latencies


async def bare_commits(path: Path, seconds: float) -> tuple[float, float]:
    """Mean seconds per durable single-row write + COMMIT: (aiosqlite calls, one store job,
    which writes one row of the meta table)."""
    async with aiosqlite.connect(path) as conn:
        for pragma in ("journal_mode = WAL", "synchronous = FULL", "foreign_keys = ON"):
            await conn.execute(f"PRAGMA {pragma}")
        await conn.execute("CREATE TABLE bare (id INTEGER PRIMARY KEY, at REAL NOT NULL)")
        await conn.commit()
        count, start = 0, time.perf_counter()
        while (now := time.perf_counter()) < start + seconds:
            await conn.execute("INSERT INTO bare (at) VALUES (?)", (now,))
            await conn.commit()
            count += 1
        two_calls = (time.perf_counter() - start) / count
    db = await open_store(path)
    await db.migrate()  # the meta table
    try:
        count, start = 0, time.perf_counter()
        while (now := time.perf_counter()) < start + seconds:
            await db.write(lambda tx, at: tx.set_meta("bench", repr(at)), now)
            count += 1
        one_job = (time.perf_counter() - start) / count
    finally:
        await db.close()
    return two_calls, one_job


async def paced(
    path: Path, players: int, interval: float, seconds: float, games: list[str]
) -> tuple[int, float, list[float]]:
    """Each player clicks about every ``interval`` seconds; (clicks, elapsed, latencies)."""
    latencies: list[float] = []
    async with await Core.open(path) as core:
        crowd = [Player(core, 10_000 + i, games) for i in range(players)]
        start = time.perf_counter()
        deadline = start + seconds

        async def play(player: Player) -> None:
            # Clicks follow a schedule, not the replies: a slow reply does not lower the load.
            due = start + player.rng.uniform(0, interval)
            while due < deadline:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                latencies.append(await player.click())
                due += interval * player.rng.uniform(0.8, 1.2)

        await asyncio.gather(*(play(p) for p in crowd))
        elapsed = time.perf_counter() - start
    return len(latencies), elapsed, latencies


def percentile(values: list[float], p: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


async def main(args: argparse.Namespace) -> None:
    games = sorted(GAMES) if args.game == "all" else [args.game]
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        root = Path(folder)
        print(f"games {', '.join(games)}; database files in {root}; synchronous=FULL, WAL")

        moves, elapsed, latencies = await saturation(
            root / "saturation.sqlite3", args.players, args.seconds, games
        )
        per_act = elapsed / moves
        two_calls, one_job = await bare_commits(root / "bare.sqlite3", args.seconds)
        ratio = per_act / two_calls
        print(f"\nsaturation: {args.players} players clicking back to back, {elapsed:.1f} s")
        print(f"  act:         {moves / elapsed:8.0f} moves/s   {per_act * 1e3:6.3f} ms per act")
        wait = statistics.fmean(latencies) * 1e3
        print(f"               (a player waits {wait:.2f} ms on average, behind the others)")
        print(f"  bare commit: {1 / two_calls:8.0f} commits/s {two_calls * 1e3:6.3f} ms per"
              " INSERT + COMMIT (two aiosqlite calls)")
        print(f"               {1 / one_job:8.0f} commits/s {one_job * 1e3:6.3f} ms as one job on"
              " the connection thread (how act runs)")
        verdict = "ok" if ratio <= RATIO_TARGET else "OVER TARGET"
        print(f"  ratio act / bare commit: {ratio:.2f}x (target <= {RATIO_TARGET:.0f}x: {verdict});"
              f" against the one-job commit {per_act / one_job:.2f}x")

        clicks, elapsed, latencies = await paced(
            root / "paced.sqlite3", args.paced_players, args.interval, args.seconds, games
        )
        p50, p99 = percentile(latencies, 50) * 1e3, percentile(latencies, 99) * 1e3
        offered = args.paced_players / args.interval
        print(f"\npaced: {args.paced_players} players, a click every ~{args.interval} s each"
              f" (~{offered:.0f} clicks/s offered), {elapsed:.1f} s")
        print(f"  {clicks / elapsed:.0f} clicks/s served; act p50 {p50:.2f} ms, p99 {p99:.2f} ms,"
              f" max {max(latencies) * 1e3:.2f} ms")
        verdict = "ok" if p99 < P99_TARGET_MS else "OVER TARGET"
        print(f"  p99 target < {P99_TARGET_MS:.0f} ms: {verdict}")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50, help="saturation players (50)")
    parser.add_argument("--paced-players", type=int, default=200, help="paced players (200)")
    parser.add_argument("--interval", type=float, default=0.5,
                        help="seconds between a paced player's clicks (0.5)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each phase (5)")
    parser.add_argument("--game", choices=["all", *sorted(GAMES)], default="all",
                        help="the game players play (all: each player picks at random)")
    parser.add_argument("--dir", default=None, help="where to create the temporary database files")
    parser.add_argument("--quick", action="store_true",
                        help="5 and 20 players for 0.5 s: checks that the bench runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.paced_players, args.seconds = 5, 20, 0.5
    return args


if __name__ == "__main__":
    asyncio.run(main(parse()))
