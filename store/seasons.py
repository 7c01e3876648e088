"""The record of each server's month close (the champions post: claimed by one process, then
posted or skipped) and who was given the champion role for which month."""

from __future__ import annotations

from typing import Protocol

from store.dialect import Db, Query


class Seasons(Protocol):
    """The queries of the month's close."""

    def claim_close(self, guild_id: int, month: str, now: str) -> bool: ...
    def finish_close(
        self, guild_id: int, month: str, status: str, channel_id: int | None,
        message_id: int | None, note: str | None, now: str,
    ) -> None: ...
    def close_status(self, guild_id: int, month: str) -> str | None: ...
    def champion_holders(self, guild_id: int, month: str) -> list[int]: ...
    def add_champion_holder(self, guild_id: int, month: str, user_id: int) -> None: ...


CLAIM_CLOSE = Query.both("""
    INSERT INTO month_closes (guild_id, month, status, at)
    VALUES ({guild_id}, {month}, 'claimed', {now})
    ON CONFLICT DO NOTHING
""")
FINISH_CLOSE = Query.both("""
    UPDATE month_closes SET status = {status}, channel_id = {channel_id},
                            message_id = {message_id}, note = {note}, at = {now}
    WHERE guild_id = {guild_id} AND month = {month}
""")
SELECT_CLOSE_STATUS = Query.both(
    "SELECT status FROM month_closes WHERE guild_id = {guild_id} AND month = {month}"
)
SELECT_HOLDERS = Query.both("""
    SELECT user_id FROM champion_roles WHERE guild_id = {guild_id} AND month = {month}
    ORDER BY user_id
""")
INSERT_HOLDER = Query.both("""
    INSERT INTO champion_roles (guild_id, month, user_id) VALUES ({guild_id}, {month}, {user_id})
    ON CONFLICT DO NOTHING
""")


class SeasonsSql:
    """:class:`Seasons` over a :class:`~store.dialect.Db`."""

    db: Db

    def claim_close(self, guild_id: int, month: str, now: str) -> bool:
        params = {"guild_id": guild_id, "month": month, "now": now}
        return self.db.change(CLAIM_CLOSE, params) == 1

    def finish_close(
        self, guild_id: int, month: str, status: str, channel_id: int | None,
        message_id: int | None, note: str | None, now: str,
    ) -> None:
        self.db.change(FINISH_CLOSE, {
            "guild_id": guild_id, "month": month, "status": status, "channel_id": channel_id,
            "message_id": message_id, "note": note, "now": now,
        })

    def close_status(self, guild_id: int, month: str) -> str | None:
        row = self.db.one(SELECT_CLOSE_STATUS, {"guild_id": guild_id, "month": month})
        return None if row is None else row["status"]

    def champion_holders(self, guild_id: int, month: str) -> list[int]:
        rows = self.db.all(SELECT_HOLDERS, {"guild_id": guild_id, "month": month})
        return [int(row["user_id"]) for row in rows]

    def add_champion_holder(self, guild_id: int, month: str, user_id: int) -> None:
        self.db.change(INSERT_HOLDER, {"guild_id": guild_id, "month": month, "user_id": user_id})
