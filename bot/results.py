"""Where a finished daily's share line goes: the results channel by itself, the rest on Share.

- **At the end of every daily** the line goes to the server's results channel, when one is
  set and the bot may post there: that channel is the server's record of the day, so it gets
  every result. Nothing is posted by itself anywhere else.
- **Share** (the result card's button) posts the line in the results channel when the server
  set one (unless it is already there), else in the channel where the run was played (the
  click's; a DM has no audience, so there the line is handed over to copy); where the bot
  may not post, the player gets it privately in a copyable block. The player is told
  privately where it went.
- **Once per run**: each post is claimed in the database before it is sent
  (``core.daily.claim_share``), so a second click, or a click after the automatic post, says
  where the line already is and hands it over to copy instead of posting it again.
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

SHARED_HERE = "Shared in this channel."
NOT_POSTED = "I may not post here, so here is your result to copy:"


def player_name(user: discord.abc.User) -> str:
    """The name boards and share lines list a player by: their Discord display name, the
    same everywhere."""
    return getattr(user, "global_name", None) or user.name


def copyable(line: str) -> str:
    """The share line in a code block, to copy as it is."""
    return f"```\n{line}\n```"


async def announce(bot: DungeonBot, interaction: discord.Interaction[Any], run: Run) -> None:
    """Post the finished daily's share line in the results channel, if the server set one
    the bot may post in (after the click was answered)."""
    channel = await results_channel(bot, run.guild_id)
    if channel is None:
        return
    where = channel.mention
    if await bot.core.daily.claim_share(run, where) is not None:
        return
    line = await bot.core.daily.result_line(run, player_name(interaction.user))
    try:
        await channel.send(line, allowed_mentions=replies.NO_MENTIONS)
        log.info("run %s: result posted in channel %s", run.id, channel.id)
    except discord.HTTPException as exc:
        log.info("run %s: cannot post the result in channel %s (%s)", run.id, channel.id,
                 exc.status)


async def share(bot: DungeonBot, interaction: discord.Interaction[Any], run: Run) -> None:
    """Answer a Share click on ``run``'s result card (the run is the clicker's, finished)."""
    line = await bot.core.daily.result_line(run, player_name(interaction.user))
    channel = await results_channel(bot, run.guild_id)
    if channel is not None:
        where = channel.mention
    elif interaction.guild_id is not None and interaction.channel_id is not None:
        where = f"<#{interaction.channel_id}>"
    else:  # a DM: nobody else would read it there
        await _private(interaction, f"Your result, to copy and post anywhere:\n{copyable(line)}")
        return
    earlier = await bot.core.daily.claim_share(run, where)
    if earlier is not None:
        log.info("run %s: share refused, already in %s", run.id, earlier)
        await _private(interaction, f"This result is already shared, in {earlier}. "
                       f"Here it is to copy:\n{copyable(line)}")
        return
    if channel is not None:
        await _private(interaction, f"Shared in {where}.")
        try:
            await channel.send(line, allowed_mentions=replies.NO_MENTIONS)
            log.info("run %s: shared in channel %s", run.id, channel.id)
        except discord.HTTPException as exc:
            log.info("run %s: cannot share in channel %s (%s)", run.id, channel.id, exc.status)
            await interaction.followup.send(
                f"{NOT_POSTED}\n{copyable(line)}", ephemeral=True,
                allowed_mentions=replies.NO_MENTIONS,
            )
        return
    try:
        await interaction.response.send_message(line, allowed_mentions=replies.NO_MENTIONS)
    except discord.HTTPException as exc:
        log.info("run %s: share refused in channel %s (%s)", run.id, interaction.channel_id,
                 exc.status)
        await _private(interaction, f"{NOT_POSTED}\n{copyable(line)}")
        return
    log.info("run %s: shared in channel %s", run.id, interaction.channel_id)
    await interaction.followup.send(SHARED_HERE, ephemeral=True,
                                    allowed_mentions=replies.NO_MENTIONS)


async def _private(interaction: discord.Interaction[Any], text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=replies.NO_MENTIONS)
    else:
        await interaction.response.send_message(text, ephemeral=True,
                                                allowed_mentions=replies.NO_MENTIONS)


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
