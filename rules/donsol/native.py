"""How a Donsol state goes to its native search (``rules/donsol/_native.c``) and the C line
comes back (:class:`rules.native.Glue`; docs/solver.md).

A state goes to C as ``(variant, seed, dungeon, room, hp, shield, last, sick, escaped_last,
first_room, xp, outcome, stream)``: cards as their places in ``rules.cards.CANONICAL`` (the
dungeon and room as bytes, in order), ``shield`` −1 for none, ``last`` 99 for a fresh shield,
``outcome`` 0 playing, 1 won, 2 dead. The seed and the stream position let the C side draw an
escape's reshuffle from the stream itself. A C move is a card's place (take it) or −1
(escape).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import CANONICAL
from rules.donsol.engine import DonsolState

VARIANTS = {"normal": 0, "easy": 1, "hard": 2}
_NUMBER = {c: n for n, c in enumerate(CANONICAL)}
_OUTCOME = {None: 0, "won": 1, "dead": 2}
_FRESH = 99

Encoded = tuple[int, int, bytes, bytes, int, int, int, int, int, int, int, int, int]


class DonsolNative:
    """Donsol's glue for :mod:`rules.native`."""

    module = "rules.donsol._native"
    #: Native nodes per node of a caller's budget: the compiled search visits about this
    #: many nodes in the CPU time the Python one visits one (the same deals, five
    #: alternating rounds: 1.85-2.16 million a second against 28,600-39,800, 54-71x).
    scale = 50

    def encode(self, s: DonsolState) -> Encoded:
        n = _NUMBER
        return (
            VARIANTS[s.variant], s.seed, bytes([n[c] for c in s.dungeon]),
            bytes([n[c] for c in s.room]), s.hp, -1 if s.shield is None else n[s.shield],
            _FRESH if s.shield_last is None else s.shield_last, int(s.sick),
            int(s.escaped_last), int(s.first_room), s.xp, _OUTCOME[s.outcome], s.stream,
        )

    def actions(self, state: DonsolState, line: Sequence[int]) -> list[str]:
        actions = []
        for move in line:
            if move == -1:
                actions.append("escape")
            elif 0 <= move < len(CANONICAL):
                actions.append(f"take {CANONICAL[move]}")
            else:
                raise ValueError(f"donsol native search: {move} is no move")
        return actions
