"""Reference Donsol (``rules/donsol/rules.md``): plain, mutable, deep-copied every action."""

from __future__ import annotations

import copy

from tests.rules.reference import ALL_CARDS, shuffle

VARIANTS = ["normal", "easy", "hard"]


class State:
    def __init__(self, seed: int, variant: str) -> None:
        self.seed = seed
        self.variant = variant
        self.dungeon, self.stream = shuffle(seed, ALL_CARDS)
        self.room = self.dungeon[:4]
        self.dungeon = self.dungeon[4:]
        self.hp = 21
        self.shield = None
        self.shield_last = None
        self.shield_monsters = []
        self.discard = []
        self.sick = False
        self.escaped_last = False
        self.first_room = True
        self.xp = 0
        self.outcome = None


def kind(card: str) -> str:
    if card in ("RJ", "BJ") or card[-1] in "SC":
        return "monster"
    return "potion" if card[-1] == "H" else "shield"


def value(card: str) -> int:
    if card in ("RJ", "BJ"):
        return 21
    rank = card[:-1]
    if kind(card) == "monster":
        return {"J": 11, "Q": 13, "K": 15, "A": 17}.get(rank) or int(rank)
    return 11 if rank in ("J", "Q", "K", "A") else int(rank)


def new(seed: int, variant: str) -> State:
    return State(seed, variant)


def can_escape(s: State) -> bool:
    if s.outcome is not None or not s.dungeon:
        return False
    if s.first_room:
        return True
    monsters_left = any(kind(c) == "monster" for c in s.room)
    if s.variant == "normal":
        return not s.escaped_last
    if s.variant == "easy":
        return not s.escaped_last or not monsters_left
    return not monsters_left


def actions(s: State) -> list[str]:
    if s.outcome is not None:
        return []
    moves = ["take " + c for c in s.room]
    if can_escape(s):
        moves.append("escape")
    return moves


def apply(s: State, action: str) -> State:
    if action not in actions(s):
        raise ValueError(f"illegal: {action}")
    s = copy.deepcopy(s)
    if action == "escape":
        pile, s.stream = shuffle(s.seed, s.dungeon + s.room, s.stream)
        s.room, s.dungeon = pile[:4], pile[4:]
        s.escaped_last = True
        s.first_room = False
        return s
    card = action.split(" ")[1]
    s.room.remove(card)
    s.xp += 1
    v = value(card)
    if kind(card) == "potion":
        if not s.sick:
            s.hp = min(21, s.hp + v)
        s.sick = True
        s.discard.append(card)
    elif kind(card) == "shield":
        if s.shield is not None:
            s.discard += [s.shield, *s.shield_monsters]
        s.shield, s.shield_last, s.shield_monsters, s.sick = card, None, [], False
    else:
        s.sick = False
        if s.shield is None:
            s.hp -= v
            s.discard.append(card)
        elif s.shield_last is None or v < s.shield_last:
            s.hp -= max(0, v - value(s.shield))
            s.shield_last = v
            s.shield_monsters.append(card)
        else:
            s.hp -= v
            s.discard += [s.shield, *s.shield_monsters, card]
            s.shield, s.shield_last, s.shield_monsters = None, None, []
    if s.hp <= 0:
        s.hp = 0
        s.outcome = "dead"
    elif not s.room:
        s.escaped_last = False
        if not s.dungeon:
            s.outcome = "won"
        else:
            s.room, s.dungeon = s.dungeon[:4], s.dungeon[4:]
            s.first_room = False
    return s


def outcome(s: State) -> str | None:
    return s.outcome


def score(s: State) -> list[int]:
    return [s.xp, s.hp]
