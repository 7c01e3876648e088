"""Answers at the edge: calm ephemeral notices, and unexpected errors turned into an error id.

An unexpected error is logged with its traceback, an error id, the user and the run; the
player sees one sentence with the same id, so an operator can find the traceback from a
screenshot.

Every sentence here speaks the reader's language (``bot.i18n``): a notice is the core's
:class:`~core.errors.Refusal` (its message rendered in that language) or a marked sentence.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord

from bot import fastpath
from bot.i18n import ENGLISH, Language, notice_language
from bot.timestamps import localized
from core.errors import N_, Message, Refusal
from rules.words import Phrase

log = logging.getLogger(__name__)

NO_MENTIONS = discord.AllowedMentions.none()
#: Discord's code for an interaction it no longer knows (answered after its 3 seconds).
UNKNOWN_INTERACTION = 10062


NOT_YOURS = N_("This run belongs to <@{owner}>; start your own with `/play`.")
UNEXPECTED = N_("Something went wrong on my side (error id `{error_id}`); nothing was changed. "
                "Please try again in a moment.")
UNEXPECTED_AFTER_WRITE = N_(
    "Something went wrong on my side (error id `{error_id}`), but only after your click was "
    "carried out: it counts. Click the board again or use `/games` to bring it back.")


def not_yours(owner_id: int, language: Language = ENGLISH) -> str:
    """The refusal of a click on another player's board, in ``language``; in English it is a
    phrase, which :func:`notice` says in the clicker's language."""
    phrase = Phrase(NOT_YOURS, owner=owner_id)
    return phrase if language is ENGLISH else language.render(phrase)


def new_error_id() -> str:
    """A short id to quote: six hex digits."""
    return secrets.token_hex(3)


class AfterWrite(Exception):
    """An unexpected error after the click's write was committed (drawing the new board, a
    follow-up): the player must not be told that nothing changed. The error is its cause."""

    def __init__(self, run_id: int) -> None:
        super().__init__(f"after the write to run {run_id}")
        self.run_id = run_id


def unexpected_text(error_id: str, *, written: bool = False,
                    language: Language = ENGLISH) -> str:
    return language.format(UNEXPECTED_AFTER_WRITE if written else UNEXPECTED,
                           error_id=error_id)


async def notice(interaction: discord.Interaction[Any], text: str | Message | Refusal) -> None:
    """Tell only the clicker or invoker ``text`` in their language; the one response, or a
    follow-up after it. ``text`` is a refusal, a core message, or a marked sentence (one no
    catalog knows is shown as it is). A time the core wrote in UTC words becomes a Discord
    timestamp (``bot.timestamps``)."""
    if isinstance(text, Refusal):
        text = text.message
    try:
        language = await notice_language(interaction)
    except Exception:  # the settings could not be read: the notice still goes out
        log.exception("could not read the language of user %s", interaction.user.id)
        language = ENGLISH
    text = localized(language.render(text))
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
    else:
        # Nothing reads the notice back: it is not asked for (``bot.fastpath``).
        await fastpath.send_message(interaction, text, ephemeral=True,
                                    allowed_mentions=NO_MENTIONS)


async def unexpected(
    interaction: discord.Interaction[Any],
    error: BaseException,
    *,
    run_id: int | None = None,
    context: str = "",
) -> str:
    """Log ``error`` with a new error id and tell the user that id; returns the id. An
    :class:`AfterWrite` is logged as its cause, and the player told the write was made.

    Never raises: a failure to answer is logged too (the interaction may have expired).
    """
    error_id = new_error_id()
    written = isinstance(error, AfterWrite)
    if written and error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        # Answered too late (Discord allows 3 s): nothing reaches the player any more, and a
        # traceback per late answer would only make an overloaded bot slower.
        log.warning(
            "error %s: user %s, run %s, %s: answered too late, Discord no longer accepts it",
            error_id, interaction.user.id if interaction.user else None, run_id,
            context or _describe(interaction),
        )
        return error_id
    log.error(
        "error %s: user %s, run %s, %s",
        error_id,
        interaction.user.id if interaction.user else None,
        run_id,
        context or _describe(interaction),
        exc_info=error,
    )
    try:
        await notice(interaction, Message(UNEXPECTED_AFTER_WRITE if written else UNEXPECTED,
                                          {"error_id": error_id}))
    except discord.HTTPException:
        log.exception("error %s: could not tell the user", error_id)
    return error_id


def _describe(interaction: discord.Interaction[Any]) -> str:
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data = interaction.data or {}
    return str(data.get("custom_id", "interaction"))
