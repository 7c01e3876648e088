"""Answering with a run's board: the one presenter every cog that shows boards goes through.

A board of any kind of run (practice, daily, challenge, series) is drawn by :mod:`bot.screens`
and answered here: features add to their kind of run's boards before they are sent
(``board_extras``: a challenge's deadline, a series' total, a daily's replay button; and
``run_extras`` to boards of every kind: the Activity's Open table button) and act
once a click has finished such a run (``finish_hooks``); card faces go on the board when
synced, and its table picture goes with it (:mod:`bot.dressing`). The presenter holds no
game state: it answers one interaction with what the core returned.

It also chooses whose language a board speaks (docs/languages.md): an ephemeral board the
reader's (:func:`bot.i18n.reader_language`), a public board the server's
(:func:`bot.i18n.server_language`), both cached by :mod:`bot.i18n` so a click reads no
setting twice a minute. A public board's clicks that answer only the clicker (refusals) are
answered in the clicker's language by :func:`bot.replies.notice`.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import dressing, fastpath, metrics, replies, results, screens, standings
from bot.boards.result import Facts
from bot.i18n import Language, reader_language, server_language
from core import Run, RunKind

if TYPE_CHECKING:
    from bot.client import DungeonBot

#: What a feature adds to a board of its kind of run before it is sent.
BoardExtra = Callable[[Run, screens.Screen], Awaitable[None]]
#: What a feature does once a click has finished a run of its kind.
FinishHook = Callable[[discord.Interaction[Any], Run], Awaitable[None]]


class Presenter:
    """Draws and answers boards for every cog (see the module docstring)."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot
        #: Registered by the cogs of those kinds of runs as they load, removed as they unload.
        self.board_extras: dict[RunKind, BoardExtra] = {}
        self.finish_hooks: dict[RunKind, FinishHook] = {}
        #: What a feature adds to every run's board, of any kind, after its kind's extra (the
        #: Activity's Open table button).
        self.run_extras: list[BoardExtra] = []

    async def redraw(
        self,
        interaction: discord.Interaction[Any],
        run: Run,
        notice: str | None = None,
        *,
        last_action: str | None = None,
    ) -> None:
        """Answer the click by redrawing the clicked message as the run's board."""
        owner = interaction.user.display_name if interaction.user.id == run.owner_id else None
        facts = await self.facts(run, interaction.user)
        language = await self.language(interaction, edit=True)
        screen = screens.board(run, owner=owner, notice=notice, facts=facts, language=language)
        await self.present(interaction, screen, edit=True, last_action=last_action)

    async def language(self, interaction: discord.Interaction[Any], *, edit: bool,
                       ephemeral: bool = False) -> Language:
        """Whose language a board answered to ``interaction`` speaks: the reader's when only
        they see it (an ephemeral answer, or an edit of an ephemeral message), else the
        server's (a board the channel sees)."""
        if edit:
            message = interaction.message
            ephemeral = message is not None and message.flags.ephemeral
        if ephemeral or interaction.guild_id is None:
            return await reader_language(self.bot, interaction)
        return await server_language(self.bot, interaction.guild, interaction)

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
        on it when synced, and its table picture with it when drawn in time (``bot.dressing``):
        a board with its picture is sent in its pictured form (one status line for the
        fields), one without in full. The screen speaks the language :meth:`language` chooses
        for it; what it whispers (a hint on a public board) is also told the clicker privately
        when their language is another."""
        screen = screen.speak(await self.language(interaction, edit=edit, ephemeral=ephemeral))
        file = await self._dressed(interaction, screen, last_action)
        await self._answer(interaction, screen, file, edit=edit, ephemeral=ephemeral)
        if screen.whisper is not None:
            reader = await reader_language(self.bot, interaction)
            if reader is not screen.language:
                await interaction.followup.send(
                    reader.render(screen.whisper), ephemeral=True,
                    allowed_mentions=replies.NO_MENTIONS)

    async def _answer(self, interaction: discord.Interaction[Any], screen: screens.Screen,
                      file: discord.File | None, *, edit: bool, ephemeral: bool) -> None:
        kwargs = screen.kwargs()
        if edit:
            message = interaction.message
            if file is not None:
                kwargs["attachments"] = [file]  # replaces the old picture
            elif message is not None and message.attachments:
                kwargs["attachments"] = []  # no stale picture under a board without one
            if interaction.response.is_done():  # deferred first (a hint): edit it now
                await interaction.edit_original_response(content=None, **kwargs)
            else:
                await interaction.response.edit_message(content=None, **kwargs)
        else:
            if file is not None:
                kwargs["file"] = file
            # Nothing reads the sent message: it is not asked back (``bot.fastpath``).
            await fastpath.send_message(interaction, ephemeral=ephemeral, **kwargs)

    async def present_followup(self, interaction: discord.Interaction[Any],
                               screen: screens.Screen) -> None:
        """Send ``screen`` privately as a follow-up (the interaction's response was another
        message, as a challenge's public card), dressed as :meth:`present` dresses a board:
        its kind's extras, card faces, and its table picture with it, in the reader's
        language."""
        screen = screen.speak(await reader_language(self.bot, interaction))
        file = await self._dressed(interaction, screen, None)
        kwargs = screen.kwargs()
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(ephemeral=True, **kwargs)

    async def _dressed(self, interaction: discord.Interaction[Any], screen: screens.Screen,
                       last_action: str | None) -> discord.File | None:
        """Dress ``screen`` for the user: its kind's extras, card faces, and when pictures are
        on and the table is drawn in time, the picture (returned, to send with the board) and
        the board's pictured form."""
        bot = self.bot
        run = screen.run
        if run is not None and (extra := self.board_extras.get(run.kind)) is not None:
            await extra(run, screen)
        if run is not None:
            for every in self.run_extras:
                await every(run, screen)
        picture = (
            bot.pictures and run is not None
            and await bot.core.settings.pictures_on(interaction.guild_id, interaction.user.id)
            and bot.table_pictures.has_room()
        )
        # The picture goes out in the board's one message (no later edit that makes it
        # jump); a picture not drawn in time leaves the complete text board.
        file = None
        if picture:
            assert run is not None
            file = await bot.table_pictures.drawn(run, last_action, screen.language)
        if file is not None and screen.pictured is not None:
            # The picture carries the table: the text keeps the events, status and prompt.
            screen.pictured.apply(screen.embed)
        dressing.dress(screen.embed, screen.buttons, bot.card_emoji, picture=file is not None)
        return file

    async def standing(self, run: Run) -> Callable[[Language], str] | None:
        """Where a finished daily stands on its day's boards, and when the next deal comes,
        said in the language the card is drawn in (chosen after the facts are looked up)."""
        if run.kind is not RunKind.DAILY or not run.over:
            return None
        assert run.day is not None
        core = self.bot.core
        found = await core.rankings.standing(
            run.owner_id, run.game, run.variant, run.day, run.guild_id
        )
        return functools.partial(standings.standing_text, run, found, core.ctx.clock())

    async def facts(self, run: Run, user: discord.abc.User | None = None) -> Facts | None:
        """What a finished run means for its player (its result card): the personal best,
        and for a daily its standing, the streak and the share line (naming ``user`` when
        they own the run). None while the run is being played."""
        if not run.over:
            return None
        core = self.bot.core
        best = await core.rankings.personal_best(run)
        if run.kind is not RunKind.DAILY:
            return Facts(best=best)
        record = await core.rankings.record(run.owner_id, run.game)
        player = results.player_name(user) if user is not None and user.id == run.owner_id else None
        return Facts(
            best=best, standing=await self.standing(run), streak=record.current_streak,
            share=await core.daily.result_line(run, player),
        )

    async def after_write(self, interaction: discord.Interaction[Any], run: Run) -> None:
        """After the click was answered: a run this click finished is counted, a daily is
        announced, and its kind's feature does what it does at the end."""
        if not run.over:
            return
        metrics.run_finished(run.game, run.kind.value)
        if run.kind is RunKind.DAILY:
            await results.announce(self.bot, interaction, run)
        hook = self.finish_hooks.get(run.kind)
        if hook is not None:
            await hook(interaction, run)


@contextlib.asynccontextmanager
async def written(run: Run) -> AsyncIterator[None]:
    """Around what follows a committed write (the new board, a follow-up): an unexpected
    error there becomes :class:`replies.AfterWrite`, so the player is told the truth."""
    try:
        yield
    except Exception as exc:
        raise replies.AfterWrite(run.id) from exc
