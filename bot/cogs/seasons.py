"""The month's close: on the 1st at 01:00 UTC, each server's results channel gets last
month's champions (the top three of each game's month board), once, and the server's
champion role, if set, goes to each game's champion and is taken from last month's.

Who and what are the core's (``core.seasons``); this module changes the roles and sends the
post. A :class:`ChampionsPoster` does one pass with :meth:`ChampionsPoster.run_due` (``now``
passed in, so tests drive it with their own clock); the cog's loop, started when the bot is
ready, runs a pass at once and every minute after, like the daily post's (whose pacing,
shard split and permission check it shares: ``bot.cogs.posts``).

Per server, in one pass: its shard not this process' or the server unavailable: left alone
(for its process, or the next pass); else the close is claimed in the database first, then
the roles change hands, then the post is sent (its last field says if the role could not be
given, and why), and the close is marked *posted* or *skipped* (with why). Nothing is
retried: a failure costs one log line a month.

The role needs the bot's Manage Roles and a role below its own highest; members are fetched
one by one by id (``Guild.fetch_member``): the bot reads no member lists and needs no
privileged intent.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot import timestamps
from bot.cogs.posts import BURST, FIELD_LIMIT, POSTS_PER_SECOND, Pacer, holds, missing_permissions
from bot.i18n import ENGLISH, Language, server_language
from bot.standings import day_text, days_text, english_like, month_text, number
from core.daily import closes_at
from core.errors import N_, Nn_, Phrase
from core.seasons import POSTED, SKIPPED, Champions, DueClose, MonthClose, Seasons

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

INTERVAL = 60.0
COLOUR = discord.Colour.gold()
NAME_LIMIT = 32
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


def role_problem(guild: discord.Guild, role: discord.Role | None) -> str | None:
    """Why the bot cannot give ``role`` in ``guild`` (None: it can, as far as it knows): a
    phrase, English in the logs and the database, said in the server's language in the post."""
    if role is None:
        return Phrase(N_("the champion role no longer exists"))
    if role.is_default() or role.managed:
        return Phrase(N_("the role {role} is managed by Discord or an integration: nobody can "
                         "be given it"), role=role.name)
    me = guild.me
    if me is None:
        return None  # the bot's own member is not cached: Discord's answer decides
    if not me.guild_permissions.manage_roles:
        return Phrase(N_("I need the Manage Roles permission"))
    if not role < me.top_role:
        return Phrase(N_("the role {role} must be below my highest role ({highest}) in the "
                         "server's role list"), role=role.name, highest=me.top_role.name)
    return None


class ChampionsPoster:
    """Closes the month for each server that is due; one pass per :meth:`run_due`."""

    def __init__(self, bot: DungeonBot, seasons: Seasons, *, pacer: Pacer | None = None) -> None:
        self.bot = bot
        self.seasons = seasons
        self.pacer = pacer or Pacer(POSTS_PER_SECOND, BURST)
        self._pass = asyncio.Lock()

    async def run_due(self, now: datetime) -> list[tuple[int, str, str | None]]:
        """Close the latest closed month for every server due; ``(server, status, note)``
        of each, in server id order."""
        async with self._pass:
            month = self.seasons.closed_month(now)
            if month is None:
                return []
            done = []
            for due in await self.seasons.pending(month):
                if holds(self.bot, due.guild_id):
                    result = await self._close(due)
                    if result is not None:
                        done.append((due.guild_id, *result))
            return done

    async def _close(self, due: DueClose) -> tuple[str, str | None] | None:
        guild = self.bot.get_guild(due.guild_id)
        if guild is not None and guild.unavailable:
            return None
        if not await self.seasons.claim(due.guild_id, due.month):
            return None  # another pass or process has it
        if guild is None:
            return await self._finish(due, SKIPPED, "the bot is no longer in this server")
        try:
            close = await self.seasons.compose(due.guild_id, due.month)
            role_note = await self._roles(guild, due, close) if due.role_id else None
            if due.channel_id is None:
                return await self._finish(due, SKIPPED, role_note or "no results channel")
            channel = guild.get_channel(due.channel_id)
            if not isinstance(channel, discord.TextChannel):
                return await self._finish(due, SKIPPED, "the results channel is gone")
            missing = missing_permissions(channel)
            if missing:
                return await self._finish(due, SKIPPED, f"the bot lacks {', '.join(missing)}")
            language = await server_language(self.bot, guild)
            await self.pacer.wait()
            message = await channel.send(embed=champions_embed(close, due.role_id, role_note,
                                                               language),
                                         allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("champions of %s for server %s: Discord answered %s %s", due.month,
                        due.guild_id, exc.status, exc.text)
            return await self._finish(due, SKIPPED, f"Discord answered {exc.status}")
        except Exception as exc:
            log.exception("champions of %s for server %s: unexpected error", due.month,
                          due.guild_id)
            return await self._finish(due, SKIPPED, f"error: {type(exc).__name__}")
        await self.seasons.finish(due.guild_id, due.month, POSTED, channel_id=due.channel_id,
                                  message_id=message.id, note=role_note)
        log.info("champions of %s sent to server %s, channel %s (message %s)", due.month,
                 due.guild_id, due.channel_id, message.id)
        return POSTED, role_note

    async def _roles(self, guild: discord.Guild, due: DueClose, close: MonthClose) -> str | None:
        """Give the role to this month's champions and take it from last month's; None when
        done, else why not (logged once)."""
        assert due.role_id is not None
        role = guild.get_role(due.role_id)
        problem = role_problem(guild, role)
        given: list[int] = []
        try:
            if problem is None:
                assert role is not None
                for user_id in close.previous:
                    if user_id not in close.champions:
                        member = await _member(guild, user_id)
                        if member is not None and role in member.roles:
                            await member.remove_roles(role, reason=f"champion of {close.month} "
                                                      "no longer")
                for user_id in close.champions:
                    member = await _member(guild, user_id)
                    if member is None:
                        continue  # left the server
                    if role not in member.roles:
                        await member.add_roles(role, reason=f"champion of {close.month}")
                    given.append(user_id)
        except discord.HTTPException as exc:
            problem = Phrase(N_("Discord answered {status} ({why})"), status=exc.status,
                             why=exc.text or exc.code)
        if given:
            await self.seasons.gave_role(due.guild_id, due.month, given)
        if problem is not None:
            log.warning("champion role of server %s for %s not given: %s", due.guild_id,
                        due.month, problem)
        return problem

    async def _finish(self, due: DueClose, status: str, note: str) -> tuple[str, str | None]:
        await self.seasons.finish(due.guild_id, due.month, status, channel_id=due.channel_id,
                                  note=note[:200])
        log.info("champions of %s for server %s %s: %s", due.month, due.guild_id, status, note)
        return status, note


async def _member(guild: discord.Guild, user_id: int) -> discord.Member | None:
    try:
        return await guild.fetch_member(user_id)
    except discord.NotFound:
        return None


CHAMPIONS_TITLE = N_("Champions of {month}")
CHAMPIONS_TEXT = N_("The month's boards are final ({when}): each player's ranked daily points "
                    "from {first} to {last}, added up. See them with `{command}`.")
BOARD_NAME = N_("{game} ({variant})")
ROLE_NOT_GIVEN = N_("Not given: {why}. An admin can fix it for next month.")
ROLE_GOES_TO = N_("{role} goes to {champions}")
ROLE_NOBODY = N_("{role}: nobody ranked, so nobody holds it this month.")
CHAMPION_ROLE = N_("Champion role")
NOBODY_RANKED = N_("Nobody ranked on this server.")
CHAMPION_LINE = N_("{place} {name}: {total} ({days})")
RANKED_HERE = Nn_("{count} ranked on this server", "{count} ranked on this server")


def champions_embed(close: MonthClose, role_id: int | None, role_note: str | None,
                    language: Language = ENGLISH) -> discord.Embed:
    """The champions post, in the server's ``language``: each board's top three, then who got
    the role (or why not)."""
    embed = discord.Embed(
        title=language.format(CHAMPIONS_TITLE, month=month_text(language, close.month)),
        description=language.format(
            CHAMPIONS_TEXT, when=timestamps.at(closes_at(close.last)),
            first=day_text(language, close.first), last=day_text(language, close.last),
            command=f"/leaderboard month:{close.month}"),
        colour=COLOUR,
    )
    for board in close.boards:
        embed.add_field(name=language.format(BOARD_NAME, game=board.title,
                                             variant=language.render(board.variant)),
                        value=board_text(board, language), inline=False)
    if role_id is not None:
        role = f"<@&{role_id}>"
        if role_note is not None:
            value = language.format(ROLE_NOT_GIVEN, why=language.render(role_note))
        elif close.champions:
            mentions = [f"<@{u}>" for u in close.champions]
            value = language.format(ROLE_GOES_TO, role=role, champions=(
                ", ".join(mentions) if english_like(language) else language.list(mentions)))
        else:
            value = language.format(ROLE_NOBODY, role=role)
        embed.add_field(name=language.gettext(CHAMPION_ROLE), value=value[:FIELD_LIMIT],
                        inline=False)
    return embed


def board_text(board: Champions, language: Language = ENGLISH) -> str:
    if not board.lines:
        return language.gettext(NOBODY_RANKED)
    lines = []
    for line in board.lines:
        name = line.name.strip()
        shown = discord.utils.escape_markdown(name[:NAME_LIMIT]) if name else f"<@{line.owner_id}>"
        lines.append(language.format(CHAMPION_LINE, place=MEDALS.get(line.rank, f"{line.rank}."),
                                     name=shown, total=number(language, line.total),
                                     days=days_text(language, line.days)))
    lines.append(language.ngettext(*RANKED_HERE, board.size).format(
        count=number(language, board.size)))
    return "\n".join(lines)[:FIELD_LIMIT]


class ChampionsLoop(commands.Cog):
    """Runs a :class:`ChampionsPoster` pass when the bot is ready and every minute after."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot
        self.poster = ChampionsPoster(bot, bot.core.seasons)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self.every_minute.is_running():
            self.every_minute.start()

    async def cog_unload(self) -> None:
        self.every_minute.cancel()

    @tasks.loop(seconds=INTERVAL)
    async def every_minute(self) -> None:
        try:
            await self.poster.run_due(self.bot.core.ctx.clock())
        except Exception:  # a failed pass must not end the loop
            log.exception("month close: the pass failed; trying again in %d s", INTERVAL)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(ChampionsLoop(bot))
