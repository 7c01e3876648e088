"""Plain reference implementations of each game's rules: second implementations, written the
way a newcomer would (a mutable state, deep-copied on every action, card facts worked out
from the card codes each time), straight from ``rules/<key>/rules.md`` and ``docs/deal.md``.

They serve twice: ``tests/rules/test_reference.py`` plays every variant at random through a
reference and its engine side by side (an oracle for the engine), and ``bench/engine.py``
times the engine against them, like with like. They live under ``tests/`` because they
are test code, not the product; the bench imports them as ``bench/clicks.py`` does
``tests.bot.raw``. Each module ``tests.rules.reference.<key>`` offers ``VARIANTS``,
``new(seed, variant)``, ``actions(state)``, ``apply(state, action)`` (a new state; the input
is left as it was), ``outcome(state)`` and ``score(state)``. A game without a module here
simply has no reference yet.
"""

from __future__ import annotations

import hashlib
import importlib
from types import ModuleType

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
#: The full deck before shuffling (docs/deal.md): suits S H D C, ranks A..K, then the jokers.
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS] + ["RJ", "BJ"]


def shuffle(seed: int, cards: list[str], position: int = 0) -> tuple[list[str], int]:
    """docs/deal.md's Fisher–Yates from stream word ``position`` on: (cards, new position)."""

    def words():
        k = position
        while True:
            digest = hashlib.sha256(seed.to_bytes(8, "big") + (k // 4).to_bytes(8, "big")).digest()
            for i in range(k % 4, 4):
                yield int.from_bytes(digest[i * 8 : i * 8 + 8], "big")
            k = (k // 4 + 1) * 4

    stream = words()
    used = position
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = 2**64 - (2**64 % n)
        while True:
            x = next(stream)
            used += 1
            if x < limit:
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck, used


def reference(key: str) -> ModuleType | None:
    """The reference module of game ``key``, or None when it has none."""
    try:
        return importlib.import_module(f"{__name__}.{key}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{key}":
            raise
        return None
