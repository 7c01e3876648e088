"""Solver benchmark: how many random deals each game's solver settles exactly, and how fast.

For each game, solves ``--deals`` random deals (seeds from ``--seed``) one after the other on
one core, each with a deadline of ``--budget`` seconds of this process's CPU time (so that a
busy machine does not distort the figures), and prints per game: the median time to an
answer (a deal not settled counts as the whole budget), the share solved exactly within the
budget, the share proven winnable, and nodes per second. The target: the median deal
solved exactly in under 10 s, and the share solved exactly within 60 s reported.

Run: ``.venv/bin/python -m bench.solver`` (100 deals a game, 60 s each: hours; pass
``--budget`` to shorten), ``--quick`` for a few seconds in all, ``-v`` for one line a deal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rules import GAMES
from rules.solver import solve

TARGET_MEDIAN = 10.0  # seconds


def bench_game(
    key: str, variant: str | None, deals: int, budget: float, rng: random.Random, verbose: bool
) -> dict[str, float]:
    times: list[float] = []
    exact = won = nodes = 0
    for n in range(deals):
        seed = rng.getrandbits(64)
        start = time.process_time()
        found = solve(key, seed, variant, deadline=start + budget, clock=time.process_time)
        took = time.process_time() - start
        times.append(took if found.exact else budget)
        exact += found.exact
        won += found.won
        nodes += found.nodes
        if verbose:
            status = "exact" if found.exact else "bound"
            print(f"  {key} #{n + 1} seed {seed}: {found.text} ({status}, {took:.1f} s, "
                  f"{found.nodes} nodes)", flush=True)
    spent = sum(times)
    return {
        "median": statistics.median(times),
        "exact": exact / deals,
        "won": won / deals,
        "rate": nodes / spent if spent else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", choices=[*GAMES, []], help="games to measure (all)")
    parser.add_argument("--deals", type=int, default=100, help="random deals per game (100)")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per deal (60)")
    parser.add_argument("--variant", help="the variant (default: each game's first)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals' seeds")
    parser.add_argument("--quick", action="store_true", help="3 deals a game, 1 s each")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    deals, budget = (3, 1.0) if args.quick else (args.deals, args.budget)
    print(f"{deals} deals a game, at most {budget:g} s each, one core")
    print(f"{'game':<8} {'median s':>9} {'exact':>7} {'winnable':>9} {'nodes/s':>8}  target")
    for key in args.games or list(GAMES):
        row = bench_game(key, args.variant, deals, budget, random.Random(args.seed),
                         args.verbose)
        ok = row["median"] < TARGET_MEDIAN and row["exact"] >= 0.5
        print(f"{key:<8} {row['median']:>9.2f} {row['exact']:>7.0%} {row['won']:>9.0%} "
              f"{row['rate']:>8.0f}  {'met' if ok else 'missed'}", flush=True)


if __name__ == "__main__":
    main()
