"""A picture of a game's table, drawn from the engine's view, for the board's embed.

    file = await table_attachment(view, last_action)    # drawn off the event loop, cached
    embed.set_image(url=f"attachment://{FILENAME}")      # then send/edit with attachments=[file]

Drawing goes in two steps. :func:`scene` picks out of the view exactly what the picture shows
(and which cards the last action touched); :func:`render_scene` draws that and nothing else.
Both steps are the game's own (its module under :mod:`bot.games`: ``scene`` and ``draw``, on a
:class:`bot.pictures.canvas.Canvas`); this module adds what every game shares (the outcome's
banner, the cache, the attachment).
So :func:`table_key`, a hash of the scene, names the picture: the same scene gives the same
bytes, and the cache never serves a picture of something else.

A picture speaks one language: the scene carries its code (``lang``; the board's
:class:`~bot.i18n.Language`, the reader's or the server's) and its words as marked English,
said in that language as they are drawn (:mod:`bot.pictures.words`). Being part of the scene,
the language is part of the cache's key: a French and a German picture of one state are two.

The last action's cards stand out with a gold frame. The view alone does not say which they
are, so they come from the action itself (``take 7C``, ``put 4H 2``, ``reserve 4H``, ``skill
JS``…; the adapter knows it: it is the run's last move) and, where a game needs more (Tomb's
cards turned), from the view's ``events``.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import threading
from collections import OrderedDict
from typing import Any

import discord
import orjson
from PIL import Image

from bot.games import BOARDS
from bot.i18n import ENGLISH, Language, catalogs
from bot.pictures.canvas import BANNER_WORDS, CARD_H, CARD_W, palette
from bot.pictures.faces import FACE_NAMES, card_image
from rules import GAMES

#: The attachment's name: ``embed.set_image(url=f"attachment://{FILENAME}")``.
FILENAME = "table.png"


# ----- what is drawn ----------------------------------------------------------------------


def scene(view: dict[str, Any], last_action: str | None = None,
          language: Language = ENGLISH) -> dict[str, Any]:
    """Exactly what the picture of ``view`` shows, in ``language``, as JSON-safe data (its
    words are English strings, phrases among them, said in the language as they are drawn).

    Raises ``ValueError`` for a game without a picture.
    """
    try:
        board = BOARDS[view["game"]]
    except KeyError:
        raise ValueError(f"no table picture for game {view.get('game')!r}") from None
    return {"game": view["game"], "lang": language.code, "banner": banner(view),
            **board.scene(view, last_action)}


def banner(view: dict[str, Any]) -> dict[str, str] | None:
    """How a finished game's banner reads (its words and kind of end), or None."""
    outcome = view["outcome"]
    if outcome is None:
        return None
    kind = GAMES[view["game"]].outcomes[outcome]
    words = BOARDS[view["game"]].banners.get(outcome, BANNER_WORDS[kind])
    return {"text": words, "kind": kind}


def table_key(view: dict[str, Any], last_action: str | None = None,
              language: Language = ENGLISH) -> str:
    """The cache key of the picture of ``view`` in ``language``: a hash of what it shows."""
    return _key(scene(view, last_action, language))


def scene_key(drawn: dict[str, Any]) -> str:
    """The cache key of a scene (:func:`scene`): a hash of exactly what is drawn."""
    return _key(drawn)


def _key(drawn: dict[str, Any]) -> str:
    # A key lives in this process's cache only: orjson's sorted text (a fifth of the standard
    # library's cost, on every pictured click), or the standard library's for what it refuses.
    try:
        text = orjson.dumps(drawn, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        text = json.dumps(drawn, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(text).hexdigest()


# ----- drawing ----------------------------------------------------------------------------


def draw_scene(drawn: dict[str, Any]) -> Image.Image:
    """The table of a scene from :func:`scene`, in full colour (before :func:`palette`)."""
    return BOARDS[drawn["game"]].draw(drawn).image


def render_scene(drawn: dict[str, Any]) -> bytes:
    """The PNG of a scene from :func:`scene`."""
    return BOARDS[drawn["game"]].draw(drawn).png()


def render_table(view: dict[str, Any], last_action: str | None = None,
                 language: Language = ENGLISH) -> bytes:
    """The PNG of ``view``'s table in ``language``, the cards of ``last_action`` framed.
    CPU-bound, uncached: on the event loop use :func:`table_png`."""
    return render_scene(scene(view, last_action, language))


# ----- the cache --------------------------------------------------------------------------


class TableCache:
    """The last ``size`` pictures by :func:`table_key`, least recently used dropped first.

    Thread-safe: pictures are drawn on worker threads.
    """

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        """The cached picture of ``key`` (:func:`scene_key`), or None."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return found

    def put(self, key: str, data: bytes) -> None:
        with self._lock:
            self._items[key] = data
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def render(self, view: dict[str, Any], last_action: str | None = None,
               language: Language = ENGLISH) -> bytes:
        """The picture of ``view`` in ``language``, from the cache or drawn now."""
        drawn = scene(view, last_action, language)
        key = _key(drawn)
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return found
            self.misses += 1
        data = render_scene(drawn)
        with self._lock:
            self._items[key] = data
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return data

    def __len__(self) -> int:
        return len(self._items)


#: The bot's cache (256 pictures of about 10 KB).
CACHE = TableCache()


def warm_up() -> None:
    """Draw every card at table size, make the palette and load the catalogs once (about
    0.3 s), so that the first tables after a start are as fast as the rest. CPU-bound: at
    start, run it in the pictures worker (or with ``asyncio.to_thread``)."""
    for code in FACE_NAMES:
        card_image(code, CARD_W, CARD_H)
    palette()
    catalogs()


async def table_png(view: dict[str, Any], last_action: str | None = None,
                    language: Language = ENGLISH) -> bytes:
    """The picture of ``view`` as PNG bytes, drawn on a worker thread (cached)."""
    return await asyncio.to_thread(CACHE.render, view, last_action, language)


async def table_attachment(view: dict[str, Any], last_action: str | None = None,
                           language: Language = ENGLISH) -> discord.File:
    """The picture of ``view`` as an attachment named :data:`FILENAME`, for a message whose
    embed shows it with ``embed.set_image(url=f"attachment://{FILENAME}")``."""
    png = await table_png(view, last_action, language)
    return discord.File(io.BytesIO(png), filename=FILENAME)
