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
from rules.words import N_, Phrase


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
                return Phrase(N_("avoid: facing this room would kill you ({hp} HP left)"),
                              hp=state.hp)
            if cost > 0:
                return Phrase(N_("avoid: facing this room costs at least {cost} HP"), cost=cost)
            return Phrase(N_("avoid: its cards wait under the dungeon for a better moment"))
        verb, _, card = action.partition(" ")
        after = SCOUNDREL.apply(world, action)
        shown = display(card)
        why: str
        if verb == "take" and ROLE[card] == "weapon":
            why = self._weapon_reason(state, card)
        elif verb == "take":
            healed = after.hp - state.hp
            if state.potions_taken:
                why = Phrase(N_("drink {card}: it heals nothing (this room's potion is used), "
                                "but clears it"), card=shown)
            elif healed:
                why = Phrase(N_("drink {card}: heals {hp} HP"), card=shown, hp=healed)
            else:
                why = Phrase(N_("drink {card}: nothing to heal at {hp} HP, but it clears it"),
                             card=shown, hp=MAX_HP)
        else:
            why = self._monster_reason(state, verb, card, after)
        if after.outcome == "won":
            bonus = SCOUNDREL.bonus(after)
            if bonus:
                return Phrase(N_("{reason}; the last card: a win with a bonus of {bonus}"),
                              reason=why, bonus=bonus)
            return Phrase(N_("{reason}; the last card: a win"), reason=why)
        return why

    @staticmethod
    def _weapon_reason(s: ScoundrelState, card: str) -> str:
        shown = display(card)
        if s.weapon is None:
            return Phrase(N_("equip {card}: a weapon for the monsters ahead"), card=shown)
        old = display(s.weapon)
        if VALUE[card] > VALUE[s.weapon]:
            return Phrase(N_("equip {card}: it strikes harder than your {weapon}"), card=shown,
                          weapon=old)
        if s.slain:
            last = VALUE[s.slain[-1]]
            return Phrase(N_("equip {card}: fresh, while your {weapon} only slays monsters of "
                             "{last} or less"), card=shown, weapon=old, last=last)
        return Phrase(N_("equip {card}: a fresh weapon in place of your {weapon}"), card=shown,
                      weapon=old)

    @staticmethod
    def _monster_reason(s: ScoundrelState, verb: str, card: str, after: ScoundrelState) -> str:
        shown, worth = display(card), VALUE[card]
        lost = s.hp - after.hp
        why: Phrase
        if verb == "fight":
            weapon = display(s.weapon or "")
            if not lost:
                why = Phrase(N_("fight {card} with {weapon}: no damage"), card=shown,
                             weapon=weapon)
            else:
                why = Phrase(N_("fight {card} with {weapon}: {damage} damage instead of "
                                "{value}"), card=shown, weapon=weapon, damage=lost, value=worth)
        elif s.weapon is None:
            why = Phrase(N_("fist {card}: {damage} damage, with no weapon to take it on"),
                         card=shown, damage=worth)
        else:
            weapon = display(s.weapon)
            last = VALUE[s.slain[-1]] if s.slain else None
            if last is not None and worth > last:
                why = Phrase(N_("fist {card}: your {weapon} cannot slay it ({value} > {last})"),
                             card=shown, weapon=weapon, value=worth, last=last)
            elif last is None:
                why = Phrase(N_("fist {card}: {damage} damage, and your {weapon} still slays "
                                "any monster"), card=shown, damage=worth, weapon=weapon)
            else:
                why = Phrase(N_("fist {card}: {damage} damage, and your {weapon} still slays "
                                "monsters of {last} or less"), card=shown, damage=worth,
                             weapon=weapon, last=last)
        if after.outcome == "dead":
            return Phrase(N_("{reason}, and you fall"), reason=why)
        return why

