"""What the Donsol solver knows beyond the rules: the key, a bound and a move order.

- Key: the dungeon and room (in order: an escape reshuffles them in that order), the shield's
  value, the escape flags and the stream position. XP is ``54 −`` the cards left, so it needs
  no place of its own. HP, sickness and the last monster on the shield are the state's
  strength instead: a state that beats another on all three (same key) does at least as
  well, so a bound proven for it holds for the weaker one (dominance).
- Bound: an order-free relaxation. Every remaining potion heals in full (but at most one
  more of them than the other cards left: sickness), every remaining
  monster meets the strongest shield still to come, or the shield in hand if it is below
  that shield's last monster. If even then the damage exceeds the HP
  and the healing, the run dies, and at best after every other card and the mildest monsters;
  otherwise it may win, with at most ``min(21, hp + healing − damage)`` HP.
- Order: the move that leaves the most HP and the best shield first (a potion that would
  heal less than its worth later), escapes last.

The same key, bound and order are compiled in ``rules/donsol/_native.c`` (:class:`DonsolNative`
hands it a state; docs/solver.md): ``rules.solver`` uses it once built, and this Python
strategy stays the reference it is tested against.

Beyond the spec (a choice): on ``easy`` and ``hard`` an empty-of-monsters room may be escaped
again and again, each time into a new reshuffle, which makes the tree infinite. The solver
takes at least one card between two escapes; its answers are exact among such lines.
"""

from __future__ import annotations

from collections.abc import Hashable

from rules.donsol.engine import (
    DECK,
    DECK_SIZE,
    DONSOL,
    MAX_HP,
    ROOM_SIZE,
    DonsolState,
    role,
    value,
)
from rules.donsol.native import DonsolNative
from rules.search import Score
from rules.words import N_, Phrase

_WORTH = {c: value(c) for c in DECK}
_POTIONS = frozenset(c for c in DECK if role(c) == "potion")
_SHIELDS = frozenset(c for c in DECK if role(c) == "shield")
_MONSTERS = frozenset(c for c in DECK if role(c) == "monster")
_FRESH = 99  # a fresh shield's "last monster": above every monster
_ESCAPE_PENALTY = 8.0  # an escape gives up the room's cards for now: try it after the takes
_WASTE = 0.5  # per point of a potion's healing wasted


def _shield_left(s: DonsolState) -> float:
    """Roughly how much the shield can still block."""
    if s.shield is None:
        return 0.0
    worth = value(s.shield)
    if s.shield_last is not None:
        worth = min(worth, s.shield_last - 1)
    return worth / 2


class DonsolStrategy:
    """The solver's knowledge of Donsol."""

    game = DONSOL
    native = DonsolNative()

    def key(self, s: DonsolState) -> Hashable:
        shield = _WORTH[s.shield] if s.shield is not None else 0
        return (s.dungeon, s.room, shield, s.escaped_last, s.first_room, s.stream)

    def strength(self, s: DonsolState) -> tuple[int, int, int]:
        """More HP, not sick, a shield that has stopped only stronger monsters (or none
        yet): each is at least as good, the rest being equal (every move stays legal and
        no card does more harm)."""
        last = _FRESH if s.shield_last is None else s.shield_last
        return (s.hp, 0 if s.sick else 1, last)

    def bound(self, s: DonsolState) -> Score:
        if s.outcome is not None:
            return tuple(DONSOL.score(s))
        cards = (*s.room, *s.dungeon)
        monsters = [_WORTH[c] for c in cards if c in _MONSTERS]
        potions = [_WORTH[c] for c in cards if c in _POTIONS]
        # Sickness: a potion heals only after another card (or first, when not sick), so
        # at most one more potion heals than there are other cards left.
        heals = len(cards) - len(potions) + (0 if s.sick else 1)
        if heals < len(potions):
            potions.sort(reverse=True)
            del potions[heals:]
        healing = sum(potions)
        strongest = max(
            [_WORTH[c] for c in cards if c in _SHIELDS],
            default=0,
        )
        # The shield in hand holds only below its last monster: one at least as strong
        # meets a shield still to come, or none.
        held = _WORTH[s.shield] if s.shield is not None else 0
        below = _FRESH if s.shield_last is None else s.shield_last
        damage = sorted(
            [
                hit
                for m in monsters
                if (hit := m - max(strongest, held if m < below else 0)) > 0
            ]
        )
        reserve = s.hp + healing
        total = sum(damage)
        if total < reserve:
            return (DECK_SIZE, min(MAX_HP, reserve - total))
        others = len(cards) - len(monsters)
        survived = len(monsters) - len(damage)  # blocked in full: they never hurt
        taken = 0
        for d in damage:
            if taken + d >= reserve:
                break
            taken += d
            survived += 1
        return (s.xp + others + survived + 1, 0)

    def children(self, s: DonsolState) -> list[tuple[str, DonsolState]]:
        ranked: list[tuple[float, int, str, DonsolState]] = []
        # Right after an escape the room is full and escaped_last is set (on normal a second
        # escape is illegal anyway; see the module's note for easy and hard).
        just_escaped = s.escaped_last and len(s.room) == ROOM_SIZE
        for i, action in enumerate(DONSOL.actions(s)):
            if just_escaped and action == "escape":
                continue
            child = DONSOL._apply(s, action)
            if action == "escape":
                rank = s.hp + _shield_left(s) - _ESCAPE_PENALTY
            elif child.outcome == "dead":
                rank = -100.0
            else:
                rank = child.hp + _shield_left(child)
                card = action[5:]
                if card in _POTIONS:
                    # healing wasted (at full health, or sick) is a potion lost for later
                    rank -= _WASTE * (_WORTH[card] - (child.hp - s.hp))
            ranked.append((-rank, i, action, child))
        ranked.sort(key=lambda r: (r[0], r[1]))
        return [(action, child) for _, _, action, child in ranked]

    def bound_text(self, score: Score) -> str:
        """The found score as a lower bound, in words."""
        xp, hp = score
        if xp == DECK_SIZE and hp > 0:
            return Phrase(N_("at least a win with {hp} HP"), hp=hp)
        return Phrase(N_("at least {xp}/{total} cards"), xp=xp, total=DECK_SIZE)
