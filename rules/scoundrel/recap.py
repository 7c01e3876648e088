"""Scoundrel's row of the spoiler-free result line: one symbol per room, no card named.

Like the other games' tallies in ``core/recap.py``, it reads only the engine's views before
and after each move. A room ends when it is avoided, when the engine deals the next room
(the dungeon shrinks) or when the game ends; HP going down or up on a move is damage or
healing. The symbols, most telling first when a room could claim several:

- 💀 died in this room; 🏃 avoided it (nothing of it was taken: avoiding needs that);
  🟥 took damage; 💚 healed and took no damage; 🛡️ neither (every monster slain without
  damage, or none met).
- 🏳️ the room a run was resigned in, part-way. A room just dealt when the run ended, with no
  move made in it, has no symbol.
"""

from __future__ import annotations

from typing import Any

RESIGNED = "🏳️"
DIED = "💀"
AVOIDED = "🏃"
HURT = "🟥"
HEALED = "💚"
UNHARMED = "🛡️"

#: Each symbol and what it means, most telling first (``/help``, docs).
LEGEND: tuple[tuple[str, str], ...] = (
    (DIED, "died in this room"),
    (AVOIDED, "avoided the room"),
    (HURT, "took damage"),
    (HEALED, "healed, no damage"),
    (UNHARMED, "no damage: every monster slain unharmed, or none met"),
    (RESIGNED, "resigned in this room"),
)


class ScoundrelRooms:
    """Symbols of the rooms finished so far, and whether one is under way."""

    def __init__(self) -> None:
        self.symbols: list[str] = []
        self.open = False
        self.hurt = self.healed = False

    def close(self, symbol: str) -> None:
        """End the room under way with ``symbol``."""
        self.symbols.append(symbol)
        self.open = False
        self.hurt = self.healed = False

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        """Follow one move, from the view before it to the view after it."""
        self.open = True
        change = after["hp"] - before["hp"]
        self.hurt |= change < 0
        self.healed |= change > 0
        if after["outcome"] == "dead":
            self.close(DIED)
        elif action == "avoid":
            self.close(AVOIDED)
        elif after["over"] or after["dungeon"] < before["dungeon"]:
            self.close(HURT if self.hurt else HEALED if self.healed else UNHARMED)

    def finish(self) -> list[str]:
        """The symbols, the room left part-way marked as resigned."""
        if self.open:
            self.close(RESIGNED)
        return self.symbols
