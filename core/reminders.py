"""Streak reminders: who gets a direct message tonight, what it says, and the record that it
went out once.

A player who chose ``/preferences reminders:on`` is reminded when a streak of a game is at
risk: they finished yesterday's daily of that game and not today's yet. The reminder goes
out in the last :data:`REMIND_BEFORE` of today's deal (from 23:00 UTC; the deal changes at
00:00 and a streak counts the days whose daily was finished, so that hour is the last in
which playing keeps the streak; a run already under way may still be finished until its
board closes at 01:00).

- **At most one a day per player**, however many games are at risk (one message lists them)
  and however many processes run: each is *claimed* in ``reminders`` before it is sent, then
  marked *sent* or *skipped* (with why), as the daily post (``core.posts``). A claimed
  reminder is never sent again (lost rather than doubled).
- **Off stops it at once:** the preference is read again for each player just before the
  message is sent (:meth:`Reminders.wanted`), not only when the list was made.
- A streak that a held freeze would carry over tomorrow is still reminded of, saying so:
  playing keeps the freeze.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from core.checks import check_id
from core.clock import utc, utc_day
from core.context import Context
from core.daily import next_deal_at
from core.freezes import walk
from core.settings import REMINDERS
from rules import GAMES
from store.base import Tx

#: How long before today's deal ends the reminders go out.
REMIND_BEFORE = timedelta(hours=1)

SENT = "sent"
SKIPPED = "skipped"


@dataclass(frozen=True)
class StreakAtRisk:
    """A streak a player keeps only by finishing today's daily of the game."""

    game: str
    title: str
    length: int  # days played in the streak so far
    freezes: int  # held now (one would stand in for today if it is missed)


@dataclass(frozen=True)
class Reminder:
    """One player's reminder of the day: their streaks at risk and when today's deal ends."""

    user_id: int
    day: str
    ends_at: datetime
    streaks: list[StreakAtRisk]


def due_day(now: datetime) -> str | None:
    """The day whose reminders are due at ``now`` (its last :data:`REMIND_BEFORE`), or None."""
    today = utc_day(now).isoformat()
    ends = next_deal_at(today)
    return today if ends - REMIND_BEFORE <= utc(now) < ends else None


class Reminders:
    """The reminders due, their claims and their outcomes."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    async def due(self, now: datetime) -> list[Reminder]:
        """The reminders due at ``now`` and not claimed yet, one per player (empty outside
        the reminding hour)."""
        day = due_day(now)
        if day is None:
            return []
        return await self._ctx.store.read(_due_tx, day)

    async def claim(self, user_id: int, day: str) -> bool:
        """Claim a player's reminder of ``day``; False if it was claimed already (by any
        process)."""
        return await self._ctx.store.write(_claim_tx, check_id(user_id, "user"), day,
                                           self._ctx.now())

    async def wanted(self, user_id: int) -> bool:
        """Whether the player still wants reminders (read at send time)."""
        return await self._ctx.store.read(_wanted_tx, check_id(user_id, "user"))

    async def finish(self, user_id: int, day: str, status: str, note: str | None) -> None:
        """Record how a claimed reminder ended: :data:`SENT` or :data:`SKIPPED` (why)."""
        await self._ctx.store.write(_finish_tx, user_id, day, status, note, self._ctx.now())

    async def status(self, user_id: int, day: str) -> str | None:
        return await self._ctx.store.read(_status_tx, user_id, day)


def _due_tx(tx: Tx, day: str) -> list[Reminder]:
    today = date.fromisoformat(day)
    yesterday = (today - timedelta(days=1)).isoformat()
    by_user: dict[int, list[StreakAtRisk]] = {}
    for found in tx.at_risk(REMINDERS, yesterday, day):
        if found.game not in GAMES:  # a game since removed from the registry
            continue
        state = walk(tx.streaks(found.user_id, found.game), today)
        if state.current <= 0:
            continue
        by_user.setdefault(found.user_id, []).append(
            StreakAtRisk(found.game, GAMES[found.game].title, state.current, state.freezes)
        )
    ends = next_deal_at(day)
    return [Reminder(user_id, day, ends, streaks) for user_id, streaks in by_user.items()]


def _claim_tx(tx: Tx, user_id: int, day: str, now: str) -> bool:
    return tx.claim_reminder(user_id, day, now)


def _wanted_tx(tx: Tx, user_id: int) -> bool:
    return tx.player_settings(user_id).get(REMINDERS) == "on"


def _finish_tx(tx: Tx, user_id: int, day: str, status: str, note: str | None,
               now: str) -> None:
    tx.finish_reminder(user_id, day, status, note, now)


def _status_tx(tx: Tx, user_id: int, day: str) -> str | None:
    return tx.reminder_status(user_id, day)
