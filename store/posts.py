"""The record of each server's daily post: claimed by one process, then finished."""

from __future__ import annotations

from typing import Protocol

from store.dialect import Db, Query


class Posts(Protocol):
    """The queries of the daily post."""

    def claim_post(self, guild_id: int, day: str, now: str) -> bool: ...
    def finish_post(
        self, guild_id: int, day: str, status: str, channel_id: int | None,
        message_id: int | None, note: str | None, now: str,
    ) -> None: ...
    def post_status(self, guild_id: int, day: str) -> str | None: ...


CLAIM_POST = Query.both("""
    INSERT INTO daily_posts (guild_id, day, status, at)
    VALUES ({guild_id}, {day}, 'claimed', {now})
    ON CONFLICT DO NOTHING
""")
FINISH_POST = Query.both("""
    UPDATE daily_posts SET status = {status}, channel_id = {channel_id},
                           message_id = {message_id}, note = {note}, at = {now}
    WHERE guild_id = {guild_id} AND day = {day}
""")
SELECT_POST_STATUS = Query.both(
    "SELECT status FROM daily_posts WHERE guild_id = {guild_id} AND day = {day}"
)


class PostsSql:
    """:class:`Posts` over a :class:`~store.dialect.Db`."""

    db: Db

    def claim_post(self, guild_id: int, day: str, now: str) -> bool:
        params = {"guild_id": guild_id, "day": day, "now": now}
        return self.db.change(CLAIM_POST, params) == 1

    def finish_post(
        self, guild_id: int, day: str, status: str, channel_id: int | None,
        message_id: int | None, note: str | None, now: str,
    ) -> None:
        self.db.change(FINISH_POST, {
            "guild_id": guild_id, "day": day, "status": status, "channel_id": channel_id,
            "message_id": message_id, "note": note, "now": now,
        })

    def post_status(self, guild_id: int, day: str) -> str | None:
        row = self.db.one(SELECT_POST_STATUS, {"guild_id": guild_id, "day": day})
        return None if row is None else row["status"]
