"""Settings kept in the database: per-server settings, per-player preferences, meta values.

Server settings (changed with ``/settings``, which needs Manage Server):

- ``results-channel``: the channel id where result lines and the daily post go;
- ``min-account-age``: days; daily runs from younger Discord accounts are played but not
  ranked on that server's board (the usual defence against scouting the deal with a second
  account). Default 0;
- ``daily-post``: ``on`` or ``off`` (default on, once a results channel is set);
- ``pictures``: ``on`` or ``off``, table pictures on boards (default on);
- ``champion-role``: a role id; at each month's close the bot gives it to the server's
  champion of each game and takes it from last month's (``core.seasons``). Default none;
- ``language``: the language of the server's public messages (boards posted in channels,
  the daily post, result lines), a language code the adapter offers (``bot.i18n``). Absent:
  the server's Discord language.

Player preferences (``/preferences``), each ``on`` or ``off``:

- ``pictures``: table pictures on the player's boards (default on);
- ``global-board``: the player's name on the global boards (default on). Off, they keep
  their line and their true rank there, shown as "a player"; server boards still name them.
  Kept here and mirrored on the player's ``players`` row, which the boards read;
- ``reminders``: a direct message when a streak is at risk (``core.reminders``; default off);
- ``language``: the language of the answers only the player sees, a language code, or
  ``auto`` (the default): their Discord language.

Which language codes exist is the adapter's business (its catalogs); the core keeps the code.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from core.checks import check_id
from core.context import Context
from core.errors import N_, BadRequest
from store.base import Tx

#: How long a pictures switch read is trusted, and how many are kept.
PICTURES_TTL = 60.0
PICTURES_CACHED = 10_000

RESULTS_CHANNEL = "results-channel"
MIN_ACCOUNT_AGE = "min-account-age"
DAILY_POST = "daily-post"
PICTURES = "pictures"
CHAMPION_ROLE = "champion-role"
GLOBAL_BOARD = "global-board"
REMINDERS = "reminders"
LANGUAGE = "language"
#: A language setting that follows Discord's.
AUTO = "auto"
#: The player preferences and their defaults.
PLAYER_DEFAULTS = {PICTURES: "on", GLOBAL_BOARD: "on", REMINDERS: "off", LANGUAGE: AUTO}
_LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$")
#: The longest min-account-age accepted, in days (Discord itself is younger than this).
MAX_ACCOUNT_AGE_DAYS = 3650


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings, read with their defaults."""

    results_channel: int | None = None
    min_account_age: int = 0
    daily_post: bool = True
    pictures: bool = True
    champion_role: int | None = None
    language: str | None = None  # None: the server's Discord language

    @classmethod
    def parse(cls, stored: dict[str, str]) -> GuildSettings:
        channel = stored.get(RESULTS_CHANNEL, "")
        age = stored.get(MIN_ACCOUNT_AGE, "0")
        return cls(
            results_channel=int(channel) if channel.isdigit() else None,
            min_account_age=int(age) if age.isdigit() else 0,
            daily_post=stored.get(DAILY_POST, "on") != "off",
            pictures=stored.get(PICTURES, "on") != "off",
            champion_role=_id_or_none(stored.get(CHAMPION_ROLE, "")),
            language=_language_or_none(stored.get(LANGUAGE, AUTO)),
        )


class Settings:
    """Per-server settings, player preferences and meta values (command-sync hashes, ...)."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        # The pictures switch is read on every click: kept here for PICTURES_TTL seconds
        # (changes made through this process apply at once; another process's within that).
        self._pictures: dict[tuple[int | None, int], tuple[bool, float]] = {}
        # The language choices, read on every answer that speaks: cached the same way.
        self._languages: dict[tuple[int | None, int],
                              tuple[tuple[str | None, str | None], float]] = {}

    async def guild(self, guild_id: int) -> GuildSettings:
        """A server's settings."""
        stored = await self._ctx.store.read(_guild, check_id(guild_id, "server"))
        return GuildSettings.parse(stored)

    async def change_guild(
        self,
        guild_id: int,
        *,
        results_channel: int | None = None,
        min_account_age: int | None = None,
        daily_post: bool | None = None,
        pictures: bool | None = None,
        champion_role: int | None = None,
        language: str | None = None,
    ) -> GuildSettings:
        """Change the given settings of a server, in one transaction; all of them as they now
        stand. ``BadRequest`` for a value out of range (nothing is changed then)."""
        changes: dict[str, str] = {}
        if results_channel is not None:
            changes[RESULTS_CHANNEL] = str(check_id(results_channel, "channel"))
        if min_account_age is not None:
            if not 0 <= min_account_age <= MAX_ACCOUNT_AGE_DAYS:
                raise BadRequest(N_("min-account-age is a number of days from 0 to {most}."),
                                 most=MAX_ACCOUNT_AGE_DAYS)
            changes[MIN_ACCOUNT_AGE] = str(min_account_age)
        if daily_post is not None:
            changes[DAILY_POST] = "on" if daily_post else "off"
        if pictures is not None:
            changes[PICTURES] = "on" if pictures else "off"
        if champion_role is not None:
            changes[CHAMPION_ROLE] = str(check_id(champion_role, "role"))
        if language is not None:
            changes[LANGUAGE] = check_language(language)
        stored = await self._ctx.store.write(_set_guild, check_id(guild_id, "server"), changes)
        if pictures is not None:
            self._pictures = {k: v for k, v in self._pictures.items() if k[0] != guild_id}
        if language is not None:
            self._languages = {k: v for k, v in self._languages.items() if k[0] != guild_id}
        return GuildSettings.parse(stored)

    async def guilds_with_results_channel(self) -> list[tuple[int, GuildSettings]]:
        """Every server with a results channel, with its settings."""
        return await self._ctx.store.read(_with_results_channel)

    async def pictures_on(self, guild_id: int | None, user_id: int) -> bool:
        """Whether boards show table pictures for this player here: on unless the server or
        the player turned them off (read at most once a minute per player and server)."""
        key = (guild_id, check_id(user_id, "user"))
        now = time.monotonic()
        found = self._pictures.get(key)
        if found is not None and found[1] > now:
            return found[0]
        on = await self._ctx.store.read(_pictures_on, guild_id, user_id)
        if len(self._pictures) >= PICTURES_CACHED:
            self._pictures.clear()
        self._pictures[key] = (on, now + PICTURES_TTL)
        return on

    async def languages(self, guild_id: int | None, user_id: int) -> tuple[str | None, str | None]:
        """The player's chosen language and the server's (None: Discord's), read at most once
        a minute per player and server as :meth:`pictures_on`."""
        key = (guild_id, check_id(user_id, "user"))
        now = time.monotonic()
        found = self._languages.get(key)
        if found is not None and found[1] > now:
            return found[0]
        chosen = await self._ctx.store.read(_languages, guild_id, user_id)
        if len(self._languages) >= PICTURES_CACHED:
            self._languages.clear()
        self._languages[key] = (chosen, now + PICTURES_TTL)
        return chosen

    async def player(self, user_id: int) -> dict[str, str]:
        return await self._ctx.store.read(_player, check_id(user_id, "user"))

    async def set_player(self, user_id: int, key: str, value: str) -> dict[str, str]:
        """Set one preference; all of the player's stored preferences after it (the command
        checks the values: ``bot.cogs.settings``)."""
        if key == LANGUAGE:
            value = check_language(value)
        stored = await self._ctx.store.write(
            _set_player, check_id(user_id, "user"), key, value, self._ctx.now()
        )
        self._pictures = {k: v for k, v in self._pictures.items() if k[1] != user_id}
        self._languages = {k: v for k, v in self._languages.items() if k[1] != user_id}
        return stored

    async def meta(self, key: str) -> str | None:
        return await self._ctx.store.read(_meta, key)

    async def set_meta(self, key: str, value: str) -> None:
        await self._ctx.store.write(_set_meta, key, value)


def check_language(code: str) -> str:
    """A language code as stored (``fr``, ``pt-BR``) or ``auto``; ``BadRequest`` else."""
    if not isinstance(code, str) or not (code == AUTO or _LANGUAGE_CODE.match(code)):
        raise BadRequest(N_("{code} is not a language code (like fr or pt-BR)."),
                         code=repr(str(code)[:40]))
    return code


def _language_or_none(code: str | None) -> str | None:
    return None if code is None or code == AUTO or not _LANGUAGE_CODE.match(code) else code


def _id_or_none(text: str) -> int | None:
    return int(text) if text.isdigit() and int(text) > 0 else None


def _guild(tx: Tx, guild_id: int) -> dict[str, str]:
    return tx.guild_settings(guild_id)


def _set_guild(tx: Tx, guild_id: int, changes: dict[str, str]) -> dict[str, str]:
    for key, value in changes.items():
        tx.set_guild_setting(guild_id, key, value)
    return tx.guild_settings(guild_id)


def _with_results_channel(tx: Tx) -> list[tuple[int, GuildSettings]]:
    return [
        (guild_id, GuildSettings.parse(tx.guild_settings(guild_id)))
        for guild_id, _ in tx.guilds_with_setting(RESULTS_CHANNEL)
    ]


def _pictures_on(tx: Tx, guild_id: int | None, user_id: int) -> bool:
    if tx.player_settings(user_id).get(PICTURES) == "off":
        return False
    return guild_id is None or GuildSettings.parse(tx.guild_settings(guild_id)).pictures


def _languages(tx: Tx, guild_id: int | None, user_id: int) -> tuple[str | None, str | None]:
    player = _language_or_none(tx.player_settings(user_id).get(LANGUAGE))
    server = None if guild_id is None else GuildSettings.parse(tx.guild_settings(guild_id)).language
    return player, server


def _player(tx: Tx, user_id: int) -> dict[str, str]:
    return tx.player_settings(user_id)


def _set_player(tx: Tx, user_id: int, key: str, value: str, now: str) -> dict[str, str]:
    tx.set_player_setting(user_id, key, value)
    if key == GLOBAL_BOARD:  # the boards read it from the player's row, in the same write
        tx.set_player_hidden(user_id, value == "off", now)
    return tx.player_settings(user_id)


def _meta(tx: Tx, key: str) -> str | None:
    return tx.meta(key)


def _set_meta(tx: Tx, key: str, value: str) -> None:
    tx.set_meta(key, value)
