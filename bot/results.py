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

The line a channel reads speaks the server's language; what only the player reads (where it
went, the copy handed over) speaks theirs (``bot.i18n``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import replies
from bot.i18n import Language, reader_language, server_language
from core.errors import N_
from core.model import Run

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

SHARED_HERE = N_("Shared in this channel.")
NOT_POSTED = N_("I may not post here, so here is your result to copy:")
TO_COPY = N_("Your result, to copy and post anywhere:")
ALREADY_SHARED = N_("This result is already shared, in {where}. Here it is to copy:")
SHARED_IN = N_("Shared in {where}.")


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
    language = await server_language(bot, channel.guild)
    try:
        await channel.send(language.render(line), allowed_mentions=replies.NO_MENTIONS)
        log.info("run %s: result posted in channel %s", run.id, channel.id)
    except discord.HTTPException as exc:
        log.info("run %s: cannot post the result in channel %s (%s)", run.id, channel.id,
                 exc.status)


async def share(bot: DungeonBot, interaction: discord.Interaction[Any], run: Run) -> None:
    """Answer a Share click on ``run``'s result card (the run is the clicker's, finished):
    the line a channel reads in the server's language, what only the player reads (and the
    copy handed over) in theirs."""
    line = await bot.core.daily.result_line(run, player_name(interaction.user))
    mine = await reader_language(bot, interaction)

    def handed(text: str, language: Language = mine, **params: object) -> str:
        """A private sentence and the player's copy of the line under it."""
        return f"{language.format(text, **params)}\n{copyable(language.render(line))}"

    channel = await results_channel(bot, run.guild_id)
    if channel is not None:
        where = channel.mention
    elif interaction.guild_id is not None and interaction.channel_id is not None:
        where = f"<#{interaction.channel_id}>"
    else:  # a DM: nobody else would read it there
        await _private(interaction, handed(TO_COPY))
        return
    earlier = await bot.core.daily.claim_share(run, where)
    if earlier is not None:
        log.info("run %s: share refused, already in %s", run.id, earlier)
        await _private(interaction, handed(ALREADY_SHARED, where=earlier))
        return
    public = await server_language(bot, interaction.guild, interaction)
    if channel is not None:
        await _private(interaction, mine.format(SHARED_IN, where=where))
        try:
            await channel.send(public.render(line), allowed_mentions=replies.NO_MENTIONS)
            log.info("run %s: shared in channel %s", run.id, channel.id)
        except discord.HTTPException as exc:
            log.info("run %s: cannot share in channel %s (%s)", run.id, channel.id, exc.status)
            await interaction.followup.send(
                handed(NOT_POSTED), ephemeral=True, allowed_mentions=replies.NO_MENTIONS,
            )
        return
    try:
        await interaction.response.send_message(public.render(line),
                                                allowed_mentions=replies.NO_MENTIONS)
    except discord.HTTPException as exc:
        log.info("run %s: share refused in channel %s (%s)", run.id, interaction.channel_id,
                 exc.status)
        await _private(interaction, handed(NOT_POSTED))
        return
    log.info("run %s: shared in channel %s", run.id, interaction.channel_id)
    await interaction.followup.send(mine.gettext(SHARED_HERE), ephemeral=True,
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
