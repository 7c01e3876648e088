"""The ``/stats`` card: per game, a small histogram of the player's daily scores, the streak
calendar of the last 12 weeks (played, frozen, missed), the rating, and under them the
rating's trend over the same 12 weeks (the rating after each rated day, one line a variant,
on the calendar's time axis).

Drawn from plain data (:func:`card_data`, picklable) in the pictures worker, never on the
event loop, and cached by what it shows (:data:`CACHE`). The text of ``/stats`` says it all
too (the rating and its change this month): the card only lets it be seen at a glance.
"""

from __future__ import annotations

import hashlib
import io
import json
from typing import Any

from PIL import Image, ImageDraw

from bot.pictures.faces import font
from bot.pictures.table import TableCache
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


def card_key(data: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def bins(points: list[int]) -> tuple[list[int], int, int]:
    """``(counts, lowest, width)``: the scores grouped into at most :data:`MAX_BINS` bars of
    ``width`` values each, the first starting at ``lowest``."""
    low, high = min(points), max(points)
    width = max(1, -(-(high - low + 1) // MAX_BINS))
    counts = [0] * (((high - low) // width) + 1)
    for p in points:
        counts[(p - low) // width] += 1
    return counts, low, width


def draw_card(data: list[dict[str, Any]]) -> Image.Image:
    """The card as an image: one section per game."""
    height = PAD + max(1, len(data)) * (SECTION_H + PAD)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i, section in enumerate(data):
        _section(draw, section, PAD + i * (SECTION_H + PAD))
    return image


def _section(draw: ImageDraw.ImageDraw, s: dict[str, Any], top: int) -> None:
    draw.rounded_rectangle((PAD, top, WIDTH - PAD, top + SECTION_H), 10, fill=PANEL)
    x0 = PAD + 14
    draw.text((x0, top + 8), s["title"], font=font(22), fill=TEXT)
    rated = " · ".join(
        f"{variant} {rating}" + (" (provisional)" if provisional else "")
        for variant, rating, _, provisional in s["ratings"]
    )
    if rated:
        draw.text((WIDTH - PAD - 14, top + 12), f"Rating {rated}", font=font(16), fill=DIM,
                  anchor="ra")
    # The histogram, left.
    hx0, hy0, hx1, hy1 = x0, top + 50, x0 + 270, top + UPPER_H - 34
    points = s["points"]
    draw.text((hx0, hy1 + 10), f"{len(points)} dailies · {s['unit']}", font=font(15), fill=DIM)
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
        draw.text((hx0, hy0 - 18), f"lowest {low}", font=font(14), fill=DIM)
        draw.text((hx1, hy0 - 18), f"highest {max(points)}", font=font(14), fill=DIM,
                  anchor="ra")
    # The calendar, right: a column a week, oldest on the left, today last.
    days = s["calendar"]
    cx0 = WIDTH - PAD - 14 - 12 * (CELL + GAP) + GAP
    cy0 = top + 40
    for n, kind in enumerate(days):
        x = cx0 + (n // 7) * (CELL + GAP)
        y = cy0 + (n % 7) * (CELL + GAP)
        draw.rounded_rectangle((x, y, x + CELL, y + CELL), 3, fill=DAY_COLOURS[kind],
                               outline=TEXT if kind == "today" else None)
    played = sum(1 for kind in days if kind == "played")
    frozen = sum(1 for kind in days if kind == "frozen")
    draw.text((cx0, hy1 + 10), f"{played} played · {frozen} frozen", font=font(15),
              fill=DIM)
    _trend_strip(draw, s.get("trend", []), len(days), x0, top + UPPER_H, WIDTH - PAD - 14,
                 top + SECTION_H - 12)


def _trend_strip(draw: ImageDraw.ImageDraw, trend: list[list[Any]], days: int, x0: int,
                 y0: int, x1: int, y1: int) -> None:
    """The rating's trend: a title and legend line, then each variant's line over the last
    ``days`` days (its points at their days), between the lowest and highest rating."""
    draw.line((x0, y0 - 4, x1, y0 - 4), fill=BACKGROUND, width=2)
    draw.text((x0, y0 + 2), "Rating, last 12 weeks", font=font(14), fill=DIM)
    lines = [(variant, points) for variant, points in trend if points]
    if not lines:
        draw.text((x1, y0 + 2), "no rated day in these weeks", font=font(14), fill=DIM,
                  anchor="ra")
        return
    right = x1
    for n, (variant, points) in reversed(list(enumerate(lines))):
        change = points[-1][1] - points[0][1]
        arrow = "" if len(points) < 2 else (
            f" {'▲' if change > 0 else '▼' if change < 0 else '='} {abs(change)}")
        label = f"{variant} {points[-1][1]}{arrow}"
        colour = TREND_COLOURS[n % len(TREND_COLOURS)]
        box = draw.textbbox((right, y0 + 2), label, font=font(14), anchor="ra")
        draw.text((right, y0 + 2), label, font=font(14), fill=TEXT, anchor="ra")
        draw.rounded_rectangle((box[0] - 14, y0 + 6, box[0] - 5, y0 + 15), 2, fill=colour)
        right = box[0] - 24
    ratings = [rating for _, points in lines for _, rating in points]
    low, high = min(ratings), max(ratings)
    if high - low < 10:  # a flat trend drawn flat, mid-strip, not stretched to full height
        low, high = low - 5, high + 5
    cx0, cy0, cy1 = x0 + 40, y0 + 24, y1
    draw.text((cx0 - 8, cy0), str(high), font=font(12), fill=DIM, anchor="ra")
    draw.text((cx0 - 8, cy1), str(low), font=font(12), fill=DIM, anchor="rd")
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


def render_card(data: list[dict[str, Any]]) -> bytes:
    """The card's PNG (in the pictures worker)."""
    out = io.BytesIO()
    draw_card(data).save(out, format="PNG", compress_level=6)
    return out.getvalue()


async def stats_card_png(workers: Workers, data: list[dict[str, Any]]) -> bytes:
    """The card's PNG: from the cache, or drawn in the pictures worker and kept."""
    key = card_key(data)
    found = CACHE.get(key)
    if found is None:
        found = await workers.run(PICTURES, render_card, data)
        CACHE.put(key, found)
    return found
