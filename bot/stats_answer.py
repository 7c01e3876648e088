"""The answer to /stats and to a result card's Stats button: a player's record, privately.

The record's text is complete on its own (``bot.standings.stats``); with pictures on, the
stats card (``bot.pictures.stats_card``, drawn by the picture worker) goes under it when it
is drawn in time.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import replies, standings
from bot.i18n import reader_language
from bot.pictures.stats_card import FILENAME as CARD_FILE
from bot.pictures.stats_card import card_data, stats_card_png
from core import Refusal
from core.checks import check_game

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

#: How long /stats waits for its card before answering without it (seconds).
CARD_WAIT = 1.5


async def send_stats(
    bot: DungeonBot, interaction: discord.Interaction[Any], who: discord.abc.User,
    game: str | None,
) -> None:
    """Answer privately with ``who``'s record (in ``game``, or every game) and its card, in
    the reader's language."""
    core = bot.core
    try:
        if game is not None:
            check_game(game)
        records = await core.rankings.records(who.id, game)
        games = [r.stats.game for r in records]
        contests = {key: await core.rankings.contests(who.id, key) for key in games}
        pars = {key: await core.par.record(who.id, key) for key in games}
        ratings = {key: await core.ratings.of_player(who.id, key) for key in games}
    except Refusal as exc:
        await replies.notice(interaction, exc)
        return
    language = await reader_language(bot, interaction)
    embed = standings.stats(who.display_name, records, contests, pars, ratings, language)
    files = await _card(bot, interaction, embed, who.id,
                        [r.stats.game for r in records if r.stats.dailies])
    await interaction.response.send_message(embed=embed, files=files, ephemeral=True)


async def _card(bot: DungeonBot, interaction: discord.Interaction[Any], embed: discord.Embed,
                user_id: int, games: list[str]) -> list[discord.File]:
    """The stats card put on ``embed``, unless pictures are off (the bot's, the server's or
    the player's switch), no daily was played, or it could not be drawn in time: the text
    says it all without it."""
    if not games or not bot.pictures or not await bot.core.settings.pictures_on(
        interaction.guild_id, interaction.user.id
    ):
        return []
    try:
        figures = [await bot.core.lookback.card(user_id, game) for game in games]
        drawing = stats_card_png(bot.core.workers, card_data(figures))
        png = await asyncio.wait_for(drawing, CARD_WAIT)
    except Exception:
        log.warning("the stats card of user %s could not be drawn; /stats goes as text",
                    user_id, exc_info=True)
        return []
    embed.set_image(url=f"attachment://{CARD_FILE}")
    return [discord.File(io.BytesIO(png), filename=CARD_FILE)]
