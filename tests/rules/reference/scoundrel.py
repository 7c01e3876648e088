"""Reference Scoundrel (``rules/scoundrel/rules.md``): plain, mutable, deep-copied every
action."""

from __future__ import annotations

import copy

from tests.rules.reference import ALL_CARDS, shuffle

VARIANTS = ["standard"]
FACES = {"J": 11, "Q": 12, "K": 13, "A": 14}


class State:
    def __init__(self, seed: int, variant: str) -> None:
        self.seed = seed
        self.variant = variant
        cards = [c for c in ALL_CARDS if c not in ("RJ", "BJ")
                 and not (c[-1] in "HD" and c[:-1] in FACES)]
        self.dungeon, self.stream = shuffle(seed, cards)
        self.room = self.dungeon[:4]
        self.dungeon = self.dungeon[4:]
        self.hp = 20
        self.weapon = None
        self.slain = []
        self.taken = 0
        self.potion_taken = False
        self.avoided_last = False
        self.last_card = None
        self.outcome = None


def kind(card: str) -> str:
    if card[-1] in "CS":
        return "monster"
    return "weapon" if card[-1] == "D" else "potion"


def value(card: str) -> int:
    return FACES.get(card[:-1]) or int(card[:-1])


def new(seed: int, variant: str) -> State:
    return State(seed, variant)


def actions(s: State) -> list[str]:
    if s.outcome is not None:
        return []
    moves = []
    for card in s.room:
        if kind(card) != "monster":
            moves.append("take " + card)
            continue
        if s.weapon is not None and (not s.slain or value(card) <= value(s.slain[-1])):
            moves.append("fight " + card)
        moves.append("fist " + card)
    if len(s.room) == 4 and s.taken == 0 and not s.avoided_last:
        moves.append("avoid")
    return moves


def apply(s: State, action: str) -> State:
    if action not in actions(s):
        raise ValueError(f"illegal: {action}")
    s = copy.deepcopy(s)
    if action == "avoid":
        s.dungeon += s.room
        s.room = s.dungeon[:4]
        s.dungeon = s.dungeon[4:]
        s.avoided_last = True
        return s
    verb, card = action.split(" ")
    s.room.remove(card)
    s.taken += 1
    s.last_card = card
    if verb == "fight":
        s.hp -= max(0, value(card) - value(s.weapon))
        s.slain.append(card)
    elif verb == "fist":
        s.hp -= value(card)
    elif kind(card) == "weapon":
        s.weapon = card
        s.slain = []
    else:
        if not s.potion_taken:
            s.hp = min(20, s.hp + value(card))
        s.potion_taken = True
    if s.hp <= 0:
        s.outcome = "dead"
    elif not s.room and not s.dungeon:
        s.outcome = "won"
    elif s.taken == 3 and s.dungeon:
        # The fourth card stays and three more join it: a new room.
        s.room += s.dungeon[:3]
        s.dungeon = s.dungeon[3:]
        s.taken = 0
        s.potion_taken = False
        s.avoided_last = False
    return s


def outcome(s: State) -> str | None:
    return s.outcome


def score(s: State) -> list[int]:
    if s.outcome == "won":
        last = s.last_card
        bonus = value(last) if s.hp == 20 and kind(last) == "potion" else 0
        return [s.hp + bonus]
    left = sum(value(c) for c in s.room + s.dungeon if kind(c) == "monster")
    return [s.hp - left]
