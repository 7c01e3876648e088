"""Donsol's side of the native search (``rules/donsol/_native.c``): a state in the C form
and back, the stream words an escape draws, and the C line as engine actions.

The C module is built by the install (``setup.py``); without it :data:`AVAILABLE` is False
and the pure Python solver (``rules.donsol.solver``) is used. A state goes to C as
``(variant, dungeon, room, hp, shield, last, sick, escaped_last, first_room, xp, outcome,
stream)``: cards as indices into :data:`~rules.donsol.engine.DECK`, ``shield`` −1 for none,
``last`` 99 for a fresh shield, ``outcome`` 0 playing, 1 won, 2 dead.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any

from rules.donsol.engine import DECK, DonsolState, role, value

try:
    from rules.donsol import _native
except ImportError:  # not built: the pure Python solver stands in
    _native = None

AVAILABLE = _native is not None
VARIANTS = {"normal": 0, "easy": 1, "hard": 2}
_INDEX = {c: i for i, c in enumerate(DECK)}
_KIND = {"potion": 0, "shield": 1, "monster": 2}
#: Each card's value and role, in DECK order: the C side reads the card facts from here.
TABLES = (bytes(value(c) for c in DECK), bytes(_KIND[role(c)] for c in DECK))
_OUTCOME = {None: 0, "won": 1, "dead": 2}
_FRESH = 99
_BLOCK = struct.Struct(">4Q")


def encode(s: DonsolState) -> tuple[Any, ...]:
    """The state as ``_native`` reads it."""
    return (
        VARIANTS[s.variant], bytes(_INDEX[c] for c in s.dungeon),
        bytes(_INDEX[c] for c in s.room), s.hp,
        -1 if s.shield is None else _INDEX[s.shield],
        _FRESH if s.shield_last is None else s.shield_last,
        int(s.sick), int(s.escaped_last), int(s.first_room), s.xp, _OUTCOME[s.outcome],
        s.stream,
    )


def stream_words(s: DonsolState) -> bytes:
    """The stream's words from the state's position (``rules.deal.word``), native-endian,
    as many as any line from here can draw: every escape is followed by a take (the
    solver's rule), so at most one escape per card left plus one, each drawing one word
    per card but one (with a margin for ``below``'s rare rejections)."""
    left = len(s.dungeon) + len(s.room)
    count = (left + 1) * max(left - 1, 0) + 64
    first, last = s.stream // 4, (s.stream + count - 1) // 4
    head = s.seed.to_bytes(8, "big")
    words: list[int] = []
    for b in range(first, last + 1):
        words.extend(_BLOCK.unpack(hashlib.sha256(head + b.to_bytes(8, "big")).digest()))
    skip = s.stream - 4 * first
    return struct.pack(f"={count}Q", *words[skip : skip + count])


def action(move: int) -> str:
    """A C move as the engine's action."""
    return "escape" if move < 0 else f"take {DECK[move]}"


def moves(s: DonsolState) -> list[tuple[str, tuple[Any, ...]]]:
    """The C side's legal moves from ``s`` and the C state after each (the debug entry point
    tests compare with the engine)."""
    assert _native is not None
    return [(action(m), after) for m, after in _native.moves(TABLES, encode(s), stream_words(s))]


def after_fields(s: DonsolState) -> tuple[Any, ...]:
    """What the C form of a state keeps, read from an engine state (without the variant):
    compare with a state from :func:`moves`."""
    return encode(s)[1:]


def solve(s: DonsolState, budget_nodes: int | None) -> tuple[list[int], bool, int, list[str]]:
    """The native search from ``s``: ``(score, exact, nodes, actions)``."""
    assert _native is not None
    budget = -1 if budget_nodes is None else budget_nodes
    (xp, hp), exact, nodes, line = _native.solve(TABLES, encode(s), stream_words(s), budget)
    return [xp, hp], bool(exact), nodes, [action(m) for m in line]
