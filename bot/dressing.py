"""What a board is dressed in: the synced card-face emoji on move buttons and in board text, and
the table picture attached to each board.

Boards never break because of pictures: without synced emoji (no permission, limit reached,
Discord down) buttons and text keep today's text cards; a table picture that cannot be drawn
or attached is logged and the board stays complete without it.

The picture is not drawn before the click is answered: the board is answered at once, with
its embed pointing at ``attachment://table.png``, and the new picture replaces the old one in
a second edit moments later (``edit_original_response``), so pictures add nothing to the time
a click takes to answer. It is drawn in a worker process (``core.workers``), never in the
bot's own, and that edit is skipped when the run has moved on in the meantime; the check and
the edit are one step per run, so a newer board's picture always lands last.

When more clicks come than the worker can draw for (a small machine with hundreds of players
at once), boards go out without a picture until it has caught up (:meth:`TablePictures.has_room`):
the text board is complete, and clicks stay fast instead of every one waiting for a CPU that
pictures have taken over.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
import re
from collections.abc import AsyncIterator, Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot import metrics
from bot.buttons import HINT_MARK, ButtonRows
from bot.pictures.canvas import action_cards
from bot.pictures.table import CACHE, FILENAME, render_scene, scene, scene_key
from core.model import Run
from core.workers import PICTURES

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

CardEmoji = Mapping[str, discord.PartialEmoji]
_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
#: A card named in a board's text: ``A♠``, ``10♥`` (jokers stay 🃏: the text cannot tell them
#: apart, and the buttons name them).
_CARD = re.compile(r"(?<![\w<:])(10|[2-9AJQK])([♠♥♦♣])")


def with_faces(text: str, emoji: CardEmoji) -> str:
    """``text`` with every card it names shown as that card's emoji (when synced)."""
    if not emoji or not text:
        return text

    def face(match: re.Match[str]) -> str:
        found = emoji.get(match.group(1) + _SUITS[match.group(2)])
        return str(found) if found is not None else match.group(0)

    return _CARD.sub(face, text)


def dress(embed: discord.Embed, rows: ButtonRows, emoji: CardEmoji,
          *, picture: bool) -> None:
    """Put card faces on a board: emoji in its description and fields and on the buttons of
    moves that name a card, and (``picture``) the table image slot."""
    if emoji:
        if embed.description:
            embed.description = with_faces(embed.description, emoji)
        for i, field in enumerate(embed.fields):
            embed.set_field_at(i, name=field.name, value=with_faces(field.value or "", emoji),
                               inline=field.inline)
        for i, item in enumerate(rows.buttons):
            if item.custom_id:
                cards = action_cards(item.custom_id.rsplit(":", 1)[-1])
                if cards and cards[0] in emoji and item.emoji != HINT_MARK:
                    rows.replace(i, dataclasses.replace(item, emoji=emoji[cards[0]]))
    if picture:
        embed.set_image(url=f"attachment://{FILENAME}")


#: Pictures being drawn or attached at once, beyond which boards go out without one. Each
#: takes the worker 2-6 ms: a few are under way at any moment at a hundred clicks a second.
MAX_IN_FLIGHT = 8


class TablePictures:
    """Draws and attaches table pictures after the click was answered."""

    def __init__(self, bot: DungeonBot, max_in_flight: int = MAX_IN_FLIGHT) -> None:
        self.bot = bot
        self.max_in_flight = max_in_flight
        self._tasks: set[asyncio.Task[None]] = set()
        #: Per run, the lock held from the version check to the end of the edit, and how
        #: many attaches want it (the entry goes when none does).
        self._runs: dict[int, tuple[asyncio.Lock, int]] = {}

    def has_room(self) -> bool:
        """Whether a board answered now can have its picture; counts the ones that cannot."""
        if len(self._tasks) < self.max_in_flight:
            return True
        metrics.picture("skipped")
        return False

    def attach_later(
        self, interaction: discord.Interaction[Any], run: Run, last_action: str | None,
        message: discord.WebhookMessage | None = None,
    ) -> None:
        """Draw the run's table off the event loop, then put it on the answered message (or
        on ``message``, a board sent as a follow-up)."""
        task = asyncio.create_task(self._attach(interaction, run, last_action, message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _attach(
        self, interaction: discord.Interaction[Any], run: Run, last_action: str | None,
        message: discord.WebhookMessage | None = None,
    ) -> None:
        try:
            file = discord.File(io.BytesIO(await self.png(run.view, last_action)), FILENAME)
            # The check and the edit under one lock per run: otherwise an older picture
            # checked before a newer board was drawn could land after that board's own.
            async with self._turn(run.id):
                if await self.bot.core.runs.version(run.id) != run.version:
                    return  # a later click drew a newer board; its own picture follows
                if message is not None:
                    await message.edit(attachments=[file])
                else:
                    await interaction.edit_original_response(attachments=[file])
            metrics.picture("attached")
        except Exception:
            log.warning("run %s: the table picture could not be attached; the board stays "
                        "as text", run.id, exc_info=True)

    @contextlib.asynccontextmanager
    async def _turn(self, run_id: int) -> AsyncIterator[None]:
        lock, waiting = self._runs.get(run_id, (asyncio.Lock(), 0))
        self._runs[run_id] = (lock, waiting + 1)
        try:
            async with lock:
                yield
        finally:
            lock, waiting = self._runs[run_id]
            if waiting == 1:
                del self._runs[run_id]
            else:
                self._runs[run_id] = (lock, waiting - 1)

    async def png(self, view: dict[str, Any], last_action: str | None) -> bytes:
        """The table's PNG: from the cache, or drawn in a worker process (drawing holds the
        GIL: in a thread of the bot's process it would slow every other click down)."""
        drawn = scene(view, last_action)
        key = scene_key(drawn)
        found = CACHE.get(key)
        if found is None:
            found = await self.bot.core.workers.run(PICTURES, render_scene, drawn)
            CACHE.put(key, found)
        return found

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
