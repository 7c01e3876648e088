"""Card faces drawn with Pillow: the 52 cards, the red and black jokers and a face-down back.

One drawing serves two uses: 128×128 application emoji (``face_png``) and the smaller,
portrait cards pasted onto table pictures (``card_image``). The emoji are designed for the
size Discord shows them first (about 22 pixels on a button, downscaled from 128) and for
128 second: one large rank in the upper left and one large suit pip in the lower right,
nothing smaller. The pips are drawn as shapes (not font glyphs) so that ♠'s point and ♣'s
three lobes survive the downscale; courts (J, Q, K) carry their letter on a solid tile in
the suit's ink; jokers are one big star; the back is a gold emblem on blue, without text.

Colours: ``four`` (the default) is the card room's four-colour deck — ♠ black, ♥ red,
♦ blue, ♣ green — so that suits also differ by hue; ``two`` is the classic red and black.
Either way, red suits and black suits differ by more than colour, for players who cannot
tell red from black: red cards (♥ ♦ and the red joker) sit on a rose paper with a double
border, black cards (♠ ♣ and the black joker) on a white one with a single border; the four
inks also differ in lightness (♠ darkest, ♥ and ♣ mid, ♦ lightest of its paper's pair), and
the suits differ by shape anyway.

The font is DejaVu Sans Condensed Bold, shipped in ``fonts/`` (see ``fonts/LICENSE``); nothing
is fetched at run time. The same code always gives the same pixels and the same PNG bytes.
"""

from __future__ import annotations

import io
import math
import threading
from functools import lru_cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from rules.cards import CANONICAL, JOKERS, rank, suit

#: The face-down card's name, beside the 54 card codes.
BACK = "back"
#: Every face there is: the 52 cards and the two jokers in canonical order, then the back.
FACE_NAMES: tuple[str, ...] = (*CANONICAL, BACK)
#: Emoji faces are square: Discord shows them from 128×128 down to about 20 pixels.
EMOJI_SIZE = 128

#: ``four``: ♠ black, ♥ red, ♦ blue, ♣ green; ``two``: ♠ ♣ black, ♥ ♦ red.
Colours = Literal["four", "two"]
COLOURS: tuple[Colours, ...] = ("four", "two")
#: Four colours: at 22 pixels the hue tells ♠ from ♣ (and ♥ from ♦) before the shape does.
DEFAULT_COLOURS: Colours = "four"

FONT_PATH = Path(__file__).with_name("fonts") / "DejaVuSansCondensed-Bold.ttf"

# Colours chosen so that red and black also differ in lightness (ink and background alike),
# and, in four colours, each suit's ink from the other suit on the same paper.
RED_INK = (178, 18, 36)
BLACK_INK = (20, 22, 28)
BLUE_INK = (30, 100, 215)
GREEN_INK = (18, 128, 58)
RED_PAPER = (253, 222, 218)
BLACK_PAPER = (255, 255, 255)
BACK_PAPER = (32, 52, 110)
BACK_LINE = (70, 100, 176)
BACK_GOLD = (232, 190, 82)
TRANSPARENT = (0, 0, 0, 0)
#: The flat colours of the cards (a table's palette keeps them exact).
PAPER_AND_INK = (RED_INK, BLACK_INK, BLUE_INK, GREEN_INK, RED_PAPER, BLACK_PAPER, BACK_PAPER,
                 BACK_LINE, BACK_GOLD)

_RED_SUITS = frozenset("HD")
_INKS: dict[Colours, dict[str, tuple[int, int, int]]] = {
    "four": {"S": BLACK_INK, "H": RED_INK, "D": BLUE_INK, "C": GREEN_INK},
    "two": {"S": BLACK_INK, "H": RED_INK, "D": RED_INK, "C": BLACK_INK},
}
_COURTS = frozenset("JQK")
# Shapes are drawn this many times larger, then scaled down: smooth edges, same every time.
_SUPERSAMPLE = 4


def is_red(code: str) -> bool:
    """True for hearts, diamonds and the red joker."""
    if code in JOKERS:
        return code == "RJ"
    return suit(code) in _RED_SUITS


def ink(code: str, colours: Colours = DEFAULT_COLOURS) -> tuple[int, int, int]:
    """The colour ``code`` is printed in (a joker's is its red or black)."""
    if code in JOKERS:
        return RED_INK if code == "RJ" else BLACK_INK
    return _INKS[colours][suit(code)]


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


Box = tuple[int, int, int, int]


def fit_text(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: Box,
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


def _rank_mask(text: str, width: int, height: int) -> Image.Image:
    """``text`` as a mask at most ``width``×``height``: as tall as an ``8`` that fits (less
    if a tail such as Q's or J's must fit too), its glyphs set close together (``10`` keeps
    a narrow gap, not the font's wide ``1``), and narrowed only if it is still too wide."""
    size = max(4, height * 2)
    while size > 4:
        face = font(size)
        top = min(face.getbbox(c, anchor="ls")[1] for c in text + "8")
        bottom = max(face.getbbox(c, anchor="ls")[3] for c in text)
        if max(bottom, 0) - top <= height:
            break
        size -= 1
    # A wide rank (10) gives up some height before it is narrowed: squeezed digits blur.
    tallest = size
    while size > tallest * 85 // 100 and _set_width(text, font(size)) > width:
        size -= 1
    face = font(size)
    top = min(face.getbbox(c, anchor="ls")[1] for c in text + "8")
    bottom = max(0, *(face.getbbox(c, anchor="ls")[3] for c in text))
    gap = max(1, size // 14)
    glyphs = []
    for char in text:
        x0, _y0, x1, _y1 = face.getbbox(char, anchor="ls")
        glyph = Image.new("L", (x1 - x0, bottom - top), 0)
        ImageDraw.Draw(glyph).text((-x0, -top), char, font=face, fill=255, anchor="ls")
        glyphs.append(glyph)
    mask = Image.new("L", (sum(g.width for g in glyphs) + gap * (len(glyphs) - 1),
                           bottom - top), 0)
    x = 0
    for glyph in glyphs:
        mask.paste(glyph, (x, 0))
        x += glyph.width + gap
    if mask.width > width:
        mask = mask.resize((width, mask.height), Image.Resampling.LANCZOS)
    return mask


def _set_width(text: str, face: ImageFont.FreeTypeFont) -> int:
    """The width of ``text``'s glyphs' ink set side by side, as :func:`_rank_mask` sets them."""
    widths = [face.getbbox(c, anchor="ls")[2] - face.getbbox(c, anchor="ls")[0] for c in text]
    return sum(widths) + max(1, face.size // 14) * (len(text) - 1)


# The pips, in a unit square (y down): circles (cx, cy, r) and polygons, unioned.
_Shape = tuple[tuple[tuple[float, float, float], ...], tuple[tuple[tuple[float, float], ...], ...]]
_PIPS: dict[str, _Shape] = {
    "H": (((0.27, 0.30, 0.25), (0.73, 0.30, 0.25)),
          (((0.035, 0.38), (0.5, 0.97), (0.965, 0.38), (0.5, 0.22)),)),
    "D": ((), (((0.5, 0.0), (0.88, 0.5), (0.5, 1.0), (0.12, 0.5)),)),
    "S": (((0.27, 0.58, 0.22), (0.73, 0.58, 0.22)),
          (((0.055, 0.53), (0.5, 0.0), (0.945, 0.53), (0.5, 0.72)),
           ((0.5, 0.55), (0.64, 1.0), (0.36, 1.0)))),
    "C": (((0.5, 0.25, 0.235), (0.245, 0.60, 0.235), (0.755, 0.60, 0.235)),
          (((0.5, 0.35), (0.66, 0.62), (0.34, 0.62)),
           ((0.5, 0.5), (0.66, 1.0), (0.34, 1.0)))),
}


def _star(points: int, inner: float) -> tuple[tuple[float, float], ...]:
    """A star's outline in the unit square, one point up."""
    corners = []
    for i in range(points * 2):
        radius = 0.5 if i % 2 == 0 else 0.5 * inner
        angle = math.pi * i / points - math.pi / 2
        corners.append((0.5 + radius * math.cos(angle), 0.53 + radius * math.sin(angle)))
    return tuple(corners)


_PIPS["star"] = ((), (_star(5, 0.42),))
_PIPS["emblem"] = ((), (_star(4, 0.36),))


def _shape_mask(name: str, width: int, height: int) -> Image.Image:
    """The shape ``name`` filling a ``width``×``height`` mask (its aspect kept, centred)."""
    side = min(width, height) * _SUPERSAMPLE
    big = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(big)
    circles, polygons = _PIPS[name]
    for cx, cy, r in circles:
        draw.ellipse(((cx - r) * side, (cy - r) * side, (cx + r) * side, (cy + r) * side),
                     fill=255)
    for polygon in polygons:
        draw.polygon([(x * side, y * side) for x, y in polygon], fill=255)
    small = big.resize((side // _SUPERSAMPLE, side // _SUPERSAMPLE), Image.Resampling.LANCZOS)
    mask = Image.new("L", (width, height), 0)
    mask.paste(small, ((width - small.width) // 2, (height - small.height) // 2))
    return mask


def _stamp(image: Image.Image, mask: Image.Image, xy: tuple[int, int],
           fill: tuple[int, ...]) -> None:
    image.paste(Image.new("RGBA", mask.size, fill), xy, mask)


def _pip(image: Image.Image, name: str, box: Box, fill: tuple[int, ...],
         halo: tuple[int, ...] | None = None) -> None:
    """The shape ``name`` in ``box``; ringed with ``halo`` first (the paper) where it may
    overlap the rank, so that each stays whole."""
    left, top, right, bottom = box
    mask = _shape_mask(name, right - left, bottom - top)
    if halo is not None:
        ring = max(3, (right - left) // 16) | 1
        wide = Image.new("L", (mask.width + 2 * ring, mask.height + 2 * ring), 0)
        wide.paste(mask, (ring, ring))
        _stamp(image, wide.filter(ImageFilter.MaxFilter(ring * 2 - 1)),
               (left - ring, top - ring), halo)
    _stamp(image, mask, (left, top), fill)


def _paper(code: str, width: int, height: int,
           colours: Colours) -> tuple[Image.Image, ImageDraw.ImageDraw]:
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
    # The border is red or black whatever the suit's ink: it belongs to the colour class.
    edge = RED_INK if red else BLACK_INK
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius,
                           fill=RED_PAPER if red else BLACK_PAPER, outline=edge, width=line)
    if red:
        # The second, inner line: red cards are double-bordered.
        gap = line * 2
        draw.rounded_rectangle((gap, gap, width - 1 - gap, height - 1 - gap),
                               max(2, radius - gap), outline=edge, width=max(1, line // 2 + 1))
    return image, draw


def _draw_back(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    width, height = image.size
    size = min(width, height)
    inset = max(4, size // 9)
    # A coarse lattice (fine lines would blur to grey at 22 pixels), clipped to the panel.
    panel = Image.new("RGBA", (width - 2 * inset, height - 2 * inset), BACK_PAPER)
    pd = ImageDraw.Draw(panel)
    pw, ph = panel.size
    step = max(8, size // 4)
    for offset in range(-ph, pw + ph, step):
        pd.line((offset, 0, offset + ph, ph), fill=BACK_LINE, width=max(2, size // 32))
        pd.line((offset, ph, offset + ph, 0), fill=BACK_LINE, width=max(2, size // 32))
    image.paste(panel, (inset, inset))
    draw.rectangle((inset, inset, width - 1 - inset, height - 1 - inset), outline=BACK_GOLD,
                   width=max(2, size // 24))
    # One big gold emblem in the middle: a card back, not a card, at any size.
    r = size * 30 // 100
    cx, cy = width // 2, height // 2
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BACK_PAPER, outline=BACK_GOLD,
                 width=max(2, size // 24))
    e = r * 78 // 100
    _pip(image, "emblem", (cx - e, cy - e, cx + e, cy + e), BACK_GOLD)


def _draw_joker(code: str, image: Image.Image, draw: ImageDraw.ImageDraw, width: int,
                height: int) -> None:
    colour = ink(code)
    pad = max(5, min(width, height) // 10)
    if width < height:
        # Portrait (table): the star is the corner index, readable in a fan.
        index, big = _portrait_boxes(width, height, pad)
        _pip(image, "star", index[1], colour)
        fit_text(draw, "JKR", index[0], colour, align="left")
        _pip(image, "star", big, colour)
        return
    # Square (emoji): one star as large as the card, the same for both jokers but for the
    # paper, border and ink of the red or the black joker; and a small star in each corner
    # where a card has its rank, so that nobody takes it for a face.
    pad = max(5, width // 14)
    _pip(image, "star", (pad, pad, width - pad, height - pad), colour)


def _portrait_boxes(width: int, height: int, pad: int) -> tuple[tuple[Box, Box], Box]:
    """A portrait card's corner index (rank box, small suit box) and its big suit box."""
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    rank_box = (pad, pad, pad + inner_w * 62 // 100, pad + inner_h * 34 // 100)
    small_box = (pad, pad + inner_h * 38 // 100, pad + inner_w * 36 // 100,
                 pad + inner_h * 58 // 100)
    big_box = (pad + inner_w * 36 // 100, pad + inner_h * 46 // 100, width - pad, height - pad)
    return (rank_box, small_box), big_box


def _draw_card(code: str, image: Image.Image, width: int, height: int,
               colours: Colours) -> None:
    colour = ink(code, colours)
    paper = RED_PAPER if is_red(code) else BLACK_PAPER
    if width < height:
        # Portrait (table): a corner index (rank over a small suit) that stays visible when
        # cards overlap in a fan, and a big suit in the lower right.
        pad = max(5, min(width, height) // 11)
        (rank_box, small_box), big_box = _portrait_boxes(width, height, pad)
        _rank(image, rank(code), rank_box, colour, paper)
        _pip(image, suit(code), small_box, colour)
        _pip(image, suit(code), big_box, colour)
        return
    # Square (emoji): rank in the upper left, one pip in the lower right, each as large as
    # the card allows; they may meet on the diagonal, where the pip's halo keeps them apart.
    pad = max(5, width * 7 // 100)
    inner = width - 2 * pad
    if len(rank(code)) > 1:
        # 10 needs the width of two digits: a little lower, above a little smaller pip, so
        # that neither the 0 nor the pip is cut.
        rank_box = (pad, pad, pad + inner * 80 // 100, pad + inner * 50 // 100)
        pip = inner * 54 // 100
    else:
        rank_box = (pad, pad, pad + inner * 60 // 100, pad + inner * 58 // 100)
        pip = inner * 60 // 100
    _rank(image, rank(code), rank_box, colour, paper)
    _pip(image, suit(code), (width - pad - pip, height - pad - pip, width - pad, height - pad),
         colour, halo=paper)


def _rank(image: Image.Image, text: str, box: Box, colour: tuple[int, ...],
          paper: tuple[int, ...]) -> None:
    """The rank flush left in ``box``; a court's letter in paper on a tile of ink."""
    left, top, right, bottom = box
    if text in _COURTS:
        border = max(2, (bottom - top) // 9)
        # The same square-ish tile for J, Q and K: a badge that says "court" at any size.
        side = min(right - left, (bottom - top) * 9 // 10)
        mask = _rank_mask(text, side - 2 * border, bottom - top - 2 * border)
        ImageDraw.Draw(image).rounded_rectangle((left, top, left + side - 1, bottom - 1),
                                                max(2, border), fill=colour)
        _stamp(image, mask, (left + (side - mask.width) // 2,
                             top + (bottom - top - mask.height) // 2), paper)
        return
    mask = _rank_mask(text, right - left, bottom - top)
    _stamp(image, mask, (left, top + (bottom - top - mask.height) // 2), colour)


@lru_cache(maxsize=1024)
def card_image(code: str, width: int, height: int,
               colours: Colours = DEFAULT_COLOURS) -> Image.Image:
    """The face of ``code`` (a card, ``RJ``/``BJ`` or ``back``) as an RGBA image.

    Cached: the image is shared, so callers paste it and never draw on it.
    Raises ``ValueError`` for anything else.
    """
    if code not in FACE_NAMES:
        raise ValueError(f"no face for {code!r}")
    if colours not in COLOURS:
        raise ValueError(f"no colours {colours!r}: four or two")
    image, draw = _paper(code, width, height, colours)
    if code == BACK:
        _draw_back(image, draw)
    elif code in JOKERS:
        _draw_joker(code, image, draw, width, height)
    else:
        _draw_card(code, image, width, height, colours)
    return image


def png_bytes(image: Image.Image) -> bytes:
    """``image`` as PNG with no metadata, so equal pixels give equal bytes."""
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@lru_cache(maxsize=128)
def face_png(code: str, colours: Colours = DEFAULT_COLOURS) -> bytes:
    """The 128×128 emoji face of ``code`` as PNG bytes (see ``FACE_NAMES``)."""
    return png_bytes(card_image(code, EMOJI_SIZE, EMOJI_SIZE, colours))
