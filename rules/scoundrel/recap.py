"""Scoundrel's result line: one symbol per room (:class:`rules.recap.Rooms`), no card named.

💀 died in this room; 🏃 avoided it (nothing of it was taken: avoiding needs that); 🟥 took
damage; 💚 healed and took no damage; 🛡️ neither (every monster slain without damage, or none
met). 🏳️ the room a run was resigned in, part-way.
"""

from __future__ import annotations

from rules.recap import DIED, HEALED, HURT, LEFT, RESIGNED, UNHARMED, Recap, Rooms


class ScoundrelRooms(Rooms):
    leave = "avoid"


RECAP = Recap(
    tally=ScoundrelRooms,
    legend=(
        (DIED, "died in this room"),
        (LEFT, "avoided the room"),
        (HURT, "took damage"),
        (HEALED, "healed, no damage"),
        (UNHARMED, "no damage: every monster slain unharmed, or none met"),
        (RESIGNED, "resigned in this room"),
    ),
    marks={"won": "🏆", "dead": "💀"},
)
