"""What the Scoundrel solver knows beyond the rules: the key, a bound and a move order.

- Key: the dungeon (in order), the room (in order only while it may be avoided: otherwise
  what is left of it is dealt on in a fixed way whatever its order) and whether the room may
  be avoided. HP, the weapon's value, its last slain monster (a fresh weapon counts as above
  every monster, no weapon as a weapon of 0 that slays nothing) and whether this room's
  potion is still unused are the state's strength: a state at least as strong in all four,
  the rest equal, does at least as well (every move stays legal and no card does more
  harm), so a bound proven for it holds for the weaker one.
- Bound: an order-free relaxation. Every monster left meets the strongest weapon still to
  come, fresh, or the one in hand if it may still slay it (the weapon rule: no higher than
  its last kill); in a room that will not be avoided, every monster but the one carried on
  meets only the hand or a weapon of the room; every potion left in the dungeon
  heals in full, and of the room's, the one it may still heal and the one it may carry on.
  The score only rises by what a weapon blocks and what a potion heals, so the final score is
  at most the score now plus all of that. A win ends at most at
  ``min(20, hp + healing − damage)`` HP, plus the largest potion left as the bonus when that
  reaches 20; a death scores at most 0.
- Order: the child with the highest bound first; among equals, the move that leaves the
  most HP and the most weapon for later, an avoid after the cards of the room.
"""

from __future__ import annotations

from collections.abc import Hashable

from rules.scoundrel.engine import (
    DECK,
    MAX_HP,
    MONSTER,
    POTION,
    ROLE,
    ROOM_SIZE,
    SCOUNDREL,
    VALUE,
    WEAPON,
    ScoundrelState,
)
from rules.search import Score

_FRESH = 99  # a fresh weapon's "last slain": above every monster
_MONSTER_VALUE = {c: (VALUE[c] if ROLE[c] == MONSTER else 0) for c in DECK}
_POTION_VALUE = {c: (VALUE[c] if ROLE[c] == POTION else 0) for c in DECK}
_WEAPON_VALUE = {c: (VALUE[c] if ROLE[c] == WEAPON else 0) for c in DECK}
_AVOID_PENALTY = 6.0  # an avoid gives the room's good cards up for now: try it after the takes


def _capacity(s: ScoundrelState) -> float:
    """Roughly how much the weapon can still block: its value, less once it has slain a
    small monster (it then only meets monsters that small)."""
    if s.weapon is None:
        return 0.0
    worth = VALUE[s.weapon]
    if s.slain:
        worth = min(worth, VALUE[s.slain[-1]])
    return worth / 2


def can_avoid(s: ScoundrelState) -> bool:
    """Whether ``avoid`` is legal (the engine's rule 6, read from the state)."""
    return s.outcome is None and len(s.room) == ROOM_SIZE and not s.taken and not s.avoided_last


class ScoundrelStrategy:
    """The solver's knowledge of Scoundrel, for :class:`rules.search.Search`."""

    game = SCOUNDREL

    def key(self, s: ScoundrelState) -> Hashable:
        avoidable = can_avoid(s)
        room = s.room if avoidable else frozenset(s.room)
        return (s.dungeon, room, avoidable)

    def strength(self, s: ScoundrelState) -> tuple[int, int, int, int]:
        if s.weapon is None:
            weapon = last = 0  # no weapon slays nothing: below every weapon
        else:
            weapon = VALUE[s.weapon]
            last = VALUE[s.slain[-1]] if s.slain else _FRESH
        return (s.hp, weapon, last, 0 if s.potions_taken else 1)

    def bound(self, s: ScoundrelState) -> Score:
        if s.outcome is not None:
            return tuple(SCOUNDREL.score(s))
        hand = VALUE[s.weapon] if s.weapon is not None else 0
        last = VALUE[s.slain[-1]] if s.slain else _FRESH
        avoidable = can_avoid(s)
        here = 0  # the strongest weapon of the room
        for c in s.room:
            w = _WEAPON_VALUE[c]
            if w > here:
                here = w
        fresh = here  # the strongest weapon still to take: fresh when taken
        for c in s.dungeon:
            w = _WEAPON_VALUE[c]
            if w > fresh:
                fresh = w
        # A monster above the last kill of the weapon in hand meets only a fresh weapon.
        high = hand if hand > fresh else fresh  # the best for a monster the hand may slay
        healing = top_potion = left = damage = 0
        room_potions = []
        # A room started (or that may not be avoided) is played here, but for the one card
        # carried into the next room: its monsters but one meet a weapon of this room or the
        # hand, never a weapon dealt later. The carried one is the one that gains the most.
        settled = not avoidable
        carried = 0  # what carrying one monster on saves at most
        for c in s.room:
            m = _MONSTER_VALUE[c]
            if m:
                left += m
                best = high if m <= last else fresh
                cost = m - best if m > best else 0
                if settled:
                    now = here if here > hand or m > last else hand
                    if m - now > cost:
                        if s.dungeon and m - now - cost > carried:
                            carried = m - now - cost
                        cost = m - now
                damage += cost
            elif _POTION_VALUE[c]:
                room_potions.append(_POTION_VALUE[c])
        damage -= carried
        if room_potions:
            top_potion = max(room_potions)
            if avoidable:
                healing = sum(room_potions)
            else:
                # Taken here, only the room's first potion heals; one more may be carried
                # into the next room, if there is one.
                allowed = (0 if s.potions_taken else 1) + (1 if s.dungeon else 0)
                healing = sum(sorted(room_potions, reverse=True)[:allowed])
        for c in s.dungeon:
            m = _MONSTER_VALUE[c]
            if m:
                left += m
                best = high if m <= last else fresh
                if m > best:
                    damage += m - best
            else:
                p = _POTION_VALUE[c]
                healing += p
                if p > top_potion:
                    top_potion = p
        end_hp = s.hp + healing - damage
        if end_hp >= MAX_HP:
            return (MAX_HP + top_potion,)
        if end_hp >= 1:
            return (end_hp,)
        # No win: a death, at best with everything blocked and healed before it.
        return (min(0, end_hp),)

    def children(self, s: ScoundrelState) -> list[tuple[str, ScoundrelState]]:
        ranked: list[tuple[int, float, int, str, ScoundrelState]] = []
        for i, action in enumerate(SCOUNDREL.actions(s)):
            child = SCOUNDREL._apply(s, action)
            if action == "avoid":
                rank = s.hp + _capacity(s) - _AVOID_PENALTY
            else:
                rank = child.hp + _capacity(child)
            ranked.append((-self.bound(child)[0], -rank, i, action, child))
        ranked.sort(key=lambda r: (r[0], r[1], r[2]))
        return [(action, child) for *_, action, child in ranked]

    def bound_text(self, score: Score) -> str:
        """The found score as a lower bound, in words."""
        (points,) = score
        if points >= 1:
            return f"at least a win with {points} points"
        return f"at least {points}"
