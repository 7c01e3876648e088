"""Scoundrel (Zach Gage and Kurt Bieg, 2011): a solo dungeon of 44 cards, a room at a time.

The rules in brief (``docs/games/scoundrel.md`` in full):

- ♣ ♠ are monsters (2–10, J 11, Q 12, K 13, A 14), ♦ 2–10 weapons, ♥ 2–10 potions. 20 HP,
  which is also the maximum.
- A room is four cards; once three are taken, the fourth stays and three more are dealt.
- A room may be avoided whole, before any of its cards is taken, but never twice in a row:
  its cards go under the dungeon in room order.
- A monster is fought barehanded (its full value) or with the weapon (its value less the
  weapon's). A weapon that has slain a monster only slays monsters of that value or less.
- Only the first potion of a room heals.
- Score: a win is the HP left (plus the last card's value when it is a potion taken at 20
  HP); otherwise HP minus the values of the monsters not yet slain, so it can be negative.

Everything pure the game brings is in this package: ``engine``, ``solver`` (the search's
strategy), ``hints``, ``recap`` (the result line's tally) and ``rules.md``; :data:`PLUGIN`
joins them and the registry in :mod:`rules` lists it.
"""

from __future__ import annotations

from rules.plugin import GamePlugin
from rules.scoundrel.engine import SCOUNDREL, Scoundrel, ScoundrelState
from rules.scoundrel.hints import ScoundrelHints
from rules.scoundrel.recap import RECAP
from rules.scoundrel.solver import ScoundrelStrategy

PLUGIN = GamePlugin(
    engine=SCOUNDREL, strategy=ScoundrelStrategy(), hints=ScoundrelHints(), recap=RECAP
)

__all__ = ["PLUGIN", "SCOUNDREL", "Scoundrel", "ScoundrelState"]
