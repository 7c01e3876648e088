"""Solvers: the best score a deal allows, with perfect information, and a line that reaches it.

Each game's solver runs over that game's engine (``GAMES[key].actions``/``apply``/``score``):
no rule is written twice. The search is :mod:`rules.search`; each game's plug-in adds its
strategy: a key, an upper bound and a move order (``rules/<key>/solver.py``)::

    from rules.solver import solve
    best = solve("donsol", seed)          # Solution(score, won, exact, actions, nodes, text)
    best = solve("clear", seed, budget_nodes=200_000)
    best = solve("tomb", seed, deadline=time.monotonic() + 10, clock=time.monotonic)

The budget is counted in nodes, or read on a clock the caller passes in with its deadline
(the rules stay free of any clock). A search cut short returns the best line it found, as a
lower bound (``exact`` False, the text starting "at least"). Every answer's line is replayed
through the engine before it is returned, and must reach the answer's score.

A game with a compiled search (``rules/<game>/_native.c``, :mod:`rules.native`) is solved by
it whenever it is built (``native=None``); ``native=False`` runs the pure Python search, the
reference the native one is tested against, and ``native=True`` insists on the native one.
Budgets stay in the reference search's nodes: a native search gets ``scale`` of its own
nodes for each (its glue says how many). A native search under a deadline runs with a
doubling node budget until it is exact or the deadline has passed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from rules import find_game, native, plugin
from rules import replay as replay_actions
from rules.search import Outcome, Score, Search
from rules.words import N_, Phrase

#: A table of proven upper bounds, one per deal: pass the same one to every search of a deal.
Table = dict[Hashable, Score]


@dataclass(frozen=True)
class Solution:
    """The best line a search found from a state (or a deal), and how sure it is.

    ``won``: the line wins. ``exact``: no line does better (the search finished); otherwise
    ``score`` is a lower bound. ``actions`` reach ``score`` from where the search started.
    ``text`` says it in words: the game's ``score_text`` when exact, else "at least …".
    """

    game: str
    score: list[int]
    won: bool
    exact: bool
    actions: list[str]
    nodes: int
    text: str

    @property
    def winnable(self) -> bool | None:
        """Whether a win exists from here: None when the search was cut short without one."""
        if self.won:
            return True
        return False if self.exact else None


def solve(
    game_key: str,
    seed: int,
    variant: str | None = None,
    deck: Sequence[str] | None = None,
    *,
    budget_nodes: int | None = None,
    deadline: float | None = None,
    clock: Callable[[], float] | None = None,
    table: Table | None = None,
    native: bool | None = None,
) -> Solution:
    """The best score of a deal (``game.new(seed, variant, deck)``) and a line reaching it.

    Raises ``ValueError`` for an unknown game, variant, bad seed or deck.
    """
    game = find_game(game_key)
    start = game.new(seed, variant, deck)
    solution = _search(game_key, start, budget_nodes, deadline, clock, table, native)
    final = replay_actions(game_key, variant, seed, solution.actions, deck)
    _check(game, final, solution)
    return solution


def best_from(
    game_key: str,
    state: Any,
    *,
    budget_nodes: int | None = None,
    deadline: float | None = None,
    clock: Callable[[], float] | None = None,
    table: Table | None = None,
    native: bool | None = None,
) -> Solution:
    """The best score reachable from ``state`` (perfect information: it sees the hidden
    cards) and a line from ``state`` that reaches it. A finished state is its own answer."""
    game = find_game(game_key)
    solution = _search(game_key, state, budget_nodes, deadline, clock, table, native)
    final = state
    for action in solution.actions:
        final = game.apply(final, action)
    _check(game, final, solution)
    return solution


def best_along(
    game_key: str,
    variant: str | None,
    seed: int,
    actions: Sequence[str],
    deck: Sequence[str] | None = None,
    *,
    budget_nodes_per_step: int | None = None,
    native: bool | None = None,
) -> list[Solution]:
    """``best_from`` at every step of a transcript: element ``i`` is the best reachable before
    action ``i`` (the last one: after the last action). The steps share one table, and a
    step's lower bound is never below the next step's (that line, one move on, is reachable).

    Raises ``IllegalAction`` when the transcript does not replay.
    """
    game = find_game(game_key)
    table: Table = {}
    state = game.new(seed, variant, deck)
    states = [state]
    for action in actions:
        state = game.apply(state, action)
        states.append(state)
    # From the end backwards: later states are smaller and fill the table for earlier ones.
    found: list[Solution] = []
    for i in range(len(states) - 1, -1, -1):
        here = best_from(game_key, states[i], budget_nodes=budget_nodes_per_step, table=table,
                         native=native)
        if found and here.score < found[-1].score:
            # A search cut short found less than the next step's line, one move on: that
            # line, behind this step's move, is a better lower bound.
            later = found[-1]
            here = Solution(
                game=game_key, score=later.score, won=later.won, exact=False,
                actions=[actions[i], *later.actions], nodes=here.nodes,
                text=plugin(game_key).strategy.bound_text(tuple(later.score)),
            )
        found.append(here)
    return found[::-1]


def turning_point(bests: Sequence[Solution]) -> int | None:
    """The index of the action after which the best reachable score dropped the most
    (``bests`` as :func:`best_along` returns them), or None when it never dropped.

    Drops are compared like scores: losing the win (the first component) outweighs any
    loss in the later ones.
    """
    worst: tuple[int, ...] | None = None
    where = None
    for i in range(len(bests) - 1):
        before, after = bests[i].score, bests[i + 1].score
        drop = tuple(b - a for b, a in zip(before, after, strict=True))
        if drop > (0,) * len(drop) and (worst is None or drop > worst):
            worst, where = drop, i
    return where


def turning_text(action: str, before: Solution, after: Solution) -> str:
    """What a turning point cost, in a sentence: ``before`` and ``after`` are the best
    reachable scores around ``action`` (two neighbours from :func:`best_along`); pass the
    action as the player reads it (a button label, say)."""
    if before.won and not after.won:
        if after.exact:
            return Phrase(N_("Here the deal was still winnable; after “{action}” it was not."),
                          action=action)
        return Phrase(N_("Here the deal was still winnable; after “{action}” no win was found."),
                      action=action)
    return Phrase(N_("After “{action}” the best reachable fell from {before} to {after}."),
                  action=action, before=before.text, after=after.text)


def _search(
    game_key: str,
    state: Any,
    budget_nodes: int | None,
    deadline: float | None,
    clock: Callable[[], float] | None,
    table: Table | None,
    use_native: bool | None = None,
) -> Solution:
    game = find_game(game_key)
    strategy = plugin(game_key).strategy
    if use_native is None:
        use_native = native.available(game_key)
    if use_native:
        found = _native_search(game_key, state, budget_nodes, deadline, clock)
    else:
        found = Search(
            game, strategy, budget_nodes=budget_nodes, deadline=deadline, clock=clock,
            table=table,
        ).run(state)
    final = state
    for action in found.actions:
        final = game._apply(final, action)
    text = game.score_text(final) if found.exact else strategy.bound_text(found.score)
    return Solution(
        game=game_key,
        score=list(found.score),
        won=game.is_win(final.outcome),
        exact=found.exact,
        actions=found.actions,
        nodes=found.nodes,
        text=text,
    )


def _native_search(
    game_key: str,
    state: Any,
    budget_nodes: int | None,
    deadline: float | None,
    clock: Callable[[], float] | None,
) -> Outcome:
    """The native search (its line already replayed by :func:`rules.native.search`); under a
    deadline, with a node budget doubled from :data:`_FIRST_ROUND` until the answer is exact,
    the deadline has passed or ``budget_nodes`` is reached."""
    if deadline is None:
        return native.search(game_key, state, budget_nodes)
    if clock is None:
        raise ValueError("a deadline needs the clock it is read on")
    nodes = _FIRST_ROUND
    spent = 0
    while True:
        if budget_nodes is not None:
            nodes = min(nodes, budget_nodes)
        found = native.search(game_key, state, nodes)
        spent += found.nodes
        if found.exact or clock() >= deadline or nodes == budget_nodes:
            return Outcome(found.score, found.actions, found.exact, spent)
        nodes *= 2


#: A native search under a deadline starts with this many (reference) nodes.
_FIRST_ROUND = 100


def _check(game: Any, final: Any, solution: Solution) -> None:
    """The line must replay, to the end of the game, to the score it claims."""
    if final.outcome is None or game.score(final) != solution.score:
        raise AssertionError(
            f"{game.key} solver: the line replays to {game.score(final)} "
            f"({final.outcome}), not the claimed {solution.score}"
        )


__all__ = [
    "Solution", "Table", "best_along", "best_from", "solve", "turning_point",
    "turning_text",
]
