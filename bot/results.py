"""When a daily ends: the player's standing on the board, and the public result line.

The result line goes to the server's results channel when one is set and the bot may post
there; otherwise it follows up publicly in the channel where the run was played; where even
that is refused, the player gets it privately, ready to copy.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import replies
from core.model import Run

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)


async def announce(bot: DungeonBot, interaction: discord.Interaction[Any], run: Run) -> None:
    """Post the finished daily's result line (after the click was answered)."""
    line = await bot.core.daily.result_line(run)
    channel = await results_channel(bot, run.guild_id)
    if channel is not None:
        try:
            await channel.send(line, allowed_mentions=replies.NO_MENTIONS)
            log.info("run %s: result posted in channel %s", run.id, channel.id)
            return
        except discord.HTTPException as exc:
            log.info("run %s: cannot post the result in channel %s (%s)", run.id, channel.id,
                     exc.status)
    try:
        await interaction.followup.send(line, allowed_mentions=replies.NO_MENTIONS)
    except discord.HTTPException as exc:
        log.info("run %s: result follow-up refused (%s); sent to the player", run.id, exc.status)
        await interaction.followup.send(
            f"Share your result:\n```\n{line}\n```", ephemeral=True,
            allowed_mentions=replies.NO_MENTIONS,
        )


async def results_channel(bot: DungeonBot, guild_id: int | None) -> discord.TextChannel | None:
    """The server's results channel, if set and the bot may post there."""
    if guild_id is None:
        return None
    settings = await bot.core.settings.guild(guild_id)
    if settings.results_channel is None:
        return None
    channel = bot.get_channel(settings.results_channel)
    if not isinstance(channel, discord.TextChannel):
        return None
    permissions = channel.permissions_for(channel.guild.me)
    return channel if permissions.send_messages else None
