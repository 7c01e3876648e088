"""/series: Tomb of Four Kings runs back to back, their points added up.

Each run's board shows which run of the series it is and the running total; between runs a
"Next run" button (``dd.se:next:<series id>:<run number>``) turns the finished board into the
next run's, and after the last run the board lists every run's score and the total, with a
"New series" button (``dd.se:new:<length>``). ``/series`` while a series is going brings it
back at its current run. Boards are shown in the channel like ``/play`` (``private`` keeps
them to the player).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import challenge_screens as views
from bot import metrics, replies, screens
from bot.buttons import Click
from bot.presenter import written
from bot.replies import not_yours
from core import NotYourRun, Refusal, Run, RunKind
from core.errors import N_
from core.series import LENGTHS
from rules.words import Phrase

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

LENGTH_CHOICES = [app_commands.Choice(name=f"{n} runs", value=n) for n in LENGTHS]
# The boards' notices: phrases (English strings that remember their message), which the board
# says in its reader's language.
NEW_SERIES = N_("A series of {length}: Tomb runs back to back, each on a new deal. Get out "
                "alive: a death scores 0.")
GOING = N_("Your series is still going: here is its current run.")


class Series(commands.Cog):
    """Series of Tomb runs."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.clicks.register(views.SERIES, self.on_click)
        self.bot.presenter.board_extras[RunKind.SERIES] = self.dress

    async def cog_unload(self) -> None:
        self.bot.clicks.unregister(views.SERIES)
        self.bot.presenter.board_extras.pop(RunKind.SERIES, None)

    @app_commands.command(name="series")
    @app_commands.describe(
        length="How many Tomb of Four Kings runs, back to back",
        private="Show the boards only to you (default: everyone in the channel sees them)",
    )
    @app_commands.choices(length=LENGTH_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def series(
        self, interaction: discord.Interaction[Any], length: int, private: bool = False
    ) -> None:
        """Play Tomb of Four Kings runs back to back and add up their points."""
        try:
            started = await self.bot.core.series.start(
                interaction.user.id, length, guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
            )
        except Refusal as exc:
            log.info("refused: /series from user %s: %s", interaction.user.id, exc)
            await replies.notice(interaction, exc)
            return
        if started.created:
            log.info("series %s: %d runs started by user %s (run %s)", started.series.id,
                     length, interaction.user.id, started.run.id)
            metrics.run_started(started.run.game, started.run.kind.value)
        notice = (Phrase(NEW_SERIES, length=started.series.length) if started.created
                  else Phrase(GOING))
        screen = screens.board(started.run, owner=interaction.user.display_name, notice=notice)
        await self.bot.presenter.present(interaction, screen, edit=False, ephemeral=private)

    async def on_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """``dd.se:next:<series id>:<run number>`` and ``dd.se:new:<length>``, checked by
        ``bot.custom_ids``."""
        verb, *numbers = click.fields
        if verb == "next":
            await self._next(interaction, int(numbers[0]), int(numbers[1]))
        else:
            await self._new(interaction, int(numbers[0]))

    async def _next(self, interaction: discord.Interaction[Any], series_id: int,
                    after: int) -> None:
        try:
            _, run, dealt = await self.bot.core.series.next(series_id, interaction.user.id,
                                                            after)
        except NotYourRun as exc:
            await replies.notice(interaction, not_yours(exc.run.owner_id))
            return
        except Refusal as exc:
            log.info("refused: next run of series %s by user %s: %s", series_id,
                     interaction.user.id, exc)
            await replies.notice(interaction, exc)
            return
        if dealt:
            log.info("series %s: run %d (run %s) dealt for user %s", series_id, after + 1,
                     run.id, interaction.user.id)
            metrics.run_started(run.game, run.kind.value)
        async with written(run):
            screen = screens.board(run, owner=interaction.user.display_name)
            await self.bot.presenter.present(interaction, screen, edit=True)

    async def _new(self, interaction: discord.Interaction[Any], length: int) -> None:
        try:
            started = await self.bot.core.series.start(
                interaction.user.id, length, guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
            )
        except Refusal as exc:
            await replies.notice(interaction, exc)
            return
        if started.created:
            metrics.run_started(started.run.game, started.run.kind.value)
        notice = (Phrase(NEW_SERIES, length=started.series.length) if started.created
                  else Phrase(GOING))
        screen = screens.board(started.run, owner=interaction.user.display_name, notice=notice)
        message = interaction.message
        private = bool(message is not None and message.flags.ephemeral)
        await self.bot.presenter.present(interaction, screen, edit=False, ephemeral=private)

    async def dress(self, run: Run, screen: screens.Screen) -> None:
        """A series run's board: its place in the series, the total, and Next run."""
        series = await self.bot.core.series.of_run(run.id)
        if series is not None:
            language = views.screen_language(screen)
            views.series_field(screen.embed, series, run, language)
            views.series_buttons(screen.buttons, series, run, language)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Series(bot))
