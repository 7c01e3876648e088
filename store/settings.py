"""Meta keys, servers' and players' settings, and the names players are shown by."""

from __future__ import annotations

from typing import Protocol

from store.dialect import Db, Query


class Settings(Protocol):
    """The queries of meta keys, settings and player names."""

    def meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...
    def add_meta(self, key: str, value: str) -> str: ...
    def guild_settings(self, guild_id: int) -> dict[str, str]: ...
    def set_guild_setting(self, guild_id: int, key: str, value: str) -> None: ...
    def guilds_with_setting(self, key: str) -> list[tuple[int, str]]: ...
    def player_settings(self, user_id: int) -> dict[str, str]: ...
    def set_player_setting(self, user_id: int, key: str, value: str) -> None: ...
    def set_player_name(self, user_id: int, name: str, now: str) -> None: ...
    def set_player_hidden(self, user_id: int, hidden: bool, now: str) -> None: ...


SELECT_META = Query.both("SELECT value FROM meta WHERE key = {key}")
UPSERT_META = Query.both("""
    INSERT INTO meta (key, value) VALUES ({key}, {value})
    ON CONFLICT (key) DO UPDATE SET value = excluded.value
""")
INSERT_META_IF_ABSENT = Query.both(
    "INSERT INTO meta (key, value) VALUES ({key}, {value}) ON CONFLICT DO NOTHING"
)
SELECT_GUILD_SETTINGS = Query.both(
    "SELECT key, value FROM guild_settings WHERE guild_id = {guild_id}"
)
UPSERT_GUILD_SETTING = Query.both("""
    INSERT INTO guild_settings (guild_id, key, value) VALUES ({guild_id}, {key}, {value})
    ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value
""")
SELECT_GUILDS_WITH = Query.both(
    "SELECT guild_id, value FROM guild_settings WHERE key = {key} ORDER BY guild_id"
)
SELECT_PLAYER_SETTINGS = Query.both(
    "SELECT key, value FROM player_settings WHERE user_id = {user_id}"
)
UPSERT_PLAYER_SETTING = Query.both("""
    INSERT INTO player_settings (user_id, key, value) VALUES ({user_id}, {key}, {value})
    ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value
""")
UPSERT_PLAYER = Query.both("""
    INSERT INTO players (user_id, name, updated_at) VALUES ({user_id}, {name}, {now})
    ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
    WHERE players.name <> excluded.name
""")
# A player hidden before they ever played gets a nameless row (named when they next play).
UPSERT_PLAYER_HIDDEN = Query.both("""
    INSERT INTO players (user_id, name, updated_at, hidden)
    VALUES ({user_id}, '', {now}, {hidden})
    ON CONFLICT (user_id) DO UPDATE SET hidden = excluded.hidden
""")


class SettingsSql:
    """:class:`Settings` over a :class:`~store.dialect.Db`."""

    db: Db

    def meta(self, key: str) -> str | None:
        row = self.db.one(SELECT_META, {"key": key})
        return None if row is None else row["value"]

    def set_meta(self, key: str, value: str) -> None:
        self.db.change(UPSERT_META, {"key": key, "value": value})

    def add_meta(self, key: str, value: str) -> str:
        self.db.change(INSERT_META_IF_ABSENT, {"key": key, "value": value})
        stored = self.meta(key)
        assert stored is not None
        return stored

    def guild_settings(self, guild_id: int) -> dict[str, str]:
        rows = self.db.all(SELECT_GUILD_SETTINGS, {"guild_id": guild_id})
        return {row["key"]: row["value"] for row in rows}

    def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        self.db.change(UPSERT_GUILD_SETTING, {"guild_id": guild_id, "key": key, "value": value})

    def guilds_with_setting(self, key: str) -> list[tuple[int, str]]:
        rows = self.db.all(SELECT_GUILDS_WITH, {"key": key})
        return [(row["guild_id"], row["value"]) for row in rows]

    def player_settings(self, user_id: int) -> dict[str, str]:
        rows = self.db.all(SELECT_PLAYER_SETTINGS, {"user_id": user_id})
        return {row["key"]: row["value"] for row in rows}

    def set_player_setting(self, user_id: int, key: str, value: str) -> None:
        self.db.change(UPSERT_PLAYER_SETTING, {"user_id": user_id, "key": key, "value": value})

    def set_player_name(self, user_id: int, name: str, now: str) -> None:
        # Queued: on PostgreSQL it goes with the transaction's next statement (a daily start's
        # read), or with its COMMIT.
        self.db.queue(UPSERT_PLAYER, {"user_id": user_id, "name": name, "now": now})

    def set_player_hidden(self, user_id: int, hidden: bool, now: str) -> None:
        """Whether the player's name is left out of the global boards (``players.hidden``,
        which the boards read; the preference itself is kept in ``player_settings``)."""
        self.db.change(UPSERT_PLAYER_HIDDEN,
                       {"user_id": user_id, "now": now, "hidden": 1 if hidden else 0})
