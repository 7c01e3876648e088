"""/replay: a finished daily of a closed day, step by step, with restart-proof buttons.

``/replay run:<id>`` answers in the channel (the day is closed, its seed public); a "Replay"
button on a closed day's leaderboard or on a finished daily's board opens one privately for
the clicker. The first opening of a run works out its turning point in the worker process
(a few seconds: the response is deferred meanwhile) and keeps it; paging (``dd.rp:...``)
only reads. Refusals (an open day, someone else's unranked run, not a daily) are one
sentence from the core.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import replay_screens as views
from bot import replies, screens
from bot.buttons import ButtonRows, Click, button
from bot.challenge_screens import screen_language
from bot.i18n import Language, reader_language, server_language
from bot.standings import REPLAY, replay_open_id
from core import Refusal, Run, RunKind, RunNotFound
from core.daily import closes_at
from core.errors import N_
from core.replays import Step

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

NO_RUN = N_("There is no run with that number.")
NO_TURN = N_(
    "The turning point of run #{run} could not be worked out; the replay works without it.")
REPLAY_OPENS = N_("Replay opens {time} UTC")
REPLAY_LABEL = N_("Replay")


class Replays(commands.Cog):
    """Replays of finished dailies and their paging buttons."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.clicks.register(REPLAY, self.on_click)
        self.bot.presenter.board_extras[RunKind.DAILY] = self.dress

    async def cog_unload(self) -> None:
        self.bot.clicks.unregister(REPLAY)
        self.bot.presenter.board_extras.pop(RunKind.DAILY, None)

    @app_commands.command(name="replay")
    @app_commands.describe(run="The run's number (on the leaderboard and its board)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def replay(
        self, interaction: discord.Interaction[Any], run: app_commands.Range[int, 1]
    ) -> None:
        """Step through a finished daily of a closed day, with its turning point."""
        await self.open(interaction, run, ephemeral=False)

    async def open(self, interaction: discord.Interaction[Any], run_id: int, *,
                   ephemeral: bool) -> None:
        """Send the replay's first step as a new message (working out the turning point the
        first time)."""
        user_id = interaction.user.id
        try:
            await self.bot.core.replays.check(run_id, user_id)
        except RunNotFound:
            await replies.notice(interaction, NO_RUN)
            return
        except Refusal as exc:
            log.info("refused: replay of run %s for user %s: %s", run_id, user_id, exc)
            await replies.notice(interaction, exc)
            return
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        turned = True
        try:
            await self.bot.core.replays.turn(run_id, user_id)
        except Refusal as exc:  # the run changed meanwhile (a backup restored, say)
            await replies.notice(interaction, exc)
            return
        except Exception:  # the replay is still worth showing without its turning point
            log.exception("run %s: its turning point could not be worked out", run_id)
            turned = False
        step = await self.bot.core.replays.step(run_id, user_id, 0)
        # Posted in the channel, the replay speaks the server's language; private, the reader's.
        language = (await reader_language(self.bot, interaction) if ephemeral
                    else await server_language(self.bot, interaction.guild, interaction))
        embed, rows = await self._screen(step, language)
        # The first follow-up takes the place of the "thinking" message.
        await interaction.followup.send(
            ephemeral=ephemeral, allowed_mentions=replies.NO_MENTIONS, **views.kwargs(embed, rows)
        )
        if not turned:
            reader = await reader_language(self.bot, interaction)
            await interaction.followup.send(reader.format(NO_TURN, run=run_id), ephemeral=True)

    async def on_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """``dd.rp:<run>:<step>:<tag>``: show that step (``o``: open in a new message),
        checked by ``bot.custom_ids``."""
        run_id, number, tag = int(click.fields[0]), int(click.fields[1]), str(click.fields[2])
        if tag == views.OPEN:
            await self.open(interaction, run_id, ephemeral=True)
            return
        try:
            step: Step = await self.bot.core.replays.step(run_id, interaction.user.id, number)
        except RunNotFound:
            await replies.notice(interaction, NO_RUN)
            return
        except Refusal as exc:
            log.info("refused: replay page %r for user %s: %s", click.custom_id,
                     interaction.user.id, exc)
            await replies.notice(interaction, exc)
            return
        # The page keeps its message's language: the server's in a channel, else the reader's.
        message = interaction.message
        language = (await reader_language(self.bot, interaction)
                    if message is None or message.flags.ephemeral
                    else await server_language(self.bot, interaction.guild, interaction))
        embed, rows = await self._screen(step, language)
        await interaction.response.edit_message(**views.kwargs(embed, rows))

    async def _screen(self, step: Step,
                      language: Language) -> tuple[discord.Embed, ButtonRows]:
        """A step's screen in ``language`` with the run's look back (``core.lookback``)."""
        lookback = await self.bot.core.lookback.of_run(step.run)
        return views.step_screen(step, lookback=lookback, language=language)

    async def dress(self, run: Run, screen: screens.Screen) -> None:
        """A finished daily's board offers its replay: disabled, saying when it opens, until
        the day closes.

        Only the label and the disabled flag depend on the time the board is drawn: the id is
        the same, and the click is checked when it comes (``core.replays.check``), so a board
        redrawn after the close offers it live."""
        if not run.over:
            return
        assert run.day is not None
        closes = closes_at(run.day)
        language = screen_language(screen)
        if self.bot.core.ctx.clock() < closes:
            label, disabled = language.format(REPLAY_OPENS, time=f"{closes:%H:%M}"), True
        else:
            label, disabled = language.render(REPLAY_LABEL), False
        screen.buttons.add(button(replay_open_id(run.id), label=label, emoji="🎞️",
                                  row=screens.CONTROL_ROW, disabled=disabled))


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Replays(bot))
