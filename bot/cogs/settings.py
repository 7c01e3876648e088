"""/settings (a server's settings, for members with Manage Server) and /preferences (a
player's own), both answered only to the one who asks.

``/settings`` with no option shows the server's settings; with options it changes them, all
in one write, and answers with the settings as they now stand. Every option is checked here
as well as by Discord (a modified client can send anything); a refused change changes
nothing, not even the other options given with it:

- ``results-channel``: a text or announcement channel of this server in which the bot may
  View Channel, Send Messages and Embed Links. A channel where it may not is *refused*,
  saying what is missing: saved, it would only make every result line and daily post fail
  quietly, while the admin who just chose it is here to fix the permission and ask again;
- ``min-account-age``: whole days from 0 to 3650;
- ``daily-post`` and ``pictures``: ``on`` or ``off``;
- ``language``: the language of the server's public messages (the daily post, boards posted
  in channels), one the bot offers (``bot.i18n``), or ``auto``: the server's Discord language;
- ``champion-role``: a role of this server the bot can give: it needs Manage Roles, and the
  role must be below its own highest and not an integration's. One it cannot give is
  *refused*, saying what is missing (``bot.cogs.seasons.role_problem``).

The command is hidden from members without Manage Server (``default_permissions``) and from
DMs (``guild_only``); since a server can grant it to anyone under Integrations, Manage Server
is checked again when it runs.

``/preferences`` (anywhere, DMs included) keeps a player's own choices, each ``on`` or
``off``: ``pictures`` (table pictures), ``global-board`` (their name on the global boards)
``reminders`` (a DM when a streak is at risk: ``bot.cogs.reminders``), and ``language``
(the answers only they see; ``auto``: their Discord language). Server settings
and player preferences stay two commands, so neither depends on where it is typed.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.cogs.posts import missing_permissions
from bot.cogs.seasons import role_problem
from bot.i18n import AUTO, catalogs, language_choices
from bot.timestamps import clock
from core import Refusal
from core.clock import utc_day
from core.daily import day_number, next_deal_at
from core.errors import N_
from core.posts import Posts
from core.reminders import REMIND_BEFORE
from core.settings import (
    GLOBAL_BOARD,
    LANGUAGE,
    MAX_ACCOUNT_AGE_DAYS,
    PICTURES,
    PLAYER_DEFAULTS,
    REMINDERS,
    GuildSettings,
)

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

OnOff = Literal["on", "off"]
NEEDS_MANAGE_SERVER = N_(
    "Only members with the Manage Server permission can change these settings.")
SERVER_ONLY = N_(
    "Server settings are changed in the server, by members with Manage Server; your own "
    "choices are under `/preferences`."
)
#: The languages offered, by their own names (``auto`` first), as both commands list them.
LANGUAGES = language_choices(catalogs().codes)


class ChannelOption(app_commands.Transformer):
    """A text or announcement channel option, passed on as Discord resolved it (the cog looks
    the channel up itself, so an unknown one is a calm refusal rather than an error)."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [discord.ChannelType.text, discord.ChannelType.news]

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> Any:
        return value


class Settings(commands.Cog):
    """Server settings and player preferences."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot

    @app_commands.command(name="settings")
    @app_commands.rename(
        results_channel="results-channel", min_account_age="min-account-age",
        daily_post="daily-post", champion_role="champion-role",
    )
    @app_commands.choices(language=LANGUAGES)
    @app_commands.describe(
        results_channel="Where result lines and the daily post go",
        min_account_age=(
            "Daily runs from accounts younger than this many days are not ranked here (default 0)"
        ),
        daily_post="Post the new deals and yesterday's top three at 01:00 UTC (default on)",
        pictures="Table pictures on boards in this server (default on)",
        champion_role=("Given each month to each game's champion here, taken from last "
                       "month's (needs Manage Roles)"),
        language="The language of this server's public messages (default: the server's own)",
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        results_channel: app_commands.Transform[Any, ChannelOption] | None = None,
        min_account_age: app_commands.Range[int, 0, MAX_ACCOUNT_AGE_DAYS] | None = None,
        daily_post: OnOff | None = None,
        pictures: OnOff | None = None,
        champion_role: discord.Role | None = None,
        language: str | None = None,
    ) -> None:
        """Show or change this server's settings (needs Manage Server)."""
        guild = interaction.guild
        if interaction.guild_id is None or guild is None:
            return await self._refuse(interaction, SERVER_ONLY)
        allowed = interaction.permissions
        if not (allowed.manage_guild or allowed.administrator):
            return await self._refuse(interaction, NEEDS_MANAGE_SERVER)
        try:
            channel_id = _channel(guild, results_channel)
            age = _days(min_account_age)
            post, pics = _on_off("daily-post", daily_post), _on_off("pictures", pictures)
            role_id = _champion_role(guild, champion_role)
            code = _language(language)
            changed = [name for name, value in (
                ("results-channel", channel_id), ("min-account-age", age), ("daily-post", post),
                ("pictures", pics), ("champion-role", role_id), ("language", code),
            ) if value is not None]
            if changed:
                now = await self.bot.core.settings.change_guild(
                    guild.id, results_channel=channel_id, min_account_age=age,
                    daily_post=post, pictures=pics, champion_role=role_id, language=code,
                )
                log.info("settings of server %s changed by user %s: %s", guild.id,
                         interaction.user.id, ", ".join(changed))
            else:
                now = await self.bot.core.settings.guild(guild.id)
            text = settings_text(guild, now, changed)
            if {"results-channel", "daily-post"} & set(changed):
                text += await self._post_soon(guild.id, now)
        except Refusal as exc:
            return await self._refuse(interaction, exc)
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=replies.NO_MENTIONS
        )

    async def _post_soon(self, guild_id: int, now: GuildSettings) -> str:
        """A line saying the day's post goes out at once, when it is due and not sent yet
        (the poster's next pass, within a minute, picks it up)."""
        if not (now.daily_post and now.results_channel):
            return ""
        posts = Posts(self.bot.core.ctx, self.bot.core.daily)
        day = posts.due_day()
        if day is None or await posts.status(guild_id, day) is not None:
            return ""
        return (f"\nToday's post (daily #{day_number(day)}) goes out in "
                f"<#{now.results_channel}> within a minute.")

    @app_commands.command(name="preferences")
    @app_commands.rename(global_board="global-board")
    @app_commands.choices(language=LANGUAGES)
    @app_commands.describe(
        pictures="Table pictures on your boards (default on)",
        global_board="Your name on everyone's boards; off: \"a player\", at your rank (default on)",
        reminders="A direct message at 23:00 UTC when a streak is at risk (default off)",
        language="The language of the answers only you see (default: your Discord language)",
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def preferences(
        self, interaction: discord.Interaction[Any], pictures: OnOff | None = None,
        global_board: OnOff | None = None, reminders: OnOff | None = None,
        language: str | None = None,
    ) -> None:
        """Show or change your own preferences."""
        user_id = interaction.user.id
        try:
            # All checked before any is written: a refused option changes nothing.
            given = [(key, value) for key, value in (
                (PICTURES, _on_off("pictures", pictures)),
                (GLOBAL_BOARD, _on_off("global-board", global_board)),
                (REMINDERS, _on_off("reminders", reminders)),
                (LANGUAGE, _language(language)),
            ) if value is not None]
            prefs = await self.bot.core.settings.player(user_id)
            for key, value in given:
                prefs = await self.bot.core.settings.set_player(
                    user_id, key, value if isinstance(value, str) else "on" if value else "off"
                )
        except Refusal as exc:
            return await self._refuse(interaction, exc)
        if given:
            log.info("preferences of user %s changed: %s", user_id,
                     ", ".join(f"{key} {prefs[key]}" for key, _ in given))
        await interaction.response.send_message(
            preferences_text(prefs, changed=bool(given),
                             remind_at=remind_time(self.bot.core.ctx.clock())),
            ephemeral=True,
        )

    async def _refuse(self, interaction: discord.Interaction[Any], text: str | Refusal) -> None:
        command = interaction.command.name if interaction.command else "settings"
        log.info("refused: /%s, user %s, server %s: %s", command, interaction.user.id,
                 interaction.guild_id, str(text))
        await replies.notice(interaction, text)


class OptionRefused(Refusal):
    """An option's value is not one the command takes; nothing was changed."""


def _channel(guild: discord.Guild, value: Any) -> int | None:
    """The results channel's id, if the bot can post there (else a refusal saying why)."""
    if value is None:
        return None
    channel_id = getattr(value, "id", None)
    channel = guild.get_channel(channel_id) if isinstance(channel_id, int) else None
    if not isinstance(channel, discord.TextChannel):
        raise OptionRefused(
            "results-channel must be a text channel of this server; nothing was changed."
        )
    missing = missing_permissions(channel)
    if missing:
        raise OptionRefused(
            f"I cannot post in {channel.mention}: I need {_join(missing)} there. Nothing "
            "was changed; give me those permissions in that channel and choose it again."
        )
    return channel.id


def _champion_role(guild: discord.Guild, value: Any) -> int | None:
    """The champion role's id, if the bot can give it (else a refusal saying why)."""
    if value is None:
        return None
    role_id = getattr(value, "id", None)
    role = guild.get_role(role_id) if isinstance(role_id, int) else None
    if role is None:
        raise OptionRefused("champion-role must be a role of this server; nothing was changed.")
    problem = role_problem(guild, role)
    if problem is not None:
        raise OptionRefused(
            f"I cannot give {role.mention}: {problem}. Nothing was changed; fix that and "
            "choose it again."
        )
    return role.id


def _days(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not (
        0 <= value <= MAX_ACCOUNT_AGE_DAYS
    ):
        raise OptionRefused(
            f"min-account-age is a whole number of days from 0 to {MAX_ACCOUNT_AGE_DAYS}; "
            "nothing was changed."
        )
    return value


def _on_off(name: str, value: Any) -> bool | None:
    if value is None:
        return None
    if value not in ("on", "off"):
        raise OptionRefused(N_("{option} is on or off; nothing was changed."), option=name)
    return value == "on"


def _language(value: Any) -> str | None:
    """A language the bot offers, or ``auto`` (a modified client can send any text)."""
    if value is None:
        return None
    if value != AUTO and not catalogs().known(value):
        raise OptionRefused(
            N_("language is one of {languages}; nothing was changed."),
            languages=", ".join([AUTO, *catalogs().codes]),
        )
    return str(value)


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def settings_text(guild: discord.Guild, now: GuildSettings, changed: list[str]) -> str:
    """The server's settings as they stand, after a line naming what just changed."""
    head = (f"Changed {', '.join(changed)}. " if changed else "") + (
        f"The settings of **{discord.utils.escape_markdown(guild.name)}**:"
    )
    channel = f"<#{now.results_channel}>" if now.results_channel else "not set"
    if not now.daily_post:
        post = "off"
    elif now.results_channel:
        post = f"on (at 01:00 UTC in <#{now.results_channel}>)"
    else:
        post = "on, once a results channel is set"
    days = "day" if now.min_account_age == 1 else "days"
    return "\n".join([
        head,
        f"- results-channel: {channel} (result lines and the daily post)",
        f"- min-account-age: {now.min_account_age} {days} (younger accounts are not ranked "
        "on this server's board)",
        f"- daily-post: {post}",
        f"- pictures: {'on' if now.pictures else 'off'} (table pictures on boards)",
        "- champion-role: " + (f"<@&{now.champion_role}>" if now.champion_role else "not set")
        + " (given each month to each game's champion of this server)",
        f"- language: {_language_name(now.language)} (the server's public messages)",
    ])


def _language_name(code: str | None) -> str:
    """A stored language choice as a reader recognises it: ``Français (fr)``, or auto."""
    books = catalogs()
    if code is None or not books.known(code):
        return "auto (the server's Discord language)"
    return f"{books.languages[code].name} ({code})"


def remind_time(now: datetime) -> datetime:
    """When today's streak reminders go out: the last hour of today's deal."""
    return next_deal_at(utc_day(now).isoformat()) - REMIND_BEFORE


def preferences_text(prefs: dict[str, str], *, changed: bool, remind_at: datetime) -> str:
    """A player's preferences as they stand (defaults for those never set); ``remind_at`` is
    when reminders go out, shown in the player's own time."""
    shown = {key: prefs.get(key, default) for key, default in PLAYER_DEFAULTS.items()}
    board = ("your name on the global boards" if shown[GLOBAL_BOARD] == "on"
             else "the global boards list you as \"a player\", at your true rank; server "
             "boards still name you")
    remind = (f"a direct message at {clock(remind_at)}, an hour before today's deal ends, "
              "when a streak is at risk"
              if shown[REMINDERS] == "on" else "no direct messages")
    return "\n".join([
        "Your preferences are now:" if changed else "Your preferences:",
        f"- pictures: **{shown[PICTURES]}** (table pictures on your boards)",
        f"- global-board: **{shown[GLOBAL_BOARD]}** ({board})",
        f"- reminders: **{shown[REMINDERS]}** ({remind})",
        f"- language: **{shown[LANGUAGE]}** (the answers only you see; auto: your Discord "
        "language)",
    ])


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Settings(bot))
