"""Scoundrel's side of the native search (``rules/scoundrel/_native.c``): a state in the C
form and back, and the C line as engine actions.

The C module is built by the install (``setup.py``); without it :data:`AVAILABLE` is False
and the pure Python solver (``rules.scoundrel.solver``) is used. A state goes to C as
``(dungeon, room, hp, weapon, last, taken, potions_taken, avoided_last, last_card,
outcome)``: cards as indices into :data:`~rules.scoundrel.engine.DECK`, ``weapon`` and
``last_card`` −1 for none, ``last`` the value of the weapon's last slain monster (99 when
there is none), ``outcome`` 0 playing, 1 won, 2 dead.
"""

from __future__ import annotations

from typing import Any

from rules.scoundrel.engine import AVOID, DECK, MONSTER, POTION, ROLE, VALUE, ScoundrelState

try:
    from rules.scoundrel import _native
except ImportError:  # not built: the pure Python solver stands in
    _native = None

AVAILABLE = _native is not None
_INDEX = {c: i for i, c in enumerate(DECK)}
_KIND = {POTION: 0, "weapon": 1, MONSTER: 2}
#: Each card's value and role, in DECK order: the C side reads the card facts from here.
TABLES = (bytes(VALUE[c] for c in DECK), bytes(_KIND[ROLE[c]] for c in DECK))
_OUTCOME = {None: 0, "won": 1, "dead": 2}
_FRESH = 99
_VERBS = ("take", "fight", "fist")


def encode(s: ScoundrelState) -> tuple[Any, ...]:
    """The state as ``_native`` reads it."""
    return (
        bytes(_INDEX[c] for c in s.dungeon), bytes(_INDEX[c] for c in s.room), s.hp,
        -1 if s.weapon is None else _INDEX[s.weapon],
        VALUE[s.slain[-1]] if s.slain else _FRESH, s.taken, s.potions_taken,
        int(s.avoided_last), -1 if s.last_card is None else _INDEX[s.last_card],
        _OUTCOME[s.outcome],
    )


def action(move: tuple[int, int]) -> str:
    """A C move ``(card, how)`` as the engine's action."""
    card, how = move
    return AVOID if card < 0 else f"{_VERBS[how]} {DECK[card]}"


def moves(s: ScoundrelState) -> list[tuple[str, tuple[Any, ...]]]:
    """The C side's legal moves from ``s`` and the C state after each (the debug entry point
    tests compare with the engine)."""
    assert _native is not None
    return [(action(m), after) for m, after in _native.moves(TABLES, encode(s))]


def solve(s: ScoundrelState, budget_nodes: int | None) -> tuple[list[int], bool, int, list[str]]:
    """The native search from ``s``: ``(score, exact, nodes, actions)``."""
    assert _native is not None
    budget = -1 if budget_nodes is None else budget_nodes
    score, exact, nodes, line = _native.solve(TABLES, encode(s), budget)
    return [score], bool(exact), nodes, [action(m) for m in line]
