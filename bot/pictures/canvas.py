"""The drawing kit every table picture shares: the felt, the card size, labels, cards, slots,
piles, fans, the outcome's banner, and the one palette every table is encoded in.

Each game's module under :mod:`bot.games` draws its table with a :class:`Canvas`;
:mod:`bot.pictures.table` picks the game's scene and drawing and caches the pictures.

A canvas speaks the scene's language (its ``lang``, a code: :mod:`bot.pictures.words`): every
label is given as English marked with ``N_`` (or a :class:`~rules.words.Phrase`, whose
numbers are written the language's way) and said in that language as it is drawn, then made to
fit its room: a longer translation shrinks down to :data:`MIN_LABEL`, then wraps, and never
runs out of the picture. A table gives a label the room it can have: a label under a card
may spread over the free stretch beside it (``span``), one with height above it wraps upwards
(``upward``), and a label beside the banner stops short of it (:meth:`Canvas.banner` says
where the badge begins). The canvas records each label it drew (:attr:`Canvas.labels`), and
each card (:attr:`Canvas.cards`), for the tests.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.faces import BACK, FACE_NAMES, PAPER_AND_INK, card_image, font
from bot.pictures.words import picture_language, said
from core.errors import N_, Nn_, Phrase
from rules.cards import CANONICAL

WIDTH = 640
CARD_W, CARD_H = 60, 84
#: The smallest label a table draws, in pixels of the 640-pixel picture. Discord shows the
#: picture about 300 pixels wide on a phone (390 px screen): a 20-pixel label is still about
#: 9 pixels high there. Fewer, larger words: a card's own face says its value.
MIN_LABEL = 20
#: A heading or a number that matters most (hit points, the banner).
BIG_LABEL = 24

FELT = (27, 77, 52)
FELT_DARK = (19, 58, 39)
LABEL = (196, 222, 205)
TEXT = (244, 246, 240)
DIM = (120, 150, 130)
GOLD = (255, 200, 40)
HP_FULL = (214, 48, 49)
HP_EMPTY = (70, 40, 42)
#: The banner's colour for each kind of end (``rules.engine.Game.outcomes``).
BANNER = {"loss": (150, 40, 40), "win": (46, 160, 67), "out": (204, 160, 20)}
RESERVE_EDGE = (235, 235, 230)  # the edges of the cards under the reserve's top
#: The banner's words for each kind of end, unless the game names its own outcome's.
BANNER_WORDS = {"win": N_("VICTORY"), "loss": N_("DEFEAT"), "out": N_("OUT ALIVE")}
#: What a face-down pile says under it: how many cards are left in it.
LEFT = Nn_("{count} left", "{count} left")
#: A label keeps this far from the picture's edges.
EDGE = 8

_ALL_CODES = frozenset(CANONICAL)


def action_cards(action: str | None) -> list[str]:
    """The card codes an action names: ``take 7C`` -> ``["7C"]``, ``put 4H 2`` -> ``["4H"]``."""
    if not action:
        return []
    return list(_action_cards(action))


@lru_cache(maxsize=4096)
def _action_cards(action: str) -> tuple[str, ...]:
    # Every board's buttons ask this of their actions, which repeat from board to board.
    return tuple(word for word in action.split()[1:] if word in _ALL_CODES)


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` as an alpha mask, and where its corner goes from the anchor point. A table's
    labels repeat ("HAND", "needs ♠ or joker", "12 to deal"): drawing each once a process
    saves a third of a table's time."""
    x0, y0, x1, y1 = font(size).getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)))
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=font(size), fill=255, anchor=anchor)
    return mask, x0, y0


Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Drawn:
    """A line of a label as drawn: its words (in the picture's language), size and box, and
    whether the label had to cut a word to fit (a last resort: a translation too long)."""

    text: str
    size: int
    box: Box
    cut: bool = False


@lru_cache(maxsize=4096)
def fit(text: str, size: int, room: int, smallest: int = MIN_LABEL) -> tuple[int, tuple[str, ...]]:
    """The size and lines ``text`` is drawn in to be at most ``room`` wide: ``size`` if it
    fits, else the largest size down to ``smallest`` that does, else wrapped at ``smallest``
    (between words, or within a word too long for a line). Cached: a table's labels repeat."""
    smallest = min(size, smallest)
    for tried in range(size, smallest - 1, -1):
        if font(tried).getlength(text) <= room:
            return tried, (text,)
    measure = font(smallest).getlength
    lines: list[str] = []
    for word in text.split():
        while measure(word) > room and len(word) > 1:  # a word longer than a line: cut it
            cut = max(1, max(n for n in range(1, len(word) + 1)
                             if n == 1 or measure(word[:n]) <= room))
            if lines and not lines[-1]:
                lines.pop()
            lines.append(word[:cut])
            word = word[cut:]
        if lines and measure(f"{lines[-1]} {word}") <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return smallest, tuple(lines) or (text,)


class Canvas:
    """A canvas with the few things every table draws: labels, cards, slots, counters, in
    the language ``lang`` (a code, see :func:`bot.pictures.words.picture_language`)."""

    def __init__(self, height: int, last: list[str], lang: str = "en") -> None:
        self.image = Image.new("RGB", (WIDTH, height), FELT)
        self.draw = ImageDraw.Draw(self.image)
        self.last = set(last)
        self.language = picture_language(lang)
        #: Every label drawn, and every card's box (what a label must not run over).
        self.labels: list[Drawn] = []
        self.cards: list[Box] = []

    def say(self, text: str) -> str:
        """A label's words in the picture's language (see :func:`bot.pictures.words.said`)."""
        return said(self.language, text)

    def label(self, xy: tuple[int, int], text: str, fill: tuple[int, int, int] = LABEL,
              size: int = MIN_LABEL, anchor: str = "la", width: int | None = None, *,
              span: tuple[int, int] | None = None, upward: bool = False) -> None:
        """``text`` (marked English, or a phrase) said in the picture's language, at most
        ``width`` wide (by default, as far as the picture's edge), shrunk or wrapped to fit.

        ``span``: for a centred label (anchor ``m…``), the free stretch ``(left, right)`` it may
        spread over (under a card with nothing beside it, wider than the card): it stays
        centred on x where it can, and moves along only as far as it must to keep within.
        ``upward``: a label written top down (anchor ``…a``) that wraps grows upwards, its last
        line where a one-line label would be (there is height above it, not below)."""
        shown = self.say(text)
        x = xy[0]
        if width is not None:
            room = width
        elif span is not None:
            room = span[1] - span[0]
        else:
            room = self._room(x, anchor)
        size, lines = fit(shown, size, room)
        cut = " ".join(lines).split() != shown.split()
        if span is not None and anchor[0] == "m":
            half = max(font(size).getlength(line) for line in lines) / 2
            x = int(min(max(x, span[0] + half), span[1] - half))
        step = size + 2
        y = xy[1] - {"m": (len(lines) - 1) * step // 2}.get(
            anchor[1], 0 if anchor[1] in "at" and not upward else (len(lines) - 1) * step)
        for line in lines:
            mask, dx, dy = _text_mask(line, size, anchor)
            self.image.paste(fill, (x + dx, y + dy), mask)
            box = (x + dx, y + dy, x + dx + mask.width, y + dy + mask.height)
            self.labels.append(Drawn(line, size, box, cut))
            y += step

    def _room(self, x: int, anchor: str) -> int:
        """How wide a label anchored at ``x`` may be before it leaves the picture."""
        if anchor[0] == "l":
            return WIDTH - EDGE - x
        if anchor[0] == "r":
            return x - EDGE
        return 2 * (min(x, WIDTH - x) - EDGE)

    def card(self, code: str, x: int, y: int, *, mark: bool | None = None) -> None:
        """A card at (x, y); framed in gold if the last action touched it (or ``mark``)."""
        if mark if mark is not None else code in self.last:
            self.draw.rounded_rectangle((x - 4, y - 4, x + CARD_W + 3, y + CARD_H + 3), 9,
                                        outline=GOLD, width=4)
        self.paste(card_image(code, CARD_W, CARD_H), x, y)
        self.cards.append((x, y, x + CARD_W, y + CARD_H))

    def paste(self, image: Image.Image, x: int, y: int) -> None:
        """An RGBA picture onto the table, its transparent corners letting the felt through."""
        self.image.paste(image, (x, y), image)

    def slot(self, x: int, y: int, text: str = "", width: int = CARD_W + 16) -> None:
        """An empty place where a card could be (``text`` in it: a mark, or a marked word,
        at most ``width`` wide: it may overflow the slot a little, never the picture)."""
        self.draw.rounded_rectangle((x, y, x + CARD_W - 1, y + CARD_H - 1), 7, fill=FELT_DARK,
                                    outline=DIM, width=2)
        if text:
            self.label((x + CARD_W // 2, y + CARD_H // 2), text, DIM, MIN_LABEL, "mm",
                       width=width)

    def pile(self, x: int, y: int, count: int, words: tuple[str, str] | None = LEFT,
             width: int = CARD_W + 72) -> None:
        """A face-down pile with its count under it (``words``: a plural marked with
        ``Nn_``; None: no count), at most ``width`` wide."""
        if count:
            for depth in range(min(3, (count + 9) // 10), 0, -1):
                self.paste(card_image(BACK, CARD_W, CARD_H), x + depth * 2, y - depth * 2)
            self.card(BACK, x, y, mark=False)
        else:
            self.slot(x, y, N_("empty"), width)
        if words is None:
            return
        self.label((x + CARD_W // 2, y + CARD_H + 6),
                   Phrase(words[0], plural=words[1], count=count), TEXT, MIN_LABEL, "ma",
                   width=width)

    def fan(self, cards: list[str], x: int, y: int, width: int, step: int = CARD_W + 8) -> int:
        """Cards left to right from x, overlapping when they would not fit in ``width``;
        returns the step between two cards."""
        if len(cards) > 1:
            step = min(step, (width - CARD_W) // (len(cards) - 1))
        for i, code in enumerate(cards):
            self.card(code, x + i * step, y)
        return step

    def banner(self, banner: dict[str, str] | None, x: int, y: int,
               width: int | None = None) -> int | None:
        """How the game ended (the scene's ``banner``: its words and kind of end), in a badge
        whose right end is at (x, y), at most ``width`` wide (by default, to the picture's
        left edge); each table keeps that corner free. Returns the badge's left end (what a
        label on its line must stop short of), or None without a banner."""
        if banner is None:
            return None
        room = (width if width is not None else x - EDGE) - 32
        size, lines = fit(self.say(banner["text"]), BIG_LABEL, room)
        text = " ".join(lines)
        if len(lines) > 1:  # a badge stays one line: the words at the smallest size
            size = MIN_LABEL
        w = min(int(font(size).getlength(text)), room) + 32
        colour = BANNER[banner["kind"]]
        self.draw.rounded_rectangle((x - w, y - 20, x, y + 20), 10, fill=colour, outline=TEXT,
                                    width=2)
        self.label((x - w // 2, y), banner["text"], TEXT, BIG_LABEL, "mm", width=room)
        return x - w

    def health(self, x0: int, x1: int, y: int, hp: int, max_hp: int) -> None:
        """Hit points as a red bar from x0 to x1, with its label above, one notch per HP so
        that a glance counts them."""
        self.label((x0, y - 30), Phrase(N_("HP {hp}/{max_hp}"), hp=hp, max_hp=max_hp), TEXT,
                   BIG_LABEL, width=x1 - x0)
        filled = x0 + (x1 - x0) * max(0, hp) // max_hp
        self.draw.rounded_rectangle((x0, y, x1, y + 22), 6, fill=HP_EMPTY)
        if filled > x0:
            self.draw.rounded_rectangle((x0, y, filled, y + 22), 6, fill=HP_FULL)
        for n in range(1, max_hp):
            nx = x0 + (x1 - x0) * n // max_hp
            self.draw.line((nx, y + 16, nx, y + 22), fill=FELT_DARK, width=1)

    def png(self) -> bytes:
        out = io.BytesIO()
        # A table has few colours: as a 256-colour palette it is half the bytes, and encoding
        # it takes a fraction of the RGB image's time (see bench/pictures.py). The palette is
        # the same for every table (:func:`palette`): mapping onto it takes a quarter of the
        # time of choosing one per picture.
        indexed = self.image.quantize(palette=palette(), dither=Image.Dither.NONE)
        indexed.save(out, format="PNG", compress_level=3)
        return out.getvalue()


#: Banners for the palette's swatch: each colour with upper-case words like the games' own.
_SWATCH_BANNERS = (
    ("VICTORY", "win"), ("DEAD", "loss"), ("OUT ALIVE", "out"), ("LOST IN THE DARK", "loss"),
    ("STUCK", "loss"),
)


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """The 256 colours every table is drawn in: those of a swatch of all that tables show
    (every card, framed and not, piles and slots, each text colour and size, the hit-point
    pips, every outcome's banner), with the blends their anti-aliased edges make on the felt.
    Built once a process (about 20 ms); the same swatch gives the same palette, so the same
    table keeps giving the same bytes."""
    codes = list(FACE_NAMES)
    rows = (len(codes) + 7) // 8
    t = Canvas(rows * 110 + 280, [])
    for i, code in enumerate(codes):
        x, y = 16 + (i % 8) * 76, 12 + (i // 8) * 110
        t.card(code, x, y, mark=True)
        t.label((x, y + 88), "needs 10", TEXT, MIN_LABEL, width=WIDTH)  # the colours only
    y = rows * 110 + 10
    t.pile(16, y, 30, ("{count} to deal", "{count} to deal"))
    t.slot(96, y, "empty")
    for j, colour in enumerate((LABEL, TEXT, DIM, GOLD)):
        for k, size in enumerate((MIN_LABEL, BIG_LABEL, 28)):
            t.label((200 + k * 140, y + j * 28), "Ag8 ▲", colour, size, width=WIDTH)
    for i in range(9):
        hit = i < 4
        t.draw.ellipse((200 + i * 22, y + 118, 216 + i * 22, y + 134),
                       fill=HP_EMPTY if hit else HP_FULL, outline=DIM if hit else TEXT)
    t.draw.rounded_rectangle((420, y + 116, 620, y + 138), 6, fill=HP_EMPTY)
    t.draw.rounded_rectangle((420, y + 116, 520, y + 138), 6, fill=HP_FULL)
    t.draw.line((470, y + 132, 470, y + 138), fill=FELT_DARK, width=1)
    t.draw.rounded_rectangle((16, y + 120, 16 + CARD_W - 1, y + 120 + CARD_H - 1), 7,
                             fill=RESERVE_EDGE, outline=DIM)
    for i, (text, kind) in enumerate(_SWATCH_BANNERS):
        t.banner({"text": text, "kind": kind}, 330 + (i % 2) * 290, y + 160 + (i // 2) * 40)
    # The colours drawn flat come first and exactly (a gold frame stays GOLD); the blends
    # fill the rest.
    flat = [FELT, FELT_DARK, LABEL, TEXT, DIM, GOLD, HP_FULL, HP_EMPTY,
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
