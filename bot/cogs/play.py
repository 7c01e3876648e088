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

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import faces, metrics, replies, results, screens, standings
from bot.buttons import CONTROL, LEGACY, MOVE, Click
from bot.choices import GAME_CHOICES, VARIANT_CHOICES
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

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

NO_RUN = "That run does not exist (any more), so nothing was changed."


class Play(commands.Cog):
    """Starting, resuming and playing runs."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot
        #: What other features add to a board of their kind of run before it is sent,
        #: ``await extra(run, screen)`` (a challenge's deadline, a series' total), and what
        #: they do once a click has finished such a run, ``await hook(interaction, run)``.
        #: Registered by their cogs.
        self.board_extras: dict[RunKind, Callable[[Run, screens.Screen], Awaitable[None]]] = {}
        self.finish_hooks: dict[
            RunKind, Callable[[discord.Interaction[Any], Run], Awaitable[None]]
        ] = {}

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
            await replies.notice(interaction, str(exc))
            return
        await self.present(interaction, screen, edit=False, ephemeral=private)

    @app_commands.command(name="games")
    @app_commands.describe(private="Bring boards back only for you (default: in the channel)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def games(self, interaction: discord.Interaction[Any], private: bool = False) -> None:
        """Your unfinished runs, each with a button that brings its board back."""
        runs = await self.core.runs.unfinished(interaction.user.id)
        text, rows = screens.games_list(runs, private=private)
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
                    click.run_id, interaction.user.id, click.version, click.verb
                )
                async with written(run):
                    await self.redraw(interaction, run, last_action=click.verb)
                    await self.after_write(interaction, run)
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
            await replies.notice(interaction, not_yours(exc.run))
        except StaleBoard as exc:
            _log_refusal(interaction, click.run_id, exc)
            await self.redraw(interaction, exc.run, screens.STALE)
        except RunOver as exc:
            _log_refusal(interaction, click.run_id, exc)
            await self.redraw(interaction, exc.run, screens.RUN_OVER)
        except IllegalMove as exc:
            _log_refusal(interaction, click.run_id, exc)
            await replies.notice(interaction, f"That move is not possible: {exc.reason}")
        except Refusal as exc:
            _log_refusal(interaction, click.run_id, exc)
            await replies.notice(interaction, str(exc))

    async def _control(self, interaction: discord.Interaction[Any], click: Click) -> None:
        assert click.run_id is not None and click.version is not None
        user_id = interaction.user.id
        verb, version = click.verb, click.version
        runs = self.core.runs
        # Writes: the core checks owner and version in the transaction that writes.
        if verb == "undo":
            run = await runs.undo(click.run_id, user_id, version)
            async with written(run):
                await self.redraw(interaction, run)
            return
        if verb == "confirm":
            run = await runs.resign(click.run_id, user_id, version)
            async with written(run):
                await self.redraw(interaction, run)
                await self.after_write(interaction, run)
            return
        if verb == "hint":
            await self.hint(interaction, click.run_id, version)
            return
        if verb == "abandon":
            run = await runs.abandon(click.run_id, user_id, version, click.arg or None)
            _log_start(run, interaction)
            async with written(run):
                await self.present(interaction, screens.board(run, owner=_name(interaction)),
                                   edit=True)
            return
        # Reads: nothing is written, so a check here is enough.
        run = await runs.get(click.run_id)
        if run.owner_id != user_id:
            raise NotYourRun(run)
        if verb == "resign":
            if run.over:
                raise RunOver(run)
            if run.version != version:
                raise StaleBoard(run)
            await self.present(interaction, screens.confirm_resign(run, owner=_name(interaction)),
                               edit=True)
        elif verb in ("board", "resume"):
            await self.redraw(interaction, run)
        elif verb == "again":
            screen = await self.open_game(interaction, run.game, run.variant)
            await self.present(
                interaction, screen, edit=False, ephemeral=_is_ephemeral(interaction)
            )
        elif verb == "show":
            # A daily's or a challenge's cards never go to a channel: the board comes back
            # privately.
            screen = screens.board(run, owner=_name(interaction), standing=await self.standing(run))
            private = run.kind in (RunKind.DAILY, RunKind.CHALLENGE)
            await self.present(interaction, screen, edit=False,
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
        async with written(run):
            await self.redraw(interaction, run,
                              screens.hint_notice(run, found.action, found.reason))

    # ----- shared ----------------------------------------------------------------------------

    async def open_game(
        self, interaction: discord.Interaction[Any], game: str, variant: str | None
    ) -> screens.Screen:
        """The unfinished practice run of ``game`` with Resume/Abandon, or a new run's board.

        Other kinds of runs are left out: /play is practice; a daily comes back with /daily.
        """
        user = interaction.user
        unfinished = [
            run for run in await self.core.runs.unfinished(user.id, game)
            if run.kind is RunKind.PRACTICE
        ]
        if unfinished:
            return screens.unfinished(unfinished[0], variant=variant, owner=_name(interaction))
        run = await self.core.runs.start(
            user.id, game, variant,
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
        )
        _log_start(run, interaction)
        return screens.board(run, owner=_name(interaction))

    async def redraw(
        self,
        interaction: discord.Interaction[Any],
        run: Run,
        notice: str | None = None,
        *,
        last_action: str | None = None,
    ) -> None:
        """Answer the click by redrawing the clicked message as the run's board."""
        owner = _name(interaction) if interaction.user.id == run.owner_id else None
        standing = await self.standing(run)
        screen = screens.board(run, owner=owner, notice=notice, standing=standing)
        await self.present(interaction, screen, edit=True, last_action=last_action)

    async def present(
        self,
        interaction: discord.Interaction[Any],
        screen: screens.Screen,
        *,
        edit: bool,
        ephemeral: bool = False,
        last_action: str | None = None,
    ) -> None:
        """Answer with ``screen``: edit the clicked message, or send a new one. Card faces go
        on it when synced; its table picture follows once drawn (``bot.faces``)."""
        run = screen.run
        if run is not None and (extra := self.board_extras.get(run.kind)) is not None:
            await extra(run, screen)
        picture = (
            self.bot.pictures and run is not None
            and await self.core.settings.pictures_on(interaction.guild_id, interaction.user.id)
            and self.bot.tables.has_room()
        )
        faces.dress(screen.embed, screen.buttons, self.bot.card_emoji, picture=picture)
        kwargs = screen.kwargs()
        if edit:
            message = interaction.message
            if not picture and message is not None and message.attachments:
                kwargs["attachments"] = []  # no stale picture under a board without one
            if interaction.response.is_done():  # deferred first (a hint): edit it now
                await interaction.edit_original_response(content=None, **kwargs)
            else:
                await interaction.response.edit_message(content=None, **kwargs)
        else:
            await interaction.response.send_message(ephemeral=ephemeral, **kwargs)
        if picture:
            assert run is not None
            self.bot.tables.attach_later(interaction, run, last_action)

    async def standing(self, run: Run) -> str | None:
        """Where a finished daily stands on its day's boards, and when the next deal comes."""
        if run.kind is not RunKind.DAILY or not run.over:
            return None
        assert run.day is not None
        found = await self.core.rankings.standing(
            run.owner_id, run.game, run.variant, run.day, run.guild_id
        )
        return standings.standing_text(run, found, self.core.ctx.clock())

    async def after_write(self, interaction: discord.Interaction[Any], run: Run) -> None:
        """After the click was answered: a daily this click finished is announced."""
        if run.over:
            metrics.run_finished(run.game, run.kind.value)
        if run.kind is RunKind.DAILY and run.over:
            await results.announce(self.bot, interaction, run)
        hook = self.finish_hooks.get(run.kind)
        if run.over and hook is not None:
            await hook(interaction, run)


@contextlib.asynccontextmanager
async def written(run: Run) -> AsyncIterator[None]:
    """Around what follows a committed write (the new board, a follow-up): an unexpected
    error there becomes :class:`replies.AfterWrite`, so the player is told the truth."""
    try:
        yield
    except Exception as exc:
        raise replies.AfterWrite(run.id) from exc


def play_cog(bot: commands.Bot) -> Play | None:
    """The Play cog, which the boards of every kind of run go through; None when unloaded.
    The cogs that add to those boards (daily, challenges, series, replays) load after it."""
    cog = bot.get_cog(Play.__cog_name__)
    return cog if isinstance(cog, Play) else None


def not_yours(run: Run) -> str:
    return f"This run belongs to <@{run.owner_id}>; start your own with `/play`."


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
