"""The Scoundrel engine: a 44-card dungeon faced room by room, four cards at a time.

The rules it plays are ``docs/games/scoundrel.md`` (the original rules of August 2011). The
hot paths (``actions`` and ``_apply``, run twice per move by ``Game.apply``) read small
tables built once for the 44 cards, so that random play stays fast.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.cards import CANONICAL, JOKERS, display, name
from rules.deal import shuffle_from
from rules.engine import Game, state_builder
from rules.words import plural, scaled_bar

MAX_HP = 20
ROOM_SIZE = 4
#: The cards a room must have taken before the next is dealt (one is carried over).
ROOM_DONE = ROOM_SIZE - 1

#: The 44 cards in canonical order: no jokers, no red J, Q, K or A.
DECK: tuple[str, ...] = tuple(
    c for c in CANONICAL if c not in JOKERS and not (c[-1] in "HD" and c[:-1] in "JQKA")
)
DECK_SIZE = len(DECK)

MONSTER, WEAPON, POTION = "monster", "weapon", "potion"
_FACES = {"A": 14, "J": 11, "Q": 12, "K": 13}

#: Each card's role and value.
ROLE: dict[str, str] = {
    c: MONSTER if c[-1] in "CS" else WEAPON if c[-1] == "D" else POTION for c in DECK
}
VALUE: dict[str, int] = {c: _FACES.get(c[:-1]) or int(c[:-1]) for c in DECK}
MONSTERS_TOTAL = sum(VALUE[c] for c in DECK if ROLE[c] == MONSTER)  # 208

_FRESH = 99  # the "last slain" of a fresh weapon: above every monster
_TAKE = {c: f"take {c}" for c in DECK}
_FIGHT = {c: f"fight {c}" for c in DECK}
_FIST = {c: f"fist {c}" for c in DECK}
#: Every card action, parsed: action -> (verb, card).
_PARSED: dict[str, tuple[str, str]] = {
    a: (a.partition(" ")[0], a.partition(" ")[2])
    for table in (_TAKE, _FIGHT, _FIST)
    for a in table.values()
}
AVOID = "avoid"
_SHOWN = {c: display(c) for c in DECK}


def _show(cards: tuple[str, ...]) -> str:
    """``rules.cards.show`` from the table."""
    return " ".join(map(_SHOWN.__getitem__, cards)) if cards else "—"


@dataclass(frozen=True, slots=True)
class ScoundrelState:
    """One moment of a Scoundrel run. Cards are codes; ``dungeon`` and ``room`` top first."""

    variant: str
    seed: int
    stream: int  # words of the seed's stream used by the deal (nothing else draws from it)
    dungeon: tuple[str, ...]
    room: tuple[str, ...]  # untaken cards of the room, in room order
    hp: int = MAX_HP
    weapon: str | None = None
    slain: tuple[str, ...] = ()  # the monsters on the weapon, in the order slain
    discarded: int = 0
    taken: int = 0  # cards taken from this room
    potions_taken: int = 0  # potions taken in this room: only the first heals
    avoided_last: bool = False
    last_card: str | None = None
    #: How many cards at the bottom of the dungeon the player has seen go there (avoided
    #: rooms, in a known order): hints keep those in place and shuffle only the rest.
    known_under: int = 0
    moves: int = 0
    outcome: str | None = None  # None, "won" or "dead"
    events: tuple[str, ...] = ()  # what the last action did, in sentences


#: ``ScoundrelState(*fields)`` without the frozen ``__init__``'s cost: fields in their order.
_build = state_builder(ScoundrelState)


def monster_value_left(s: ScoundrelState) -> int:
    """The values of the monsters not yet slain, in the room and the dungeon."""
    return sum(VALUE[c] for c in s.room if ROLE[c] == MONSTER) + sum(
        VALUE[c] for c in s.dungeon if ROLE[c] == MONSTER
    )


def weapon_last(s: ScoundrelState) -> int | None:
    """The value of the weapon's last slain monster, or None (fresh, or no weapon)."""
    return VALUE[s.slain[-1]] if s.slain else None


# ----- the words a board shows (the terminal and Discord alike) ---------------------------

ROLE_EMOJI: dict[str, str] = {MONSTER: "⚔️", WEAPON: "🗡️", POTION: "🧪"}


def health_text(hp: int) -> str:
    """``❤️ 15/20 ▰▰▰▰▰▰▰▱▱▱``."""
    return f"❤️ {hp}/{MAX_HP} {scaled_bar(hp, MAX_HP)}"


def weapon_text(view: dict[str, Any]) -> str:
    """The weapon, its value and what it may still slay."""
    weapon = view["weapon"]
    if not weapon:
        return "None: every monster is fought barehanded"
    text = f"🗡️ {display(weapon)} ({VALUE[weapon]})"
    last = view["weapon_last"]
    if last is None:
        return f"{text}, fresh: it may slay any monster"
    return f"{text}, last slew {display(view['slain'][-1])}: slays monsters of {last} or less"


def potion_text(potions_taken: int) -> str:
    """Whether the next potion of this room heals."""
    if potions_taken:
        return "Taken in this room: another potion here heals nothing"
    return "The first potion of this room heals"


def room_text(room: list[str] | tuple[str, ...]) -> str:
    """The room's cards, each with its role and value: ``🗡️ 3♦ (3)  ⚔️ J♣ (11)``."""
    if not room:
        return "—"
    return "  ".join(f"{ROLE_EMOJI[ROLE[c]]} {display(c)} ({VALUE[c]})" for c in room)


def dungeon_text(view: dict[str, Any]) -> str:
    """``37 cards left to deal · 120 in monsters left``."""
    return (
        f"{plural(view['dungeon'], 'card')} left to deal · "
        f"{view['monster_value_left']} in monsters left"
    )


def card_label(view: dict[str, Any], verb: str, card: str) -> str:
    """What a card action does: ``Equip 7♦ (7)``, ``Drink 9♥ (+5 HP)``, ``Fight 5♣ (−0 HP)``."""
    worth = VALUE[card]
    if verb == "take" and ROLE[card] == WEAPON:
        return f"Equip {display(card)} ({worth})"
    if verb == "take":
        healed = 0 if view["potions_taken"] else min(MAX_HP, view["hp"] + worth) - view["hp"]
        return f"Drink {display(card)} (+{healed} HP)"
    if verb == "fight":
        damage = max(0, worth - VALUE[view["weapon"]])
        return f"Fight {display(card)} (−{damage} HP)"
    return f"Fist {display(card)} (−{worth} HP)"


class Scoundrel(Game[ScoundrelState]):
    """The Scoundrel engine."""

    key = "scoundrel"
    title = "Scoundrel"
    variants = ("standard",)
    state_type = ScoundrelState
    deck = DECK
    stat = (0, "points")
    outcomes: ClassVar[dict[str, str]] = {"won": "win", "dead": "loss"}

    def _new(self, seed: int, variant: str, deck: tuple[str, ...] | None) -> ScoundrelState:
        if deck is None:
            order = list(self.deck)
            used = shuffle_from(seed, 0, order)  # the seed checked by new()
            cards = tuple(order)
        else:
            cards, used = self.deal_order(seed, self.deck, deck)
        room = cards[:ROOM_SIZE]
        # ScoundrelState(variant, seed, stream=used, dungeon=…, room=…, events=…), every
        # default spelt out.
        return _build(
            variant, seed, used, cards[ROOM_SIZE:], room, MAX_HP, None, (), 0, 0, 0, False,
            None, 0, 0, None, (f"You enter the dungeon. The first room: {_show(room)}.",),
        )

    # ----- rules ---------------------------------------------------------------------------

    def avoid_refusal(self, s: ScoundrelState) -> str | None:
        """Why avoiding is not allowed now, or None when it is."""
        if s.outcome is not None:
            return "The game is over."
        if s.taken:
            return "You have started this room: face the rest of it."
        if len(s.room) < ROOM_SIZE:
            return "This is the last room: there is nowhere left to avoid it to."
        if s.avoided_last:
            return "You avoided the last room: you may not avoid two rooms in a row."
        return None

    def actions(self, state: ScoundrelState) -> list[str]:
        if state.outcome is not None:
            return []
        out: list[str] = []
        armed = state.weapon is not None
        last = VALUE[state.slain[-1]] if state.slain else _FRESH
        for c in state.room:
            if ROLE[c] == MONSTER:
                if armed and VALUE[c] <= last:
                    out.append(_FIGHT[c])
                out.append(_FIST[c])
            else:
                out.append(_TAKE[c])
        if len(state.room) == ROOM_SIZE and not state.taken and not state.avoided_last:
            out.append(AVOID)
        return out

    def refusal(self, state: ScoundrelState, action: str) -> str:
        if state.outcome is not None:
            return "The game is over."
        if action == AVOID:
            return self.avoid_refusal(state) or "You cannot avoid this room now."
        verb, _, card = action.partition(" ")
        if verb not in ("take", "fight", "fist") or not card or " " in card:
            return (
                f"{action!r} is not a Scoundrel move: take, fight or fist a card of the "
                "room, or avoid it."
            )
        if card not in state.room:
            return f"{name(card)} is not in this room."
        kind = ROLE[card]
        if verb == "take" and kind == MONSTER:
            if state.weapon is not None and self._may_slay(state, card):
                return (
                    f"{card} is a monster: 'fight {card}' with your weapon or 'fist {card}' "
                    "barehanded."
                )
            return f"{card} is a monster: 'fist {card}' barehanded."
        if verb in ("fight", "fist") and kind != MONSTER:
            word = "equip it" if kind == WEAPON else "drink it"
            return f"{card} is a {kind}, not a monster: 'take {card}' to {word}."
        if verb == "fight":
            if state.weapon is None:
                return f"You have no weapon: fight the {card} barehanded ('fist {card}')."
            last = weapon_last(state)
            return (
                f"Your {state.weapon} last slew a {last}: it can only slay monsters of "
                f"{last} or less. Fight the {card} barehanded ('fist {card}')."
            )
        return f"You cannot {verb} {card} now."

    def is_legal(self, state: ScoundrelState, action: str) -> bool:
        # A card action is judged from the room and the weapon without building the list.
        parsed = _PARSED.get(action)
        if parsed is None or state.outcome is not None:
            return action in self.actions(state)
        verb, card = parsed
        if card not in state.room:
            return False
        if ROLE[card] != MONSTER:
            return verb == "take"
        if verb == "fist":
            return True
        return verb == "fight" and state.weapon is not None and self._may_slay(state, card)

    @staticmethod
    def _may_slay(s: ScoundrelState, card: str) -> bool:
        return not s.slain or VALUE[card] <= VALUE[s.slain[-1]]

    def _apply(self, state: ScoundrelState, action: str) -> ScoundrelState:
        if action == AVOID:
            return self._avoid(state)
        verb, card = _PARSED[action]
        s = state
        i = s.room.index(card)  # the card once: a room holds each card at most once
        room = s.room[:i] + s.room[i + 1 :]
        hp, weapon, slain, discarded = s.hp, s.weapon, s.slain, s.discarded
        potions = s.potions_taken
        worth = VALUE[card]
        if verb == "take" and ROLE[card] == WEAPON:
            if weapon is not None:
                discarded += 1 + len(slain)
                event = (
                    f"You drop {_SHOWN[weapon]} and equip {_SHOWN[card]} ({worth}), fresh."
                )
            else:
                event = f"You equip {_SHOWN[card]} ({worth})."
            weapon, slain = card, ()
        elif verb == "take":
            discarded += 1
            if potions:
                event = f"You drink {_SHOWN[card]}: a second potion in one room heals nothing."
            else:
                healed = min(MAX_HP, hp + worth) - hp
                hp += healed
                event = (
                    f"You drink {_SHOWN[card]} and heal {healed} HP."
                    if healed
                    else f"You drink {_SHOWN[card]} at full health: it heals nothing."
                )
            potions += 1
        elif verb == "fight":
            damage = worth - VALUE[weapon] if worth > VALUE[weapon] else 0  # type: ignore[index]
            hp -= damage
            slain = (*slain, card)
            event = (
                f"You slay {_SHOWN[card]} ({worth}) with {_SHOWN[weapon]}"  # type: ignore[index]
                f" and take {damage} damage."
            )
        else:
            hp -= worth
            discarded += 1
            event = f"You fight {_SHOWN[card]} barehanded and take {worth} damage."
        taken = s.taken + 1
        moves = s.moves + 1
        dungeon = s.dungeon
        avoided = s.avoided_last
        known = s.known_under
        outcome = None
        events: tuple[str, ...]
        if hp <= 0:
            outcome = "dead"
            events = (event, f"You fall with {hp} HP.")
        elif not room and not dungeon:
            outcome = "won"
            events = (event, f"You have made your way through the whole dungeon with {hp} HP!")
        elif dungeon and len(room) <= 1:
            need = ROOM_SIZE - len(room)
            room, dungeon = (*room, *dungeon[:need]), dungeon[need:]
            if known > len(dungeon):
                known = len(dungeon)
            taken = potions = 0
            avoided = False
            events = (event, f"The room is done. The next room: {_show(room)}.")
        else:
            events = (event,)
        return _build(
            state.variant, state.seed, state.stream, dungeon, room, hp, weapon, slain,
            discarded, taken, potions, avoided, card, known, moves, outcome, events,
        )

    def _avoid(self, s: ScoundrelState) -> ScoundrelState:
        pile = (*s.dungeon, *s.room)
        room, dungeon = pile[:ROOM_SIZE], pile[ROOM_SIZE:]
        known = min(s.known_under + ROOM_SIZE, len(dungeon))
        events = (
            "You avoid the room: its four cards go under the dungeon.",
            f"The next room: {_show(room)}.",
        )
        return _build(
            s.variant, s.seed, s.stream, dungeon, room, s.hp, s.weapon, s.slain, s.discarded,
            0, 0, True, s.last_card, known, s.moves + 1, None, events,
        )

    # ----- the score -----------------------------------------------------------------------

    def bonus(self, s: ScoundrelState) -> int:
        """The potion bonus of a win at full health whose last card was a potion."""
        if s.outcome == "won" and s.hp == MAX_HP and s.last_card and ROLE[s.last_card] == POTION:
            return VALUE[s.last_card]
        return 0

    def score(self, s: ScoundrelState) -> list[int]:
        if s.outcome == "won":
            return [s.hp + self.bonus(s)]
        return [s.hp - monster_value_left(s)]

    def score_text(self, s: ScoundrelState) -> str:
        if s.outcome == "won":
            bonus = self.bonus(s)
            if bonus:
                return f"won with {s.hp} HP + {bonus} = {s.hp + bonus}"
            return f"won with {s.hp} HP"
        if s.outcome == "dead":
            return f"died: {self.score(s)[0]}"
        return f"{s.hp} HP, {monster_value_left(s)} in monsters left"

    def resigned(self, s: ScoundrelState) -> tuple[list[int], str]:
        # The score never falls during play, so the score so far never beats playing on.
        points = self.score(s)
        return points, f"resigned: {points[0]}"

    # ----- what a player sees --------------------------------------------------------------

    def prompt(self, s: ScoundrelState) -> str:
        if s.outcome == "won":
            return f"You made it through the dungeon: {self.score_text(s)}."
        if s.outcome == "dead":
            return f"You died with {monster_value_left(s)} in monsters left."
        if self.avoid_refusal(s) is None:
            return "Take a card from the room, or avoid the room."
        return "Take a card from the room."

    def view(self, state: ScoundrelState) -> dict[str, Any]:
        reason = self.avoid_refusal(state)
        return {
            **self.common_view(state),
            "hp": state.hp,
            "max_hp": MAX_HP,
            "weapon": state.weapon,
            "weapon_last": weapon_last(state),
            "slain": list(state.slain),
            "room": list(state.room),
            "dungeon": len(state.dungeon),
            "discarded": state.discarded,
            "taken": state.taken,
            "potions_taken": state.potions_taken,
            "avoided_last": state.avoided_last,
            "can_avoid": reason is None,
            "avoid_reason": reason,
            "last_card": state.last_card,
            "monster_value_left": monster_value_left(state),
        }

    def label(self, view: dict[str, Any], action: str) -> str:
        if action == AVOID:
            return "Avoid the room"
        verb, _, card = action.partition(" ")
        if card in VALUE and verb in ("take", "fight", "fist"):
            return card_label(view, verb, card)
        return action

    def text(self, state: ScoundrelState) -> str:
        v = self.view(state)
        lines = [
            f"{self.title} · seed {v['seed']} · move {v['moves']}",
            f"Health: {health_text(v['hp'])}",
            f"Weapon: {weapon_text(v)}",
            f"Potions: {potion_text(v['potions_taken'])}",
            f"Room: {room_text(v['room'])}",
            f"Dungeon: {dungeon_text(v)}",
            *(f"  ▸ {e}" for e in v["events"]),
        ]
        if not v["over"] and not v["can_avoid"]:
            lines.append(f"Avoid: 🚫 {v['avoid_reason']}")
        lines.append(f"Score: {v['score_text']}")
        lines.append(v["prompt"])
        return "\n".join(lines)


SCOUNDREL = Scoundrel()
