"""/daily and /verify: today's deal, one run per player, and how anyone checks a day's deal.

Daily boards are ephemeral, so nobody sees the cards in a channel; they work in servers and
DMs alike. ``/daily`` again brings the same run back (it never deals again); once the run is
over it shows the result, the player's rank on the server and global boards, and how long
until the next deal.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import metrics, replies, screens, standings
from bot.buttons import Click
from bot.choices import GAME_CHOICES, VARIANT_CHOICES
from bot.i18n import Language, reader_language, server_language
from bot.lookback import yesterday_line
from bot.results import player_name
from core import Refusal, RunKind
from core.checks import check_game, check_variant
from core.daily import DailyStart, day_number
from core.errors import N_, Phrase
from rules import GAMES

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

NEW_DEAL = N_("Today's deal is yours to play: one attempt, no undo. Good luck!")
WELCOME_BACK = N_("Welcome back: this is where you left today's run.")


class Daily(commands.Cog):
    """Today's daily run and the checkable deals."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.clicks.register(standings.PLAY_DAILY, self.on_play)

    async def cog_unload(self) -> None:
        self.bot.clicks.unregister(standings.PLAY_DAILY)

    @app_commands.command(name="daily")
    @app_commands.describe(
        game="The game whose daily deal to play",
        variant="A variant of that game (its default when left out)",
    )
    @app_commands.choices(game=GAME_CHOICES, variant=VARIANT_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def daily(
        self, interaction: discord.Interaction[Any], game: str, variant: str | None = None
    ) -> None:
        """Play today's deal: the same cards for everyone, one attempt each."""
        await self.start(interaction, game, variant)

    async def on_play(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A board's "Play today's deal" (``dd.dy:<game>:<variant>``, checked by
        ``bot.custom_ids``): the clicker's own daily of that game and variant, as ``/daily``
        gives it; a game or variant that is not one is refused like a typed one."""
        game, variant = (str(f) for f in click.fields)
        await self.start(interaction, game, variant)

    async def start(self, interaction: discord.Interaction[Any], game: str,
                    variant: str | None) -> None:
        """Start or bring back the caller's daily, privately (``/daily`` and the button)."""
        core = self.bot.core
        user = interaction.user
        try:
            engine = check_game(game)
            variant = check_variant(engine, variant)
            # One transaction: the name the boards list the player by, the run, and
            # whether they played the day before (for the look back).
            started = await core.daily.start(
                user.id, engine.key, variant,
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                name=player_name(user),
            )
        except Refusal as exc:
            log.info("refused: /daily from user %s: %s", user.id, exc)
            await replies.notice(interaction, exc)
            return
        run = started.run
        if started.created:
            log.info("run %s: daily %s (%s) %s started by user %s", run.id, run.game,
                     run.variant, run.day, user.id)
            metrics.run_started(run.game, run.kind.value)
        language = await reader_language(self.bot, interaction)
        chosen = None if run.over else NEW_DEAL if started.created else WELCOME_BACK
        notice = await self._with_yesterday(
            language.gettext(chosen) if chosen else None, started, language)
        boards = self.bot.presenter
        screen = screens.board(
            run, owner=user.display_name, notice=notice, facts=await boards.facts(run, user)
        )
        await boards.present(interaction, screen, edit=False, ephemeral=True)

    async def _with_yesterday(
        self, notice: str | None, started: DailyStart, language: Language
    ) -> str | None:
        """The notice (already in the reader's ``language``), after yesterday's look back when
        the player finished yesterday's daily of this game and variant and that day has
        closed (``core.lookback``)."""
        back = await self.bot.core.lookback.after_start(started)
        if back is None:
            return notice
        return yesterday_line(back, language) + (f"\n{notice}" if notice else "")

    @app_commands.command(name="verify")
    @app_commands.describe(
        game="The game whose daily deal to check",
        variant="A variant of that game (its default when left out)",
        day="The day, YYYY-MM-DD, today or yesterday (default today)",
        run="A ranked run of a closed day: get its moves to replay it yourself",
    )
    @app_commands.choices(game=GAME_CHOICES, variant=VARIANT_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def verify(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        variant: str | None = None,
        day: str | None = None,
        run: app_commands.Range[int, 1] | None = None,
    ) -> None:
        """A day's commitment; once the day is closed, its seed and how to check both."""
        core = self.bot.core
        try:
            engine = check_game(game)
            variant = check_variant(engine, variant)
            the_day = core.rankings.resolve_day(day)
            commitment = await core.daily.commitment(engine.key, variant, the_day)
            closed = core.daily.is_closed(the_day)
            seed = await core.daily.revealed_seed(engine.key, variant, the_day) if closed else None
            par = await core.par.of_day(engine.key, variant, the_day) if closed else None
            files = []
            if run is not None:
                files.append(await self._moves_file(run, engine.key, variant, the_day, closed))
        except Refusal as exc:
            log.info("refused: /verify from user %s: %s", interaction.user.id, exc)
            await replies.notice(interaction, exc)
            return
        # /verify answers in the channel: the server's language.
        public = await server_language(self.bot, interaction.guild, interaction)
        embed = standings.verify(engine.key, variant, the_day, commitment, seed,
                                 core.ctx.clock(), par, public)
        await interaction.response.send_message(embed=embed, files=files)

    async def _moves_file(
        self, run_id: int, game: str, variant: str, day: str, closed: bool
    ) -> discord.File:
        """A ranked run's moves as a transcript file, once its day is closed."""
        core = self.bot.core
        found = await core.runs.get(run_id)
        if (found.kind is not RunKind.DAILY or found.game != game or found.variant != variant
                or found.day != day or not found.ranked):
            raise _NotOnBoard(run_id, game, day)
        if not closed:
            raise _NotOnBoard(run_id, game, day, still_open=True)
        text = standings.transcript(found, await core.runs.moves(run_id))
        return discord.File(io.BytesIO(text.encode()), filename=f"run-{run_id}.txt")


class _NotOnBoard(Refusal):
    """A run asked for with /verify that is not (yet) a ranked run of that day's board."""

    def __init__(self, run_id: int, game: str, day: str, *, still_open: bool = False) -> None:
        name = Phrase(N_("{game} #{number}"), game=GAMES[game].title, number=day_number(day))
        if still_open:
            super().__init__(N_("The moves of {name}'s runs are shown once its boards close, "
                                "so nobody can copy them while the day is open."), name=name)
        else:
            super().__init__(N_("Run #{run} is not a ranked run of {name} in that variant."),
                             run=run_id, name=name)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Daily(bot))
