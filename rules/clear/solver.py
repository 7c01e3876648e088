"""What the Clear the Dungeon solver knows beyond the rules: the key, a bound and a move order.

- Key: the piles and the cards on them, how much of the power deck is left (it is always a
  suffix of the same order), the hand as a set (a new hand comes only once all three slots
  are empty) and the reserve in order.
- Bound: each monster still standing needs its missing attack cards; at best they all come
  from the reserve first, and every other card used is one less to spare. When the cards
  left cannot finish them all, at best the cheapest monsters fall, with every card spared.
- Order: a finishing card first, then the reserve's top card, then second and first attack
  cards (the weakest card that fits first), a move to the reserve last.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from rules.clear.engine import (
    ATTACK_CARDS,
    CLEAR,
    MONSTERS,
    VALUE,
    ClearState,
    slain_count,
    spare_cards,
)
from rules.search import Score


class ClearStrategy:
    """The solver's knowledge of Clear the Dungeon."""

    game = CLEAR
    #: Randomised dives before the search (see ``Search._probe``): the order is often right,
    #: and a depth-first search alone stays stuck below an early wrong card.
    probe = (2000, 0.2, 0.8)

    def key(self, s: ClearState) -> Hashable:
        hand = tuple(sorted(c for c in s.hand if c is not None))
        return (s.piles, s.attack, len(s.talon), hand, s.reserve)

    def bound(self, s: ClearState) -> Score:
        if s.outcome is not None:
            return tuple(CLEAR.score(s))
        costs: list[int] = []
        for pile, on in zip(s.piles, s.attack, strict=True):
            if pile:
                costs.append(ATTACK_CARDS - len(on))
                costs.extend([ATTACK_CARDS] * (len(pile) - 1))
        spare = spare_cards(s)
        needed = sum(costs)
        if spare + len(s.reserve) >= needed:
            return (MONSTERS, spare - max(0, needed - len(s.reserve)))
        cards = spare + len(s.reserve)
        falls = 0
        for cost in sorted(costs):
            if cost > cards:
                break
            cards -= cost
            falls += 1
        return (slain_count(s) + falls, spare)

    def children(self, s: ClearState) -> Iterator[tuple[str, ClearState]]:
        ranked: list[tuple[int, int, int, str]] = []
        top = s.reserve[-1] if s.reserve else None
        for i, action in enumerate(CLEAR.actions(s)):
            words = action.split(" ")
            card = words[1]
            if words[0] == "reserve":
                rank = 4
            else:
                played = len(s.attack[int(words[2]) - 1])
                if played == ATTACK_CARDS - 1:
                    rank = 0
                elif card == top and card not in s.hand:
                    rank = 1
                else:
                    rank = 3 - played  # a second card (2) before a first one (3)
            ranked.append((rank, VALUE[card], i, action))
        ranked.sort()
        return ((action, CLEAR._apply(s, action)) for *_, action in ranked)

    def bound_text(self, score: Score) -> str:
        slain, spare = score
        if slain == MONSTERS:
            return f"at least a clear with {spare} card{'s' if spare != 1 else ''} to spare"
        return f"at least {slain} of {MONSTERS} monsters"
