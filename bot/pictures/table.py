"""A picture of a game's table, drawn from the engine's view, for the board's embed.

    file = await table_attachment(view, last_action)    # drawn off the event loop, cached
    embed.set_image(url=f"attachment://{FILENAME}")      # then send/edit with attachments=[file]

Drawing goes in two steps. :func:`scene` picks out of the view exactly what the picture shows
(and which cards the last action touched); :func:`render_scene` draws that and nothing else.
So :func:`table_key`, a hash of the scene, names the picture: the same scene gives the same
bytes, and the cache never serves a picture of something else.

The last action's cards stand out with a gold frame. The view alone does not say which they
are, so they come from the action itself (``take 7C``, ``put 4H 2``, ``reserve 4H``, ``skill
JS``…; the adapter knows it: it is the run's last move) and, for Tomb, from the view's
``events``: each card turned is told as "You turn <card>: …" or, for the card drawn to fight
an encounter, "Your <card> …"; a turn that ended is shown as the "last turn", since the
view's ``turn`` is already empty then.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import discord
from PIL import Image, ImageDraw

from bot.pictures.faces import BACK, FACE_NAMES, PAPER_AND_INK, card_image, font
from rules import donsol
from rules.cards import CANONICAL, display

#: The attachment's name: ``embed.set_image(url=f"attachment://{FILENAME}")``.
FILENAME = "table.png"
WIDTH = 640
CARD_W, CARD_H = 60, 84

FELT = (27, 77, 52)
FELT_DARK = (19, 58, 39)
LABEL = (196, 222, 205)
TEXT = (244, 246, 240)
DIM = (120, 150, 130)
GOLD = (255, 200, 40)
HP_FULL = (214, 48, 49)
HP_EMPTY = (70, 40, 42)
BANNER = {"won": (46, 160, 67), "escaped": (204, 160, 20)}
BANNER_LOST = (150, 40, 40)
RESERVE_EDGE = (235, 235, 230)  # the edges of the cards under the reserve's top
OUTCOME_WORDS = {
    "won": "VICTORY", "dead": "DEAD", "escaped": "OUT ALIVE", "lost_in_dark": "LOST IN THE DARK",
    "stuck": "STUCK",
}

_ALL_CODES = frozenset(CANONICAL)
_CODE_OF_SHOWN = {display(c): c for c in CANONICAL if c not in ("RJ", "BJ")}
_TURNED = re.compile(r"^(?:You turn (\S+):|Your (\S+) )")


# ----- what is drawn ----------------------------------------------------------------------


def action_cards(action: str | None) -> list[str]:
    """The card codes an action names: ``take 7C`` -> ``["7C"]``, ``put 4H 2`` -> ``["4H"]``."""
    if not action:
        return []
    return [word for word in action.split()[1:] if word in _ALL_CODES]


def turned_cards(events: list[str]) -> list[str]:
    """The cards a Tomb action turned, in order, read from its events (Tomb's only joker is
    the red one)."""
    cards = []
    for event in events:
        match = _TURNED.match(event)
        if match:
            shown = match.group(1) or match.group(2)
            cards.append("RJ" if shown == "🃏" else _CODE_OF_SHOWN.get(shown, ""))
    return [c for c in cards if c]


def scene(view: dict[str, Any], last_action: str | None = None) -> dict[str, Any]:
    """Exactly what the picture of ``view`` shows, as JSON-safe data.

    Raises ``ValueError`` for a game without a picture.
    """
    try:
        pick = _SCENES[view["game"]]
    except KeyError:
        raise ValueError(f"no table picture for game {view.get('game')!r}") from None
    return {"game": view["game"], "outcome": view["outcome"], **pick(view, last_action)}


def _donsol_scene(view: dict[str, Any], last_action: str | None) -> dict[str, Any]:
    taken = action_cards(last_action) if (last_action or "").startswith("take ") else []
    return {
        "room": view["room"], "dungeon": view["dungeon"], "hp": view["hp"],
        "max_hp": view["max_hp"], "shield": view["shield"], "shield_last": view["shield_last"],
        "shield_monsters": view["shield_monsters"], "sick": view["sick"], "xp": view["xp"],
        "last": taken, "escaped": last_action == "escape",
    }


def _tomb_scene(view: dict[str, Any], last_action: str | None) -> dict[str, Any]:
    turned = turned_cards(view["events"])
    row, row_is_last = view["turn"], False
    if not row and turned:
        row, row_is_last = turned, True
    return {
        "turn": row, "turn_is_last": row_is_last, "hand": view["hand"],
        "encounter": view["encounter"] if not view["over"] else None,
        "torches": view["torches"], "damage": view["damage"], "hp_card": view["hp_card"],
        "deck": view["deck"], "delve_turns": view["delve_turns"],
        "retreat_turns": view["retreat_turns"], "retreat_needed": view["retreat_needed"],
        "last": sorted(set(turned) | set(action_cards(last_action))),
    }


def _clear_scene(view: dict[str, Any], last_action: str | None) -> dict[str, Any]:
    return {
        "piles": [
            {"monster": p["monster"], "hidden": p["hidden"], "attack": p["attack"],
             # Beyond the spec, when the engine gives it: "3rd card: a heart or a joker".
             "needs": _short_need(p.get("needs") or "")}
            for p in view["piles"]
        ],
        "hand": view["hand"], "reserve_top": view["reserve"][-1] if view["reserve"] else None,
        "reserve": len(view["reserve"]), "talon": view["talon"], "slain": view["slain"],
        "last": action_cards(last_action),
    }


_NEED_WORDS = {
    "a spade": "♠", "a heart": "♥", "a diamond": "♦", "a club": "♣", "a joker": "joker",
    "a 10": "10",
}


def _short_need(needs: str) -> str:
    """``3rd card: a heart or a joker`` as it fits under a pile: ``♥ or joker``."""
    text = needs.split(": ", 1)[-1]
    for words, short in _NEED_WORDS.items():
        text = text.replace(words, short)
    return text


_SCENES: dict[str, Callable[[dict[str, Any], str | None], dict[str, Any]]] = {
    "donsol": _donsol_scene, "tomb": _tomb_scene, "clear": _clear_scene,
}


def table_key(view: dict[str, Any], last_action: str | None = None) -> str:
    """The cache key of the picture of ``view``: a hash of what it shows."""
    return _key(scene(view, last_action))


def scene_key(drawn: dict[str, Any]) -> str:
    """The cache key of a scene (:func:`scene`): a hash of exactly what is drawn."""
    return _key(drawn)


def _key(drawn: dict[str, Any]) -> str:
    text = json.dumps(drawn, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# ----- drawing ----------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` as an alpha mask, and where its corner goes from the anchor point. A table's
    labels repeat ("HAND", "needs ♠ or joker", "12 to deal"): drawing each once a process
    saves a third of a table's time."""
    x0, y0, x1, y1 = font(size).getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)))
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=font(size), fill=255, anchor=anchor)
    return mask, x0, y0


class _Table:
    """A canvas with the few things every table draws: labels, cards, slots, counters."""

    def __init__(self, height: int, last: list[str]) -> None:
        self.image = Image.new("RGB", (WIDTH, height), FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.last = set(last)

    def label(self, xy: tuple[int, int], text: str, fill: tuple[int, int, int] = LABEL,
              size: int = 13, anchor: str = "la") -> None:
        mask, dx, dy = _text_mask(text, size, anchor)
        self.image.paste(fill, (xy[0] + dx, xy[1] + dy), mask)

    def card(self, code: str, x: int, y: int, *, mark: bool | None = None) -> None:
        """A card at (x, y); framed in gold if the last action touched it (or ``mark``)."""
        if mark if mark is not None else code in self.last:
            self.draw.rounded_rectangle((x - 4, y - 4, x + CARD_W + 3, y + CARD_H + 3), 9,
                                        outline=GOLD, width=4)
        self.paste(card_image(code, CARD_W, CARD_H), x, y)

    def paste(self, image: Image.Image, x: int, y: int) -> None:
        """An RGBA picture onto the table, its transparent corners letting the felt through."""
        self.image.paste(image, (x, y), image)

    def slot(self, x: int, y: int, text: str = "") -> None:
        """An empty place where a card could be."""
        self.draw.rounded_rectangle((x, y, x + CARD_W - 1, y + CARD_H - 1), 7, fill=FELT_DARK,
                                    outline=DIM, width=2)
        if text:
            self.label((x + CARD_W // 2, y + CARD_H // 2), text, DIM, 12, "mm")

    def pile(self, x: int, y: int, count: int, name: str) -> None:
        """A face-down pile with its count under it."""
        if count:
            for depth in range(min(3, (count + 9) // 10), 0, -1):
                self.paste(card_image(BACK, CARD_W, CARD_H), x + depth * 2, y - depth * 2)
            self.card(BACK, x, y, mark=False)
        else:
            self.slot(x, y, "empty")
        self.label((x + CARD_W // 2, y + CARD_H + 8), f"{count} {name}", TEXT, 13, "ma")

    def fan(self, cards: list[str], x: int, y: int, width: int, step: int = CARD_W + 8) -> int:
        """Cards left to right from x, overlapping when they would not fit in ``width``;
        returns the step between two cards."""
        if len(cards) > 1:
            step = min(step, (width - CARD_W) // (len(cards) - 1))
        for i, code in enumerate(cards):
            self.card(code, x + i * step, y)
        return step

    def banner(self, outcome: str | None, x: int, y: int) -> None:
        """How the game ended, in a badge whose right end is at (x, y); each table keeps
        that corner free."""
        if outcome is None:
            return
        text = OUTCOME_WORDS.get(outcome, outcome.upper())
        w = int(font(18).getlength(text)) + 32
        colour = BANNER.get(outcome, BANNER_LOST)
        self.draw.rounded_rectangle((x - w, y - 16, x, y + 16), 10, fill=colour, outline=TEXT,
                                    width=2)
        self.label((x - w // 2, y), text, TEXT, 18, "mm")

    def png(self) -> bytes:
        out = io.BytesIO()
        # A table has few colours: as a 256-colour palette it is half the bytes, and encoding
        # it takes a fraction of the RGB image's time (see bench/pictures.py). The palette is
        # the same for every table (:func:`palette`): mapping onto it takes a quarter of the
        # time of choosing one per picture.
        indexed = self.image.quantize(palette=palette(), dither=Image.Dither.NONE)
        indexed.save(out, format="PNG", compress_level=3)
        return out.getvalue()


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The 256 colours every table is drawn in: those of a swatch of all that tables show
    (every card, framed and not, piles and slots, each text colour and size, the hit-point
    pips, every outcome's banner), with the blends their anti-aliased edges make on the felt.
    Built once a process (about 20 ms); the same swatch gives the same palette, so the same
    table keeps giving the same bytes."""
    codes = list(FACE_NAMES)
    rows = (len(codes) + 7) // 8
    t = _Table(rows * 110 + 280, [])
    for i, code in enumerate(codes):
        x, y = 16 + (i % 8) * 76, 12 + (i // 8) * 110
        t.card(code, x, y, mark=True)
        t.label((x, y + 88), "needs 10", TEXT, 13)
    y = rows * 110 + 10
    t.pile(16, y, 30, "to deal")
    t.slot(96, y, "empty")
    for j, colour in enumerate((LABEL, TEXT, DIM, GOLD)):
        for k, size in enumerate((12, 13, 14, 16, 18, 24)):
            t.label((200 + k * 70, y + j * 28), "Ag8 ▲", colour, size)
    for i in range(9):
        hit = i < 4
        t.draw.ellipse((200 + i * 22, y + 118, 216 + i * 22, y + 134),
                       fill=HP_EMPTY if hit else HP_FULL, outline=DIM if hit else TEXT)
    t.draw.rounded_rectangle((420, y + 116, 620, y + 138), 6, fill=HP_EMPTY)
    t.draw.rounded_rectangle((420, y + 116, 520, y + 138), 6, fill=HP_FULL)
    t.draw.line((470, y + 132, 470, y + 138), fill=FELT_DARK, width=1)
    t.draw.rounded_rectangle((16, y + 120, 16 + CARD_W - 1, y + 120 + CARD_H - 1), 7,
                             fill=RESERVE_EDGE, outline=DIM)
    for i, outcome in enumerate(OUTCOME_WORDS):
        t.banner(outcome, 330 + (i % 2) * 290, y + 160 + (i // 2) * 40)
    # The colours drawn flat come first and exactly (a gold frame stays GOLD); the blends
    # fill the rest.
    flat = [FELT, FELT_DARK, LABEL, TEXT, DIM, GOLD, HP_FULL, HP_EMPTY, BANNER_LOST,
            *BANNER.values(), RESERVE_EDGE, *PAPER_AND_INK]
    blends = t.image.quantize(256 - len(flat), method=Image.Quantize.FASTOCTREE,
                              dither=Image.Dither.NONE).getpalette() or []
    colours = list(dict.fromkeys(flat))
    # Pillow maps a pixel through a cache of 4-unit colour cells: a blend within a cell of a
    # flat colour could take its pixels, so none is kept that close.
    colours += [c for c in zip(*[iter(blends)] * 3, strict=True)
                if all(max(abs(a - b) for a, b in zip(c, f, strict=True)) > 4 for f in flat)]
    shared = Image.new("P", (1, 1))
    shared.putpalette([v for colour in colours[:256] for v in colour])
    return shared


def _draw_donsol(s: dict[str, Any]) -> _Table:
    t = _Table(316, s["last"])
    t.label((16, 12), "ROOM")
    for i in range(4):
        x = 16 + i * (CARD_W + 12)
        if i < len(s["room"]):
            code = s["room"][i]
            t.card(code, x, 32)
            # What the card does, so that nobody has to remember that A♠ hits for 17.
            t.label((x + CARD_W // 2, 124), f"{donsol.role(code)} {donsol.value(code)}",
                    TEXT, 12, "ma")
        else:
            t.slot(x, 32)
    t.pile(336, 32, s["dungeon"], "in the dungeon")
    if s["last"]:
        t.label((440, 12), "LAST TAKEN")
        t.card(s["last"][0], 448, 32)
        t.label((448 + CARD_W // 2, 124),
                f"{donsol.role(s['last'][0])} {donsol.value(s['last'][0])}", TEXT, 12, "ma")
    elif s["escaped"]:
        t.label((440, 12), "ESCAPED", GOLD)

    t.label((16, 154), "SHIELD")
    if s["shield"]:
        t.card(s["shield"], 16, 174)
        t.fan(s["shield_monsters"], 16 + CARD_W + 16, 174, 230, step=36)
        hold = ("fresh: blocks any monster" if s["shield_last"] is None
                else f"blocks monsters under {s['shield_last']}")
        t.label((16, 266), hold, TEXT)
    else:
        t.slot(16, 174, "none")
        t.label((16, 266), "no shield: monsters hit in full", TEXT)

    # HP as a bar, on the right under the dungeon.
    x0, x1, y = 336, WIDTH - 16, 192
    t.label((x0, 170), f"HP {s['hp']}/{s['max_hp']}", TEXT, 16)
    filled = x0 + (x1 - x0) * max(0, s["hp"]) // s["max_hp"]
    t.draw.rounded_rectangle((x0, y, x1, y + 22), 6, fill=HP_EMPTY)
    if filled > x0:
        t.draw.rounded_rectangle((x0, y, filled, y + 22), 6, fill=HP_FULL)
    for n in range(1, s["max_hp"]):  # one notch per HP, so a glance counts them
        nx = x0 + (x1 - x0) * n // s["max_hp"]
        t.draw.line((nx, y + 16, nx, y + 22), fill=FELT_DARK, width=1)
    t.label((x0, 228), "sick: a potion now heals nothing" if s["sick"] else "not sick", TEXT)
    t.label((x0, 250), f"{s['xp']} of 54 cards taken", TEXT)
    t.banner(s["outcome"], WIDTH - 16, 290)
    return t


def _draw_tomb(s: dict[str, Any]) -> _Table:
    t = _Table(330, s["last"])
    t.label((16, 12), "LAST TURN" if s["turn_is_last"] else "THIS TURN")
    if s["turn"]:
        step = t.fan(s["turn"], 16, 32, 500)
        if s["encounter"] in s["turn"]:
            x = 16 + s["turn"].index(s["encounter"]) * step
            t.label((x + 4, 124), "▲ encounter", TEXT, 12)
    else:
        t.slot(16, 32, "—")
    t.pile(WIDTH - 40 - CARD_W, 32, s["deck"], "in the deck")

    t.label((16, 150), "HAND")
    if s["hand"]:
        t.fan(s["hand"], 16, 170, 280)
    else:
        t.slot(16, 170, "empty")

    burnt = sum(1 for c in s["torches"] if c != "RJ")
    t.label((320, 150), f"TORCHES · {max(0, 4 - burnt)} left")
    if s["torches"]:
        t.fan(s["torches"], 320, 170, 170, step=36)
    else:
        t.slot(320, 170, "—")

    x = WIDTH - 40 - CARD_W
    t.label((x + CARD_W // 2, 150), "HIT POINTS", anchor="ma")
    if s["hp_card"]:
        t.card(s["hp_card"], x, 170, mark=False)
    else:
        t.slot(x, 170, "none")
    # The damage as nine pips under the counter: lit ones are hit points left.
    for i in range(9):
        px = 320 + i * 22
        hit = i < s["damage"]
        t.draw.ellipse((px, 284, px + 16, 300), fill=HP_EMPTY if hit else HP_FULL,
                       outline=DIM if hit else TEXT, width=1)
    t.label((320 + 9 * 22 + 6, 292), f"damage {s['damage']} of 9", TEXT, 13, "lm")
    if s["retreat_needed"] is None:
        way = f"delving · {s['delve_turns']} turns done"
    elif s["retreat_needed"] == 0:
        way = "turned back after one turn: out at once"
    else:
        way = f"retreat {s['retreat_turns']}/{s['retreat_needed']} · {s['delve_turns']} delved"
    t.label((16, 292), way, TEXT, 14, "lm")
    t.banner(s["outcome"], WIDTH // 2 + 60, 133)
    return t


def _draw_clear(s: dict[str, Any]) -> _Table:
    t = _Table(340, s["last"])
    column = 156
    for i, p in enumerate(s["piles"]):
        x = 16 + i * column
        t.label((x, 12), f"PILE {i + 1}" + (f" · {p['hidden']} below" if p["hidden"] else ""))
        if p["monster"] is None:
            t.slot(x, 40, "cleared")
            continue
        for depth in range(p["hidden"], 0, -1):  # the monsters still waiting, face down
            t.paste(card_image(BACK, CARD_W, CARD_H), x + depth * 4, 40 - depth * 4)
        t.card(p["monster"], x, 40, mark=False)
        # The attack cards fan out down and right, leaving the monster's corner in sight.
        for j, code in enumerate(p["attack"]):
            t.card(code, x + 32 * (j + 1), 40 + 16 * (j + 1))
        if p["needs"]:
            t.label((x, 162), f"needs {p['needs']}", TEXT, 13)

    y = 212
    t.label((16, y - 20), "HAND")
    for i, code in enumerate(s["hand"]):
        x = 16 + i * (CARD_W + 12)
        if code:
            t.card(code, x, y)
        else:
            t.slot(x, y)
    t.label((256, y - 20), "RESERVE")
    if s["reserve_top"]:
        for depth in range(min(3, s["reserve"] - 1), 0, -1):  # the cards under the top
            t.draw.rounded_rectangle(
                (256 + depth * 3, y + depth * 3, 256 + depth * 3 + CARD_W - 1,
                 y + depth * 3 + CARD_H - 1), 7, fill=RESERVE_EDGE, outline=DIM)
        t.card(s["reserve_top"], 256, y)
    else:
        t.slot(256, y, "empty")
    count = s["reserve"]
    t.label((256 + CARD_W // 2, y + CARD_H + 8), f"{count} card{'s' if count != 1 else ''}",
            TEXT, 13, "ma")
    t.pile(380, y, s["talon"], "to deal")
    t.label((WIDTH - 16, y + 30), f"{s['slain']} of 12", TEXT, 24, "ra")
    t.label((WIDTH - 16, y + 60), "monsters slain", LABEL, 13, "ra")
    t.banner(s["outcome"], WIDTH - 16, 318)
    return t


_DRAW: dict[str, Callable[[dict[str, Any]], _Table]] = {
    "donsol": _draw_donsol, "tomb": _draw_tomb, "clear": _draw_clear,
}


def draw_scene(drawn: dict[str, Any]) -> Image.Image:
    """The table of a scene from :func:`scene`, in full colour (before :func:`palette`)."""
    return _DRAW[drawn["game"]](drawn).image


def render_scene(drawn: dict[str, Any]) -> bytes:
    """The PNG of a scene from :func:`scene`."""
    return _DRAW[drawn["game"]](drawn).png()


def render_table(view: dict[str, Any], last_action: str | None = None) -> bytes:
    """The PNG of ``view``'s table, the cards of ``last_action`` framed. CPU-bound, uncached:
    on the event loop use :func:`table_png`."""
    return render_scene(scene(view, last_action))


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

    def render(self, view: dict[str, Any], last_action: str | None = None) -> bytes:
        """The picture of ``view``, from the cache or drawn now."""
        drawn = scene(view, last_action)
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
    """Draw every card at table size and make the palette once (about 0.3 s), so that the
    first tables after a start are as fast as the rest. CPU-bound: at start, run it with
    ``asyncio.to_thread``."""
    for code in FACE_NAMES:
        card_image(code, CARD_W, CARD_H)
    palette()


async def table_png(view: dict[str, Any], last_action: str | None = None) -> bytes:
    """The picture of ``view`` as PNG bytes, drawn on a worker thread (cached)."""
    return await asyncio.to_thread(CACHE.render, view, last_action)


async def table_attachment(view: dict[str, Any], last_action: str | None = None) -> discord.File:
    """The picture of ``view`` as an attachment named :data:`FILENAME`, for a message whose
    embed shows it with ``embed.set_image(url=f"attachment://{FILENAME}")``."""
    return discord.File(io.BytesIO(await table_png(view, last_action)), filename=FILENAME)
