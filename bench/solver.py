"""Solver benchmark: how many random deals each game's solver settles exactly, and how fast.

For each game, solves ``--deals`` random deals (seeds from ``--seed``) one after the other on
one core, each with a deadline of ``--budget`` seconds of this process's CPU time (so that a
busy machine does not distort the figures), records each deal's time to an exact answer, and
prints per game: the median time to an answer (a deal not settled counts as the whole
budget), the share solved exactly within 2 s, within 10 s and within the budget (one run:
the shares are read off the recorded times), the share proven winnable, and nodes per
second. The targets: the median deal solved exactly in under 2 s, and 99% of deals exact
within the budget. ``--nodes N`` solves each deal with a budget of ``N`` nodes instead, as
the par pass does (``core.par.PAR_BUDGET_NODES``): the share exact in budget is then the
par's, the same on every machine.

Run: ``.venv/bin/python -m bench.solver`` (300 deals a game, 60 s each: hours; pass
``--deals`` and ``--budget`` to shorten), ``--quick`` for a few seconds in all, ``-v`` for
one line a deal.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from rules import GAMES
from rules.solver import solve

TARGET_MEDIAN = 2.0  # seconds
TARGET_EXACT = 0.99  # share of deals exact within the budget
WITHIN = (2.0, 10.0)  # seconds: the shares exact within these are reported too


def bench_game(
    key: str, variant: str | None, deals: int, budget: float, rng: random.Random, verbose: bool,
    nodes_budget: int | None = None,
) -> dict[str, float]:
    exact_in: list[float] = []  # per deal: CPU seconds to an exact answer, inf if none
    spent_on: list[float] = []  # per deal: CPU seconds, exact or not
    won = nodes = 0
    spent = 0.0
    for n in range(deals):
        seed = rng.getrandbits(64)
        start = time.process_time()
        if nodes_budget is None:
            found = solve(key, seed, variant, deadline=start + budget, clock=time.process_time)
        else:  # as the par pass solves: a node budget, the same answer on every machine
            found = solve(key, seed, variant, budget_nodes=nodes_budget)
        took = time.process_time() - start
        spent += took
        exact_in.append(took if found.exact else math.inf)
        spent_on.append(took)
        won += found.won
        nodes += found.nodes
        if verbose:
            status = "exact" if found.exact else "bound"
            print(f"  {key} #{n + 1} seed {seed}: {found.text} ({status}, {took:.1f} s, "
                  f"{found.nodes} nodes)", flush=True)
    row = {
        # a deal not settled counts as the whole budget (a node budget: the time it took)
        "median": statistics.median(
            min(t, budget) if budget < math.inf else spent for t, spent in zip(
                exact_in, spent_on, strict=True)
        ),
        "exact": sum(t < math.inf for t in exact_in) / deals,
        "won": won / deals,
        "rate": nodes / spent if spent else 0.0,
    }
    for limit in WITHIN:
        row[f"within {limit:g}"] = sum(t <= limit for t in exact_in) / deals
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", choices=[*GAMES, []], help="games to measure (all)")
    parser.add_argument("--deals", type=int, default=300, help="random deals per game (300)")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per deal (60)")
    parser.add_argument("--variant", help="the variant (default: each game's first)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals' seeds")
    parser.add_argument("--nodes", type=int, default=None,
                        help="a node budget per deal instead of --budget seconds (the par "
                             "pass's way: core.par.PAR_BUDGET_NODES)")
    parser.add_argument("--quick", action="store_true", help="3 deals a game, 1 s each")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    deals, budget = (3, 1.0) if args.quick else (args.deals, args.budget)
    if args.nodes is not None:
        budget = math.inf
        print(f"{deals} deals a game, at most {args.nodes:,} nodes each, one core (CPU time)")
    else:
        print(f"{deals} deals a game, at most {budget:g} s each, one core (CPU time)")
    within = " ".join(f"{f'≤{limit:g} s':>7}" for limit in WITHIN if limit < budget)
    print(f"{'game':<8} {'median s':>9} {within} {'in budget':>9} {'winnable':>9} "
          f"{'nodes/s':>8}  target")
    for key in args.games or list(GAMES):
        row = bench_game(key, args.variant, deals, budget, random.Random(args.seed),
                         args.verbose, args.nodes)
        ok = row["median"] < TARGET_MEDIAN and row["exact"] >= TARGET_EXACT
        shares = " ".join(
            f"{row[f'within {limit:g}']:>7.0%}" for limit in WITHIN if limit < budget
        )
        print(f"{key:<8} {row['median']:>9.2f} {shares} {row['exact']:>9.0%} "
              f"{row['won']:>9.0%} {row['rate']:>8.0f}  {'met' if ok else 'missed'}",
              flush=True)

if __name__ == "__main__":
    main()
