"""Par, hints and turning points: what a player or the par loop waits for, measured through
the core's worker processes (``core.workers``), exactly as the bot runs them.

- **A day's par:** every game and variant of one day's deals solved one after the other in the
  ``background`` worker with the bot's node budget (``core.par.par_budget``): seconds per
  deal (the worker's CPU time), exact or a lower bound, and the whole day's wall-clock time;
  with ``--days 300``, 300 days' deals, and per game and variant the share exact within 2 s,
  10 s and the budget (one run: the shares are read off each deal's recorded time) and the
  median CPU seconds to an exact par (a par left a bound counts as infinite). ``--games``
  restricts the games solved (the other sections still run every game).
- **Hint latency:** ``--hints`` hints on random mid-game practice positions, each timed from the
  call to the answer (the hop to the ``interactive`` worker included), at the bot's budget
  (``core.hints.HINT_BUDGET``): p50, p95 and max, and per game the worker's CPU seconds per
  hint (p50, p95); the worker's start-up is timed apart. Target: p95 under a second.
- **Turning points:** one random-play run per game, ``best_along`` at the bot's budget per step
  (``core.replays.TURN_BUDGET_PER_STEP``): seconds and moves (the first /replay of a run waits
  this long, deferred).

Run: ``.venv/bin/python -m bench.pars`` (a few minutes), ``--quick`` for seconds (tiny budgets:
the same code paths, figures that mean little).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import time
from datetime import date, timedelta
from typing import Any

from bench._in_worker import timed_hint
from core.hints import HINT_BUDGET, HINT_SAMPLES
from core.par import par_budget, solve_deal
from core.replays import TURN_BUDGET_PER_STEP, compute_turn
from core.workers import BACKGROUND, INTERACTIVE, Workers
from rules import GAMES
from rules.deal import daily_seed

HINT_TARGET = 1.0  # seconds


def midgame(key: str, rng: random.Random) -> Any:
    """A random practice position a few moves in, with a choice to make."""
    game = GAMES[key]
    while True:
        state = game.new(rng.getrandbits(64))
        for _ in range(rng.randrange(2, 12)):
            legal = game.actions(state)
            after = game.apply(state, rng.choice(legal))
            if game.is_over(after):
                break
            state = after
        if len(game.actions(state)) > 1:
            return state


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def random_run(key: str, rng: random.Random) -> tuple[int, list[str]]:
    game = GAMES[key]
    seed = rng.getrandbits(64)
    state, actions = game.new(seed), []
    while not game.is_over(state):
        action = rng.choice(game.actions(state))
        actions.append(action)
        state = game.apply(state, action)
    return seed, actions


async def main_async(args: argparse.Namespace) -> int:
    quick = args.quick
    hint_budget = 1_500 if quick else HINT_BUDGET
    turn_budget = 100 if quick else TURN_BUDGET_PER_STEP
    hints = 3 if quick else args.hints
    rng = random.Random(args.seed)
    workers = Workers()
    try:
        start = time.perf_counter()
        await workers.run(INTERACTIVE, abs, 0)
        await workers.run(BACKGROUND, abs, 0)
        print(f"worker processes started in {time.perf_counter() - start:.2f} s (spawn)")

        days = 1 if quick else args.days
        first = date.fromisoformat(args.day)
        budgets = {key: 3_000 if quick else par_budget(key) for key in GAMES}
        shown = ", ".join(f"{key} {budget:,}" for key, budget in budgets.items())
        print(f"\nA day's par (nodes a deal: {shown}), {days} day(s) from {args.day}:")
        solved = args.games or list(GAMES)
        secret = f"bench-{args.seed}"
        exact_in: dict[tuple[str, str], list[float]] = {}  # CPU s to exact, inf if a bound
        for n in range(days):
            day = (first + timedelta(days=n)).isoformat()
            day_start = time.perf_counter()
            for key, game in GAMES.items():
                if key not in solved:
                    continue
                for variant in game.variants:
                    seed = daily_seed(secret, key, variant, day)
                    found = await workers.run(
                        BACKGROUND, solve_deal, key, variant, seed, budgets[key]
                    )
                    exact_in.setdefault((key, variant), []).append(
                        found["seconds"] if found["exact"] else math.inf
                    )
                    if days == 1 or args.verbose:
                        kind = "exact" if found["exact"] else "bound"
                        print(f"  {day} {key:<7} {variant:<9} {found['seconds']:>6.1f} s  "
                              f"{kind:<5} {found['nodes']:>8,} nodes  {found['text']}")
            if days == 1:
                print(f"  the whole day: {time.perf_counter() - day_start:.1f} s wall-clock")
        print(f"  exact within     {'≤2 s':>6} {'≤10 s':>6} {'budget':>6} {'median s':>9}"
              f"  (of {days} deals)")
        for (key, variant), times in exact_in.items():
            shares = [sum(t <= limit for t in times) / len(times) for limit in (2, 10)]
            median = statistics.median(times)
            shown = f"{median:>9.2f}" if median < math.inf else f"{'—':>9}"
            print(f"  {key:<9} {variant:<9} "
                  + " ".join(f"{share:>6.0%}" for share in shares)
                  + f" {sum(t < math.inf for t in times) / len(times):>6.1%} {shown}")

        print(f"\nHints ({hint_budget:,} nodes, {HINT_SAMPLES} sampled deals), {hints} positions:")
        times: list[float] = []
        cpu: dict[str, list[float]] = {}
        keys = list(GAMES)
        for i in range(hints):
            key = keys[i % len(keys)]
            state = midgame(key, rng)
            dump = GAMES[key].dump(state)
            start = time.perf_counter()
            found, seconds = await workers.run(INTERACTIVE, timed_hint, key, dump,
                                               f"bench:{i}", hint_budget, HINT_SAMPLES)
            times.append(time.perf_counter() - start)
            cpu.setdefault(key, []).append(seconds)
            if args.verbose:
                print(f"  {key}: {times[-1]:.2f} s  {found.action}: {found.reason}")
        p95 = percentile(times, 0.95)
        verdict = "met" if p95 < HINT_TARGET else "missed"
        print(f"  wall p50 {statistics.median(times):.2f} s · p95 {p95:.2f} s · "
              f"max {max(times):.2f} s  (target p95 under {HINT_TARGET:.0f} s: {verdict})")
        for key, spent in cpu.items():
            print(f"  {key:<9} CPU p50 {statistics.median(spent):.2f} s · "
                  f"p95 {percentile(spent, 0.95):.2f} s  ({len(spent)} hints)")

        print(f"\nTurning points ({turn_budget:,} nodes a step), one random run a game:")
        for key in GAMES:
            seed, actions = random_run(key, rng)
            start = time.perf_counter()
            step, text, nodes = await workers.run(
                INTERACTIVE, compute_turn, key, None, seed, None, actions, turn_budget
            )
            print(f"  {key:<7} {len(actions):>3} moves  {time.perf_counter() - start:>5.1f} s  "
                  f"{nodes:>8,} nodes  move {step}: {text}")
    finally:
        workers.close()
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny budgets: seconds in all")
    parser.add_argument("--hints", type=int, default=30, help="hint positions timed (30)")
    parser.add_argument("--day", default="2026-12-01", help="the first day solved")
    parser.add_argument("--days", type=int, default=1,
                        help="days solved from --day (1; 300 for the share exact per game)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the positions")
    parser.add_argument("--games", nargs="*", choices=list(GAMES), default=None,
                        help="the games whose pars are solved (every game)")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per hint")
    args = parser.parse_args()
    raise SystemExit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
