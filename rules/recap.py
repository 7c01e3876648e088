"""What every game's result-line tally shares: the symbols so far and the resigned mark.

A daily's result is posted where others may still be playing the same deal, so its line names
no card: one symbol per room, turn or hand. Each game's ``recap`` module follows a run move by
move through the engine's views (before and after each action) and closes a symbol whenever a
room, turn or hand ends; :mod:`core.recap` composes the line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The room, turn or hand a run was resigned in, unfinished (every game).
RESIGNED = "🏳️"


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


DIED = "💀"
LEFT = "🏃"
HURT = "🟥"
HEALED = "💚"
UNHARMED = "🛡️"


class Rooms(Tally):
    """One symbol per room, for games of rooms and hit points (Donsol, Scoundrel): 💀 the run
    ended in this room without a win; 🏃 left it by the game's ``leave`` action (escape,
    avoid), whatever was taken before; 🟥 took damage; 💚 healed and took no damage; 🛡️
    neither. A room ends when it is left, when the engine deals the next one (the view's
    ``dungeon`` shrinks) or with the game; the view's ``hp`` going down or up is damage or
    healing."""

    #: The action that leaves a room whole.
    leave: str = ""

    def __init__(self) -> None:
        super().__init__()
        self.hurt = self.healed = False

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        self.open = True
        change = after["hp"] - before["hp"]
        self.hurt |= change < 0
        self.healed |= change > 0
        if after["over"] and not after["won"]:
            self.close(DIED)
        elif action == self.leave:
            self.close(LEFT)
        elif after["over"] or after["dungeon"] < before["dungeon"]:
            self.close(HURT if self.hurt else HEALED if self.healed else UNHARMED)

    def close(self, symbol: str) -> None:
        super().close(symbol)
        self.hurt = self.healed = False


@dataclass(frozen=True)
class Recap:
    """A game's result-line knowledge: its tally, its legend and how each outcome opens the
    line.

    ``legend``: each symbol and what it means, most telling first (``/help``, the docs).
    ``marks``: the mark of each of the engine's outcome words (a test checks every outcome
    has one).
    """

    tally: type[Tally]
    legend: tuple[tuple[str, str], ...]
    marks: dict[str, str]
