"""/play and /games, and every click on a board.

The cog holds no game state: each click loads the run through the core, applies one action,
and answers with exactly one interaction response (``edit_message`` for the board that was
clicked, an ephemeral message for refusals). Every write passes the clicker's user id and the
version the clicked board showed, and the core checks both inside the transaction that
writes. Refusals, by case:

- another player's board: an ephemeral "this run belongs to ..."; nothing changes;
- a stale board (written to since it was drawn, the run over, or a button of the first
  release): the clicked message is redrawn as the current board with a notice line at the top
  of the embed. Editing the message *is* the one response, so the clicker sees why nothing was
  played and the board is up to date at once;
- a garbled or forged custom id, an unknown run, an illegal action, any other refusal of the
  core: an ephemeral notice.

Only the core's refusals are answered as refusals; anything else is a bug, answered with an
error id by the router's guard.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import metrics, replies, results, screens
from bot.buttons import CONTROL, LEGACY, MOVE, Click
from bot.choices import GAME_CHOICES, VARIANT_CHOICES
from bot.i18n import reader_language
from bot.presenter import written
from bot.stats_answer import send_stats
from core import (
    Core,
    IllegalMove,
    NotYourRun,
    Refusal,
    Run,
    RunKind,
    RunNotFound,
    RunOver,
    StaleBoard,
)
from core.checks import check_game, check_variant
from core.errors import N_, Message

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

NO_RUN = N_("That run does not exist (any more), so nothing was changed.")
NOT_A_CHOICE = N_("That card cannot be played now, so nothing was changed.")
NO_SHARE = N_("Only a finished daily has a result to share.")
NOT_POSSIBLE = N_("That move is not possible: {reason}")


class Play(commands.Cog):
    """Starting, resuming and playing runs."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot
        self.boards = bot.presenter

    @property
    def core(self) -> Core:
        return self.bot.core

    async def cog_load(self) -> None:
        for kind in (MOVE, CONTROL, LEGACY):
            self.bot.clicks.register(kind, self.on_click)

    async def cog_unload(self) -> None:
        for kind in (MOVE, CONTROL, LEGACY):
            self.bot.clicks.unregister(kind)

    # ----- commands --------------------------------------------------------------------------

    @app_commands.command(name="play")
    @app_commands.describe(
        game="The game to play",
        variant="A variant of that game (its default when left out)",
        private="Show the board only to you (default: everyone in the channel sees it)",
        day="Practise a past daily's deal (YYYY-MM-DD, once that day's boards have closed)",
    )
    @app_commands.choices(game=GAME_CHOICES, variant=VARIANT_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def play(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        variant: str | None = None,
        private: bool = False,
        day: str | None = None,
    ) -> None:
        """Start a practice run, or get back to your unfinished one."""
        try:
            # Validated here, at the edge: a modified client can send any value.
            engine = check_game(game)
            variant = check_variant(engine, variant)
            if day is not None:
                run = await self.core.daily.practise(
                    interaction.user.id, engine.key, variant, day.strip(),
                    guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                )
                _log_start(run, interaction)
                screen = screens.board(run, owner=_name(interaction))
            else:
                screen = await self.open_game(interaction, engine.key, variant)
        except Refusal as exc:
            _log_refusal(interaction, None, exc)
            await replies.notice(interaction, exc)
            return
        await self.boards.present(interaction, screen, edit=False, ephemeral=private)

    @app_commands.command(name="games")
    @app_commands.describe(private="Bring boards back only for you (default: in the channel)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def games(self, interaction: discord.Interaction[Any], private: bool = False) -> None:
        """Your unfinished runs, each with a button that brings its board back."""
        runs = await self.core.runs.unfinished(interaction.user.id)
        text, rows = screens.games_list(runs, private=private,
                                        language=await reader_language(self.bot, interaction))
        kwargs: dict[str, Any] = {"view": rows} if rows is not None else {}
        await interaction.response.send_message(text, ephemeral=True, **kwargs)

    # ----- clicks ----------------------------------------------------------------------------

    async def on_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """Answer one click on a board (moves, controls, and buttons of the first release)."""
        assert click.run_id is not None
        try:
            if click.kind == MOVE:
                assert click.version is not None
                run = await self.core.runs.act(
                    click.run_id, interaction.user.id, click.version, click.action
                )
                async with written(run):
                    await self.boards.redraw(interaction, run, last_action=click.action)
                    await self.boards.after_write(interaction, run)
            elif click.kind == CONTROL:
                await self._control(interaction, click)
            else:  # a button of the first release: always out of date
                run = await self.core.runs.get(click.run_id)
                if run.owner_id != interaction.user.id:
                    raise NotYourRun(run)
                raise StaleBoard(run)
        except RunNotFound as exc:
            _log_refusal(interaction, click.run_id, exc)
            await replies.notice(interaction, NO_RUN)
        except NotYourRun as exc:
            _log_refusal(interaction, click.run_id, exc)
            await replies.notice(interaction,
                                 Message(replies.NOT_YOURS, {"owner": exc.run.owner_id}))
        except StaleBoard as exc:
            _log_refusal(interaction, click.run_id, exc)
            await self.boards.redraw(interaction, exc.run, screens.STALE)
        except RunOver as exc:
            _log_refusal(interaction, click.run_id, exc)
            await self.boards.redraw(interaction, exc.run, screens.RUN_OVER)
        except IllegalMove as exc:
            _log_refusal(interaction, click.run_id, exc)
            await replies.notice(interaction, screens.illegal(exc))
        except Refusal as exc:
            _log_refusal(interaction, click.run_id, exc)
            await replies.notice(interaction, exc)

    async def _control(self, interaction: discord.Interaction[Any], click: Click) -> None:
        assert click.run_id is not None and click.version is not None
        user_id = interaction.user.id
        verb, version = click.verb, click.version
        runs = self.core.runs
        # Writes: the core checks owner and version in the transaction that writes.
        if verb == "undo":
            run = await runs.undo(click.run_id, user_id, version)
            async with written(run):
                await self.boards.redraw(interaction, run)
            return
        if verb == "confirm":
            run = await runs.resign(click.run_id, user_id, version)
            async with written(run):
                await self.boards.redraw(interaction, run)
                await self.boards.after_write(interaction, run)
            return
        if verb == "hint":
            await self.hint(interaction, click.run_id, version)
            return
        if verb == "abandon":
            run = await runs.abandon(click.run_id, user_id, version, click.arg or None)
            _log_start(run, interaction)
            async with written(run):
                await self.boards.present(interaction, screens.board(run, owner=_name(interaction)),
                                   edit=True)
            return
        # Reads: nothing is written, so a check here is enough. A step that only redraws the
        # board the player sees starts from the run as this process last committed it, when
        # that is the board's version (``Runs.shown``); a refresh reads.
        if verb in ("pick", "resign"):
            run = await runs.shown(click.run_id, version)
        else:
            run = await runs.get(click.run_id)
        if run.owner_id != user_id:
            raise NotYourRun(run)
        if verb == "resign":
            if run.over:
                raise RunOver(run)
            if run.version != version:
                raise StaleBoard(run)
            screen = screens.confirm_resign(run, owner=_name(interaction))
            await self.boards.present(interaction, screen, edit=True)
        elif verb == "pick":
            # A two-step board's first step writes nothing: it redraws offering the chosen
            # card's moves, each version-checked when clicked.
            if run.over:
                raise RunOver(run)
            if run.version != version:
                raise StaleBoard(run)
            if not screens.can_choose(run, click.arg):
                await replies.notice(interaction, NOT_A_CHOICE)
                return
            screen = screens.board(run, owner=_name(interaction), choice=click.arg)
            await self.boards.present(interaction, screen, edit=True)
        elif verb in ("board", "resume"):
            await self.boards.redraw(interaction, run)
        elif verb == "share":
            if run.kind is not RunKind.DAILY or not run.over:
                raise Refusal(NO_SHARE)
            await results.share(self.bot, interaction, run)
        elif verb == "stats":
            await send_stats(self.bot, interaction, interaction.user, run.game)
        elif verb == "again":
            screen = await self.open_game(interaction, run.game, run.variant)
            await self.boards.present(
                interaction, screen, edit=False, ephemeral=_is_ephemeral(interaction)
            )
        elif verb == "show":
            # A daily's or a challenge's cards never go to a channel: the board comes back
            # privately.
            facts = await self.boards.facts(run, interaction.user)
            screen = screens.board(run, owner=_name(interaction), facts=facts)
            private = run.kind in (RunKind.DAILY, RunKind.CHALLENGE)
            await self.boards.present(interaction, screen, edit=False,
                               ephemeral=click.arg == "p" or private)
        else:  # pragma: no cover - CONTROLS and this chain are kept in step
            raise RuntimeError(f"no handler for control {verb!r}")

    async def hint(self, interaction: discord.Interaction[Any], run_id: int, version: int) -> None:
        """A practice board's Hint: the board comes back with the suggested move and why on
        top, and the run's new version on its buttons (a hint marks the run hinted)."""
        hints = self.core.hints
        await hints.check(run_id, interaction.user.id, version)  # refusals answer at once
        # The search takes about a second (more while the worker process first starts).
        await interaction.response.defer()
        run, found = await hints.suggest(run_id, interaction.user.id, version)
        log.info("run %s: hint %r for user %s", run.id, found.action, interaction.user.id)
        # The hinted move is the answer of this click: its button is marked on this board
        # only, so nothing about the hint is kept.
        screen = screens.board(run, owner=_name(interaction), hinted=found.action,
                               notice=screens.hint_notice(run, found.action, found.reason))
        async with written(run):
            await self.boards.present(interaction, screen, edit=True)

    # ----- shared ----------------------------------------------------------------------------

    async def open_game(
        self, interaction: discord.Interaction[Any], game: str, variant: str | None
    ) -> screens.Screen:
        """The unfinished practice run of ``game`` with Resume/Abandon, or a new run's board.

        Other kinds of runs are left out: /play is practice; a daily comes back with /daily.
        """
        # One write transaction: the unfinished run found, or the new one stored.
        started = await self.core.runs.open_practice(
            interaction.user.id, game, variant,
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
        )
        if not started.created:
            return screens.unfinished(started.run, variant=variant, owner=_name(interaction))
        _log_start(started.run, interaction)
        return screens.board(started.run, owner=_name(interaction))


def _name(interaction: discord.Interaction[Any]) -> str:
    return interaction.user.display_name


def _is_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


def _log_start(run: Run, interaction: discord.Interaction[Any]) -> None:
    log.info("run %s: %s (%s, %s) started by user %s", run.id, run.game, run.variant,
             run.kind.value, interaction.user.id)
    metrics.run_started(run.game, run.kind.value)


def _log_refusal(
    interaction: discord.Interaction[Any], run_id: int | None, refusal: Refusal
) -> None:
    log.info("refused: run %s, user %s: %s (%s)", run_id, interaction.user.id,
             type(refusal).__name__, refusal)
    metrics.click_outcome("stale" if isinstance(refusal, StaleBoard | RunOver) else "refused")


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Play(bot))
