"""Reference Tomb of Four Kings (``rules/tomb/rules.md``): plain, mutable, deep-copied every
action. Like the engine, an action plays on by itself until the player has a choice."""

from __future__ import annotations

import copy

from tests.rules.reference import ALL_CARDS, shuffle

VARIANTS = ["standard"]
HEARTS = [f"{n}H" for n in range(2, 11)]
SKILL_FOR = {"S": "JS", "D": "JD", "C": "JC"}


class State:
    def __init__(self, seed: int, variant: str) -> None:
        self.seed = seed
        self.variant = variant
        cards = [c for c in ALL_CARDS if c != "BJ" and c not in HEARTS]
        self.deck, self.stream = shuffle(seed, cards)
        self.torches = []
        self.hand = []
        self.damage = 0
        self.turn = []
        self.in_turn = False
        self.encounter = None
        self.favour = False
        self.pending = None
        self.owed = 0
        self.phase = "delve"
        self.delve_turns = 0
        self.retreat_turns = 0
        self.retreat_needed = None
        self.stacks = []
        self.discards = []
        self.counter = []
        self.outcome = None


def is_number(card: str) -> bool:
    return card[-1] in "SDC" and card[:-1].isdigit()


def treasure(card: str) -> int:
    """What a treasure is worth; 0 for a card that is no treasure."""
    if card == "RJ":
        return 6
    if card[0] == "K":
        return 10
    if card[-1] == "D" and card[:-1].isdigit():
        return int(card[:-1])
    return 0


def new(seed: int, variant: str) -> State:
    return State(seed, variant)


def actions(s: State) -> list[str]:
    if s.outcome is not None:
        return []
    if s.pending == "dodge":
        return ["dodge", "endure"]
    if s.pending == "door":
        return ["skill JC", "discard"]
    if s.pending == "leave":
        return ["leave " + c for c in s.turn if treasure(c)]
    if not s.in_turn:
        return ["flip", "retreat"] if s.phase == "delve" and s.delve_turns > 0 else ["flip"]
    moves = ["flip"]
    suit = s.encounter[-1]
    if SKILL_FOR[suit] in s.hand:
        moves.append("skill " + SKILL_FOR[suit])
    if suit == "S":
        strength = int(s.encounter[:-1])
        moves += ["drop " + c for c in s.hand if treasure(c) and treasure(c) >= strength]
    return moves


def apply(s: State, action: str) -> State:
    if action not in actions(s):
        raise ValueError(f"illegal: {action}")
    s = copy.deepcopy(s)
    verb, _, card = action.partition(" ")
    if verb == "flip":
        if s.in_turn:
            turn_card(s)
        else:
            s.in_turn = True
    elif verb == "retreat":
        s.phase = "retreat"
        s.retreat_needed = s.delve_turns - 1
        if s.retreat_needed == 0:
            get_out(s)
    elif verb == "skill":
        s.hand.remove(card)
        s.turn.append(card)
        s.pending, s.owed = None, 0
        win(s)
    elif verb == "drop":
        s.hand.remove(card)
        s.turn.append(card)
        end_turn(s)
    elif verb == "dodge":
        s.hand.remove("JH")
        s.counter.append("JH")
        s.pending, s.owed = None, 0
        after_blow(s)
    elif verb == "endure":
        amount = s.owed
        s.pending, s.owed = None, 0
        hurt(s, amount)
        after_blow(s)
    elif verb == "discard":
        count = s.owed
        s.pending, s.owed = None, 0
        discard(s, count)
    else:
        leave(s, card)
    # Play on while the only thing to do is to turn the next card.
    while s.in_turn and s.outcome is None and s.pending is None:
        if s.encounter is not None and len(actions(s)) > 1:
            break
        turn_card(s)
    return s


def turn_card(s: State) -> None:
    if not s.deck:
        end(s, "lost_in_dark")
        return
    card = s.deck.pop(0)
    if card[0] == "A":
        burn(s, card)
    elif card in ("JS", "JH", "JD", "JC"):
        s.hand.append(card)
    elif card[0] == "Q":
        s.turn.append(card)
        if s.encounter is not None:
            win(s)
        else:
            s.favour = True
    elif not is_number(card):  # a King or the Scroll of Light
        s.turn.append(card)
    else:
        s.turn.append(card)
        if s.encounter is None:
            s.encounter = card
            if s.favour:
                win(s)
        else:
            attempt(s, card)


def attempt(s: State, card: str) -> None:
    strength, number, suit = int(s.encounter[:-1]), int(card[:-1]), s.encounter[-1]
    if number >= strength:
        win(s)
        return
    short = strength - number
    if suit == "S":
        blow(s, short)
    elif suit == "D":
        blow(s, short)
        if s.pending is None and s.outcome is None:
            end_turn(s)
    elif "JC" in s.hand:
        s.pending, s.owed = "door", short
    else:
        discard(s, short)


def blow(s: State, amount: int) -> None:
    if "JH" in s.hand:
        s.pending, s.owed = "dodge", amount
    else:
        hurt(s, amount)


def hurt(s: State, amount: int) -> None:
    s.damage += amount
    if s.damage >= 9:
        end(s, "dead")


def after_blow(s: State) -> None:
    if s.outcome is None and s.encounter is not None and s.encounter[-1] == "D":
        end_turn(s)


def discard(s: State, count: int) -> None:
    for _ in range(count):
        if not s.deck:
            end(s, "lost_in_dark")
            return
        card = s.deck.pop(0)
        if card[0] == "A":
            burn(s, card)
            if s.outcome is not None:
                return
        else:
            s.discards.append(card)
    end_turn(s)


def burn(s: State, ace: str) -> None:
    if len([c for c in s.torches if c != "RJ"]) < 3:
        s.torches.append(ace)
    elif "RJ" in s.hand:
        s.hand.remove("RJ")
        s.torches.append("RJ")
        s.deck.append(ace)
    else:
        s.torches.append(ace)
        end(s, "lost_in_dark")


def win(s: State) -> None:
    loot = [c for c in s.turn if treasure(c)]
    if loot and len(loot) == len(s.turn):
        if len(loot) == 1:
            leave(s, loot[0])
        else:
            s.pending = "leave"
        return
    s.hand += loot
    s.turn = [c for c in s.turn if not treasure(c)]
    end_turn(s)


def leave(s: State, card: str) -> None:
    s.pending = None
    s.hand += [c for c in s.turn if c != card]
    s.turn = [card]
    end_turn(s)


def end_turn(s: State) -> None:
    s.stacks += s.turn
    s.turn = []
    s.encounter = None
    s.favour = False
    s.in_turn = False
    if s.phase == "delve":
        s.delve_turns += 1
        return
    s.retreat_turns += 1
    if s.retreat_turns >= s.retreat_needed:
        get_out(s)


def get_out(s: State) -> None:
    end(s, "won" if sum(1 for c in s.hand if c[0] == "K") == 4 else "escaped")


def end(s: State, outcome: str) -> None:
    s.outcome = outcome
    s.phase = "over"
    s.pending, s.owed = None, 0
    s.in_turn = False


def outcome(s: State) -> str | None:
    return s.outcome


def score(s: State) -> list[int]:
    if s.outcome in ("dead", "lost_in_dark"):
        return [0, 0, 0]
    return [sum(1 for c in s.hand if c[0] == "K"), sum(treasure(c) for c in s.hand), 1]
