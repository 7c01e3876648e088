"""Clear the Dungeon's result line: one square per hand of three.

How many monsters were slain while that hand was held: ⬜ none (the hand went to the reserve,
or waited), 🟩 one, 🟦 two or more (the reserve paid off). 🟥 the hand the run got stuck
with; 🟫 resigned with this hand. A hand is held from its deal until the engine deals the
next (the power deck shrinks) or the game ends; reserve plays count for the hand held then.
"""

from __future__ import annotations

from typing import Any

from rules.recap import RESIGNED, Recap, Tally
from rules.words import N_, Phrase

NONE_SLAIN = "⬜"
ONE_SLAIN = "🟩"
MORE_SLAIN = "🟦"
STUCK = "🟥"


class ClearHands(Tally):
    """Counts the monsters slain while each hand is held."""

    def __init__(self) -> None:
        super().__init__()
        self.slain = 0

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        self.open = True
        self.slain += after["slain"] - before["slain"]
        if after["over"] and not after["won"]:
            self.close(STUCK)
            self.slain = 0
        elif after["over"] or after["talon"] < before["talon"]:
            self.close(slain_symbol(self.slain))
            self.slain = 0


def slain_symbol(count: int) -> str:
    """``⬜`` for none, ``🟩`` for one, ``🟦`` for two or more."""
    if count <= 0:
        return NONE_SLAIN
    return ONE_SLAIN if count == 1 else MORE_SLAIN


RECAP = Recap(
    tally=ClearHands,
    legend=(
        (NONE_SLAIN, Phrase(N_("none slain"))),
        (ONE_SLAIN, Phrase(N_("one slain"))),
        (MORE_SLAIN, Phrase(N_("two or more"))),
        (STUCK, Phrase(N_("stuck"))),
        (RESIGNED, Phrase(N_("resigned"))),
    ),
    marks={"won": "🏆", "stuck": "🧱"},
)
