"""/leaderboard and /stats: a day's boards with restart-proof paging, and a player's record."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies, standings
from bot.buttons import ButtonRows, Click
from bot.choices import GAME_CHOICES, VARIANT_CHOICES
from bot.cogs.ratings import send_rating_board
from bot.i18n import Language, reader_language, server_language
from bot.lookback import day_embed as look_back_embed
from bot.stats_answer import send_stats
from core import Refusal
from core.checks import check_game, check_variant
from core.errors import N_
from core.rankings import Leaderboard

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

SCOPES = [
    app_commands.Choice(name="this server", value="server"),
    app_commands.Choice(name="everyone", value="global"),
]
DM_SERVER_BOARD = N_("There is no server board in a DM: here is everyone's.")
#: A page id's day part: ``w<Monday>`` (a week's board) or ``m<the 1st>`` (a month's).
PAGE_SPANS = {"w": "week", "m": "month"}


def period_span(day: str | None, month: str | None) -> str | None:
    """``week`` or ``month`` when the options ask for a period's board, else None (a day's);
    a month with a day other than ``month`` is refused."""
    word = day.strip().lower() if day is not None else None
    if month is not None:
        if word not in (None, "month"):
            raise Refusal(N_("Give a day or a month, not both."))
        return "month"
    return word if word in ("week", "month") else None


async def yours(interaction: discord.Interaction[Any], text: str) -> None:
    """After a public board, the caller's own place on it, told to them only (in their own
    language): the board itself marks nobody, as everyone who reads it sees it."""
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=replies.NO_MENTIONS)


class Boards(commands.Cog):
    """Leaderboards and stats."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.clicks.register(standings.BOARD_PAGE, self.on_page)

    async def cog_unload(self) -> None:
        self.bot.clicks.unregister(standings.BOARD_PAGE)

    @app_commands.command(name="leaderboard")
    @app_commands.describe(
        game="The game whose daily board to show",
        variant="A variant of that game (its default when left out)",
        day=("YYYY-MM-DD, today, yesterday, week (Monday to Sunday's points), month (this "
             "month's) or rating"),
        month="YYYY-MM: that month's board of daily points (past months stay readable)",
        scope="This server's players, or everyone's (default: this server, in a server)",
    )
    @app_commands.choices(game=GAME_CHOICES, variant=VARIANT_CHOICES, scope=SCOPES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        variant: str | None = None,
        day: str | None = None,
        scope: str | None = None,
        month: str | None = None,
    ) -> None:
        """A day's daily board: the top 10, your own line, and pages."""
        try:
            engine = check_game(game)
            variant = check_variant(engine, variant)
            if scope not in (None, "server", "global"):
                raise Refusal(N_("Choose the scope `server` or `global`."))
            in_server = interaction.guild_id is not None
            guild_id = interaction.guild_id if in_server and scope != "global" else None
            span = period_span(day, month)
            if span is not None:
                await self._period(interaction, span, engine.key, variant, month, guild_id,
                                   content=DM_SERVER_BOARD if scope == "server" and not in_server
                                   else None)
                return
            if day is not None and day.strip().lower() == "rating":
                await self._rating(interaction, engine.key, variant, guild_id, scope)
                return
            board = await self.bot.core.rankings.board(
                engine.key, variant, day, guild_id=guild_id, viewer_id=interaction.user.id
            )
        except Refusal as exc:
            log.info("refused: /leaderboard from user %s: %s", interaction.user.id, exc)
            await replies.notice(interaction, exc)
            return
        public = await server_language(self.bot, interaction.guild, interaction)
        embed, rows = await self._drawn(interaction, board, public)
        content = (public.gettext(DM_SERVER_BOARD) if scope == "server" and not in_server
                   else None)
        kwargs: dict[str, Any] = {"view": rows} if rows is not None else {}
        await interaction.response.send_message(
            content, embed=embed, allowed_mentions=replies.NO_MENTIONS, **kwargs
        )
        reader = await reader_language(self.bot, interaction)
        await yours(interaction, standings.your_line(board, interaction.user.id, reader))

    async def _rating(self, interaction: discord.Interaction[Any], game: str, variant: str,
                      guild_id: int | None, scope: str | None) -> None:
        """``day:rating``: the rating board (``bot.cogs.ratings``)."""
        dm = scope == "server" and interaction.guild_id is None
        await send_rating_board(self.bot, interaction, game, variant, guild_id,
                                content=DM_SERVER_BOARD if dm else None)

    async def _drawn(self, interaction: discord.Interaction[Any], board: Leaderboard,
                     language: Language) -> tuple[discord.Embed, ButtonRows | None]:
        """A day's board as the channel sees it (in ``language``, the server's), with the
        day's par if solved."""
        return standings.leaderboard(
            board, viewer_id=interaction.user.id, now=self.bot.core.ctx.clock(),
            guild_name=interaction.guild.name if interaction.guild else None,
            par=await self.bot.core.par.on_board(board), language=language,
        )

    async def on_page(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A page button: ``dd.lb:<game>:<variant>:<day>:<s|g>:<guild>:<page>``, checked by
        ``bot.custom_ids``. A server's board is always the server clicked in: the guild
        written in the id is never used, so a forged id shows no other server's board."""
        game, variant, day, scope, _, page = (str(f) for f in click.fields)
        guild_id = interaction.guild_id if scope == "s" else None
        if day[0] in PAGE_SPANS:  # a week's board, w<Monday>, or a month's, m<the 1st>
            await self._period(interaction, PAGE_SPANS[day[0]], game, variant, day[1:],
                               guild_id, page=int(page), edit=True)
            return
        try:
            board = await self.bot.core.rankings.board(
                game, variant, day, guild_id=guild_id, page=int(page),
                viewer_id=interaction.user.id,
            )
        except Refusal as exc:
            log.info("refused: board page %r from user %s: %s", click.custom_id,
                     interaction.user.id, exc)
            await replies.notice(interaction, exc)
            return
        # The page edits the public board: it stays in the server's language.
        public = await server_language(self.bot, interaction.guild, interaction)
        embed, rows = await self._drawn(interaction, board, public)
        await interaction.response.edit_message(embed=embed, view=rows)

    async def _period(
        self,
        interaction: discord.Interaction[Any],
        span: str,
        game: str,
        variant: str,
        when: str | None,
        guild_id: int | None,
        *,
        page: int = 0,
        edit: bool = False,
        content: str | None = None,
    ) -> None:
        """A week's board (``when`` a day in it) or a month's (``when`` ``YYYY-MM`` or its
        first day; default this week or month): sent, or a page edited in."""
        rankings = self.bot.core.rankings
        try:
            if span == "week":
                board = await rankings.week(game, variant, when, guild_id=guild_id, page=page,
                                            viewer_id=interaction.user.id)
            else:
                board = await rankings.month(game, variant, when[:7] if when else None,
                                             guild_id=guild_id, page=page,
                                             viewer_id=interaction.user.id)
        except Refusal as exc:
            log.info("refused: %s board from user %s: %s", span, interaction.user.id, exc)
            await replies.notice(interaction, exc)
            return
        public = await server_language(self.bot, interaction.guild, interaction)
        embed, rows = standings.period_board(
            board, viewer_id=interaction.user.id, now=self.bot.core.ctx.clock(),
            guild_name=interaction.guild.name if interaction.guild else None, language=public,
        )
        if edit:
            await interaction.response.edit_message(embed=embed, view=rows)
            return
        kwargs: dict[str, Any] = {"view": rows} if rows is not None else {}
        await interaction.response.send_message(
            public.gettext(content) if content else None, embed=embed,
            allowed_mentions=replies.NO_MENTIONS, **kwargs
        )
        reader = await reader_language(self.bot, interaction)
        await yours(interaction, standings.your_period_line(board, interaction.user.id, reader))

    @app_commands.command(name="stats")
    @app_commands.describe(
        user="Whose record to show (default: yours)",
        game="One game only (default: every game)",
        day=("A closed day's look back at that game's daily: YYYY-MM-DD, yesterday or its "
             "number"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        user: discord.User | None = None,
        game: str | None = None,
        day: str | None = None,
    ) -> None:
        """Runs, wins, best and average score, daily streaks and the last 14 days."""
        who = user or interaction.user
        if day is not None:
            await self._look_back(interaction, who, game, day)
            return
        await send_stats(self.bot, interaction, who, game)

    async def _look_back(self, interaction: discord.Interaction[Any], who: discord.abc.User,
                         game: str | None, day: str) -> None:
        """``/stats game: day:``: a closed day's look back at the player's daily of it
        (``core.lookback``); the turning point may take the worker a few seconds, so the
        answer is deferred meanwhile."""
        mine = who.id == interaction.user.id
        try:
            if game is None:
                raise Refusal(N_("Give the game too: `/stats game:<game> day:<day>`."))
            engine = check_game(game)
            lookback = self.bot.core.lookback
            the_day = lookback.resolve_day(day)
            runs = await lookback.runs_of_day(who.id, engine.key, the_day,
                                              player=None if mine else who.display_name)
        except Refusal as exc:
            log.info("refused: /stats day from user %s: %s", interaction.user.id, exc)
            await replies.notice(interaction, exc)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        backs = [back for run in runs
                 if (back := await lookback.of_run(run, work_out_turn=True)) is not None]
        embed = look_back_embed(who.display_name, backs,
                                await reader_language(self.bot, interaction))
        await interaction.followup.send(embed=embed, ephemeral=True,
                                        allowed_mentions=replies.NO_MENTIONS)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Boards(bot))
