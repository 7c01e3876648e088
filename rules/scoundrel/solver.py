"""What the Scoundrel solver knows beyond the rules: the key, a bound and a move order.

- Key: the dungeon (in order), the room (in order only while it may be avoided: otherwise
  what is left of it is dealt on in a fixed way whatever its order) and whether the room may
  be avoided, each monster written by its value alone: the two monsters of a value differ
  in nothing the rules or the score read, so states that differ only by swapping them are
  the same game. HP, the weapon's value, its last slain monster (a fresh weapon counts as above
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

The same key, bound and order are compiled in ``rules/scoundrel/_native.c``
(:class:`ScoundrelNative` hands it a state; docs/solver.md): ``rules.solver`` uses it once
built, and this Python strategy stays the reference it is tested against.
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
from rules.scoundrel.native import ScoundrelNative
from rules.search import Score
from rules.words import N_, Phrase

_FRESH = 99  # a fresh weapon's "last slain": above every monster
_TOP = max(VALUE.values())  # the strongest monster
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


#: What the bound needs of a dungeon, computed once per dungeon (it changes only when a
#: room is dealt): see :func:`_facts`.
_FACTS: dict[tuple[str, ...], tuple[int, tuple[int, ...], int, int, int, dict, tuple]] = {}
#: Each card as the key writes it: the two monsters of a value are one (see ``key``).
_ALIKE = {c: (f"{c[:-1]}C" if ROLE[c] == MONSTER else c) for c in DECK}
_FACTS_LIMIT = 20_000  # dungeons; beyond it the memo starts over (memory only)


def _facts(
    dungeon: tuple[str, ...],
) -> tuple[int, tuple[int, ...], int, int, int, dict[tuple[int, int, int], int], tuple[str, ...]]:
    """A dungeon's strongest weapon, its monsters' values, its potions' sum and largest, its
    monsters' sum, an empty memo of the damage its monsters do for each
    ``(best weapon, last kill, best fresh weapon)``, and the dungeon as the key writes it;
    remembered in ``_FACTS``."""
    fresh = healing = top = left = 0
    monsters = []
    for c in dungeon:
        m = _MONSTER_VALUE[c]
        if m:
            monsters.append(m)
            left += m
            continue
        w = _WEAPON_VALUE[c]
        if w > fresh:
            fresh = w
        p = _POTION_VALUE[c]
        healing += p
        if p > top:
            top = p
    if len(_FACTS) >= _FACTS_LIMIT:
        _FACTS.clear()
    found = (fresh, tuple(monsters), healing, top, left, {}, tuple([_ALIKE[c] for c in dungeon]))
    _FACTS[dungeon] = found
    return found


class ScoundrelStrategy:
    """The solver's knowledge of Scoundrel, for :class:`rules.search.Search`."""

    game = SCOUNDREL
    native = ScoundrelNative()

    def key(self, s: ScoundrelState) -> Hashable:
        facts = _FACTS.get(s.dungeon)
        if facts is None:
            facts = _facts(s.dungeon)
        avoidable = can_avoid(s)
        room = [_ALIKE[c] for c in s.room]
        if not avoidable:
            room.sort()
        return (facts[6], tuple(room), avoidable)

    def strength(self, s: ScoundrelState) -> tuple[int, int, int, int]:
        if s.weapon is None:
            weapon = last = 0  # no weapon slays nothing: below every weapon
        else:
            weapon = VALUE[s.weapon]
            last = VALUE[s.slain[-1]] if s.slain else _FRESH
        return (s.hp, weapon, last, 0 if s.potions_taken else 1)

    def bound(self, s: ScoundrelState) -> Score:
        dungeon = s.dungeon
        facts = _FACTS.get(dungeon)
        if facts is None:
            facts = _facts(dungeon)
        fresh_later, monsters, healing, top_potion, left, damages, _ = facts
        if s.outcome is not None:
            if s.outcome == "won":
                return (s.hp + SCOUNDREL.bonus(s),)
            return (s.hp - left - sum([_MONSTER_VALUE[c] for c in s.room]),)
        hand = VALUE[s.weapon] if s.weapon is not None else 0
        last = VALUE[s.slain[-1]] if s.slain else _FRESH
        avoidable = can_avoid(s)
        here = 0  # the strongest weapon of the room
        for c in s.room:
            w = _WEAPON_VALUE[c]
            if w > here:
                here = w
        fresh = here if here > fresh_later else fresh_later  # fresh when taken
        # A monster above the last kill of the weapon in hand meets only a fresh weapon.
        high = hand if hand > fresh else fresh  # the best for a monster the hand may slay
        # A last kill above every monster is as good as fresh.
        memo = (high, last if last < _TOP else _TOP, fresh)
        damage = damages.get(memo)
        if damage is None:
            damage = 0
            for m in monsters:
                best = high if m <= last else fresh
                if m > best:
                    damage += m - best
            damages[memo] = damage
        room_potions = []
        # A room started (or that may not be avoided) is played here, but for the one card
        # carried into the next room: its monsters but one meet a weapon of this room or the
        # hand, never a weapon dealt later. The carried one is the one that gains the most.
        settled = not avoidable
        carried = 0  # what carrying one monster on saves at most
        for c in s.room:
            m = _MONSTER_VALUE[c]
            if m:
                best = high if m <= last else fresh
                cost = m - best if m > best else 0
                if settled:
                    now = here if here > hand or m > last else hand
                    if m - now > cost:
                        if dungeon and m - now - cost > carried:
                            carried = m - now - cost
                        cost = m - now
                damage += cost
            elif _POTION_VALUE[c]:
                room_potions.append(_POTION_VALUE[c])
        damage -= carried
        if room_potions:
            top = max(room_potions)
            if top > top_potion:
                top_potion = top
            if avoidable:
                healing += sum(room_potions)
            else:
                # Taken here, only the room's first potion heals; one more may be carried
                # into the next room, if there is one.
                allowed = (0 if s.potions_taken else 1) + (1 if dungeon else 0)
                healing += sum(sorted(room_potions, reverse=True)[:allowed])
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
            return Phrase(N_("at least a win with {points} points"), points=points)
        return Phrase(N_("at least {points}"), points=points)
