"""The bridge to each game's compiled search, ``rules/<game>/_native.c`` (docs/solver.md).

A game with a native search gives its strategy a ``native`` attribute (:class:`Glue`): the
name of its extension module, how a state is handed to C (``encode``), how the C side's
line of moves reads as the engine's actions (``actions``), and how many of its nodes one
node of a caller's budget buys (``scale``: a native node costs far less than a Python one,
and callers keep their budgets in the reference search's nodes).

Every extension module exposes the same three functions:

- ``search(encoded, budget, seed) -> (score, exact, nodes, line)``: the best final score
  (a tuple of ints, as the engine scores), whether the search finished (the score is then
  exact), the nodes it visited, and the line of moves (ints) that reaches the score;
  ``budget`` is in the module's own nodes (``-1``: none), ``seed`` seeds its probing dives
  (the same arguments give the same answer on every process);
- ``moves(encoded) -> list[int]``: the legal moves of a state, in the engine's order or not;
- ``play(encoded, move) -> encoded``: the state after one move, in the same encoding.

The last two are the debug entry points the tests compare, step by step, with the Python
engine (:func:`compare_step`). The Python engine stays the truth: :func:`search` replays the
C line through it and raises :class:`NativeMismatch` unless it ends the game at exactly the
score the C side claims; a wrong par is never returned.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import Any, Protocol

from rules import find_game, plugin
from rules.search import Outcome

#: The seed of every native search's probing dives (a fixed one: the same answer everywhere).
SEED = 0x5EED


class Glue(Protocol):
    """What a game's strategy says of its native search (its ``native`` attribute)."""

    module: str  # the extension module's dotted name: "rules.clear._native"
    scale: int  # native nodes per node of a caller's budget

    def encode(self, state: Any) -> Any:
        """``state`` as the C side reads it (plain tuples of ints); the same state always
        encodes the same."""
        ...

    def actions(self, state: Any, line: Sequence[int]) -> list[str]:
        """The C side's ``line`` of moves from ``state`` as the engine's actions."""
        ...


class NativeMismatch(AssertionError):
    """The C side's answer does not replay through the Python engine to what it claims."""


def glue(game_key: str) -> Glue | None:
    """The game's native glue, or None when it has no native search."""
    return getattr(plugin(game_key).strategy, "native", None)


@cache
def module(game_key: str) -> ModuleType | None:
    """The game's built extension module, or None (no native search, or not built)."""
    found = glue(game_key)
    if found is None:
        return None
    try:
        return importlib.import_module(found.module)
    except ImportError:
        return None


def available(game_key: str) -> bool:
    """Whether ``game_key`` has a native search and it is built."""
    return module(game_key) is not None


def search(game_key: str, state: Any, budget_nodes: int | None) -> Outcome:
    """The native search from ``state``: like :meth:`rules.search.Search.run`, its line
    replayed through the engine. ``budget_nodes`` is in the reference search's nodes (None:
    no budget). Raises ``RuntimeError`` when the game's native search is not built, and
    :class:`NativeMismatch` when its answer does not replay."""
    return search_to_end(game_key, state, budget_nodes)[0]


def search_to_end(game_key: str, state: Any, budget_nodes: int | None) -> tuple[Outcome, Any]:
    """:func:`search`, and the final state its line replays to (for a caller that would
    otherwise replay the line again: a hint, thousands of searches a minute)."""
    found = glue(game_key)
    native = module(game_key)
    if found is None or native is None:
        raise RuntimeError(f"{game_key}: no native search is built (pip install -e .)")
    budget = -1 if budget_nodes is None else max(0, budget_nodes) * found.scale
    score, exact, nodes, line = native.search(found.encode(state), budget, SEED)
    actions = found.actions(state, line)
    final = _replayed(game_key, state, actions, tuple(score))
    return Outcome(tuple(score), actions, bool(exact), int(nodes)), final


def budget_for(game_key: str, nodes: int, scale: int) -> int:
    """The budget, in the reference search's nodes (as callers pass it), that buys a native
    search ``nodes * scale`` of its own nodes (rounded up) rather than the glue's ``nodes *
    glue.scale``: for callers that want fewer native nodes than a par (a hint, a turning
    point). ``nodes`` itself when the game has no native search built (the reference
    search runs and its nodes are the budget)."""
    found = glue(game_key)
    if found is None or not available(game_key):
        return nodes
    return max(1, -(-nodes * scale // found.scale))


def _replayed(game_key: str, state: Any, actions: list[str], claimed: tuple[int, ...]) -> Any:
    """Apply ``actions`` from ``state`` through the engine (``apply`` checks each one is
    legal); the game must end there at exactly ``claimed``. Returns that final state."""
    game = find_game(game_key)
    final = state
    try:
        for action in actions:
            final = game.apply(final, action)
    except Exception as error:
        raise NativeMismatch(f"{game_key} native search: its line does not replay ({error})") \
            from error
    if final.outcome is None or tuple(game.score(final)) != claimed:
        raise NativeMismatch(
            f"{game_key} native search: its line replays to {game.score(final)} "
            f"({final.outcome}), not the claimed {list(claimed)}"
        )
    return final


def compare_step(game_key: str, state: Any) -> list[str]:
    """Where the C move generator disagrees with the engine at ``state``: the engine's legal
    actions against the C side's (as sets), and each move's next state against the engine's
    (through ``encode``). An empty list when they agree (the tests' debug check)."""
    found = glue(game_key)
    native = module(game_key)
    if found is None or native is None:
        raise RuntimeError(f"{game_key}: no native search is built")
    game = find_game(game_key)
    encoded = found.encode(state)
    moves = list(native.moves(encoded))
    named = {found.actions(state, [m])[0]: m for m in moves}
    legal = set(game.actions(state))
    problems = []
    if set(named) != legal or len(named) != len(moves):
        problems.append(f"legal moves: engine {sorted(legal)}, native {sorted(named)}")
    for action, move in named.items():
        if action not in legal:
            continue
        after = found.encode(game.apply(state, action))
        native_after = native.play(encoded, move)
        if native_after != after:
            problems.append(f"after {action}: engine {after}, native {native_after}")
    return problems


__all__ = ["SEED", "Glue", "NativeMismatch", "available", "budget_for", "compare_step", "glue",
           "module", "search", "search_to_end"]
