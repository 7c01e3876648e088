"""Tomb of Four Kings' result line: one symbol per turn.

💀 died; 🌑 lost in the dark (the last torch, or an empty deck); 💸 a treasure dropped to buy
off a monster; 🟥 turn lost (failed trap or door); 🟩 turn won. ↩️ follows the delve turn after
which the player turned back: the turns after it are the retreat.
"""

from __future__ import annotations

from typing import Any

from rules.recap import RESIGNED, Recap, Tally

TURNED_BACK = "↩️"
DIED = "💀"
IN_THE_DARK = "🌑"
DROPPED = "💸"
TURN_LOST = "🟥"
TURN_WON = "🟩"


class TombTurns(Tally):
    """A turn starts with a ``flip`` between turns (no encounter out) and ends when the
    engine counts one more finished turn, or with the game. How it ended: a ``drop`` buys
    the monster off; a lost turn is the one where the engine says "The turn is lost" (the
    view has no key for it); any other finished turn was won."""

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        if action == "retreat":
            if self.symbols:  # always: turning back needs a finished delve turn
                self.symbols[-1] += TURNED_BACK
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
        (DIED, "died in this turn"),
        (IN_THE_DARK, "lost in the dark"),
        (DROPPED, "treasure dropped to buy off a monster"),
        (TURN_LOST, "turn lost: a trap or a door got the better of you"),
        (TURN_WON, "turn won"),
        (TURNED_BACK, "turned back after this turn: the retreat follows"),
        (RESIGNED, "resigned in this turn"),
    ),
    marks={"won": "🏆", "escaped": "🚪", "dead": "💀", "lost_in_dark": "🌑"},
)
