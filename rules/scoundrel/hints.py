"""Scoundrel's part of the hints: the worlds a hint samples, its utility and its reasons.

What is hidden is the order of the dungeon, except its bottom: the cards of an avoided room
go under the dungeon in room order, in front of the player, so the last ``known_under``
cards of the dungeon stay where they are. A world shuffles the rest (sorted first, so the
hidden order is never read) and draws a fresh seed, although Scoundrel never draws from its
stream after the deal.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cards import display
from rules.scoundrel.engine import MAX_HP, ROLE, ROOM_DONE, SCOUNDREL, VALUE, ScoundrelState


def _room_cost(s: ScoundrelState) -> int:
    """The least HP that taking three of the room's cards costs from here (every order and
    every legal choice tried; potions count as negative cost)."""
    best: int | None = None
    frontier = [(s, 0)]
    while frontier:
        state, depth = frontier.pop()
        for action in SCOUNDREL.actions(state):
            if action == "avoid":
                continue
            child = SCOUNDREL._apply(state, action)
            if child.outcome is not None or depth + 1 == ROOM_DONE or not child.room:
                cost = s.hp - child.hp
                best = cost if best is None or cost < best else best
            else:
                frontier.append((child, depth + 1))
    return 0 if best is None else best


class ScoundrelHints:
    """Sampled worlds, the utility of a score and a reason for a move."""

    def sample_world(self, state: ScoundrelState, rng: random.Random) -> ScoundrelState:
        """``state`` with the unseen part of the dungeon in a random order from ``rng``."""
        seen = state.known_under
        split = len(state.dungeon) - seen
        unseen = sorted(state.dungeon[:split])
        rng.shuffle(unseen)
        return replace(
            state, dungeon=(*unseen, *state.dungeon[split:]), seed=rng.getrandbits(64)
        )

    def utility(self, score: list[int]) -> int:
        """One number that sorts like the score: the score's one item, negative or not."""
        return score[0]

    def reason(self, state: ScoundrelState, action: str, world: ScoundrelState) -> str:
        """A few words on why ``action`` is played, true of the move in ``state``."""
        if action == "avoid":
            cost = _room_cost(state)
            if cost >= state.hp:
                return f"avoid: facing this room would kill you ({state.hp} HP left)"
            if cost > 0:
                return f"avoid: facing this room costs at least {cost} HP"
            return "avoid: its cards wait under the dungeon for a better moment"
        verb, _, card = action.partition(" ")
        after = SCOUNDREL.apply(world, action)
        shown = display(card)
        if verb == "take" and ROLE[card] == "weapon":
            why = self._weapon_reason(state, card)
        elif verb == "take":
            healed = after.hp - state.hp
            if state.potions_taken:
                why = f"drink {shown}: it heals nothing (this room's potion is used), but clears it"
            elif healed:
                why = f"drink {shown}: heals {healed} HP"
            else:
                why = f"drink {shown}: nothing to heal at {MAX_HP} HP, but it clears it"
        else:
            why = self._monster_reason(state, verb, card, after)
        if after.outcome == "won":
            bonus = SCOUNDREL.bonus(after)
            why += f"; the last card: a win{f' with a bonus of {bonus}' if bonus else ''}"
        return why

    @staticmethod
    def _weapon_reason(s: ScoundrelState, card: str) -> str:
        shown = display(card)
        if s.weapon is None:
            return f"equip {shown}: a weapon for the monsters ahead"
        old = display(s.weapon)
        if VALUE[card] > VALUE[s.weapon]:
            return f"equip {shown}: it strikes harder than your {old}"
        if s.slain:
            last = VALUE[s.slain[-1]]
            return f"equip {shown}: fresh, while your {old} only slays monsters of {last} or less"
        return f"equip {shown}: a fresh weapon in place of your {old}"

    @staticmethod
    def _monster_reason(s: ScoundrelState, verb: str, card: str, after: ScoundrelState) -> str:
        shown, worth = display(card), VALUE[card]
        lost = s.hp - after.hp
        falls = ", and you fall" if after.outcome == "dead" else ""
        if verb == "fight":
            weapon = display(s.weapon or "")
            if not lost:
                return f"fight {shown} with {weapon}: no damage{falls}"
            return f"fight {shown} with {weapon}: {lost} damage instead of {worth}{falls}"
        if s.weapon is None:
            return f"fist {shown}: {worth} damage, with no weapon to take it on{falls}"
        weapon = display(s.weapon)
        last = VALUE[s.slain[-1]] if s.slain else None
        if last is not None and worth > last:
            return f"fist {shown}: your {weapon} cannot slay it ({worth} > {last}){falls}"
        keeps = "any monster" if last is None else f"monsters of {last} or less"
        return f"fist {shown}: {worth} damage, and your {weapon} still slays {keeps}{falls}"

