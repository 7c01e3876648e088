"""What Clear the Dungeon's hints know: the hidden cards, how a score weighs, and why.

Hidden from the player: the order of the power deck, and which face-down monster lies where
under each pile's top (each pile keeps its count).
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cards import display
from rules.clear.engine import ATTACK_CARDS, ClearState


class ClearHints:
    """Clear the Dungeon's part of :mod:`rules.hints`."""

    def sample_world(self, s: ClearState, rng: random.Random) -> ClearState:
        talon = sorted(s.talon)
        rng.shuffle(talon)
        hidden = sorted(c for pile in s.piles for c in pile[:-1])
        rng.shuffle(hidden)
        piles = []
        for pile in s.piles:
            under = len(pile) - 1 if pile else 0
            piles.append((*hidden[:under], *pile[-1:]))
            hidden = hidden[under:]
        return replace(s, talon=tuple(talon), piles=tuple(piles), seed=rng.getrandbits(64))

    def utility(self, score: list[int]) -> int:
        return score[0] * 100 + score[1]

    def reason(self, s: ClearState, action: str, world: ClearState) -> str:
        words = action.split(" ")
        card = words[1]
        if words[0] == "reserve":
            return f"reserve {display(card)}: it is worth more later than anywhere now"
        i = int(words[2]) - 1
        monster = s.piles[i][-1]
        played = len(s.attack[i])
        source = " from the reserve" if card not in s.hand else ""
        if played == ATTACK_CARDS - 1:
            return f"put {display(card)}{source} on pile {i + 1}: it finishes {display(monster)}"
        if played == 1:
            return (
                f"put {display(card)}{source} on pile {i + 1}: {display(monster)} then needs "
                "only a card of its suit"
            )
        return f"put {display(card)}{source} on pile {i + 1}: it starts on {display(monster)}"
