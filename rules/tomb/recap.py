"""Tomb of Four Kings' result line: one square per turn, and one where the player turned back.

🟩 turn won; 🟨 a treasure dropped to buy off a monster; 🟧 turn lost (failed trap or door);
🟥 died; 🟪 lost in the dark (the last torch, or an empty deck); 🟫 resigned in this turn.
🟦 stands between the delve's last turn and the retreat's first: the player turned back there
(a square of its own, so that every row keeps one width).
"""

from __future__ import annotations

from typing import Any

from rules.recap import RESIGNED, Recap, Tally
from rules.words import N_, Phrase

TURNED_BACK = "🟦"
DIED = "🟥"
IN_THE_DARK = "🟪"
DROPPED = "🟨"
TURN_LOST = "🟧"
TURN_WON = "🟩"


class TombTurns(Tally):
    """A turn starts with a ``flip`` between turns (no encounter out) and ends when the
    engine counts one more finished turn, or with the game. How it ended: a ``drop`` buys
    the monster off; a lost turn is the one where the engine says "The turn is lost" (the
    view has no key for it); any other finished turn was won. ``retreat`` (between turns)
    adds the turned-back square."""

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        if action == "retreat":
            self.symbols.append(TURNED_BACK)
            return
        if action == "flip" and before["encounter"] is None:
            self.open = True
        if _turns(after) > _turns(before):
            if action.startswith("drop "):
                self.close(DROPPED)
            elif any(event.startswith("The turn is lost") for event in after["events"]):
                self.close(TURN_LOST)
            else:
                self.close(TURN_WON)
        elif after["outcome"] == "dead":
            self.close(DIED)
        elif after["outcome"] == "lost_in_dark":
            self.close(IN_THE_DARK)


def _turns(view: dict[str, Any]) -> int:
    return int(view["delve_turns"]) + int(view["retreat_turns"])


RECAP = Recap(
    tally=TombTurns,
    legend=(
        (TURN_WON, Phrase(N_("turn won"))),
        (DROPPED, Phrase(N_("bought off"))),
        (TURN_LOST, Phrase(N_("turn lost"))),
        (TURNED_BACK, Phrase(N_("turned back"))),
        (DIED, Phrase(N_("died"))),
        (IN_THE_DARK, Phrase(N_("lost in the dark"))),
        (RESIGNED, Phrase(N_("resigned"))),
    ),
    marks={"won": "🏆", "escaped": "🚪", "dead": "💀", "lost_in_dark": "🌑"},
)
