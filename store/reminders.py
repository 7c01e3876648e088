"""Streak reminders: who is due one (reminders on, a game played yesterday and not today),
and the record that a player's reminder of a day went out once (claimed, then finished, as
``store.posts``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from store.dialect import Db, Query


@dataclass(frozen=True)
class AtRisk:
    """A player with reminders on and a game whose daily they finished yesterday, not today."""

    user_id: int
    game: str


class Reminders(Protocol):
    """The queries of streak reminders."""

    def at_risk(self, key: str, yesterday: str, today: str) -> list[AtRisk]: ...
    def claim_reminder(self, user_id: int, day: str, now: str) -> bool: ...
    def finish_reminder(self, user_id: int, day: str, status: str, note: str | None,
                        now: str) -> None: ...
    def reminder_status(self, user_id: int, day: str) -> str | None: ...


# Read from the players who asked (player_settings_by_key), each one's dailies through
# runs_one_daily: the pass costs the reminded players, not the board.
SELECT_AT_RISK = Query.both("""
    SELECT DISTINCT s.user_id, y.game
    FROM player_settings AS s
    JOIN runs AS y ON y.owner_id = s.user_id AND y.kind = 'daily' AND y.day = {yesterday}
                  AND y.status <> 'playing'
    WHERE s.key = {key} AND s.value = 'on'
      AND NOT EXISTS (SELECT 1 FROM runs AS t
                      WHERE t.owner_id = s.user_id AND t.kind = 'daily' AND t.game = y.game
                        AND t.day = {today} AND t.status <> 'playing')
      AND NOT EXISTS (SELECT 1 FROM reminders AS m
                      WHERE m.user_id = s.user_id AND m.day = {today})
    ORDER BY s.user_id, y.game
""")
CLAIM_REMINDER = Query.both("""
    INSERT INTO reminders (user_id, day, status, at) VALUES ({user_id}, {day}, 'claimed', {now})
    ON CONFLICT DO NOTHING
""")
FINISH_REMINDER = Query.both("""
    UPDATE reminders SET status = {status}, note = {note}, at = {now}
    WHERE user_id = {user_id} AND day = {day}
""")
SELECT_REMINDER = Query.both(
    "SELECT status FROM reminders WHERE user_id = {user_id} AND day = {day}"
)


class RemindersSql:
    """:class:`Reminders` over a :class:`~store.dialect.Db`."""

    db: Db

    def at_risk(self, key: str, yesterday: str, today: str) -> list[AtRisk]:
        rows = self.db.all(SELECT_AT_RISK, {"key": key, "yesterday": yesterday,
                                            "today": today})
        return [AtRisk(row["user_id"], row["game"]) for row in rows]

    def claim_reminder(self, user_id: int, day: str, now: str) -> bool:
        return self.db.change(CLAIM_REMINDER, {"user_id": user_id, "day": day, "now": now}) == 1

    def finish_reminder(self, user_id: int, day: str, status: str, note: str | None,
                        now: str) -> None:
        self.db.change(FINISH_REMINDER, {"user_id": user_id, "day": day, "status": status,
                                         "note": note, "now": now})

    def reminder_status(self, user_id: int, day: str) -> str | None:
        row = self.db.one(SELECT_REMINDER, {"user_id": user_id, "day": day})
        return None if row is None else row["status"]
