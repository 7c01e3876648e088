"""The bot: a ``commands.Bot`` that opens the core, routes the buttons and loads the cogs.

``create_bot(...)`` builds it; ``setup_hook`` (run by ``login``) opens the core on the
database (applying migrations), routes button clicks by their custom ids, loads the cogs,
gives the command tree its translator (``bot.i18n``: Discord shows the commands in each
player's language), syncs the slash commands only when their definitions or translations
changed, and logs the invite link.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import command_sync, fastpath, replies
from bot.buttons import ClickRouter
from bot.callbacks import Callbacks
from bot.cogs.table import table_off
from bot.custom_ids import TABLE
from bot.dressing import TablePictures
from bot.i18n import CommandTranslator, catalogs
from bot.pictures.emoji import sync_card_emoji
from bot.presenter import Presenter
from core import Core
from core.errors import N_
from store import is_postgres_url, singleton

log = logging.getLogger(__name__)

EXTENSIONS = (
    "bot.cogs.play", "bot.cogs.daily", "bot.cogs.boards", "bot.cogs.info",
    "bot.cogs.settings",
    "bot.cogs.posts", "bot.cogs.seasons",
    "bot.cogs.challenges", "bot.cogs.series",
    "bot.cogs.replays", "bot.cogs.par", "bot.cogs.ratings", "bot.cogs.reminders",
)
#: Loaded only when the Activity is on (``ACTIVITY``, docs/activity.md): /table and the
#: boards' Open table button.
ACTIVITY_EXTENSIONS = ("bot.cogs.table",)

SCOPES = ("bot", "applications.commands")
#: Boards are sent and edited as interaction responses, which need no channel permission;
#: these are what a server admin expects a game bot to have, and what a channel it posts to
#: must allow if that ever changes.
PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)

SyncMode = Literal["auto", "force", "never"]


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server, with its scopes and permissions."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


#: The answer to a slash command whose options no client of ours would send.
ODD_OPTIONS = N_(
    "That command came with an option I do not know, or of the wrong kind, so nothing was "
    "done: use it as Discord offers it."
)


class Tree(app_commands.CommandTree["DungeonBot"]):
    """The command tree: options are checked against the commands' own declarations before
    any command runs, and an unexpected error in a command gets an ephemeral error id."""

    async def interaction_check(self, interaction: discord.Interaction[DungeonBot], /) -> bool:
        """Refuse, in one sentence, options of a kind the command does not declare: a stale or
        modified client can send a text where a flag belongs, or a name nobody declared."""
        if interaction.type is not discord.InteractionType.application_command:
            return True
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        command = self.get_command(str(data.get("name", "")), guild=interaction.guild)
        if command is None:
            command = self.get_command(str(data.get("name", "")))
        if not isinstance(command, app_commands.Command):
            return True
        declared = {p.display_name: p.type.value for p in command.parameters}
        for option in data.get("options") or []:
            if declared.get(option.get("name")) != option.get("type"):
                log.info("refused: /%s from user %s with option %r of type %r", command.name,
                         interaction.user.id, str(option.get("name"))[:40], option.get("type"))
                await replies.notice(interaction, ODD_OPTIONS)
                return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[DungeonBot], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)  # CommandInvokeError wraps the cause
        await replies.unexpected(interaction, original)


class DungeonBot(commands.Bot):
    """Dungeon Deck's bot. ``core`` exists once ``setup_hook`` has run."""

    core: Core

    def __init__(
        self,
        database_path: str | Path,
        *,
        daily_secret: str | None = None,
        dev_guild_id: int | None = None,
        sync: SyncMode = "auto",
        clock: Callable[[], datetime] | None = None,
        random_seed: Callable[[], int] | None = None,
        read_url: str | None = None,
        pool_size: int | None = None,
        pictures: bool = True,
        card_emoji: bool = True,
        card_colours: str = "four",
        solve_par: bool = True,
        rate_days: bool = True,
        remind: bool = True,
        embedded_activity: bool = False,
        **shards: object,
    ) -> None:
        # Slash commands and buttons only: no message content, no members.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
            tree_cls=Tree,
            **shards,  # shard_count and shard_ids: see ShardedDungeonBot
        )
        # A SQLite file's path, or a PostgreSQL URL (DATABASE_URL).
        self.database_path: str | Path = (
            database_path if is_postgres_url(database_path) else Path(database_path)
        )
        self._read_url = read_url
        self._pool_size = pool_size
        self.daily_secret = daily_secret
        self.dev_guild_id = dev_guild_id
        self.sync_mode: SyncMode = sync
        self._clock = clock
        self._random_seed = random_seed
        # Clicks on our own buttons skip discord.py's parse of the clicked board
        # (``bot.fastpath``); every other interaction takes discord.py's path.
        fastpath.install(self)
        self.clicks = ClickRouter()
        self.add_listener(self.clicks.on_interaction, "on_interaction")
        #: Table pictures on boards (a server or a player can still turn them off).
        self.pictures = pictures
        #: The card-face emoji's inks (``CARD_COLOURS``): ``four`` or ``two``.
        self.card_colours = card_colours
        self.table_pictures = TablePictures(self)
        #: Every cog answers with a run's board through it (``bot.presenter``).
        self.presenter = Presenter(self)
        #: Card code -> its application emoji, once synced (empty: text cards).
        self.card_emoji: dict[str, discord.PartialEmoji] = {}
        self._sync_emoji = card_emoji
        #: Solve each closed day's deals in the background (``bot.cogs.par``); tests turn it
        #: off and run its passes themselves.
        self.solve_par = solve_par
        #: Rate each closed day's boards in the background (``bot.cogs.ratings``); tests turn
        #: it off and run its passes themselves.
        self.rate_days = rate_days
        #: Send the streak reminders in the background (``bot.cogs.reminders``); tests turn
        #: it off and run its passes themselves.
        self.remind = remind
        #: The Activity is on (``ACTIVITY``): /table, and an Open table button on boards
        #: (not ``activity``: that is discord.py's presence).
        self.embedded_activity = embedded_activity
        self._emoji_task: asyncio.Task[None] | None = None
        #: Where the answers of the bot's own boards are POSTed (``bot.callbacks``): set by
        #: ``python -m bot`` once logged in; None (the harnesses' bots): discord.py's adapter.
        self.callbacks: Callbacks | None = None

    async def setup_hook(self) -> None:
        if isinstance(self.database_path, Path):
            self.database_path.parent.mkdir(parents=True, exist_ok=True)
        self.core = await Core.open(
            self.database_path,
            daily_secret=self.daily_secret,
            clock=self._clock,
            random_seed=self._random_seed,
            read_url=self._read_url,
            pool_size=self._pool_size,
        )
        if self.pictures:
            self.table_pictures.warm()  # the worker started before the first click needs it
        for extension in self.extensions_to_load():
            await self.load_extension(extension)
        if not self.embedded_activity:  # boards drawn while it was on still say something true
            self.clicks.register(TABLE, table_off)
        await self.tree.set_translator(CommandTranslator())
        if self.sync_mode != "never":
            # Several processes (shards) may start at once: they sync one after another, and
            # the hash kept in the database makes every one but the first find nothing to do.
            async with singleton(self.core.store, "sync-commands", wait=True):
                await self.sync_commands(force=self.sync_mode == "force")
        assert self.application_id is not None  # set by login before setup_hook
        log.info("Invite link: %s", invite_url(self.application_id))
        if self._sync_emoji:
            # In the background: Discord's upload limits can make a first sync slow, and
            # boards use text cards until it is done.
            self._emoji_task = asyncio.create_task(self.load_card_emoji())

    def extensions_to_load(self) -> tuple[str, ...]:
        """The cogs this bot runs: every one, and the Activity's when it is on."""
        return EXTENSIONS + (ACTIVITY_EXTENSIONS if self.embedded_activity else ())

    async def load_card_emoji(self) -> None:
        """Upload the card faces that are missing or changed; use them on boards after."""
        async with singleton(self.core.store, "card-emoji", wait=True):
            self.card_emoji = dict(await sync_card_emoji(
                self, _MetaStore(self.core), colours=self.card_colours))
        if self.card_emoji:
            log.info("Card emoji ready: %d faces", len(self.card_emoji))

    async def close(self) -> None:
        if self._emoji_task is not None:
            self._emoji_task.cancel()
        if self.callbacks is not None:
            await self.callbacks.close()
        await self.table_pictures.close()
        await super().close()
        core = getattr(self, "core", None)
        if core is not None:
            await core.close()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the slash commands if they changed since the last sync (or ``force``).

        Commands go to the dev guild when ``dev_guild_id`` is set (they appear there at once),
        else globally. The hash of what was synced is kept in the database's meta table, per
        application and target. Returns whether a sync happened.

        The sync is a bulk overwrite that keeps the Activity's Entry Point command, which
        Discord made and the tree cannot hold (:mod:`bot.command_sync`); it is not part of
        the hash: a sync happens only when our own commands change.
        """
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        target = f"guild {guild.id}" if guild is not None else "global"
        key = f"commands.sha256:{self.application_id}:{target}"
        digest = self.commands_hash(guild)
        if not force and await self.core.settings.meta(key) == digest:
            log.info("Slash commands unchanged since the last sync (%s); not syncing", target)
            return False
        synced = await command_sync.overwrite(self.tree, guild)
        await self.core.settings.set_meta(key, digest)
        log.info("Synced %d slash commands (%s)", len(synced), target)
        return True

    def commands_hash(self, guild: discord.abc.Snowflake | None = None) -> str:
        """A hash of the command payloads a sync to ``guild`` (None: global) would send, and
        of the translations it would send with them."""
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        if self.tree.translator is not None:
            payload.append({"translations": catalogs().digest})
        blob = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(blob.encode()).hexdigest()


class ShardedDungeonBot(DungeonBot, commands.AutoShardedBot):
    """The same bot on several shards in one process (``SHARD_COUNT`` and ``SHARD_IDS``):
    discord.py's ``AutoShardedBot``, one gateway connection per shard. Each server's events
    reach only the process holding its shard; every process shares one PostgreSQL database."""


def create_bot(
    database_path: str | Path,
    *,
    shard_count: int | None = None,
    shard_ids: Sequence[int] | None = None,
    sharded: bool = False,
    **options: Any,
) -> DungeonBot:
    """A new, not yet logged-in bot on a database (the factory tests and ``__main__`` use).

    With ``shard_count`` (and ``shard_ids``, default all of them), or ``sharded`` (as many
    shards as Discord recommends), a :class:`ShardedDungeonBot` running those shards.
    """
    if shard_count is None and shard_ids is None and not sharded:
        return DungeonBot(database_path, **options)
    return ShardedDungeonBot(
        database_path, shard_count=shard_count,
        shard_ids=None if shard_ids is None else list(shard_ids), **options,
    )


class _MetaStore:
    """The meta table as the key-value store the emoji sync keeps its hashes in."""

    def __init__(self, core: Core) -> None:
        self._core = core

    async def get(self, key: str) -> str | None:
        return await self._core.settings.meta(key)

    async def set(self, key: str, value: str) -> None:
        await self._core.settings.set_meta(key, value)


__all__ = [
    "PERMISSIONS", "SCOPES", "DungeonBot", "ShardedDungeonBot", "Tree", "create_bot",
    "invite_url",
]
