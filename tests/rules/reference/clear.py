"""Reference Clear the Dungeon (``rules/clear/rules.md``): plain, mutable, deep-copied every
action."""

from __future__ import annotations

import copy

from tests.rules.reference import ALL_CARDS, shuffle

VARIANTS = ["standard"]
POWER = {"J": 11, "Q": 12, "K": 13}


class State:
    def __init__(self, seed: int, variant: str) -> None:
        self.seed = seed
        self.variant = variant
        cards, self.stream = shuffle(seed, ALL_CARDS)
        monsters = [c for c in cards if c[:-1] in POWER]
        power = [c for c in cards if c[:-1] not in POWER]
        self.piles = [monsters[0:3], monsters[3:6], monsters[6:9], monsters[9:12]]
        self.attack = [[], [], [], []]
        self.hand = power[:3]
        self.talon = power[3:]
        self.reserve = []
        self.graveyard = []
        self.outcome = None


def value(card: str) -> int:
    if card in ("RJ", "BJ"):
        return 10
    return 1 if card[0] == "A" else int(card[:-1])


def fits(card: str, monster: str, attack: list[str]) -> bool:
    power = POWER[monster[:-1]]
    if len(attack) == 0:
        return value(card) + 10 >= power
    if len(attack) == 1:
        return value(attack[0]) + value(card) >= power
    return card in ("RJ", "BJ") or card[-1] == monster[-1]


def new(seed: int, variant: str) -> State:
    return State(seed, variant)


def moves(s: State) -> list[str]:
    held = [c for c in s.hand if c is not None]
    sources = held + s.reserve[-1:]
    result = []
    for card in sources:
        for i in range(4):
            if s.piles[i] and fits(card, s.piles[i][-1], s.attack[i]):
                result.append(f"put {card} {i + 1}")
    return result + ["reserve " + c for c in held]


def actions(s: State) -> list[str]:
    return [] if s.outcome is not None else moves(s)


def apply(s: State, action: str) -> State:
    if action not in actions(s):
        raise ValueError(f"illegal: {action}")
    s = copy.deepcopy(s)
    words = action.split(" ")
    card = words[1]
    if card in s.hand:
        s.hand[s.hand.index(card)] = None
        if s.hand == [None, None, None] and s.talon:
            s.hand, s.talon = s.talon[:3], s.talon[3:]
    else:
        s.reserve.pop()
    if words[0] == "reserve":
        s.reserve.append(card)
    else:
        i = int(words[2]) - 1
        s.attack[i].append(card)
        if len(s.attack[i]) == 3:
            s.graveyard += [s.piles[i].pop(), *s.attack[i]]
            s.attack[i] = []
    if not any(s.piles):
        s.outcome = "won"
    elif not moves(s):
        s.outcome = "stuck"
    return s


def outcome(s: State) -> str | None:
    return s.outcome


def score(s: State) -> list[int]:
    slain = 12 - sum(len(p) for p in s.piles)
    return [slain, len(s.talon) + sum(c is not None for c in s.hand)]
