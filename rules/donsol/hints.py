"""What Donsol's hints know: the hidden dungeon, how a score weighs, and why a move is good.

Hidden from the player: the order of the dungeon. A sampled world shuffles its cards and draws
a fresh seed for the stream (the stream position stays, it only counts the escapes), so a
sampled escape reshuffles the sampled dungeon and says nothing about the real one.
"""

from __future__ import annotations

import random
from dataclasses import replace

from rules.cards import display
from rules.donsol.engine import DONSOL, MAX_HP, DonsolState, role


class DonsolHints:
    """Donsol's part of :mod:`rules.hints`."""

    def sample_world(self, s: DonsolState, rng: random.Random) -> DonsolState:
        dungeon = sorted(s.dungeon)
        rng.shuffle(dungeon)
        return replace(s, dungeon=tuple(dungeon), seed=rng.getrandbits(64))

    def utility(self, score: list[int]) -> int:
        return score[0] * (MAX_HP + 1) + score[1]

    def reason(self, s: DonsolState, action: str, world: DonsolState) -> str:
        if action == "escape":
            cost, breaks = _room_cost(world)
            if cost >= s.hp:
                why = f"clearing this room would kill you ({s.hp} HP left)"
            else:
                why = f"clearing this room costs at least {cost} HP"
                if breaks:
                    why += " and the shield would break"
            return f"escape: {why}"
        card = action.split(" ")[1]
        after = DONSOL.apply(world, action)
        kind = role(card)
        if kind == "potion":
            if s.sick:
                return (f"drink {display(card)}: it heals nothing while you are sick, "
                        "but costs nothing")
            healed = after.hp - s.hp
            if healed:
                return f"drink {display(card)}: heals {healed} HP"
            return f"drink {display(card)}: it heals nothing at full health, but costs nothing"
        if kind == "shield":
            if s.shield is None:
                return f"take up {display(card)}: a shield for the monsters ahead"
            return f"take up {display(card)}: it blocks more than your worn {display(s.shield)}"
        lost = s.hp - after.hp
        if lost == 0:
            return f"fight {display(card)}: your shield absorbs it"
        if after.shield is None and s.shield is not None:
            return f"fight {display(card)}: {lost} damage and the shield breaks, the least bad here"
        return f"fight {display(card)} now: {lost} damage while you can afford it"


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
