"""What the Tomb solver knows beyond the rules: the key, a bound and a move order.

- Key: the deck (in order), the hand and the turn as sets (their order changes only the order
  actions are listed in), damage, the encounter and what is pending, the phase and the turns
  still to walk out, and how many torches have burnt. Stacks, discards and the counter never
  come back into play.
- Bound: every King and treasure still in the hand, the turn or the deck ends in the hand,
  out alive.
- Order: skills and dodges before flips, delving deeper before turning back, treasure drops
  last (they give up a turn's loot).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from rules.search import Score
from rules.tomb.engine import KINGS, TOMB, TREASURE_VALUE, TombState, score_of
from rules.words import N_, Phrase

_ORDER = {
    "skill": 0, "dodge": 0, "leave": 0, "flip": 1, "endure": 1, "discard": 1,
    "retreat": -1, "drop": 3,
}


class TombStrategy:
    """The solver's knowledge of Tomb of Four Kings."""

    game = TOMB

    def key(self, s: TombState) -> Hashable:
        if s.phase == "retreat":
            assert s.retreat_needed is not None
            way: tuple[str, int] = ("retreat", s.retreat_needed - s.retreat_turns)
        else:
            way = ("delve", s.delve_turns)
        burnt = sum(1 for c in s.torches if c != "RJ")
        return (
            s.deck, tuple(sorted(s.hand)), tuple(sorted(s.turn)), s.damage, s.encounter,
            s.pending, s.owed, way, burnt,
        )

    def bound(self, s: TombState) -> Score:
        if s.outcome is not None:
            return tuple(TOMB.score(s))
        kings, points = score_of(s.hand)
        for card in (*s.turn, *s.deck):
            worth = TREASURE_VALUE.get(card)
            if worth is not None:
                points += worth
                kings += card[0] == "K"
        return (min(kings, KINGS), points, 1)

    def children(self, s: TombState) -> Iterator[tuple[str, TombState]]:
        moves = TOMB.actions(s)
        moves.sort(key=lambda a: _ORDER[a.partition(" ")[0]])
        return ((a, TOMB._apply(s, a)) for a in moves)

    def bound_text(self, score: Score) -> str:
        kings, points, alive = score
        if not alive:
            return Phrase(N_("at least 0 (no line found that gets out alive)"))
        return Phrase(N_("at least {kings}/{points}"), kings=kings, points=points)
