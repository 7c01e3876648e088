"""Scoundrel's result line: one square per room (:class:`rules.recap.Rooms`), no card named.

🟩 no health lost (every monster slain unharmed, or healed); 🟨 hurt; 🟧 a heavy hit (a
third of full health or more); 🟦 avoided (nothing of it was taken: avoiding needs that);
🟥 died here; 🟫 resigned here, part-way.
"""

from __future__ import annotations

from rules.recap import DIED, HEAVY, HURT, LEFT, RESIGNED, UNHARMED, Recap, Rooms
from rules.words import N_, Phrase


class ScoundrelRooms(Rooms):
    leave = "avoid"


RECAP = Recap(
    tally=ScoundrelRooms,
    legend=(
        (UNHARMED, Phrase(N_("unhurt"))),
        (HURT, Phrase(N_("hurt"))),
        (HEAVY, Phrase(N_("heavy hit"))),
        (LEFT, Phrase(N_("avoided"))),
        (DIED, Phrase(N_("died"))),
        (RESIGNED, Phrase(N_("resigned"))),
    ),
    marks={"won": "🏆", "dead": "💀"},
)
