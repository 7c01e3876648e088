"""What Clear the Dungeon's hints know: the hidden cards, how a score weighs, and why.

Hidden from the player: the order of the power deck, and which face-down monster lies where
under each pile's top (each pile keeps its count).

Dominated moves (never suggested): finishing a monster from the hand with a card that can do
everything another finishing card of the hand can: a joker while a card of the monster's
suit would do, or a suited card while a lower one of the suit would (the stronger card is
kept for later; the monster falls all the same).
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cards import JOKERS, display
from rules.clear.engine import ATTACK_CARDS, VALUE, ClearState, fits
from rules.words import N_, Phrase


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

    def dominated(self, s: ClearState, legal: list[str]) -> list[str]:
        """The moves an obviously better move dominates (see the module docstring)."""
        held = [c for c in s.hand if c is not None]
        worse: list[str] = []
        for i, (pile, on) in enumerate(zip(s.piles, s.attack, strict=True)):
            if not pile or len(on) != ATTACK_CARDS - 1:
                continue
            finishers = [c for c in held if fits(c, pile[-1], on)]
            for n, card in enumerate(finishers):
                if any(_spares(card, other, m < n) for m, other in enumerate(finishers)
                       if m != n):
                    worse.append(f"put {card} {i + 1}")
        return [a for a in worse if a in legal]

    def reason(self, s: ClearState, action: str, world: ClearState) -> str:
        words = action.split(" ")
        card = words[1]
        if words[0] == "reserve":
            return Phrase(N_("reserve {card}: it is worth more later than anywhere now"),
                          card=display(card))
        i = int(words[2]) - 1
        monster = s.piles[i][-1]
        played = len(s.attack[i])
        hand = card in s.hand
        if played == ATTACK_CARDS - 1:
            template = (N_("put {card} on pile {pile}: it finishes {monster}") if hand else
                        N_("put {card} from the reserve on pile {pile}: it finishes {monster}"))
        elif played == 1:
            template = (N_("put {card} on pile {pile}: {monster} then needs only a card of its "
                           "suit") if hand else
                        N_("put {card} from the reserve on pile {pile}: {monster} then needs "
                           "only a card of its suit"))
        else:
            template = (N_("put {card} on pile {pile}: it starts on {monster}") if hand else
                        N_("put {card} from the reserve on pile {pile}: it starts on {monster}"))
        return Phrase(template, card=display(card), pile=i + 1, monster=display(monster))


def _spares(card: str, other: str, earlier: bool) -> bool:
    """Whether playing ``other`` instead of ``card`` keeps a card at least as useful: ``card``
    fits wherever ``other`` does (a joker; or the same suit and at least its value), and is
    stronger, or the same and ``other`` is listed first."""
    if card in JOKERS:
        return other not in JOKERS or earlier
    if other in JOKERS or other[-1] != card[-1]:
        return False
    return VALUE[card] > VALUE[other] or (VALUE[card] == VALUE[other] and earlier)
