"""The rating loop and the rating board: each closed day's global boards rated in the
background, once, and ``/leaderboard day:rating`` with its page buttons.

The rating is the core's (``core.ratings``, off the event loop). Unless the bot's
``rate_days`` is off (tests), the cog starts a task in
``cog_load`` that runs a pass :data:`FIRST_PASS` seconds after start (a pass after a restart
catches up on the days missed) and every :data:`INTERVAL` seconds after; ``cog_unload``
cancels it. :meth:`RatingLoop.run_due` is one pass with ``now`` passed in (tests call it with
their clock and never sleep). ``/leaderboard`` (``bot.cogs.boards``) sends the rating board
through :func:`send_rating_board`.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot import replies, standings
from bot.background import Repeating
from bot.buttons import Click
from bot.i18n import reader_language, server_language
from core import Refusal
from core.ratings import RatedDay

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

#: Seconds from start to the first pass, and between passes.
FIRST_PASS = 30.0
INTERVAL = 300.0


async def send_rating_board(
    bot: DungeonBot,
    interaction: discord.Interaction[Any],
    game: str,
    variant: str,
    guild_id: int | None,
    *,
    page: int = 0,
    edit: bool = False,
    content: str | None = None,
) -> None:
    """The rating board (a server's, or everyone's), in the server's language: sent, or a
    page edited in; ``content`` is a marked sentence said above it."""
    try:
        board = await bot.core.ratings.board(
            game, variant, guild_id=guild_id, page=page, viewer_id=interaction.user.id
        )
    except Refusal as exc:
        log.info("refused: rating board from user %s: %s", interaction.user.id, exc)
        await replies.notice(interaction, exc)
        return
    public = await server_language(bot, interaction.guild, interaction)
    embed, rows = standings.rating_board(
        board, viewer_id=interaction.user.id,
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
    # The board marks nobody; the caller's place is told to them only, in their language.
    reader = await reader_language(bot, interaction)
    await interaction.followup.send(
        standings.your_rating_line(board, interaction.user.id, reader),
        ephemeral=True, allowed_mentions=replies.NO_MENTIONS)


class RatingLoop(commands.Cog):
    """Rates closed days in the background; pages the rating board."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot
        self._pass = asyncio.Lock()
        self._repeating = Repeating(
            "rating days", lambda: self.run_due(bot.core.ctx.clock()),
            first=FIRST_PASS, every=INTERVAL,
        )

    async def cog_load(self) -> None:
        self.bot.clicks.register(standings.RATING_PAGE, self.on_page)
        if self.bot.rate_days:
            self._repeating.start()

    async def cog_unload(self) -> None:
        self.bot.clicks.unregister(standings.RATING_PAGE)
        await self._repeating.stop()

    async def run_due(self, now: datetime) -> list[RatedDay]:
        """One pass: rate the closed days not rated yet."""
        async with self._pass:
            return await self.bot.core.ratings.run_due(now)

    async def on_page(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A page button: ``dd.rt:<game>:<variant>:<s|g>:<guild>:<page>``; a server's board
        is always the server clicked in (the guild in the id is never used)."""
        game, variant, scope, _, page = (str(f) for f in click.fields)
        guild_id = interaction.guild_id if scope == "s" else None
        await send_rating_board(self.bot, interaction, game, variant, guild_id,
                                page=int(page), edit=True)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(RatingLoop(bot))
