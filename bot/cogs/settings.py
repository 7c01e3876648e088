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
from bot.i18n import AUTO, ENGLISH, Language, catalogs, language_choices, reader_language
from bot.timestamps import clock
from core import Refusal
from core.clock import utc_day
from core.daily import day_number, next_deal_at
from core.errors import N_, Message, Nn_
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

# The answers' sentences. Option names (``results-channel``) and values (``on``) stay English,
# as the commands take them, so they are outside the words.
POST_SOON = N_("Today's post (daily #{day}) goes out in {channel} within a minute.")
NOT_TEXT_CHANNEL = N_(
    "results-channel must be a text channel of this server; nothing was changed.")
CANNOT_POST = N_(
    "I cannot post in {channel}: I need {permissions} there. Nothing was changed; give me "
    "those permissions in that channel and choose it again.")
#: Discord's names of the permissions a results channel needs, as
#: ``posts.missing_permissions`` gives them: marked here so that :func:`_join` says them.
PERMISSION_NAMES = (N_("View Channel"), N_("Send Messages"), N_("Embed Links"))
NOT_A_ROLE = N_("champion-role must be a role of this server; nothing was changed.")
CANNOT_GIVE = N_(
    "I cannot give {role}: {problem}. Nothing was changed; fix that and choose it again.")
BAD_DAYS = N_(
    "min-account-age is a whole number of days from 0 to {most}; nothing was changed.")
CHANGED = N_("Changed {options}.")
SETTINGS_OF = N_("The settings of **{server}**:")
NOT_SET = N_("not set")
POST_AT = N_("`on` (at 01:00 UTC in {channel})")
POST_WAITS = N_("`on`, once a results channel is set")
CHANNEL_LINE = N_("{channel} (result lines and the daily post)")
AGE_LINE = Nn_("{count} day (younger accounts are not ranked on this server's board)",
               "{count} days (younger accounts are not ranked on this server's board)")
PICTURES_LINE = N_("{value} (table pictures on boards)")
ROLE_LINE = N_("{role} (given each month to each game's champion of this server)")
LANGUAGE_LINE = N_("{language} (the server's public messages)")
SERVER_AUTO = N_("`auto` (the server's Discord language)")
YOURS_NOW = N_("Your preferences are now:")
YOURS = N_("Your preferences:")
MY_PICTURES = N_("{value} (table pictures on your boards)")
NAMED = N_("your name on the global boards")
UNNAMED = N_("the global boards list you as \"a player\", at your true rank; server boards "
             "still name you")
MY_BOARD = N_("{value} ({board})")
REMINDED = N_("a direct message at {time}, an hour before today's deal ends, when a streak "
              "is at risk")
NOT_REMINDED = N_("no direct messages")
MY_REMINDERS = N_("{value} ({reminders})")
MY_LANGUAGE = N_("{value} (the answers only you see; `auto`: your Discord language)")


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
            language = await reader_language(self.bot, interaction)
            text = settings_text(guild, now, changed, language)
            if {"results-channel", "daily-post"} & set(changed):
                text += await self._post_soon(guild.id, now, language)
        except Refusal as exc:
            return await self._refuse(interaction, exc)
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=replies.NO_MENTIONS
        )

    async def _post_soon(self, guild_id: int, now: GuildSettings,
                         language: Language = ENGLISH) -> str:
        """A line saying the day's post goes out at once, when it is due and not sent yet
        (the poster's next pass, within a minute, picks it up)."""
        if not (now.daily_post and now.results_channel):
            return ""
        posts = Posts(self.bot.core.ctx, self.bot.core.daily)
        day = posts.due_day()
        if day is None or await posts.status(guild_id, day) is not None:
            return ""
        return "\n" + language.format(POST_SOON, day=day_number(day),
                                      channel=f"<#{now.results_channel}>")

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
        # Read after the change: /preferences language:fr answers in French at once.
        language = await reader_language(self.bot, interaction)
        await interaction.response.send_message(
            preferences_text(prefs, changed=bool(given),
                             remind_at=remind_time(self.bot.core.ctx.clock()),
                             language=language),
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
        raise OptionRefused(NOT_TEXT_CHANNEL)
    missing = missing_permissions(channel)
    if missing:
        raise OptionRefused(CANNOT_POST, channel=channel.mention, permissions=_join(missing))
    return channel.id


def _champion_role(guild: discord.Guild, value: Any) -> int | None:
    """The champion role's id, if the bot can give it (else a refusal saying why)."""
    if value is None:
        return None
    role_id = getattr(value, "id", None)
    role = guild.get_role(role_id) if isinstance(role_id, int) else None
    if role is None:
        raise OptionRefused(NOT_A_ROLE)
    problem = role_problem(guild, role)
    if problem is not None:
        raise OptionRefused(CANNOT_GIVE, role=role.mention, problem=problem)
    return role.id


def _days(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not (
        0 <= value <= MAX_ACCOUNT_AGE_DAYS
    ):
        raise OptionRefused(BAD_DAYS, most=MAX_ACCOUNT_AGE_DAYS)
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


def _join(words: list[str]) -> Message:
    """Marked words joined as a sentence lists them, each said in the reader's language:
    ``A, B and C``."""
    said = [Message(word, {}) for word in words]
    if len(said) == 1:
        return said[0]
    others = said[0]
    for word in said[1:-1]:
        others = Message(N_("{first}, {then}"), {"first": others, "then": word})
    return Message(N_("{others} and {last}"), {"others": others, "last": said[-1]})


def settings_text(guild: discord.Guild, now: GuildSettings, changed: list[str],
                  language: Language = ENGLISH) -> str:
    """The server's settings as they stand, after a line naming what just changed, in
    ``language``."""
    say = language.format
    head = say(SETTINGS_OF, server=discord.utils.escape_markdown(guild.name))
    if changed:
        head = f"{say(CHANGED, options=', '.join(f'`{name}`' for name in changed))} {head}"
    channel = f"<#{now.results_channel}>" if now.results_channel else language.render(NOT_SET)
    if not now.daily_post:
        post = "`off`"  # a value, typed as it is in every language
    elif now.results_channel:
        post = say(POST_AT, channel=f"<#{now.results_channel}>")
    else:
        post = language.render(POST_WAITS)
    role = f"<@&{now.champion_role}>" if now.champion_role else language.render(NOT_SET)
    age = language.render(Message(AGE_LINE[0], {}, plural=AGE_LINE[1],
                                  count=now.min_account_age))
    return "\n".join([
        head,
        f"- `results-channel`: {say(CHANNEL_LINE, channel=channel)}",
        f"- `min-account-age`: {age}",
        f"- `daily-post`: {post}",
        f"- `pictures`: {say(PICTURES_LINE, value='`on`' if now.pictures else '`off`')}",
        f"- `champion-role`: {say(ROLE_LINE, role=role)}",
        f"- `language`: {say(LANGUAGE_LINE, language=_language_name(now.language, language))}",
    ])


def _language_name(code: str | None, language: Language = ENGLISH) -> str:
    """A stored language choice as a reader recognises it: ``Français (fr)``, or auto."""
    books = catalogs()
    if code is None or not books.known(code):
        return language.render(SERVER_AUTO)
    return f"{books.languages[code].name} ({code})"


def remind_time(now: datetime) -> datetime:
    """When today's streak reminders go out: the last hour of today's deal."""
    return next_deal_at(utc_day(now).isoformat()) - REMIND_BEFORE


def preferences_text(prefs: dict[str, str], *, changed: bool, remind_at: datetime,
                     language: Language = ENGLISH) -> str:
    """A player's preferences as they stand (defaults for those never set), in ``language``;
    ``remind_at`` is when reminders go out, shown in the player's own time."""
    say = language.format
    shown = {key: prefs.get(key, default) for key, default in PLAYER_DEFAULTS.items()}
    board = language.render(NAMED if shown[GLOBAL_BOARD] == "on" else UNNAMED)
    remind = (say(REMINDED, time=clock(remind_at)) if shown[REMINDERS] == "on"
              else language.render(NOT_REMINDED))
    return "\n".join([
        language.render(YOURS_NOW if changed else YOURS),
        f"- `pictures`: {say(MY_PICTURES, value=f'`{shown[PICTURES]}`')}",
        f"- `global-board`: {say(MY_BOARD, value=f'`{shown[GLOBAL_BOARD]}`', board=board)}",
        f"- `reminders`: {say(MY_REMINDERS, value=f'`{shown[REMINDERS]}`', reminders=remind)}",
        f"- `language`: {say(MY_LANGUAGE, value=f'`{shown[LANGUAGE]}`')}",
    ])


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Settings(bot))
