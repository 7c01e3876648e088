"""Donsol's result line: one square per room (:class:`rules.recap.Rooms`).

🟩 no HP lost (every monster blocked, or healed); 🟨 hurt; 🟧 a heavy hit (a third of full
health or more); 🟦 escaped (whatever was taken before); 🟥 died here; 🟫 resigned here.
"""

from __future__ import annotations

from rules.recap import DIED, HEAVY, HURT, LEFT, RESIGNED, UNHARMED, Recap, Rooms
from rules.words import N_, Phrase


class DonsolRooms(Rooms):
    leave = "escape"


RECAP = Recap(
    tally=DonsolRooms,
    legend=(
        (UNHARMED, Phrase(N_("unhurt"))),
        (HURT, Phrase(N_("hurt"))),
        (HEAVY, Phrase(N_("heavy hit"))),
        (LEFT, Phrase(N_("escaped"))),
        (DIED, Phrase(N_("died"))),
        (RESIGNED, Phrase(N_("resigned"))),
    ),
    marks={"won": "🏆", "dead": "💀"},
)
