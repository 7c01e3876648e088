"""Solver benchmark: how many random deals each game's solver settles exactly, and how fast.

For each game and variant, solves ``--deals`` random deals (seeds from ``--seed``) one after
the other on one core, as the par pass does: with the par's node budget
(``core.par.par_budget``, the same answer on every machine), through ``rules.solver.solve``
(the native search where the game has one built, ``--python`` for the pure Python
reference). It records each deal's CPU time (this process's, so that a busy machine does not
distort the figures) and whether the answer is exact, and prints per game and variant: the
median CPU seconds to an exact answer (a deal not settled counts as infinite: the median is
then "—" when half the deals are not), the share exact within 2 s, within 10 s and within
the budget (one run: the shares are read off the recorded times), the share proven
winnable, and nodes per second. The targets: the median deal exact in under 2 s, and 99% of
deals exact within the budget. ``--nodes N`` sets another node budget; ``--budget S`` gives
each deal a deadline of ``S`` CPU seconds instead of nodes.

Run: ``.venv/bin/python -m bench.solver`` (300 deals a game and variant at the par budget:
an hour or more; pass ``--deals``), ``--quick`` for a few seconds in all, ``-v`` for one
line a deal.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from core.par import par_budget
from rules import GAMES
from rules.solver import solve

TARGET_MEDIAN = 2.0  # seconds
TARGET_EXACT = 0.99  # share of deals exact within the budget
WITHIN = (2.0, 10.0)  # seconds: the shares exact within these are reported too


def bench_game(
    key: str, variant: str | None, deals: int, budget: float, rng: random.Random, verbose: bool,
    nodes_budget: int | None = None, python: bool = False,
) -> dict[str, float]:
    exact_in: list[float] = []  # per deal: CPU seconds to an exact answer, inf if none
    won = nodes = 0
    spent = 0.0
    use_native = False if python else None
    for n in range(deals):
        seed = rng.getrandbits(64)
        start = time.process_time()
        if nodes_budget is None:
            found = solve(key, seed, variant, deadline=start + budget, clock=time.process_time,
                          native=use_native)
        else:  # as the par pass solves: a node budget, the same answer on every machine
            found = solve(key, seed, variant, budget_nodes=nodes_budget, native=use_native)
        took = time.process_time() - start
        spent += took
        exact_in.append(took if found.exact else math.inf)
        won += found.won
        nodes += found.nodes
        if verbose:
            status = "exact" if found.exact else "bound"
            print(f"  {key} {variant} #{n + 1} seed {seed}: {found.text} ({status}, "
                  f"{took:.2f} s, {found.nodes} nodes)", flush=True)
    row = {
        "median": statistics.median(exact_in),  # a deal not settled: infinite
        "exact": sum(t < math.inf for t in exact_in) / deals,
        "won": won / deals,
        "rate": nodes / spent if spent else 0.0,
        "cpu": spent,
    }
    for limit in WITHIN:
        row[f"within {limit:g}"] = sum(t <= limit for t in exact_in) / deals
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", choices=[*GAMES, []], help="games to measure (all)")
    parser.add_argument("--deals", type=int, default=300,
                        help="random deals per game and variant (300)")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds of CPU per deal instead of the par's node budget")
    parser.add_argument("--variant", help="only this variant (default: every variant)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals' seeds")
    parser.add_argument("--nodes", type=int, default=None,
                        help="a node budget per deal (default: the par pass's, "
                             "core.par.par_budget)")
    parser.add_argument("--python", action="store_true",
                        help="the pure Python search, even where a native one is built")
    parser.add_argument("--quick", action="store_true", help="3 deals a game, small budgets")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    deals = 3 if args.quick else args.deals
    search = "Python reference search" if args.python else "native search where built"
    if args.budget is not None:
        print(f"{deals} deals a game and variant, at most {args.budget:g} s each, one core "
              f"(CPU time), {search}")
    else:
        print(f"{deals} deals a game and variant, the par's node budget unless --nodes, one "
              f"core (CPU time), {search}")
    within = " ".join(f"{f'≤{limit:g} s':>7}" for limit in WITHIN)
    print(f"{'game':<9} {'variant':<9} {'nodes':>11} {'median s':>9} {within} "
          f"{'in budget':>9} {'winnable':>9} {'nodes/s':>9} {'CPU s':>7}  target")
    for key in args.games or list(GAMES):
        variants = [args.variant] if args.variant else list(GAMES[key].variants)
        for variant in variants:
            if args.budget is not None:
                budget, nodes = args.budget, None
            else:
                budget = math.inf
                nodes = args.nodes if args.nodes is not None else par_budget(key)
                if args.quick:
                    nodes = min(nodes, 3_000)
            row = bench_game(key, variant, deals, budget, random.Random(args.seed),
                             args.verbose, nodes, args.python)
            ok = row["median"] < TARGET_MEDIAN and row["exact"] >= TARGET_EXACT
            shares = " ".join(f"{row[f'within {limit:g}']:>7.0%}" for limit in WITHIN)
            median = f"{row['median']:>9.2f}" if row["median"] < math.inf else f"{'—':>9}"
            shown = f"{nodes:>11,}" if nodes is not None else f"{f'{budget:g} s':>11}"
            print(f"{key:<9} {variant:<9} {shown} {median} {shares} {row['exact']:>9.1%} "
                  f"{row['won']:>9.0%} {row['rate']:>9.0f} {row['cpu']:>7.0f}  "
                  f"{'met' if ok else 'missed'}", flush=True)


if __name__ == "__main__":
    main()
