"""Small helpers for the words and bars a board shows, shared by the terminal and Discord.

The engines describe their boards with these (``text``, ``label`` and the games' wording
functions), and the Discord boards reuse the same functions, so both say the same thing.
"""

from __future__ import annotations


def bar(filled: int, total: int) -> str:
    """A bar of ``total`` segments, ``filled`` of them full: ``▰▰▰▱▱``."""
    filled = max(0, min(total, filled))
    return "▰" * filled + "▱" * (total - filled)


def scaled_bar(value: int, maximum: int, segments: int = 10) -> str:
    """``value`` of ``maximum`` as a bar of ``segments``; any value above 0 shows one at least."""
    filled = round(value * segments / maximum) if maximum else 0
    if value > 0:
        filled = max(1, filled)
    return bar(filled, segments)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
