"""What Donsol's hints know: the hidden dungeon, how a score weighs, and why a move is good.

Hidden from the player: the order of the dungeon. A sampled world shuffles its cards and draws
a fresh seed for the stream (the stream position stays, it only counts the escapes), so a
sampled escape reshuffles the sampled dungeon and says nothing about the real one.

Dominated moves (never suggested), read from the visible room, HP, shield and the set of
cards still in the dungeon:

- drinking a potion that heals nothing now (full health, or sick) while another card of the
  room, taken first, would let it heal (a monster that hurts, or a shield or monster that
  cures the sickness below full health): the potion keeps its healing for after;
- fighting a monster that would hurt less with a shield of the room taken first, when no
  monster left (room or dungeon) is as strong: the shield, used on it, then blocks every
  monster still to come as a fresh one would, and the fight costs less.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cards import display
from rules.donsol.engine import DONSOL, MAX_HP, DonsolState, role, value
from rules.words import N_, Phrase


class DonsolHints:
    """Donsol's part of :mod:`rules.hints`."""

    def sample_world(self, s: DonsolState, rng: random.Random) -> DonsolState:
        dungeon = sorted(s.dungeon)
        rng.shuffle(dungeon)
        return replace(s, dungeon=tuple(dungeon), seed=rng.getrandbits(64))

    def utility(self, score: list[int]) -> int:
        return score[0] * (MAX_HP + 1) + score[1]

    def dominated(self, s: DonsolState, legal: list[str]) -> list[str]:
        """The moves an obviously better move dominates (see the module docstring)."""
        takes = [a for a in legal if a.startswith("take ")]
        cards = [a[5:] for a in takes]
        return [
            f"take {card}" for card in cards
            if _wasted_potion(s, card, cards) or _better_with_room_shield(s, card)
        ]

    def reason(self, s: DonsolState, action: str, world: DonsolState) -> str:
        if action == "escape":
            cost, breaks = _room_cost(world)
            if cost >= s.hp:
                return Phrase(N_("escape: clearing this room would kill you ({hp} HP left)"),
                              hp=s.hp)
            if breaks:
                return Phrase(N_("escape: clearing this room costs at least {cost} HP and the "
                                 "shield would break"), cost=cost)
            return Phrase(N_("escape: clearing this room costs at least {cost} HP"), cost=cost)
        card = action.split(" ")[1]
        after = DONSOL.apply(world, action)
        kind = role(card)
        shown = display(card)
        if kind == "potion":
            if s.sick:
                return Phrase(N_("drink {card}: it heals nothing while you are sick, but costs "
                                 "nothing"), card=shown)
            healed = after.hp - s.hp
            if healed:
                return Phrase(N_("drink {card}: heals {hp} HP"), card=shown, hp=healed)
            return Phrase(N_("drink {card}: it heals nothing at full health, but costs nothing"),
                          card=shown)
        if kind == "shield":
            if s.shield is None:
                return Phrase(N_("take up {card}: a shield for the monsters ahead"), card=shown)
            return Phrase(N_("take up {card}: it blocks more than your worn {shield}"),
                          card=shown, shield=display(s.shield))
        lost = s.hp - after.hp
        if lost == 0:
            return Phrase(N_("fight {card}: your shield absorbs it"), card=shown)
        if after.shield is None and s.shield is not None:
            return Phrase(N_("fight {card}: {damage} damage and the shield breaks, the least bad "
                             "here"), card=shown, damage=lost)
        return Phrase(N_("fight {card} now: {damage} damage while you can afford it"),
                      card=shown, damage=lost)


def _heals(s: DonsolState, potion: str) -> int:
    """HP ``potion`` would heal if drunk now."""
    return 0 if s.sick else min(MAX_HP, s.hp + value(potion)) - s.hp


def _wasted_potion(s: DonsolState, card: str, room: list[str]) -> bool:
    """Whether ``card`` is a potion that heals nothing now, while another card of ``room``,
    taken first, would let it heal."""
    return (
        role(card) == "potion" and _heals(s, card) == 0
        and any(_lets_heal(s, other) for other in room if other != card)
    )


def _lets_heal(s: DonsolState, first: str) -> bool:
    """Whether taking ``first`` (not a potion) leaves the player alive, below full health and
    not sick, so that a potion would then heal."""
    if role(first) == "potion":
        return False
    after = DONSOL.apply(s, f"take {first}")
    return after.outcome is None and after.hp < MAX_HP and not after.sick


def _damage(s: DonsolState, monster: str) -> int:
    """What fighting ``monster`` now costs (the engine's rule; HP below 0 counted too)."""
    worth = value(monster)
    if s.shield is None or (s.shield_last is not None and worth >= s.shield_last):
        return worth
    return max(0, worth - value(s.shield))


def _better_with_room_shield(s: DonsolState, monster: str) -> bool:
    """Whether a shield of the room, taken first, makes ``monster`` hurt less, while no other
    monster left is as strong (so the shield, used on it, still blocks all the rest)."""
    if role(monster) != "monster":
        return False
    now = _damage(s, monster)
    if now == 0:
        return False
    worth = value(monster)
    left = [c for c in (*s.room, *s.dungeon) if c != monster and role(c) == "monster"]
    if any(value(c) >= worth for c in left):
        return False
    return any(
        role(c) == "shield" and max(0, worth - value(c)) < now for c in s.room
    )


def _room_cost(world: DonsolState) -> tuple[int, bool]:
    """The least HP clearing the room costs (every order tried; only the room's visible
    cards decide it), and whether every cheapest order breaks the shield."""

    best: tuple[int, bool] | None = None
    frontier = [world]
    start_hp = world.hp
    while frontier:
        state = frontier.pop()
        takes = [a for a in DONSOL.actions(state) if a != "escape"]
        for action in takes:
            child = DONSOL.apply(state, action)
            if child.outcome is not None or len(child.room) >= len(state.room):
                # The room is done (cleared, or the run ended on it).
                lost = start_hp - child.hp
                broke = world.shield is not None and child.shield is None
                option = (lost, broke)
                if best is None or option < best:
                    best = option
            else:
                frontier.append(child)
    return best if best is not None else (0, False)
