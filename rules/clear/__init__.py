"""Clear the Dungeon: slay the twelve face-card monsters with the 42 cards of the power deck.

Everything pure the game brings, in one package: the engine (``engine``, with the rules in
its docstring), what the solver knows of it (``solver``), what hints sample and say
(``hints``), its result line's tally (``recap``) and the rules text players read
(``rules.md``). :data:`PLUGIN` joins them; the registry in :mod:`rules` lists it.
"""

from __future__ import annotations

from rules.clear.engine import CLEAR, ClearState
from rules.clear.hints import ClearHints
from rules.clear.recap import RECAP
from rules.clear.solver import ClearStrategy
from rules.plugin import GamePlugin

PLUGIN = GamePlugin(engine=CLEAR, strategy=ClearStrategy(), hints=ClearHints(), recap=RECAP)

__all__ = ["CLEAR", "PLUGIN", "ClearState"]
