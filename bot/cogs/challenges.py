"""/challenge and /challenges: one fresh deal for friends, compared on a public card.

- ``/challenge`` posts the card in the channel (the command's public response) and starts the
  challenger's own run at once: their board comes as a private follow-up, so the challenger
  plays too without another click. The card's "Accept" gives anyone else (or only the named
  opponent) their own private run of exactly that deal; the challenger clicking it gets their
  board back. "Close" is for the challenger only.
- The card is edited (through the bot's REST, by the card's stored channel and message ids)
  whenever a player accepts or finishes, and when the challenge closes; a card that was
  deleted is left alone with a log line.
- A background task closes challenges whose deadline passed: once when the bot is ready (so
  a deadline that passed during a restart closes the card when it comes back) and every
  :data:`INTERVAL` seconds after.
- ``/challenges`` lists the caller's open challenges with a button for their board (or
  Accept, for one naming them) and a link to the card.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import challenge_screens as views
from bot import metrics, replies, screens
from bot.buttons import Click
from bot.choices import GAME_CHOICES, VARIANT_CHOICES
from bot.cogs.daily import player_name
from bot.i18n import ENGLISH, Language, catalogs, reader_language, server_language
from bot.presenter import written
from core import Refusal, Run, RunKind
from core.challenges import Card, ChallengeClosed
from core.checks import check_game, check_variant
from core.errors import N_
from rules.words import Phrase
from store import singleton

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

#: Seconds between passes of the closing task.
INTERVAL = 30
# The boards' notices are phrases (English strings that remember their message), which the
# board says in its reader's language.
YOUR_RUN = N_("Your run of the challenge: the same deal everyone who accepts gets. Only you "
              "see this board.")
ACCEPTED = N_("Challenge accepted: the same deal as everyone else. Only you see this board.")
ALREADY = N_("You are in this challenge already: here is your run.")
NO_BOTS = N_("Bots do not take up challenges: name a player, or leave the opponent out.")
IS_CLOSED = N_("Challenge #{id} is closed.")


class Challenges(commands.Cog):
    """Challenge cards, accepting and closing them, and the closing task."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot
        self._task: asyncio.Task[None] | None = None
        self._pass = asyncio.Lock()

    async def cog_load(self) -> None:
        self.bot.clicks.register(views.CHALLENGE, self.on_click)
        self.bot.presenter.board_extras[RunKind.CHALLENGE] = self.dress
        self.bot.presenter.finish_hooks[RunKind.CHALLENGE] = self.on_finished

    async def cog_unload(self) -> None:
        self.bot.clicks.unregister(views.CHALLENGE)
        self.bot.presenter.board_extras.pop(RunKind.CHALLENGE, None)
        self.bot.presenter.finish_hooks.pop(RunKind.CHALLENGE, None)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # Once the gateway is up (cards can be edited); on_ready comes again after a
        # reconnect, and one task is enough.
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._loop(), name="closing challenges"
            )

    async def _loop(self) -> None:
        while not self.bot.is_closed():
            try:
                # Work for no particular server: with several processes (shards), one pass
                # at a time, by whichever holds the lock (the others skip this round).
                async with singleton(self.bot.core.store, "close-challenges") as mine:
                    if mine:
                        await self.close_due()
            except Exception:  # a failed pass (the database, say) must not end the task
                log.exception("challenges: the closing pass failed; trying again in %d s",
                              INTERVAL)
            await asyncio.sleep(INTERVAL)

    async def close_due(self) -> int:
        """Close the challenges whose deadline has passed and edit their cards; how many."""
        async with self._pass:
            cards = await self.bot.core.challenges.close_due()
            for card in cards:
                log.info("challenge %s closed at its deadline (%d players)",
                         card.challenge.id, len(card.lines))
                await self.refresh(card)
            return len(cards)

    # ----- commands --------------------------------------------------------------------------

    @app_commands.command(name="challenge")
    @app_commands.describe(
        game="The game to challenge your friends to",
        variant="A variant of that game (its default when left out)",
        opponent="Only this player may accept (default: anyone)",
        hours="How long the challenge stays open, 1 to 72 hours (default 24)",
    )
    @app_commands.choices(game=GAME_CHOICES, variant=VARIANT_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        variant: str | None = None,
        opponent: discord.User | None = None,
        hours: app_commands.Range[int, 1, 72] = 24,
    ) -> None:
        """Deal a fresh deal for friends to race on: same cards, one run each, best score wins."""
        core = self.bot.core
        user = interaction.user
        try:
            engine = check_game(game)
            variant = check_variant(engine, variant)
            if opponent is not None and getattr(opponent, "bot", False):
                raise Refusal(NO_BOTS)
            await core.rankings.remember_name(user.id, player_name(user))
            challenge, run = await core.challenges.create(
                user.id, engine.key, variant,
                opponent_id=opponent.id if opponent is not None else None, hours=hours,
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            )
        except Refusal as exc:
            log.info("refused: /challenge from user %s: %s", user.id, exc)
            await replies.notice(interaction, exc)
            return
        log.info("challenge %s: %s (%s) by user %s, opponent %s, run %s", challenge.id,
                 challenge.game, challenge.variant, user.id,
                 opponent.id if opponent else None, run.id)
        metrics.run_started(run.game, run.kind.value)
        card = await core.challenges.card(challenge.id)
        embed, rows = views.card(card, await self.card_language(card, interaction))
        callback = await interaction.response.send_message(
            embed=embed, view=rows, allowed_mentions=replies.NO_MENTIONS
        )
        message_id = getattr(callback.resource, "id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        if interaction.channel_id is not None:
            await core.challenges.set_card(challenge.id, interaction.channel_id, message_id)
        # Through the presenter like every board: card faces, the challenge field, and the
        # table picture (sent as a follow-up, the card being the command's response).
        screen = screens.board(run, owner=user.display_name, notice=Phrase(YOUR_RUN))
        await self.bot.presenter.present_followup(interaction, screen)

    @app_commands.command(name="challenges")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def challenges(self, interaction: discord.Interaction[Any]) -> None:
        """Your open challenges, each with a button to bring back your board or accept it."""
        found = await self.bot.core.challenges.open_for(interaction.user.id)
        text, rows = views.open_list(found, await reader_language(self.bot, interaction))
        kwargs: dict[str, Any] = {"view": rows} if rows is not None else {}
        await interaction.response.send_message(
            text, ephemeral=True, allowed_mentions=replies.NO_MENTIONS, **kwargs
        )

    # ----- clicks ----------------------------------------------------------------------------

    async def on_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """``dd.ch:acc:<challenge id>`` (Accept) and ``dd.ch:close:<challenge id>`` (Close),
        checked by ``bot.custom_ids``."""
        verb, challenge_id = str(click.fields[0]), int(click.fields[1])
        if verb == "acc":
            await self._accept(interaction, challenge_id)
        else:
            await self._close(interaction, challenge_id)

    async def _accept(self, interaction: discord.Interaction[Any], challenge_id: int) -> None:
        core = self.bot.core
        user = interaction.user
        try:
            await core.rankings.remember_name(user.id, player_name(user))
            accepted = await core.challenges.accept(
                challenge_id, user.id, guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
            )
        except ChallengeClosed as exc:
            log.info("refused: late accept of challenge %s by user %s", challenge_id, user.id)
            await replies.notice(interaction, exc)
            await self.close_due()  # its deadline passed: close it now rather than in 30 s
            return
        except Refusal as exc:
            log.info("refused: accept of challenge %s by user %s: %s", challenge_id, user.id, exc)
            await replies.notice(interaction, exc)
            return
        run = accepted.run
        if accepted.created:
            log.info("challenge %s: accepted by user %s, run %s", challenge_id, user.id, run.id)
            metrics.run_started(run.game, run.kind.value)
        notice = Phrase(ACCEPTED if accepted.created else ALREADY)
        async with written(run):
            screen = screens.board(run, owner=user.display_name, notice=notice)
            await self.bot.presenter.present(interaction, screen, edit=False, ephemeral=True)
            if accepted.created:
                await self.refresh(await core.challenges.card(challenge_id), interaction)

    async def _close(self, interaction: discord.Interaction[Any], challenge_id: int) -> None:
        try:
            card, closed = await self.bot.core.challenges.close(challenge_id, interaction.user.id)
        except Refusal as exc:
            log.info("refused: close of challenge %s by user %s: %s", challenge_id,
                     interaction.user.id, exc)
            await replies.notice(interaction, exc)
            return
        if closed:
            log.info("challenge %s closed by its challenger", challenge_id)
        message = interaction.message
        if message is not None and message.id == card.challenge.message_id:
            embed, rows = views.card(card, await self.card_language(card, interaction))
            await interaction.response.edit_message(**views.kwargs(embed, rows))
        else:
            await replies.notice(interaction, Refusal(IS_CLOSED, id=challenge_id))
            await self.refresh(card, interaction)

    # ----- what runs of a challenge add -------------------------------------------------------

    async def dress(self, run: Run, screen: screens.Screen) -> None:
        """A challenge run's board names its challenge and when it closes; once the run is
        over, the player's rank among the challenge's players."""
        core = self.bot.core
        challenge_id = await core.challenges.of_run(run.id)
        if challenge_id is not None:
            card = await core.challenges.card(challenge_id) if run.over else None
            views.challenge_field(screen.embed, await core.challenges.get(challenge_id),
                                  card, run, views.screen_language(screen))

    async def on_finished(self, interaction: discord.Interaction[Any], run: Run) -> None:
        """A click finished a challenge run: its card shows the new order."""
        challenge_id = await self.bot.core.challenges.of_run(run.id)
        if challenge_id is not None:
            await self.refresh(await self.bot.core.challenges.card(challenge_id), interaction)

    async def card_language(self, card: Card,
                            interaction: discord.Interaction[Any] | None = None) -> Language:
        """The card's language: a public message speaks its server's (``/settings
        language``, else the server's Discord language). Outside an interaction the server is
        looked up by id (a server the bot is not in has only its ``/settings language``). A
        card in a DM speaks the clicker's language; edited by the closing task, English."""
        guild_id = card.challenge.guild_id
        if interaction is not None and interaction.guild_id == guild_id:
            return await server_language(self.bot, interaction.guild, interaction)
        guild = self.bot.get_guild(guild_id) if guild_id is not None else None
        if guild is not None:
            return await server_language(self.bot, guild)
        if guild_id is not None:
            chosen = (await self.bot.core.settings.guild(guild_id)).language
            books = catalogs()
            if chosen is not None and books.known(chosen):
                return books.languages[chosen]
        return ENGLISH

    async def refresh(self, card: Card,
                      interaction: discord.Interaction[Any] | None = None) -> None:
        """Edit the challenge's card to show ``card`` in its language; a deleted card is left
        alone."""
        c = card.challenge
        if c.channel_id is None or c.message_id is None:
            return
        embed, rows = views.card(card, await self.card_language(card, interaction))
        message = self.bot.get_partial_messageable(
            c.channel_id, guild_id=c.guild_id
        ).get_partial_message(c.message_id)
        try:
            await message.edit(**views.kwargs(embed, rows))
        except discord.NotFound:
            log.info("challenge %s: its card (message %s) is gone; not updated", c.id,
                     c.message_id)
        except discord.HTTPException as exc:
            log.warning("challenge %s: could not update its card (message %s): %s", c.id,
                        c.message_id, exc)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Challenges(bot))
