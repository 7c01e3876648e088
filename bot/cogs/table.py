"""/table and the boards' Open table button: the Activity, opened in Discord (docs/activity.md).

Loaded only when the Activity is on (``ACTIVITY``: ``bot.client.ACTIVITY_EXTENSIONS``). Both
answer with Discord's launch-activity response (``InteractionResponse.launch_activity``,
callback type 12): Discord opens the Activity for whoever asked, in that channel, and the
Activity signs the player in on its own (the web adapter trusts nothing a client says about
who or where). So the button's id (``dd.tb:<run id>``) names the board's run only for the
log: a click on someone else's board opens the clicker's own table and changes nothing.

Outside a server (a DM or a group DM), or when Discord refuses to launch (Activities not
enabled in the Developer Portal, a channel it cannot launch in), the answer is one calm
sentence, and nothing changes; so is a board's Open table clicked after the Activity was
turned off (:func:`table_off`, which the bot routes the button to then).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies, screens
from bot.buttons import PER_ROW, ROWS, Click, button, make_id
from bot.challenge_screens import screen_language
from bot.custom_ids import TABLE
from core import Run
from core.errors import N_

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

OPEN_TABLE = N_("Open table")
TABLE_EMOJI = "🃏"
NOT_IN_A_SERVER = N_(
    "The table opens in a server's channel, so nothing was opened here: use /table in a "
    "server where Dungeon Deck is.")
#: An Open table button on a board drawn while the Activity was on, clicked after it was
#: turned off (the router's "damaged button" would not be true).
TABLE_OFF = N_(
    "The table is not open on this bot at the moment, so nothing was opened: the buttons "
    "under your boards still play every game.")
NOT_OPENED = N_(
    "Discord did not open the table here, so nothing changed: the buttons under your boards "
    "still play every game.")


def table_id(run_id: int) -> str:
    """The custom id of a board's Open table button."""
    return make_id(TABLE, run_id)


async def table_off(interaction: discord.Interaction[Any], click: Click) -> None:
    """Open table while the Activity is off (``bot.client`` routes it here then)."""
    log.info("refused: Open table on run %s from user %s: the Activity is off",
             click.fields[0], interaction.user.id)
    await replies.notice(interaction, TABLE_OFF)


class Table(commands.Cog):
    """/table, and the Open table button on every run's board."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.clicks.register(TABLE, self.on_click)
        self.bot.presenter.run_extras.append(self.dress)

    async def cog_unload(self) -> None:
        self.bot.clicks.unregister(TABLE)
        if self.dress in self.bot.presenter.run_extras:
            self.bot.presenter.run_extras.remove(self.dress)

    @app_commands.command(name="table")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        """Open the table: play Dungeon Deck's games by touching the cards."""
        await self.launch(interaction, "/table")

    async def on_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A board's Open table: the same launch, whoever's board it is on."""
        (run_id,) = click.fields
        await self.launch(interaction, f"Open table on run {run_id}")

    async def launch(self, interaction: discord.Interaction[Any], asked: str) -> None:
        """Answer with the launch-activity response, or one sentence when it cannot be."""
        user_id = interaction.user.id
        if interaction.guild_id is None:
            log.info("refused: %s from user %s outside a server", asked, user_id)
            await replies.notice(interaction, NOT_IN_A_SERVER)
            return
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as exc:
            # Discord's refusal is the operator's to read (Activities not enabled, no URL
            # mapping); the player gets one sentence.
            log.warning("Discord refused to launch the Activity (%s from user %s in channel "
                        "%s): %s %s", asked, user_id, interaction.channel_id, exc.status,
                        exc.text)
            await replies.notice(interaction, NOT_OPENED)
            return
        log.info("Activity launched: %s from user %s in server %s", asked, user_id,
                 interaction.guild_id)

    async def dress(self, run: Run, screen: screens.Screen) -> None:
        """Every run's board (playing or finished) offers Open table beside its controls,
        where the row has room: a board is never refused for it."""
        rows = screen.buttons
        in_row = sum(1 for b in rows.buttons if b.row == screens.CONTROL_ROW)
        if in_row >= PER_ROW or len(rows.buttons) >= ROWS * PER_ROW:
            return
        label = screen_language(screen).gettext(OPEN_TABLE)
        rows.add(button(table_id(run.id), label=label, emoji=TABLE_EMOJI,
                        row=screens.CONTROL_ROW))


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Table(bot))
