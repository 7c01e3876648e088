"""Card faces drawn with Pillow: the 52 cards, the red and black jokers and a face-down back.

One drawing serves two uses: 128×128 application emoji (``face_png``) and the smaller,
portrait cards pasted onto table pictures (``card_image``). Legibility at emoji size comes
first: a large rank in the upper left, a large suit in the lower right.

Red and black differ by more than colour, for players who cannot tell red from black:
red cards (♥ ♦ and the red joker) sit on a rose background with a double border, black cards
(♠ ♣ and the black joker) on a white one with a single border. Suits differ by shape anyway.

The font is DejaVu Sans Condensed Bold, shipped in ``fonts/`` (see ``fonts/LICENSE``); nothing
is fetched at run time. The same code always gives the same pixels and the same PNG bytes.
"""

from __future__ import annotations

import io
import threading
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from rules.cards import CANONICAL, JOKERS, SUIT_SYMBOLS, rank, suit

#: The face-down card's name, beside the 54 card codes.
BACK = "back"
#: Every face there is: the 52 cards and the two jokers in canonical order, then the back.
FACE_NAMES: tuple[str, ...] = (*CANONICAL, BACK)
#: Emoji faces are square: Discord shows them from 128×128 down to about 20 pixels.
EMOJI_SIZE = 128

FONT_PATH = Path(__file__).with_name("fonts") / "DejaVuSansCondensed-Bold.ttf"

# Colours chosen so that red and black also differ in lightness (ink and background alike).
RED_INK = (200, 30, 45)
BLACK_INK = (20, 22, 28)
RED_PAPER = (253, 222, 218)
BLACK_PAPER = (255, 255, 255)
BACK_PAPER = (32, 52, 110)
BACK_LINE = (86, 118, 196)
BACK_GOLD = (232, 190, 82)
TRANSPARENT = (0, 0, 0, 0)
#: The flat colours of the cards (a table's palette keeps them exact).
PAPER_AND_INK = (RED_INK, BLACK_INK, RED_PAPER, BLACK_PAPER, BACK_PAPER, BACK_LINE, BACK_GOLD)

_RED_SUITS = frozenset("HD")


def is_red(code: str) -> bool:
    """True for hearts, diamonds and the red joker."""
    if code in JOKERS:
        return code == "RJ"
    return suit(code) in _RED_SUITS


# One FreeType face must not be used by two threads at once, and tables are drawn on worker
# threads: each thread loads its own.
_per_thread = threading.local()


def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped bold font at ``size`` pixels (this thread's copy)."""
    fonts: dict[int, ImageFont.FreeTypeFont] | None = getattr(_per_thread, "fonts", None)
    if fonts is None:
        fonts = _per_thread.fonts = {}
    found = fonts.get(size)
    if found is None:
        found = fonts[size] = ImageFont.truetype(str(FONT_PATH), size)
    return found


def fit_text(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: tuple[int, int, int, int],
    fill: tuple[int, ...],
    align: str = "center",
) -> None:
    """Draw ``text`` as large as fits in ``box`` (left, top, right, bottom), by its ink."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    size = max(4, height * 2)
    while size > 4:
        x0, y0, x1, y1 = font(size).getbbox(text, anchor="ls")
        if x1 - x0 <= width and y1 - y0 <= height:
            break
        size -= 1
    x0, y0, x1, y1 = font(size).getbbox(text, anchor="ls")
    if align == "left":
        x = left - x0
    elif align == "right":
        x = right - x1
    else:
        x = left + (width - (x1 - x0)) // 2 - x0
    y = top + (height - (y1 - y0)) // 2 - y0
    draw.text((x, y), text, font=font(size), fill=fill, anchor="ls")


def fit_squeezed(
    image: Image.Image, text: str, box: tuple[int, int, int, int], fill: tuple[int, ...],
    like: str = "8",
) -> None:
    """Draw ``text`` at the height ``like`` would have in ``box``, narrowed to the box's width
    if it is wider (so that ``10`` stands as tall as the other ranks), flush left."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    size = max(4, height * 2)
    while size > 4:
        x0, y0, x1, y1 = font(size).getbbox(like, anchor="ls")
        if x1 - x0 <= width and y1 - y0 <= height:
            break
        size -= 1
    x0, y0, x1, y1 = font(size).getbbox(text, anchor="ls")
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=font(size), fill=255, anchor="ls")
    if mask.width > width:
        mask = mask.resize((width, mask.height), Image.Resampling.LANCZOS)
    y = top + (height - mask.height) // 2
    image.paste(Image.new("RGBA", mask.size, fill), (left, y), mask)


def _paper(code: str, width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank card: rounded, with the border that tells red from black without colour."""
    image = Image.new("RGBA", (width, height), TRANSPARENT)
    draw = ImageDraw.Draw(image)
    radius = max(3, min(width, height) // 9)
    line = max(2, min(width, height) // 32)
    if code == BACK:
        draw.rounded_rectangle((0, 0, width - 1, height - 1), radius, fill=BACK_PAPER,
                               outline=BLACK_PAPER, width=line)
        return image, draw
    red = is_red(code)
    ink = RED_INK if red else BLACK_INK
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius,
                           fill=RED_PAPER if red else BLACK_PAPER, outline=ink, width=line)
    if red:
        # The second, inner line: red cards are double-bordered.
        gap = line * 2
        draw.rounded_rectangle((gap, gap, width - 1 - gap, height - 1 - gap),
                               max(2, radius - gap), outline=ink, width=max(1, line // 2 + 1))
    return image, draw


def _draw_back(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    width, height = image.size
    inset = max(4, min(width, height) // 10)
    step = max(6, min(width, height) // 7)
    # A lattice of diagonal lines, clipped to the inner panel.
    panel = Image.new("RGBA", (width - 2 * inset, height - 2 * inset), BACK_PAPER)
    pd = ImageDraw.Draw(panel)
    pw, ph = panel.size
    for offset in range(-ph, pw + ph, step):
        pd.line((offset, 0, offset + ph, ph), fill=BACK_LINE, width=2)
        pd.line((offset, ph, offset + ph, 0), fill=BACK_LINE, width=2)
    image.paste(panel, (inset, inset))
    draw.rectangle((inset, inset, width - 1 - inset, height - 1 - inset), outline=BACK_GOLD,
                   width=max(1, min(width, height) // 40))
    size = min(width, height)
    cx, cy = width // 2, height // 2
    r = size // 4
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BACK_PAPER, outline=BACK_GOLD,
                 width=max(1, size // 40))
    fit_text(draw, "DD", (cx - r * 2 // 3, cy - r // 2, cx + r * 2 // 3, cy + r // 2), BACK_GOLD)


def _draw_joker(code: str, draw: ImageDraw.ImageDraw, width: int, height: int) -> None:
    ink = RED_INK if code == "RJ" else BLACK_INK
    pad = max(5, min(width, height) // 10)
    if width < height:
        # Portrait (table): the star is the corner index, readable in a fan.
        index, big = _portrait_boxes(width, height, pad)
        fit_text(draw, "★", index[0], ink, align="left")
        fit_text(draw, "JKR", index[1], ink, align="left")
        fit_text(draw, "★", big, ink)
        return
    # A joker's rank is a star; "JOKER" runs along the bottom so that nobody reads it as a card.
    star_bottom = pad + (height - 2 * pad) * 62 // 100
    fit_text(draw, "★", (pad, pad, width - pad, star_bottom), ink)
    fit_text(draw, "JOKER", (pad, star_bottom + pad // 2, width - pad, height - pad), ink)


def _portrait_boxes(
    width: int, height: int, pad: int
) -> tuple[tuple[tuple[int, int, int, int], tuple[int, int, int, int]], tuple[int, int, int, int]]:
    """A portrait card's corner index (rank box, small suit box) and its big suit box."""
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    rank_box = (pad, pad, pad + inner_w * 62 // 100, pad + inner_h * 34 // 100)
    small_box = (pad, pad + inner_h * 38 // 100, pad + inner_w * 36 // 100,
                 pad + inner_h * 58 // 100)
    big_box = (pad + inner_w * 36 // 100, pad + inner_h * 46 // 100, width - pad, height - pad)
    return (rank_box, small_box), big_box


def _draw_card(
    code: str, image: Image.Image, draw: ImageDraw.ImageDraw, width: int, height: int
) -> None:
    ink = RED_INK if is_red(code) else BLACK_INK
    symbol = SUIT_SYMBOLS[suit(code)]
    pad = max(5, min(width, height) // 11)
    if width < height:
        # Portrait (table): a corner index (rank over a small suit) that stays visible when
        # cards overlap in a fan, and a big suit in the lower right.
        (rank_box, small_box), big_box = _portrait_boxes(width, height, pad)
        _rank(image, draw, rank(code), rank_box, ink)
        fit_text(draw, symbol, small_box, ink, align="left")
        fit_text(draw, symbol, big_box, ink)
        return
    # Square (emoji): rank in the upper left, suit in the lower right, each as large as fits.
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    rank_box = (pad, pad, pad + inner_w * 66 // 100, pad + inner_h * 54 // 100)
    suit_box = (pad + inner_w * 40 // 100, pad + inner_h * 52 // 100, width - pad, height - pad)
    _rank(image, draw, rank(code), rank_box, ink)
    fit_text(draw, symbol, suit_box, ink)


def _rank(
    image: Image.Image, draw: ImageDraw.ImageDraw, text: str, box: tuple[int, int, int, int],
    ink: tuple[int, ...],
) -> None:
    if len(text) > 1:
        fit_squeezed(image, text, box, ink)
    else:
        fit_text(draw, text, box, ink, align="left")


@lru_cache(maxsize=512)
def card_image(code: str, width: int, height: int) -> Image.Image:
    """The face of ``code`` (a card, ``RJ``/``BJ`` or ``back``) as an RGBA image.

    Cached: the image is shared, so callers paste it and never draw on it.
    Raises ``ValueError`` for anything else.
    """
    if code not in FACE_NAMES:
        raise ValueError(f"no face for {code!r}")
    image, draw = _paper(code, width, height)
    if code == BACK:
        _draw_back(image, draw)
    elif code in JOKERS:
        _draw_joker(code, draw, width, height)
    else:
        _draw_card(code, image, draw, width, height)
    return image


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as PNG with no metadata, so equal pixels give equal bytes."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@lru_cache(maxsize=64)
def face_png(code: str) -> bytes:
    """The 128×128 emoji face of ``code`` as PNG bytes (see ``FACE_NAMES``)."""
    return png_bytes(card_image(code, EMOJI_SIZE, EMOJI_SIZE))
