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
