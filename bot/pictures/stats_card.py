"""The ``/stats`` card: per game, a small histogram of the player's daily scores, the streak
calendar of the last 12 weeks (played, frozen, missed), the rating, and under them the
rating's trend over the same 12 weeks (the rating after each rated day, one line a variant,
on the calendar's time axis).

Drawn from plain data (:func:`card_data`, picklable) in the pictures worker, never on the
event loop, and cached by what it shows (:data:`CACHE`) and its language. The text of
``/stats`` says it all too (the rating and its change this month): the card only lets it be
seen at a glance.

The card speaks the reader's language: :func:`stats_card_png` takes the
:class:`~bot.i18n.Language` and the worker says the card's words and numbers in it (see
:mod:`bot.pictures.words`); each text keeps to its room, a longer translation shrinking.
"""

from __future__ import annotations

import hashlib
import io
import json
from typing import Any

from babel.numbers import format_decimal
from PIL import Image, ImageDraw

from bot.i18n import ENGLISH, Language
from bot.pictures.canvas import fit
from bot.pictures.faces import font
from bot.pictures.table import TableCache
from bot.pictures.words import picture_language, said
from core.errors import N_, Nn_, Phrase
from core.lookback import CardFigures
from core.workers import PICTURES, Workers
from rules import GAMES

FILENAME = "stats.png"
WIDTH = 560
SECTION_H = 236
#: The section's upper part (histogram, calendar); the trend strip is under it.
UPPER_H = 168
PAD = 16

BACKGROUND = (30, 31, 34)
PANEL = (43, 45, 49)
TEXT = (242, 243, 245)
DIM = (148, 155, 164)
BAR = (88, 101, 242)
#: The calendar's colour for each kind of day.
DAY_COLOURS = {
    "played": (46, 160, 67),
    "frozen": (110, 190, 235),
    "missed": (62, 64, 70),
    "today": (62, 64, 70),
}
CELL, GAP = 12, 3
#: Each variant's trend line, in the order the ratings come.
TREND_COLOURS = [(240, 178, 50), (235, 110, 160), (120, 200, 255)]
#: At most this many bars: wide ranges of scores are grouped.
MAX_BINS = 14
#: The smallest a longer translation shrinks a text to, in pixels.
SMALLEST = 11
#: The calendar's and the trend's weeks.
WEEKS = 12
DAILIES = Nn_("{count} daily · {unit}", "{count} dailies · {unit}")

#: The bot's cache of cards (a few KB each), keyed by :func:`card_key`.
CACHE = TableCache(size=128)


def card_data(figures: list[CardFigures]) -> list[dict[str, Any]]:
    """What the card draws, as plain data for the worker (games with a daily played)."""
    return [
        {
            "title": GAMES[f.game].title, "unit": f.unit, "points": list(f.points),
            "calendar": [kind for _, kind in f.calendar],
            "ratings": [[r.variant, r.rating, r.days, r.provisional] for r in f.ratings],
            "trend": _trend(f),
        }
        for f in figures
    ]


def _trend(f: CardFigures) -> list[list[Any]]:
    """Each rated variant's ``[variant, [[calendar index, rating], ...]]``: the days of its
    trend placed on the calendar's days (0 the oldest)."""
    index = {day: k for k, (day, _) in enumerate(f.calendar)}
    return [
        [r.variant, [[index[day], rating] for day, rating in r.trend if day in index]]
        for r in f.ratings
    ]


def card_key(data: list[dict[str, Any]], lang: str = ENGLISH.code) -> str:
    """The cache key of a card: a hash of what it shows, in which language."""
    return hashlib.sha256(json.dumps([lang, data], sort_keys=True).encode()).hexdigest()


def bins(points: list[int]) -> tuple[list[int], int, int]:
    """``(counts, lowest, width)``: the scores grouped into at most :data:`MAX_BINS` bars of
    ``width`` values each, the first starting at ``lowest``."""
    low, high = min(points), max(points)
    width = max(1, -(-(high - low + 1) // MAX_BINS))
    counts = [0] * (((high - low) // width) + 1)
    for p in points:
        counts[(p - low) // width] += 1
    return counts, low, width


class Pen:
    """Draws a card's texts in its language, each within its room."""

    def __init__(self, draw: ImageDraw.ImageDraw, lang: str) -> None:
        self.draw = draw
        self.language = picture_language(lang)
        #: Every text drawn: its words, size and box (for the tests).
        self.texts: list[tuple[str, int, tuple[int, int, int, int]]] = []

    def say(self, text: str) -> str:
        return said(self.language, text)

    def number(self, value: int) -> str:
        """A whole number the language's way (its digits and grouping)."""
        return self.language.number(value)

    def rating(self, value: int) -> str:
        """A rating: the language's digits, never grouped (``1040``, as ratings are written
        in every language)."""
        return format_decimal(value, locale=self.language.locale, group_separator=False)

    def text(self, xy: tuple[float, float], text: str, size: int, fill: tuple[int, int, int],
             room: float, anchor: str = "la") -> tuple[int, int, int, int]:
        """``text`` (marked English, a phrase, or words already said) at most ``room`` wide,
        shrunk to fit (at least :data:`SMALLEST`, then cut into lines); its box."""
        shown = self.say(text)
        size, lines = fit(shown, size, max(1, int(room)), SMALLEST)
        shown = "\n".join(lines)
        self.draw.multiline_text(xy, shown, font=font(size), fill=fill, anchor=anchor,
                                 spacing=1) if len(lines) > 1 else self.draw.text(
            xy, shown, font=font(size), fill=fill, anchor=anchor)
        box = self.draw.multiline_textbbox(xy, shown, font=font(size), anchor=anchor,
                                           spacing=1) if len(lines) > 1 else self.draw.textbbox(
            xy, shown, font=font(size), anchor=anchor)
        drawn = (int(box[0]), int(box[1]), int(box[2]), int(box[3]))
        self.texts.append((shown, size, drawn))
        return drawn


def draw_card(data: list[dict[str, Any]], lang: str = ENGLISH.code) -> Image.Image:
    """The card as an image, in the language ``lang``: one section per game."""
    return draw_pen(data, lang).draw._image  # type: ignore[attr-defined]


def draw_pen(data: list[dict[str, Any]], lang: str = ENGLISH.code) -> Pen:
    """The card drawn, as the :class:`Pen` that drew it (its image and texts)."""
    height = PAD + max(1, len(data)) * (SECTION_H + PAD)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    pen = Pen(ImageDraw.Draw(image), lang)
    for i, section in enumerate(data):
        _section(pen, section, PAD + i * (SECTION_H + PAD))
    return pen


def _section(pen: Pen, s: dict[str, Any], top: int) -> None:
    draw = pen.draw
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + SECTION_H), 10, fill=PANEL)
    x0 = PAD + 14
    titled = pen.text((x0, top + 8), s["title"], 22, TEXT, WIDTH - PAD - 14 - x0)
    rated = " · ".join(
        pen.say(Phrase(N_("{variant} {rating} (provisional)") if provisional
                       else "{variant} {rating}", variant=_word(variant),
                       rating=pen.rating(rating)))
        for variant, rating, _, provisional in s["ratings"]
    )
    if rated:
        pen.text((WIDTH - PAD - 14, top + 12), Phrase(N_("Rating {ratings}"), ratings=rated),
                 16, DIM, WIDTH - PAD - 14 - titled[2] - 12, anchor="ra")
    # The histogram, left.
    hx0, hy0, hx1, hy1 = x0, top + 50, x0 + 270, top + UPPER_H - 34
    points = s["points"]
    cx0 = WIDTH - PAD - 14 - WEEKS * (CELL + GAP) + GAP
    pen.text((hx0, hy1 + 10), Phrase(DAILIES[0], plural=DAILIES[1], count=len(points),
                                     unit=_word(s["unit"])), 15, DIM, cx0 - 12 - hx0)
    if points:
        counts, low, _ = bins(points)
        tallest = max(counts)
        step = (hx1 - hx0) / len(counts)
        for k, count in enumerate(counts):
            bar_h = round((hy1 - hy0) * count / tallest)
            left = round(hx0 + k * step) + 1
            right = max(left + 1, round(hx0 + (k + 1) * step) - 2)
            if count:
                draw.rectangle((left, hy1 - bar_h, right, hy1), fill=BAR)
        draw.line((hx0, hy1, hx1, hy1), fill=DIM)
        half = (hx1 - hx0) // 2 - 6
        pen.text((hx0, hy0 - 18), Phrase(N_("lowest {value}"), value=low), 14, DIM, half)
        pen.text((hx1, hy0 - 18), Phrase(N_("highest {value}"), value=max(points)), 14, DIM,
                 half, anchor="ra")
    # The calendar, right: a column a week, oldest on the left, today last.
    days = s["calendar"]
    cy0 = top + 40
    for n, kind in enumerate(days):
        x = cx0 + (n // 7) * (CELL + GAP)
        y = cy0 + (n % 7) * (CELL + GAP)
        draw.rounded_rectangle((x, y, x + CELL, y + CELL), 3, fill=DAY_COLOURS[kind],
                               outline=TEXT if kind == "today" else None)
    played = sum(1 for kind in days if kind == "played")
    frozen = sum(1 for kind in days if kind == "frozen")
    pen.text((cx0, hy1 + 10), Phrase(N_("{played} played · {frozen} frozen"), played=played,
                                     frozen=frozen), 15, DIM, WIDTH - PAD - 6 - cx0)
    _trend_strip(pen, s.get("trend", []), len(days), x0, top + UPPER_H, WIDTH - PAD - 14,
                 top + SECTION_H - 12)


def _trend_strip(pen: Pen, trend: list[list[Any]], days: int, x0: int,
                 y0: int, x1: int, y1: int) -> None:
    """The rating's trend: a title and legend line, then each variant's line over the last
    ``days`` days (its points at their days), between the lowest and highest rating."""
    draw = pen.draw
    draw.line((x0, y0 - 4, x1, y0 - 4), fill=BACKGROUND, width=2)
    lines = [(variant, points) for variant, points in trend if points]
    legend = [
        (n, pen.say(Phrase("{variant} {rating}{arrow}", variant=_word(variant),
                           rating=pen.rating(points[-1][1]),
                           arrow=_arrow(pen, points[-1][1] - points[0][1])
                           if len(points) > 1 else "")))
        for n, (variant, points) in enumerate(lines)
    ]
    # The legend takes what it needs on the right; the title the rest.
    wanted = sum(font(14).getlength(label) + 24 for _, label in legend)
    titled = pen.text((x0, y0 + 2), Phrase(N_("Rating, last {weeks} weeks"), weeks=WEEKS), 14,
                      DIM, max(80, x1 - x0 - wanted) if lines else (x1 - x0) // 2 - 6)
    if not lines:
        pen.text((x1, y0 + 2), N_("no rated day in these weeks"), 14, DIM,
                 (x1 - x0) // 2 - 6, anchor="ra")
        return
    right = x1
    for n, label in reversed(legend):
        colour = TREND_COLOURS[n % len(TREND_COLOURS)]
        box = pen.text((right, y0 + 2), label, 14, TEXT, max(1, right - titled[2] - 24),
                       anchor="ra")
        draw.rounded_rectangle((box[0] - 14, y0 + 6, box[0] - 5, y0 + 15), 2, fill=colour)
        right = box[0] - 24
    ratings = [rating for _, points in lines for _, rating in points]
    low, high = min(ratings), max(ratings)
    if high - low < 10:  # a flat trend drawn flat, mid-strip, not stretched to full height
        low, high = low - 5, high + 5
    cx0, cy0, cy1 = x0 + 40, y0 + 24, y1
    draw.text((cx0 - 8, cy0), pen.rating(high), font=font(12), fill=DIM, anchor="ra")
    draw.text((cx0 - 8, cy1), pen.rating(low), font=font(12), fill=DIM, anchor="rd")
    draw.line((cx0, cy1, x1, cy1), fill=DIM)
    span = max(1, days - 1)

    def at(k: int, rating: int) -> tuple[float, float]:
        return (cx0 + (x1 - cx0) * k / span, cy1 - (cy1 - cy0) * (rating - low) / (high - low))

    for n, (_, points) in enumerate(lines):
        colour = TREND_COLOURS[n % len(TREND_COLOURS)]
        xy = [at(k, rating) for k, rating in points]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=2, joint="curve")
        for x, y in xy[-1:] if len(xy) > 1 else xy:
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)


def _word(text: str) -> Phrase:
    """A word of the engines' (a unit, a variant) as a phrase the card says in its language:
    an engine's phrase as it is, a plain marked word looked up whole."""
    return text if isinstance(text, Phrase) else Phrase(text)


def _arrow(pen: Pen, change: int) -> str:
    """`` ▲ 12``: a trend's change, its number the language's way."""
    return f" {'▲' if change > 0 else '▼' if change < 0 else '='} {pen.rating(abs(change))}"


def render_card(data: list[dict[str, Any]], lang: str = ENGLISH.code) -> bytes:
    """The card's PNG in the language ``lang`` (in the pictures worker)."""
    out = io.BytesIO()
    draw_card(data, lang).save(out, format="PNG", compress_level=6)
    return out.getvalue()


async def stats_card_png(workers: Workers, data: list[dict[str, Any]],
                         language: Language = ENGLISH) -> bytes:
    """The card's PNG in the reader's ``language``: from the cache, or drawn in the pictures
    worker and kept."""
    key = card_key(data, language.code)
    found = CACHE.get(key)
    if found is None:
        found = await workers.run(PICTURES, render_card, data, language.code)
        CACHE.put(key, found)
    return found
