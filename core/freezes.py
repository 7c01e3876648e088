"""Daily streaks with freezes, on day numbers: what a player's played days of a game make of
their current and longest streak, the freezes they hold and the days those froze.

- A streak is consecutive UTC days with a finished daily of the game, as before, except
  that a **freeze** can stand in for a missed day: the streak goes on over it, and the day
  counts as frozen, not played (a streak's length counts the days played).
- A freeze is earned on every 7th consecutive day played (the 7th, 14th, 21st, ... since the
  last day missed or frozen), and a player holds at most :data:`MAX_FREEZES`: one earned
  while holding that many is not kept.
- A missed day uses a held freeze automatically. A missed day with none left ends the
  streak; so a gap of three days with two freezes held uses both and then ends the streak.
- Today is never missed (it is still being played); every earlier day without a finished
  daily is. So the current streak is the one that reaches today or yesterday, or reaches
  further back over frozen days.

Everything is computed from the played days' islands (runs of consecutive days, as the store
finds them) and day numbers, never from clock arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from core.daily import day_number, day_of_number
from store.base import Streak

#: A freeze is earned every this many consecutive days played.
FREEZE_EVERY = 7
#: The most freezes a player holds at once.
MAX_FREEZES = 2


@dataclass(frozen=True)
class StreakState:
    """A player's streaks in one game as of today."""

    current: int
    longest: int
    freezes: int  # held now
    frozen: frozenset[str]  # the days a freeze stood in for


def walk(islands: list[Streak], today: date) -> StreakState:
    """Walk the played days' islands (any order) up to ``today``."""
    ordered = sorted(islands, key=lambda s: s.first)
    held = 0
    streak = 0
    longest = 0
    frozen: set[str] = set()
    last: int | None = None
    for island in ordered:
        first = day_number(island.first)
        if last is not None:
            streak, held = _gap(last, first - last - 1, streak, held, frozen)
        streak += island.length
        held = min(MAX_FREEZES, held + island.length // FREEZE_EVERY)
        longest = max(longest, streak)
        last = day_number(island.last)
    if last is None:
        return StreakState(0, 0, 0, frozenset())
    missed = day_number(today.isoformat()) - last - 1  # today is not missed yet
    current, held = _gap(last, max(0, missed), streak, held, frozen)
    return StreakState(current, longest, held, frozenset(frozen))


def _gap(last: int, missed: int, streak: int, held: int, frozen: set[str]) -> tuple[int, int]:
    """``missed`` days after day number ``last``: freezes used on them in order; the streak
    and freezes after them."""
    used = min(missed, held)
    frozen.update(day_of_number(last + k) for k in range(1, used + 1))
    if missed > held:
        return 0, 0
    return streak, held - used
