"""Donsol: clear a 54-card dungeon, four cards a room, before your 21 HP run out.

Everything pure the game brings, in one package: the engine (``engine``, with the rules in
its docstring), what the solver knows of it (``solver``), what hints sample and say
(``hints``), its result line's tally (``recap``) and the rules text players read
(``rules.md``). :data:`PLUGIN` joins them; the registry in :mod:`rules` lists it.
"""

from __future__ import annotations

from rules.donsol.engine import DONSOL, DonsolState
from rules.donsol.hints import DonsolHints
from rules.donsol.recap import RECAP
from rules.donsol.solver import DonsolStrategy
from rules.plugin import GamePlugin

PLUGIN = GamePlugin(engine=DONSOL, strategy=DonsolStrategy(), hints=DonsolHints(), recap=RECAP)

__all__ = ["DONSOL", "PLUGIN", "DonsolState"]
