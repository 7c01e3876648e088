"""/play and /games, and every click on a board.

The cog holds no game state: each click loads the run through the service, applies one
action, and answers with exactly one interaction response (``edit_message`` for the board
that was clicked, an ephemeral message for refusals). Refusals, by case:

- another player's board: an ephemeral "this run belongs to ..."; nothing changes;
- a stale board (a move already played from it, or the run over): the clicked message is
  redrawn as the current board with a notice line at the top of the embed. Editing the
  message *is* the one response, so the clicker sees why nothing was played and the board is
  up to date at once (an ephemeral notice could not also update the board);
- a garbled or forged custom id, an unknown run, an illegal action: an ephemeral notice.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies, screens
from bot.buttons import Click
from bot.choices import GAME_CHOICES, VARIANT_CHOICES, variant_refusal
from bot.service import (
    GameService,
    IllegalMove,
    NotYourRun,
    Run,
    RunNotFound,
    RunOver,
    ServiceError,
    StaleBoard,
)

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

GARBLED = "That button is damaged or not one of mine, so nothing was changed."
NO_RUN = "That run does not exist (any more), so nothing was changed."


class Play(commands.Cog):
    """Starting, resuming and playing runs."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ----- commands --------------------------------------------------------------------------

    @app_commands.command(name="play")
    @app_commands.describe(
        game="The game to play",
        variant="A variant of that game (its default when left out)",
        private="Show the board only to you (default: everyone in the channel sees it)",
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
    ) -> None:
        """Start a practice run, or get back to your unfinished one."""
        refusal = variant_refusal(game, variant)
        if refusal is not None:
            await replies.notice(interaction, refusal)
            return
        screen = await self.open_game(interaction, game, variant)
        await interaction.response.send_message(ephemeral=private, **screen.kwargs())

    @app_commands.command(name="games")
    @app_commands.describe(private="Bring boards back only for you (default: in the channel)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def games(self, interaction: discord.Interaction[Any], private: bool = False) -> None:
        """Your unfinished runs, each with a button that brings its board back."""
        runs = await self.service.unfinished_runs(interaction.user.id)
        text, view = screens.games_list(runs, private=private)
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        await interaction.response.send_message(text, ephemeral=True, **kwargs)

    # ----- clicks ----------------------------------------------------------------------------

    async def on_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """Answer one click (called by every button class in ``bot.buttons``)."""
        if click.verb == "garbled" or click.run_id is None:
            log.info("garbled custom id %r from user %s", click.custom_id, interaction.user.id)
            await replies.notice(interaction, GARBLED)
            return
        try:
            if click.verb == "move":
                await self._move(interaction, click)
            else:
                await self._control(interaction, click)
        except RunNotFound:
            await replies.notice(interaction, NO_RUN)
        except NotYourRun as exc:
            await replies.notice(interaction, _not_yours(exc.run))
        except StaleBoard as exc:
            await self._redraw(interaction, exc.run, screens.STALE)
        except RunOver as exc:
            await self._redraw(interaction, exc.run, screens.RUN_OVER)
        except IllegalMove as exc:
            await replies.notice(interaction, f"That move is not possible: {exc.reason}")
        except (ServiceError, ValueError) as exc:
            log.info("refused %r from user %s: %s", click.custom_id, interaction.user.id, exc)
            await replies.notice(interaction, str(exc))

    async def _move(self, interaction: discord.Interaction[Any], click: Click) -> None:
        assert click.run_id is not None and click.move is not None
        run = await self.service.act(click.run_id, interaction.user.id, click.move, click.arg)
        await self._redraw(interaction, run)

    async def _control(self, interaction: discord.Interaction[Any], click: Click) -> None:
        assert click.run_id is not None
        run = await self.service.get_run(click.run_id)
        if run.owner_id != interaction.user.id:
            await replies.notice(interaction, _not_yours(run))
            return
        verb = click.verb
        # The controls of a board (undo, resign, confirm, back) act only on the run as that
        # board showed it; otherwise the clicker gets the board as it is now.
        if click.move is not None and (run.status != "playing" or run.moves != click.move):
            notice = screens.STALE if run.status == "playing" else screens.RUN_OVER
            await self._redraw(interaction, run, notice)
        elif verb == "undo":
            await self._redraw(interaction, await self.service.undo(run.id, run.owner_id))
        elif verb == "resign":
            await self._edit(interaction, screens.confirm_resign(run, owner=_name(interaction)))
        elif verb == "confirm":
            await self._redraw(interaction, await self.service.resign(run.id, run.owner_id))
        elif verb in ("board", "resume"):
            await self._redraw(interaction, run)
        elif verb == "abandon":
            if run.status == "playing":
                await self.service.resign(run.id, run.owner_id)
            screen = await self.open_game(interaction, run.game, click.arg or run.variant)
            await self._edit(interaction, screen)
        elif verb == "again":
            screen = await self.open_game(interaction, run.game, run.variant)
            await interaction.response.send_message(
                ephemeral=_is_ephemeral(interaction), **screen.kwargs()
            )
        elif verb == "show":
            await interaction.response.send_message(
                ephemeral=click.arg == "p",
                **screens.board(run, owner=_name(interaction)).kwargs(),
            )
        else:  # pragma: no cover - CONTROLS and this chain are kept in step
            raise RuntimeError(f"no handler for control {verb!r}")

    # ----- shared ----------------------------------------------------------------------------

    async def open_game(
        self, interaction: discord.Interaction[Any], game: str, variant: str | None
    ) -> screens.Screen:
        """The unfinished practice run of ``game`` with Resume/Abandon, or a new run's board.

        Daily runs are left out: /play is practice, and a daily is resumed from /games.
        """
        user = interaction.user
        unfinished = [
            run for run in await self.service.unfinished_runs(user.id, game)
            if run.kind == "practice"
        ]
        if unfinished:
            return screens.unfinished(unfinished[0], variant=variant, owner=_name(interaction))
        run = await self.service.start_run(
            user.id, game, variant,
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
        )
        log.info("run %s: %s (%s) started by user %s", run.id, run.game, run.variant, user.id)
        return screens.board(run, owner=_name(interaction))

    async def _redraw(
        self, interaction: discord.Interaction[Any], run: Run, notice: str | None = None
    ) -> None:
        owner = _name(interaction) if interaction.user.id == run.owner_id else None
        await self._edit(interaction, screens.board(run, owner=owner, notice=notice))

    async def _edit(self, interaction: discord.Interaction[Any], screen: screens.Screen) -> None:
        await interaction.response.edit_message(content=None, **screen.kwargs())


def _not_yours(run: Run) -> str:
    return f"This run belongs to <@{run.owner_id}>; start your own with `/play`."


def _name(interaction: discord.Interaction[Any]) -> str:
    return interaction.user.display_name


def _is_ephemeral(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Play(bot))
