"""A game's plug-in: its engine and everything pure the rest of the project asks of it.

Each game package (``rules/<key>/``) builds one :class:`GamePlugin` in its ``__init__``; the
registry in :mod:`rules` lists them, and nothing else names a game. The solver, the hints and
the result line reach a game only through these parts:

- ``engine``: the rules (:class:`rules.engine.Game`);
- ``strategy``: what the perfect-information search knows of the game
  (:class:`rules.search.Strategy`: a key, a bound, a move order);
- ``hints``: how a hint samples the cards a player cannot see, weighs a score and says why
  (:class:`HintModel`);
- ``recap``: the spoiler-free result line's tally, legend and outcome marks
  (:class:`rules.recap.Recap`).

The rules text lives beside them as ``rules/<key>/rules.md`` (:mod:`rules.rulebook`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from rules.engine import Game
from rules.recap import Recap
from rules.search import Strategy


class HintModel(Protocol):
    """What hints need of a game beyond its engine (see :mod:`rules.hints`)."""

    def sample_world(self, state: Any, rng: random.Random) -> Any:
        """``state`` with the cards the player cannot see in a random order drawn from
        ``rng``; built from the visible fields and the sorted hidden cards only."""
        ...

    def utility(self, score: list[int]) -> int:
        """One number that sorts like the score list (lexicographically), for averaging."""
        ...

    def reason(self, state: Any, action: str, world: Any) -> str:
        """A few words of why ``action`` is good in ``state`` (``world``: a sampled world)."""
        ...

    # Optional: ``dominated(state, legal) -> list[str]``, the legal actions an obviously better
    # one dominates (drinking a potion that heals nothing while another move would let it
    # heal): never suggested, and their share of the search goes to the others.


@dataclass(frozen=True)
class GamePlugin:
    """Everything pure a game brings (see the module docstring)."""

    engine: Game[Any]
    strategy: Strategy
    hints: HintModel
    recap: Recap

    @property
    def key(self) -> str:
        return self.engine.key
