"""The generic perfect-information search every game's solver shares.

A depth-first branch and bound over the engine's own ``actions``/``apply``: the best final
score found so far (the incumbent, with its line) prunes every state whose upper bound cannot
beat it, and a table keyed on the state remembers a proven upper bound for each state already
searched, so a state reached again by another order of moves is not searched twice.

Scores are tuples compared lexicographically (the engines' ``score`` lists). A table entry
``key -> v`` means "no line from this state ends above ``v``"; that stays true whatever the
incumbent later becomes, so one table can serve several searches of the same deal (a replay's
every step, say). When the budget runs out, the incumbent is a lower bound and the search
says so.

The per-game part (:class:`Strategy`) supplies a key (what of the state matters for the rest of
the game), an upper bound, and the moves in a good order; it never re-implements a rule.
Optionally it adds a strength (dominance: a bound proven for a stronger state with the same
key holds for a weaker one) and randomised probing dives run before the systematic search.

Every search starts with one dive along the first moves (not counted in the budget), so that
even the smallest budget returns a whole line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

Score = tuple[int, ...]
_NOTHING: Score = ()  # below every score, negative ones included: () sorts before any tuple
_CLOCK_EVERY = 256  # nodes between two looks at the clock
TABLE_LIMIT = 3_000_000  # entries; beyond it the table starts over (memory, not correctness)
_ENTRIES_PER_KEY = 12  # with dominance: the strengths remembered for one key
_PATIENCE = 500  # probing dives in a row without a better line before the probing stops


class Strategy(Protocol):
    """What a game's solver adds to the engine: no rule, only knowledge about the search."""

    def key(self, state: Any) -> Hashable:
        """Everything about ``state`` the rest of the game and its final score depend on."""

    def bound(self, state: Any) -> Score:
        """A score no line from ``state`` can beat (cheap, the tighter the better)."""

    # Optional, for dominance: ``strength(state)``, a tuple of numbers left out of the key,
    # such that a state at least as strong in every component (same key) can do at least as
    # well. The table then keeps, per key, the bounds proven at several strengths.
    # Optional: ``probe = (dives, chance of passing over a move, share of the budget)``.

    def children(self, state: Any) -> Iterable[tuple[str, Any]]:
        """Every legal ``(action, next state)``, the most promising first (may be lazy: a
        search cut off early never builds the rest)."""

    def bound_text(self, score: Score) -> str:
        """A lower bound in a player's words: "at least …"."""


class OutOfBudget(Exception):
    """The node budget or the deadline ran out."""


@dataclass
class Outcome:
    """What one search found."""

    score: Score
    actions: list[str]
    exact: bool
    nodes: int


def _pick(moves: Iterator[tuple[str, Any]], rng: random.Random, skip: float) -> Any:
    """A probing dive's move: each move but the last is passed over with chance ``skip``.
    The moves are built only as far as the one taken and the one after it (``children`` is
    lazy, and building every child cost a dive step ten times a search node); the draws are
    the same as over the whole list, so the dives find the same lines."""
    here = next(moves, None)
    while here is not None:
        after = next(moves, None)
        if after is None or rng.random() >= skip:
            return here
        here = after
    return None


class Search:
    """One branch-and-bound search; ``table`` may be shared by searches of the same deal."""

    def __init__(
        self,
        game: Any,
        strategy: Strategy,
        *,
        budget_nodes: int | None = None,
        deadline: float | None = None,
        clock: Callable[[], float] | None = None,
        table: dict[Hashable, Any] | None = None,
    ) -> None:
        if deadline is not None and clock is None:
            raise ValueError("a deadline needs the clock it is read on")
        self.game = game
        self.strategy = strategy
        self.budget_nodes = budget_nodes
        self.deadline = deadline
        self.clock = clock
        self.table: dict[Hashable, Any] = {} if table is None else table
        self._dominance = hasattr(strategy, "strength")
        self.nodes = 0
        self.best: Score = _NOTHING
        self.line: list[str] = []
        self._path: list[str] = []

    def run(self, root: Any) -> Outcome:
        """Search from ``root``: the best score and line found, exact unless out of budget."""
        self._dive(root)
        try:
            self._probe(root)
            self._visit(root)
            exact = True
        except OutOfBudget:
            exact = False
        return Outcome(self.best, list(self.line), exact, self.nodes)

    def _probe(self, root: Any) -> None:
        """Randomised dives before the systematic search, for games whose move order is
        right most of the time but not always (``strategy.probe``: how many dives, the chance
        of passing over a move, and the share of the budget they may use). A depth-first
        search mends late mistakes first and can spend its whole budget below an early one;
        a few hundred varied dives find good lines fast. The random numbers come from a
        fixed seed: the same search gives the same answer.
        """
        dives, skip, share = getattr(self.strategy, "probe", (0, 0.0, 0.0))
        if not dives:
            return
        limit = None if self.budget_nodes is None else self.nodes + int(self.budget_nodes * share)
        stop = None
        if self.deadline is not None and self.clock is not None:
            now = self.clock()
            stop = now + (self.deadline - now) * share
        # With a budget the dives use their share of it; without one, at most ``dives``
        # of them, and they stop after _PATIENCE in a row find nothing better.
        budgeted = limit is not None or stop is not None
        rng = random.Random(0x5EED)
        top = self.strategy.bound(root)
        done = since = 0
        while self.best < top and (budgeted or (done < dives and since < _PATIENCE)):
            done += 1
            since += 1
            state, path = root, []
            while state.outcome is None:
                if self.strategy.bound(state) <= self.best:
                    break
                self._count()
                picked = _pick(iter(self.strategy.children(state)), rng, skip)
                if picked is None:
                    break
                action, state = picked
                path.append(action)
            else:
                score = tuple(self.game.score(state))
                if score > self.best:
                    self.best, self.line, since = score, path, 0
            if (limit is not None and self.nodes >= limit) or (
                stop is not None and self.clock is not None and self.clock() >= stop
            ):
                return

    def _dive(self, state: Any) -> None:
        """Follow the first move of each state to the end: a first incumbent, never
        counted against the budget, so that every answer has a line."""
        path: list[str] = []
        while True:
            first = next(iter(self.strategy.children(state)), None)
            if first is None:
                break
            action, state = first
            path.append(action)
        self.best, self.line = tuple(self.game.score(state)), path

    def _visit(self, state: Any) -> Score:
        """Search ``state``; return an upper bound on its value (exact when it beat the
        incumbent: it is then the incumbent)."""
        if state.outcome is not None:
            score = tuple(self.game.score(state))
            if score > self.best:
                self.best, self.line = score, list(self._path)
            return score
        key = self.strategy.key(state)
        strength = self.strategy.strength(state) if self._dominance else None
        known = self._recall(key, strength)
        if known is not None and known <= self.best:
            return known
        bound = self.strategy.bound(state)
        if known is not None and known < bound:
            bound = known
        if bound <= self.best:
            return bound
        self._count()
        top = _NOTHING
        finished = True
        for action, child in self.strategy.children(state):
            self._path.append(action)
            value = self._visit(child)
            self._path.pop()
            if value > top:
                top = value
            if self.best >= bound:  # nothing here can beat what was just found
                finished = False
                break
        value = min(top, bound) if finished else bound
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        if strength is None:
            self.table[key] = value
        else:
            entries = self.table.setdefault(key, [])
            entries.append((strength, value))
            if len(entries) > _ENTRIES_PER_KEY:
                del entries[0]
        return value

    def _recall(self, key: Hashable, strength: Score | None) -> Score | None:
        """The tightest bound the table proves for this state: its own entry, or (with
        dominance) the least bound of an entry at least as strong in every respect."""
        known = self.table.get(key)
        if strength is None or known is None:
            return known
        found = None
        for other, value in known:
            if (found is None or value < found) and all(
                a >= b for a, b in zip(other, strength, strict=True)
            ):
                found = value
        return found

    def _count(self) -> None:
        self.nodes += 1
        if self.budget_nodes is not None and self.nodes > self.budget_nodes:
            raise OutOfBudget
        if (
            self.deadline is not None
            and self.nodes % _CLOCK_EVERY == 0
            and self.clock is not None
            and self.clock() >= self.deadline
        ):
            raise OutOfBudget
