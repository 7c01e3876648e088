"""Table pictures: time to draw one table per game, and the cache's hit rate.

For each game, plays random games (seeded), then draws the table of every state they went
through, uncached, on one core, and prints the mean, p50 and p99 render time with the PNG
sizes. Then replays the traffic of a bot through one ``TableCache``: players who each deal
their own practice game, and players who all play the same daily deal, and prints the hit
rate of each. Run: ``.venv/bin/python -m bench.pictures`` (``--quick``: seconds).
Target: a table under 15 ms to draw.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from bot.pictures.table import TableCache, render_table, warm_up
from rules import GAMES

TARGET_MS = 15.0


def states(
    key: str, games: int, rng: random.Random, seed: int | None = None
) -> list[tuple[dict[str, Any], str | None]]:
    """(view, last action) of every state of ``games`` random games (one deal if ``seed``)."""
    game = GAMES[key]
    out: list[tuple[dict[str, Any], str | None]] = []
    for _ in range(games):
        state = game.new(rng.getrandbits(64) if seed is None else seed)
        out.append((game.view(state), None))
        while legal := game.actions(state):
            action = rng.choice(legal)
            state = game.apply(state, action)
            out.append((game.view(state), action))
    return out


def percentile(sorted_values: list[float], p: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(p / 100 * len(sorted_values)))]


def time_renders(key: str, games: int, rng: random.Random) -> None:
    drawn = states(key, games, rng)
    warm_up()  # the card images and fonts, as a running bot has them
    render_table(*drawn[0])
    times, cpu, sizes = [], [], []
    for view, action in drawn:
        t0, c0 = time.perf_counter(), time.thread_time()
        data = render_table(view, action)
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        sizes.append(len(data))
    times.sort()
    cpu.sort()
    verdict = "ok" if percentile(times, 50) < TARGET_MS else "SLOWER THAN TARGET"
    # CPU time is the same on a busy machine; wall time is what a click waits.
    print(
        f"{key:7} {len(times):5} tables  wall mean {statistics.fmean(times):5.1f} ms  "
        f"p50 {percentile(times, 50):5.1f}  p99 {percentile(times, 99):5.1f}  "
        f"max {times[-1]:5.1f}   CPU p50 {percentile(cpu, 50):5.1f}  "
        f"p99 {percentile(cpu, 99):5.1f} ms   "
        f"PNG mean {statistics.fmean(sizes) / 1024:4.1f} KB  max {max(sizes) / 1024:4.1f} KB"
        f"   [{verdict}: target {TARGET_MS:.0f} ms]"
    )


def hit_rate(players: int, daily: bool, rng: random.Random) -> tuple[float, int]:
    """Every click of ``players`` (each a random game of a random game kind) asks the cache
    for its board's picture; daily players of a game share one deal."""
    cache = TableCache(size=256)
    day_seed = rng.getrandbits(64)
    for _ in range(players):
        key = rng.choice(list(GAMES))
        for view, action in states(key, 1, rng, seed=day_seed if daily else None):
            cache.render(view, action)
    asked = cache.hits + cache.misses
    return cache.hits / asked, asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games, to check it runs")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    rng = random.Random(20261130)
    games = 2 if args.quick else 30
    for key in GAMES:
        time_renders(key, games, rng)
    players = 6 if args.quick else 60
    for daily in (False, True):
        rate, asked = hit_rate(players, daily, rng)
        kind = "daily deal (all share it)" if daily else "practice (own deals)"
        print(f"cache hit rate, {players} players, {kind:26}: {rate:6.1%} of {asked} pictures")


if __name__ == "__main__":
    main()
