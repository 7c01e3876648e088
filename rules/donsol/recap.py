"""Donsol's result line: one symbol per room.

💀 died here; 🏃 escaped (left by escaping, whatever was taken before); 🟥 took damage; 💚
healed (a potion restored HP) and took no damage; 🛡️ no damage and no healing (every monster
blocked, or none fought). A room ends when the player escapes it, when the engine deals the
next room (the dungeon shrinks) or when the game ends.
"""

from __future__ import annotations

from typing import Any

from rules.recap import RESIGNED, Recap, Tally

DIED = "💀"
ESCAPED = "🏃"
HURT = "🟥"
HEALED = "💚"
UNHARMED = "🛡️"


class DonsolRooms(Tally):
    """HP going down or up on a move is damage or healing in the room under way."""

    def __init__(self) -> None:
        super().__init__()
        self.hurt = self.healed = False

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        self.open = True
        change = after["hp"] - before["hp"]
        self.hurt |= change < 0
        self.healed |= change > 0
        if after["outcome"] == "dead":
            self.close(DIED)
        elif action == "escape":
            self.close(ESCAPED)
        elif after["over"] or after["dungeon"] < before["dungeon"]:
            self.close(HURT if self.hurt else HEALED if self.healed else UNHARMED)

    def close(self, symbol: str) -> None:
        super().close(symbol)
        self.hurt = self.healed = False


RECAP = Recap(
    tally=DonsolRooms,
    legend=(
        (DIED, "died in this room"),
        (ESCAPED, "escaped the room"),
        (HURT, "took damage"),
        (HEALED, "healed, no damage"),
        (UNHARMED, "no damage: every monster blocked, or none fought"),
        (RESIGNED, "resigned in this room"),
    ),
    marks={"won": "🏆", "dead": "💀"},
)
