"""Clear the Dungeon's result line: one symbol per hand of three.

The number of monsters slain while that hand was held, as 1️⃣ … 🔟 (⬛ none, ⏫ more than ten,
only possible with a long reserve). A hand is held from its deal until the engine deals the
next (the power deck shrinks) or the game ends; reserve plays count for the hand held then.
"""

from __future__ import annotations

from typing import Any

from rules.recap import RESIGNED, Recap, Tally

NONE_SLAIN = "⬛"
SLAIN = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
OVER_TEN = "⏫"


class ClearHands(Tally):
    """Counts the monsters slain while each hand is held."""

    def __init__(self) -> None:
        super().__init__()
        self.slain = 0

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        self.open = True
        self.slain += after["slain"] - before["slain"]
        if after["over"] or after["talon"] < before["talon"]:
            self.close(slain_symbol(self.slain))
            self.slain = 0


def slain_symbol(count: int) -> str:
    """``⬛`` for none, ``1️⃣`` … ``🔟``, ``⏫`` past ten."""
    if count <= 0:
        return NONE_SLAIN
    return SLAIN[count - 1] if count <= len(SLAIN) else OVER_TEN


RECAP = Recap(
    tally=ClearHands,
    legend=(
        (f"{SLAIN[0]} … {SLAIN[-1]}", "monsters slain while that hand was held"),
        (NONE_SLAIN, "no monster slain with that hand"),
        (OVER_TEN, "more than ten slain with one hand"),
        (RESIGNED, "resigned with this hand"),
    ),
    marks={"won": "🏆", "stuck": "🧱"},
)
