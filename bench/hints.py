"""Hint benchmark: practice deals played by taking every hint, against greedy play and the ceiling.

For each game, plays ``--deals`` random deals (seeds from ``--seed``; the same deals for every
policy) three ways, on one core:

- **hint**: every move is ``rules.hints.hint`` at ``--budget`` nodes and ``--samples`` sampled
  worlds, its random draws seeded by the deal and the move count (as the bot seeds them);
- **greedy**: one generic policy for every game, as blind as the hint: it samples one world
  of the hidden cards and takes the action whose resulting state there has the best engine
  score, then the best solver ``bound``, ties by the engine's order (no line per game here);
- **ceiling**: ``rules.solver.solve`` with every card known, ``--ceiling-budget`` nodes a deal
  (when the search is cut short its score is only a lower bound of the ceiling: the share
  solved exactly is printed).

It prints per game and policy the win rate and the mean score (each component of the engine's
score list), and the CPU time per hint (p50, p95: ``time.process_time``). Targets: hint play
wins at least as often as greedy play and scores higher on average (mean utility, the hint
model's ``utility``). The figures are printed with "met"/"missed"; nothing here fails on a
slow or noisy machine, only on an error.

Run: ``.venv/bin/python -m bench.hints`` (200 deals a game at the bot's budget: many hours;
``--deals 20 --budget 3000`` is minutes), ``--quick`` for a few seconds in all, ``-v`` for a
line a deal.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import rules.hints
from rules import GAMES, plugin
from rules.hints import DEFAULT_BUDGET, DEFAULT_SAMPLES, hint, sample_world
from rules.solver import solve

Policy = Callable[[str, Any, int], str]


@dataclass
class Tally:
    """How one policy did on a game's deals."""

    scores: list[list[int]] = field(default_factory=list)
    wins: int = 0
    exact: int = 0  # ceiling only: deals solved exactly
    cpu: list[float] = field(default_factory=list)  # hint only: seconds per hint


def greedy_action(key: str, state: Any, seed: int) -> str:
    """The generic greedy move: in one sampled world, the action whose next state has the best
    engine score, then the best solver bound; ties go to the earlier action."""
    game = GAMES[key]
    strategy = plugin(key).strategy
    legal = game.actions(state)
    if len(legal) == 1:
        return legal[0]
    world = sample_world(key, state, random.Random(f"greedy:{seed}:{state.moves}"))

    def worth(i: int) -> tuple[Any, ...]:
        child = game.apply(world, legal[i])
        return (tuple(game.score(child)), tuple(strategy.bound(child)), -i)

    return legal[max(range(len(legal)), key=worth)]


def play(key: str, seed: int, variant: str | None, choose: Callable[[Any], str]) -> Any:
    """The deal played to its end, each move ``choose(state)``."""
    game = GAMES[key]
    state = game.new(seed, variant)
    while game.actions(state):
        state = game.apply(state, choose(state))
    return state


def bench_game(
    key: str, variant: str | None, seeds: list[int], budget: int, samples: int,
    ceiling_budget: int, verbose: bool,
) -> dict[str, Tally]:
    game = GAMES[key]
    tallies = {"hint": Tally(), "greedy": Tally(), "ceiling": Tally()}

    def hinted(seed: int) -> Callable[[Any], str]:
        def choose(state: Any) -> str:
            legal = game.actions(state)
            if len(legal) == 1:  # no hint is asked for a forced move
                return legal[0]
            start = time.process_time()
            found = hint(key, state, rng=random.Random(f"hint:{seed}:{state.moves}"),
                         budget=budget, samples=samples)
            tallies["hint"].cpu.append(time.process_time() - start)
            return found.action
        return choose

    for n, seed in enumerate(seeds):
        line = []
        for name in ("hint", "greedy"):
            choose = hinted(seed) if name == "hint" else (
                lambda state, seed=seed: greedy_action(key, state, seed))
            final = play(key, seed, variant, choose)
            tallies[name].scores.append(game.score(final))
            tallies[name].wins += game.is_win(final.outcome)
            line.append(f"{name} {game.score_text(final)}")
        best = solve(key, seed, variant, budget_nodes=ceiling_budget)
        tallies["ceiling"].scores.append(best.score)
        tallies["ceiling"].wins += best.won
        tallies["ceiling"].exact += best.exact
        line.append(f"ceiling {best.text}")
        if verbose:
            print(f"  {key} #{n + 1} seed {seed}: " + " · ".join(line), flush=True)
    return tallies


def mean_score(scores: list[list[int]]) -> str:
    return "[" + ", ".join(f"{statistics.fmean(c):.1f}" for c in zip(*scores, strict=True)) + "]"


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", choices=[*GAMES, []], help="games to play (all)")
    parser.add_argument("--deals", type=int, default=200, help="deals per game (200)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET,
                        help=f"search nodes per hint ({DEFAULT_BUDGET:,}, the bot's)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=f"sampled worlds per hint ({DEFAULT_SAMPLES})")
    parser.add_argument("--native-scale", type=int, default=rules.hints.HINT_NATIVE_SCALE,
                        help="native nodes a hint's budget node buys, for a game with a "
                             f"native search ({rules.hints.HINT_NATIVE_SCALE}, the bot's; "
                             "50 or more: the par's scale, as before it had its own)")
    parser.add_argument("--ceiling-budget", type=int, default=200_000,
                        help="solver nodes per deal for the ceiling (200,000)")
    parser.add_argument("--variant", help="the variant (default: each game's first)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals' seeds")
    parser.add_argument("--quick", action="store_true",
                        help="2 deals a game, 300-node hints, 2 samples: seconds")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    rules.hints.HINT_NATIVE_SCALE = args.native_scale
    if args.quick:
        args.deals, args.budget, args.samples, args.ceiling_budget = 2, 300, 2, 2_000
    print(f"{args.deals} deals a game; hints {args.budget:,} nodes, {args.samples} samples; "
          f"native scale {args.native_scale}; ceiling {args.ceiling_budget:,} nodes a deal; "
          "one core")
    print(f"{'game':<8} {'policy':<8} {'wins':>6} {'mean score':>22}  notes")
    for key in args.games or list(GAMES):
        pick = random.Random(args.seed)
        seeds = [pick.getrandbits(64) for _ in range(args.deals)]
        tallies = bench_game(key, args.variant, seeds, args.budget, args.samples,
                             args.ceiling_budget, args.verbose)
        utility = plugin(key).hints.utility
        means = {name: statistics.fmean(utility(s) for s in t.scores)
                 for name, t in tallies.items()}
        for name, t in tallies.items():
            notes = ""
            if name == "hint":
                met = t.wins >= tallies["greedy"].wins and means["hint"] > means["greedy"]
                notes = (f"CPU per hint p50 {percentile(t.cpu, 0.5):.2f} s, "
                         f"p95 {percentile(t.cpu, 0.95):.2f} s, {len(t.cpu)} hints; "
                         f"beats greedy: {'met' if met else 'missed'}")
            elif name == "ceiling":
                notes = f"exact on {t.exact}/{len(t.scores)} (else a lower bound)"
            print(f"{key:<8} {name:<8} {t.wins / len(t.scores):>6.0%} "
                  f"{mean_score(t.scores):>22}  mean utility {means[name]:.2f}; {notes}",
                  flush=True)


if __name__ == "__main__":
    main()
