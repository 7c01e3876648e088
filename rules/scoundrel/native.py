"""How a Scoundrel state goes to its native search (``rules/scoundrel/_native.c``) and the C
line comes back (:class:`rules.native.Glue`; docs/solver.md).

A state goes to C as ``(dungeon, room, hp, weapon, last, taken, potions_taken,
avoided_last, last_card, outcome)``: cards as their places in ``rules.cards.CANONICAL`` (the
dungeon and room as bytes, in order), ``weapon`` and ``last_card`` −1 for none, ``last`` the
value of the weapon's last slain monster (99 when it has slain none), ``outcome`` 0 playing,
1 won, 2 dead. A C move is ``card * 4 + how`` (0 take, 1 fight, 2 fist), or −1 (avoid).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import CANONICAL
from rules.scoundrel.engine import AVOID, VALUE, ScoundrelState

_NUMBER = {c: n for n, c in enumerate(CANONICAL)}
_OUTCOME = {None: 0, "won": 1, "dead": 2}
_FRESH = 99
_VERBS = ("take", "fight", "fist")

Encoded = tuple[bytes, bytes, int, int, int, int, int, int, int, int]


class ScoundrelNative:
    """Scoundrel's glue for :mod:`rules.native`."""

    module = "rules.scoundrel._native"
    #: Native nodes per node of a caller's budget: the compiled search visits about this
    #: many nodes in the CPU time the Python one visits one (the same deals, five
    #: alternating rounds: 1.13-1.19 million a second against 18,700-23,600, 51-61x).
    scale = 50

    def encode(self, s: ScoundrelState) -> Encoded:
        n = _NUMBER
        return (
            bytes([n[c] for c in s.dungeon]), bytes([n[c] for c in s.room]), s.hp,
            -1 if s.weapon is None else n[s.weapon],
            VALUE[s.slain[-1]] if s.slain else _FRESH, s.taken, s.potions_taken,
            int(s.avoided_last), -1 if s.last_card is None else n[s.last_card],
            _OUTCOME[s.outcome],
        )

    def actions(self, state: ScoundrelState, line: Sequence[int]) -> list[str]:
        actions = []
        for move in line:
            card, how = divmod(move, 4)
            if move == -1:
                actions.append(AVOID)
            elif 0 <= card < len(CANONICAL) and how < len(_VERBS):
                actions.append(f"{_VERBS[how]} {CANONICAL[card]}")
            else:
                raise ValueError(f"scoundrel native search: {move} is no move")
        return actions
