"""Donsol's result line: one symbol per room (:class:`rules.recap.Rooms`).

💀 died here; 🏃 escaped (left by escaping, whatever was taken before); 🟥 took damage; 💚
healed (a potion restored HP) and took no damage; 🛡️ no damage and no healing (every monster
blocked, or none fought).
"""

from __future__ import annotations

from rules.recap import DIED, HEALED, HURT, LEFT, RESIGNED, UNHARMED, Recap, Rooms


class DonsolRooms(Rooms):
    leave = "escape"


RECAP = Recap(
    tally=DonsolRooms,
    legend=(
        (DIED, "died in this room"),
        (LEFT, "escaped the room"),
        (HURT, "took damage"),
        (HEALED, "healed, no damage"),
        (UNHARMED, "no damage: every monster blocked, or none fought"),
        (RESIGNED, "resigned in this room"),
    ),
    marks={"won": "🏆", "dead": "💀"},
)
