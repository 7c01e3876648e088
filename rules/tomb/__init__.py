"""Dungeon Solitaire: Tomb of Four Kings — delve for the four Kings' hoards and get out alive.

Everything pure the game brings, in one package: the engine (``engine``, with the rules in
its docstring), what the solver knows of it (``solver``), what hints sample and say
(``hints``), its result line's tally (``recap``) and the rules text players read
(``rules.md``). :data:`PLUGIN` joins them; the registry in :mod:`rules` lists it.
"""

from __future__ import annotations

from rules.plugin import GamePlugin
from rules.tomb.engine import TOMB, TombState
from rules.tomb.hints import TombHints
from rules.tomb.recap import RECAP
from rules.tomb.solver import TombStrategy

PLUGIN = GamePlugin(engine=TOMB, strategy=TombStrategy(), hints=TombHints(), recap=RECAP)

__all__ = ["PLUGIN", "TOMB", "TombState"]
