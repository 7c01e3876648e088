"""Hints: a good move chosen only from what the player can know, with a few words of why.

The player sees the table and can count the cards not yet seen, but not their order. A hint
samples ``samples`` worlds — the same visible position with the unseen cards in a random
order (the game's ``hints.sample_world``) — then scores every legal action in each world with
the solver (a small node budget each, so a line found rather than proven) and picks the action
with the best mean score (the game's ``hints.utility``). Every action is scored in the same
worlds (common random numbers). Ties, common when a small search finds the same end either
way, go to the action whose next state scores best now (its mean ``utility`` of the engine's
score right after it: more HP kept, a monster slain), then to the earlier in the engine's
order. What is hidden, and how a world replaces it, each game's ``hints`` module says.

Before any search, a game's model may set aside the moves an obviously better move dominates
(its optional ``dominated(state, legal)``: each move returned is worse than another legal
move, whatever the hidden cards, such as drinking a potion for nothing when fighting first
would let it heal). They are never suggested, and their share of the budget goes to the rest.

Nothing here reads the hidden order: a world is built from the state's visible fields, the
sorted hidden cards and ``rng``. The same visible position and the same ``rng`` state give
the same hint, whatever the hidden order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules import find_game, native, plugin
from rules.solver import Table, best_from
from rules.words import N_, Phrase

#: Nodes for one hint, shared by every (world, action) pair: about a second on one core.
DEFAULT_BUDGET = 12_000
DEFAULT_SAMPLES = 8
#: Native nodes a hint's budget node buys, for a game with a native search: far fewer than a
#: par's (the glue's ``scale``, 35-50), still 5x the nodes the reference search visited for
#: the same budget before the native searches, in a tenth of the time (README, bench/hints_load.py).
HINT_NATIVE_SCALE = 5
_MIN_NODES = 50  # per (world, action): below this a search is little more than its first dive


@dataclass(frozen=True)
class Hint:
    """A suggested action, one short reason, and how it fared in the sampled worlds."""

    action: str
    reason: str
    wins: int  # sampled worlds in which this action's best line wins
    samples: int


def hint(
    game_key: str,
    state: Any,
    *,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    samples: int = DEFAULT_SAMPLES,
) -> Hint:
    """A good action for ``state`` and why, from what its player can know.

    ``budget`` is the total number of search nodes (the time it takes grows with it).
    Raises ``ValueError`` for a finished game.
    """
    game = find_game(game_key)
    model = plugin(game_key).hints
    legal = game.actions(state)
    if not legal:
        raise ValueError("the game is over: there is nothing left to hint")
    worlds = [sample_world(game_key, state, rng) for _ in range(max(1, samples))]
    if len(legal) == 1:
        return Hint(legal[0], Phrase(N_("the only move")), 0, len(worlds))
    legal = undominated(game_key, state, legal)
    if len(legal) == 1:
        action = legal[0]
        return Hint(action, model.reason(state, action, worlds[0]), 0, len(worlds))
    per_search = native.budget_for(game_key, max(_MIN_NODES, budget // (len(worlds) * len(legal))),
                                   HINT_NATIVE_SCALE)
    totals = [0.0] * len(legal)
    now = [0.0] * len(legal)  # the tie-break: the score right after the move
    wins = [0] * len(legal)
    fast = native.available(game_key)
    for world in worlds:
        table: Table = {}
        for i, action in enumerate(legal):
            child = game.apply(world, action)
            if fast and not game.is_over(child):
                # best_from's native search, its line replayed once (best_from replays it
                # twice more: a third of a Clear hint's time).
                outcome, final = native.search_to_end(game_key, child, per_search)
                score, won = list(outcome.score), game.is_win(final.outcome)
            else:
                found = best_from(game_key, child, budget_nodes=per_search, table=table)
                score, won = found.score, found.won
            totals[i] += model.utility(score)
            now[i] += model.utility(game.score(child))
            wins[i] += won
    best = max(range(len(legal)), key=lambda i: (totals[i], now[i], -i))
    action = legal[best]
    reason = model.reason(state, action, worlds[0])
    if wins[best]:
        reason = Phrase(N_("{reason} (wins in {wins} of {samples} sampled deals)"),
                        reason=reason, wins=wins[best], samples=len(worlds))
    return Hint(action, reason, wins[best], len(worlds))


def undominated(game_key: str, state: Any, legal: list[str]) -> list[str]:
    """``legal`` without the moves the game's model says an obviously better move dominates
    (in the engine's order; never empty: a model that would drop every move is ignored)."""
    dominated = getattr(plugin(game_key).hints, "dominated", None)
    if dominated is None:
        return legal
    worse = set(dominated(state, legal))
    kept = [a for a in legal if a not in worse]
    return kept or legal


def sample_world(game_key: str, state: Any, rng: random.Random) -> Any:
    """``state`` with its hidden cards in a random order drawn from ``rng`` (see the module
    docstring for what is hidden in each game)."""
    return plugin(game_key).hints.sample_world(state, rng)
