"""What a board is dressed in: the synced card-face emoji on move buttons and in board text, and
the table picture attached to each board.

Boards never break because of pictures: without synced emoji (no permission, limit reached,
Discord down) buttons and text keep today's text cards; a table picture that cannot be drawn
or attached is logged and the board stays complete without it.

The picture goes out with the board, in the interaction's one response, so the message does
not grow when a picture arrives later (it used to follow in a second edit). It is drawn in a
worker process (``core.workers``), never in the bot's own, and the presenter waits for it at
most :data:`PICTURE_WAIT` (a table takes the worker 1-3 ms; the wait is for a worker that is
stuck or far behind): past that the board is answered as the complete text board, without a
picture, well inside Discord's 3 seconds, and the drawing goes on to fill the cache. The
worker is started with the bot (:meth:`TablePictures.warm`); until it is up, boards go as
text rather than wait a second for a process to start. Since
each board's picture is part of its own response, an older picture can never land on a newer
board, and an edit always replaces the message's attachments (a board without its picture
takes the old one off).

When more clicks come than the worker can draw for (a small machine with hundreds of players
at once), boards go out without a picture until it has caught up (:meth:`TablePictures.has_room`):
the text board is complete, and clicks stay fast instead of every one waiting for a CPU that
pictures have taken over.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot import metrics
from bot.buttons import HINT_MARK, ButtonRows
from bot.i18n import ENGLISH, Language
from bot.pictures.canvas import action_cards
from bot.pictures.table import CACHE, FILENAME, render_scene, scene, scene_key, warm_up
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
    faces = _faces(emoji)
    return _CARD.sub(lambda match: faces.get(match.group(0), match.group(0)), text)


#: The last emoji mapping seen, its size, and each card's text ("10♥") to its emoji's markup:
#: worked out once per mapping, not once per card named. The bot replaces its mapping when its
#: emoji are synced (``DungeonBot.load_card_emoji``) rather than changing it in place.
_FACES: list[tuple[CardEmoji, int, dict[str, str]]] = []


def _faces(emoji: CardEmoji) -> dict[str, str]:
    if _FACES and _FACES[0][0] is emoji and _FACES[0][1] == len(emoji):
        return _FACES[0][2]
    faces = {f"{rank}{suit}": str(emoji[rank + code])
             for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
             for suit, code in _SUITS.items() if rank + code in emoji}
    _FACES[:] = [(emoji, len(emoji), faces)]
    return faces


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
                    rows.replace(i, item.with_emoji(emoji[cards[0]]))
    if picture:
        embed.set_image(url=f"attachment://{FILENAME}")


#: Pictures being drawn at once, beyond which boards go out without one. Each takes the
#: worker 1-3 ms: a few are under way at any moment at a hundred clicks a second.
MAX_IN_FLIGHT = 8
#: How long an answer waits for its picture before it goes out as the text board (seconds):
#: a hundred times a table's drawing, and little of Discord's 3 s, which discord.py's
#: retries of a failed answer (after 1 s, then 3 s more) need too.
PICTURE_WAIT = 0.25


class TablePictures:
    """Draws the table pictures that go out with the boards."""

    def __init__(self, bot: DungeonBot, max_in_flight: int = MAX_IN_FLIGHT,
                 wait: float = PICTURE_WAIT) -> None:
        self.bot = bot
        self.max_in_flight = max_in_flight
        self.wait = wait
        self._tasks: set[asyncio.Task[bytes]] = set()
        #: Starting the worker and drawing every card once (:meth:`warm`), if begun.
        self.warming: asyncio.Task[None] | None = None

    def warm(self) -> None:
        """Start the picture worker now and let it draw every card once (about a second in
        all), so that the first boards after a start have their pictures in time."""
        self.warming = asyncio.create_task(self._warm())

    async def _warm(self) -> None:
        try:
            await self.bot.core.workers.run(PICTURES, warm_up)
        except Exception:
            log.warning("the picture worker did not start; boards go as text until it does",
                        exc_info=True)

    def has_room(self) -> bool:
        """Whether a board answered now can have its picture; counts the ones that cannot.
        Until the worker has started (:meth:`warm`), none can: a click would wait for it."""
        starting = self.warming is not None and not self.warming.done()
        if not starting and len(self._tasks) < self.max_in_flight:
            return True
        metrics.picture("skipped")
        return False

    async def drawn(self, run: Run, last_action: str | None,
                    language: Language = ENGLISH) -> discord.File | None:
        """The run's table in the board's ``language`` as the file to answer with, or None
        when it cannot be drawn within :attr:`wait` (the board then goes out as text; the
        drawing goes on into the cache)."""
        task = asyncio.create_task(self.png(run.view, last_action, language))
        self._tasks.add(task)
        task.add_done_callback(self._done)
        try:
            png = await asyncio.wait_for(asyncio.shield(task), self.wait)
        except TimeoutError:
            log.warning("run %s: the table picture took over %.2f s; the board goes as text",
                        run.id, self.wait)
            metrics.picture("skipped")
            return None
        except Exception:
            log.warning("run %s: the table picture could not be drawn; the board goes as text",
                        run.id, exc_info=True)
            return None
        metrics.picture("attached")
        return discord.File(io.BytesIO(png), FILENAME)

    def _done(self, task: asyncio.Task[bytes]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            task.exception()  # a failure was logged by whoever waited; none left unretrieved

    async def png(self, view: dict[str, Any], last_action: str | None,
                  language: Language = ENGLISH) -> bytes:
        """The table's PNG in ``language``: from the cache (keyed by the language too), or
        drawn in a worker process (drawing holds the GIL: in a thread of the bot's process it
        would slow every other click down)."""
        drawn = scene(view, last_action, language)
        key = scene_key(drawn)
        found = CACHE.get(key)
        if found is None:
            found = await self.bot.core.workers.run(PICTURES, render_scene, drawn)
            CACHE.put(key, found)
        return found

    async def close(self) -> None:
        if self.warming is not None:
            self.warming.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
