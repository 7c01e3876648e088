"""Donsol's result line: one square per room (:class:`rules.recap.Rooms`).

🟩 no HP lost (every monster blocked, or healed); 🟨 hurt; 🟧 a heavy hit (a third of full
health or more); 🟦 escaped (whatever was taken before); 🟥 died here; 🟫 resigned here.
"""

from __future__ import annotations

from rules.recap import DIED, HEAVY, HURT, LEFT, RESIGNED, UNHARMED, Recap, Rooms


class DonsolRooms(Rooms):
    leave = "escape"


RECAP = Recap(
    tally=DonsolRooms,
    legend=(
        (UNHARMED, "unhurt"),
        (HURT, "hurt"),
        (HEAVY, "heavy hit"),
        (LEFT, "escaped"),
        (DIED, "died"),
        (RESIGNED, "resigned"),
    ),
    marks={"won": "🏆", "dead": "💀"},
)
