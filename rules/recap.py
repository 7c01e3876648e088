"""What every game's result-line tally shares: the squares so far and the resigned square.

A daily's result is posted where others may still be playing the same deal, so its line names
no card: one coloured square per room, turn or hand, like a Wordle grid. Squares only (no
pictographs among them), so that every row of the grid has the same width and reads at a
glance; each colour keeps one meaning across the games where it can (🟩 went well, 🟨 cost
something, 🟧 cost a lot, 🟦 left or turned away, 🟥 the end that lost the run, 🟫 resigned
there). Each game's ``recap`` module follows a run move by move through the engine's views
(before and after each action) and closes a square whenever a room, turn or hand ends;
:mod:`core.recap` composes the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The room, turn or hand a run was resigned in, unfinished (every game).
RESIGNED = "🟫"


class Tally:
    """Symbols of the rooms, turns or hands finished so far, and whether one is under way.

    A game subclasses it and implements :meth:`step`; a room, turn or hand counts once a
    move was made in it (``open``), so one just dealt when the run ended has no symbol.
    """

    def __init__(self) -> None:
        self.symbols: list[str] = []
        self.open = False

    def close(self, symbol: str) -> None:
        self.symbols.append(symbol)
        self.open = False

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        """Follow one action: ``before`` and ``after`` are the engine's views around it."""
        raise NotImplementedError

    def finish(self) -> list[str]:
        if self.open:  # the run stopped part-way through: resigned (or not finished yet)
            self.close(RESIGNED)
        return self.symbols


DIED = "🟥"
LEFT = "🟦"
HEAVY = "🟧"
HURT = "🟨"
UNHARMED = "🟩"
#: A room that cost at least this share of full health is a heavy hit (🟧, not 🟨): in
#: Donsol 7 of 21 HP, about one unblocked face card.
HEAVY_SHARE = 1 / 3


class Rooms(Tally):
    """One square per room, for games of rooms and hit points (Donsol, Scoundrel): 🟥 the run
    ended in this room without a win; 🟦 left it by the game's ``leave`` action (escape,
    avoid), whatever was taken before; 🟧 took a third of full health or more in damage in it
    (the view's ``max_hp``; healing does not undo a hit); 🟨 took less; 🟩 took none (every
    monster blocked or slain unharmed, or none met; healing alone is unhurt). A room ends
    when it is left, when the engine deals the next one (the view's ``dungeon`` shrinks) or
    with the game; the view's ``hp`` going down is damage."""

    #: The action that leaves a room whole.
    leave: str = ""

    def __init__(self) -> None:
        super().__init__()
        self.lost = 0

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        self.open = True
        self.lost += max(0, before["hp"] - after["hp"])
        if after["over"] and not after["won"]:
            self.close(DIED)
        elif action == self.leave:
            self.close(LEFT)
        elif after["over"] or after["dungeon"] < before["dungeon"]:
            heavy = self.lost >= after["max_hp"] * HEAVY_SHARE
            self.close(HEAVY if heavy else HURT if self.lost > 0 else UNHARMED)

    def close(self, symbol: str) -> None:
        super().close(symbol)
        self.lost = 0


@dataclass(frozen=True)
class Recap:
    """A game's result-line knowledge: its tally, its legend and how each outcome opens the
    line.

    ``legend``: each square and a word or two of what it means, in the order the one-line
    legend under a grid lists them (``/help``, the docs, the share line).
    ``marks``: the mark of each of the engine's outcome words (a test checks every outcome
    has one).
    """

    tally: type[Tally]
    legend: tuple[tuple[str, str], ...]
    marks: dict[str, str]
