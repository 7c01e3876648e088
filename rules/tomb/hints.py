"""What Tomb of Four Kings' hints know: the hidden deck, how a score weighs, and why.

Hidden from the player: the order of the deck, except the one card whose place the player
knows: once the Scroll of Light burnt for the 4th Ace, that Ace lies at the bottom.

Dominated moves (never suggested):

- dropping a treasure to buy off a monster, or leaving one behind to mark a turn, when
  another that would do costs no more in Kings, points and the Scroll of Light (and less in
  one of them, or the same and listed first).
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cards import display
from rules.tomb.engine import DEADLY_DAMAGE, KIND_NAMES, NUMBER, TREASURE_VALUE, TombState
from rules.words import N_, Nn_, Phrase, counted, plural


class TombHints:
    """Tomb's part of :mod:`rules.hints`."""

    def sample_world(self, s: TombState, rng: random.Random) -> TombState:
        deck = sorted(s.deck)
        bottom: list[str] = []
        if "RJ" in s.torches and s.outcome is None:
            # The Scroll burnt for the 4th Ace, which went under the deck: the one Ace not burnt.
            under = [a for a in ("AS", "AH", "AD", "AC") if a not in s.torches and a in deck]
            if len(under) == 1:
                deck.remove(under[0])
                bottom = under
        rng.shuffle(deck)
        return replace(s, deck=(*deck, *bottom), seed=rng.getrandbits(64))

    def utility(self, score: list[int]) -> int:
        return score[0] * 10_000 + score[1] * 10 + score[2]

    def dominated(self, s: TombState, legal: list[str]) -> list[str]:
        """The moves an obviously better move dominates (see the module docstring)."""
        worse: list[str] = []
        for verb in ("drop", "leave"):
            given = [a.partition(" ")[2] for a in legal if a.startswith(verb + " ")]
            for i, card in enumerate(given):
                if any(_cheaper(other, card, j < i) for j, other in enumerate(given) if j != i):
                    worse.append(f"{verb} {card}")
        return worse

    def reason(self, s: TombState, action: str, world: TombState) -> str:
        hp = DEADLY_DAMAGE - s.damage
        verb, _, arg = action.partition(" ")
        kings_in_hand = sum(1 for c in s.hand if c[0] == "K")
        if verb == "retreat":
            out = s.delve_turns - 1
            if out == 0:
                return Phrase(N_("turn back: the way out is right there, with {hp} HP left"),
                              hp=hp)
            return counted(Nn_("turn back: {count} turn to the way out with {hp} HP left and "
                               "{kings} in hand",
                               "turn back: {count} turns to the way out with {hp} HP left and "
                               "{kings} in hand"),
                           out, hp=hp, kings=plural(kings_in_hand, "King"))
        if verb == "flip" and s.encounter is None:
            if s.phase == "retreat" or s.delve_turns == 0:
                return Phrase(N_("turn the next card: the only way on"))
            seen = (*s.hand, *s.turn, *s.stacks, *s.discards)
            left = 4 - sum(1 for c in seen if c[0] == "K")  # the Kings not seen yet
            if not left:
                return Phrase(N_("delve deeper: {hp} HP left and treasure still below"), hp=hp)
            return Phrase(N_("delve deeper: {hp} HP left and {kings} still below"), hp=hp,
                          kings=plural(left, "King"))
        if verb == "flip":
            strength = NUMBER[s.encounter] if s.encounter else 0
            kind = KIND_NAMES[s.encounter[-1]] if s.encounter else Phrase(N_("encounter"))
            return Phrase(N_("turn a card against the {kind} ({strength}): keep your skills for "
                             "worse"), kind=kind, strength=strength)
        if verb == "skill":
            kind = KIND_NAMES[s.encounter[-1] if s.encounter else "C"]
            return Phrase(N_("play {card}: the {kind} is overcome with no risk"),
                          card=display(arg), kind=kind)
        if verb == "drop":
            return Phrase(N_("drop {card} (worth {value}): buys off the monster before it can "
                             "hurt you"), card=display(arg), value=TREASURE_VALUE[arg])
        if verb == "dodge":
            return Phrase(N_("dodge: a blow of {damage} would leave {hp} HP"), damage=s.owed,
                          hp=max(0, hp - s.owed))
        if verb == "endure":
            return Phrase(N_("endure the blow of {damage}: keep {card} for a worse one"),
                          damage=s.owed, card="J♥")
        if verb == "discard":
            return Phrase(N_("discard {count}: keep {card} for a worse door"), count=s.owed,
                          card="J♣")
        cheapest = TREASURE_VALUE.get(arg, 0)
        return Phrase(N_("leave {card}: the least you can give up (worth {value})"),
                      card=display(arg), value=cheapest)


def _cost(card: str) -> tuple[int, int, int]:
    """What giving up a treasure costs: a King, its points, the Scroll of Light."""
    return (int(card[0] == "K"), TREASURE_VALUE[card], int(card == "RJ"))


def _cheaper(other: str, card: str, earlier: bool) -> bool:
    """Whether giving up ``other`` instead of ``card`` costs no more in any respect, and less
    in one (or the same, ``other`` listed first)."""
    a, b = _cost(other), _cost(card)
    if any(x > y for x, y in zip(a, b, strict=True)):
        return False
    return a != b or earlier
