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
from rules.engine import Game, lazy_events, state_builder
from rules.words import N_, Nn_, Pending, Phrase, counted, later, lines, scaled_bar

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
_OVER = Phrase(N_("The game is over."))
_AVOIDED = Phrase(N_("You avoid the room: its four cards go under the dungeon."))
#: Why avoiding the room is not allowed (``avoid_refusal``).
_STARTED = Phrase(N_("You have started this room: face the rest of it."))
_LAST_ROOM = Phrase(N_("This is the last room: there is nowhere left to avoid it to."))
_AVOIDED_LAST = Phrase(N_("You avoided the last room: you may not avoid two rooms in a row."))


def _show(cards: tuple[str, ...]) -> str:
    """``rules.cards.show`` from the table."""
    return " ".join(map(_SHOWN.__getitem__, cards)) if cards else "—"


@lazy_events
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
        return Phrase(N_("None: every monster is fought barehanded"))
    text = f"🗡️ {display(weapon)} ({VALUE[weapon]})"
    last = view["weapon_last"]
    if last is None:
        return Phrase(N_("{weapon}, fresh: it may slay any monster"), weapon=text)
    return Phrase(N_("{weapon}, last slew {card}: slays monsters of {last} or less"),
                  weapon=text, card=display(view["slain"][-1]), last=last)


def potion_text(potions_taken: int) -> str:
    """Whether the next potion of this room heals."""
    if potions_taken:
        return Phrase(N_("Taken in this room: another potion here heals nothing"))
    return Phrase(N_("The first potion of this room heals"))


def room_text(room: list[str] | tuple[str, ...]) -> str:
    """The room's cards, each with its role and value: ``🗡️ 3♦ (3)  ⚔️ J♣ (11)``."""
    if not room:
        return "—"
    return "  ".join(f"{ROLE_EMOJI[ROLE[c]]} {display(c)} ({VALUE[c]})" for c in room)


def dungeon_text(view: dict[str, Any]) -> str:
    """``37 cards left to deal · 120 in monsters left``."""
    return counted(Nn_("{count} card left to deal · {value} in monsters left",
                       "{count} cards left to deal · {value} in monsters left"),
                   view["dungeon"], value=view["monster_value_left"])


def card_label(view: dict[str, Any], verb: str, card: str) -> str:
    """What a card action does: ``Equip 7♦ (7)``, ``Drink 9♥ (+5 HP)``, ``Fight 5♣ (−0 HP)``."""
    worth = VALUE[card]
    shown = display(card)
    if verb == "take" and ROLE[card] == WEAPON:
        return Phrase(N_("Equip {card} ({value})"), card=shown, value=worth)
    if verb == "take":
        healed = 0 if view["potions_taken"] else min(MAX_HP, view["hp"] + worth) - view["hp"]
        return Phrase(N_("Drink {card} (+{hp} HP)"), card=shown, hp=healed)
    if verb == "fight":
        damage = max(0, worth - VALUE[view["weapon"]])
        return Phrase(N_("Fight {card} (−{hp} HP)"), card=shown, hp=damage)
    return Phrase(N_("Fist {card} (−{hp} HP)"), card=shown, hp=worth)


class Scoundrel(Game[ScoundrelState]):
    """The Scoundrel engine."""

    key = "scoundrel"
    title = "Scoundrel"
    variants = ("standard",)
    state_type = ScoundrelState
    deck = DECK
    stat = (0, "points")
    outcomes: ClassVar[dict[str, str]] = {"won": "win", "dead": "loss"}
    outcome_names: ClassVar[dict[str, str]] = {"won": N_("won"), "dead": N_("dead")}
    variant_names: ClassVar[dict[str, str]] = {"standard": N_("standard")}
    #: 2: events are dumped with their templates and fields.
    format_version = 2

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
            None, 0, 0, None,
            (later(N_("You enter the dungeon. The first room: {cards}."), cards=_show(room)),),
        )

    # ----- rules ---------------------------------------------------------------------------

    def avoid_refusal(self, s: ScoundrelState) -> str | None:
        """Why avoiding is not allowed now, or None when it is."""
        if s.outcome is not None:
            return _OVER
        if s.taken:
            return _STARTED
        if len(s.room) < ROOM_SIZE:
            return _LAST_ROOM
        if s.avoided_last:
            return _AVOIDED_LAST
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
            return _OVER
        if action == AVOID:
            return self.avoid_refusal(state) or Phrase(N_("You cannot avoid this room now."))
        verb, _, card = action.partition(" ")
        if verb not in ("take", "fight", "fist") or not card or " " in card:
            return Phrase(
                N_("{action} is not a Scoundrel move: take, fight or fist a card of the room, "
                   "or avoid it."), action=repr(action))
        if card not in state.room:
            return Phrase(N_("{card} is not in this room."), card=name(card))
        kind = ROLE[card]
        # The moves quoted ('fight 5C') are what the player types: never translated.
        if verb == "take" and kind == MONSTER:
            if state.weapon is not None and self._may_slay(state, card):
                return Phrase(
                    N_("{card} is a monster: '{fight}' with your weapon or '{fist}' barehanded."),
                    card=card, fight=f"fight {card}", fist=f"fist {card}")
            return Phrase(N_("{card} is a monster: '{fist}' barehanded."), card=card,
                          fist=f"fist {card}")
        if verb in ("fight", "fist") and kind != MONSTER:
            if kind == WEAPON:
                return Phrase(N_("{card} is a weapon, not a monster: '{take}' to equip it."),
                              card=card, take=f"take {card}")
            return Phrase(N_("{card} is a potion, not a monster: '{take}' to drink it."),
                          card=card, take=f"take {card}")
        if verb == "fight":
            if state.weapon is None:
                return Phrase(N_("You have no weapon: fight the {card} barehanded ('{fist}')."),
                              card=card, fist=f"fist {card}")
            last = weapon_last(state)
            return Phrase(
                N_("Your {weapon} last slew a {last}: it can only slay monsters of {last} or "
                   "less. Fight the {card} barehanded ('{fist}')."),
                weapon=state.weapon, last=last, card=card, fist=f"fist {card}")
        # The move as it is typed (``take 5S``), the same in every language: a code span.
        return Phrase(N_("You cannot `{move}` now."), move=f"{verb} {card}")

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
                event = later(N_("You drop {old} and equip {card} ({value}), fresh."),
                              old=_SHOWN[weapon], card=_SHOWN[card], value=worth)
            else:
                event = later(N_("You equip {card} ({value})."), card=_SHOWN[card], value=worth)
            weapon, slain = card, ()
        elif verb == "take":
            discarded += 1
            if potions:
                event = later(N_("You drink {card}: a second potion in one room heals nothing."),
                              card=_SHOWN[card])
            else:
                healed = min(MAX_HP, hp + worth) - hp
                hp += healed
                event = (
                    later(N_("You drink {card} and heal {hp} HP."), card=_SHOWN[card], hp=healed)
                    if healed
                    else later(N_("You drink {card} at full health: it heals nothing."),
                               card=_SHOWN[card])
                )
            potions += 1
        elif verb == "fight":
            damage = worth - VALUE[weapon] if worth > VALUE[weapon] else 0  # type: ignore[index]
            hp -= damage
            slain = (*slain, card)
            event = later(N_("You slay {card} ({value}) with {weapon} and take {damage} damage."),
                          card=_SHOWN[card], value=worth, weapon=_SHOWN[weapon],  # type: ignore[index]
                          damage=damage)
        else:
            hp -= worth
            discarded += 1
            event = later(N_("You fight {card} barehanded and take {damage} damage."),
                          card=_SHOWN[card], damage=worth)
        taken = s.taken + 1
        moves = s.moves + 1
        dungeon = s.dungeon
        avoided = s.avoided_last
        known = s.known_under
        outcome = None
        events: tuple[Pending | Phrase, ...]
        if hp <= 0:
            outcome = "dead"
            events = (event, later(N_("You fall with {hp} HP."), hp=hp))
        elif not room and not dungeon:
            outcome = "won"
            events = (event, later(N_("You have made your way through the whole dungeon with "
                                      "{hp} HP!"), hp=hp))
        elif dungeon and len(room) <= 1:
            need = ROOM_SIZE - len(room)
            room, dungeon = (*room, *dungeon[:need]), dungeon[need:]
            if known > len(dungeon):
                known = len(dungeon)
            taken = potions = 0
            avoided = False
            events = (event, later(N_("The room is done. The next room: {cards}."),
                                   cards=_show(room)))
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
            _AVOIDED,
            later(N_("The next room: {cards}."), cards=_show(room)),
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
                return Phrase(N_("won with {hp} HP + {bonus} = {total}"), hp=s.hp, bonus=bonus,
                              total=s.hp + bonus)
            return Phrase(N_("won with {hp} HP"), hp=s.hp)
        if s.outcome == "dead":
            return Phrase(N_("died: {score}"), score=self.score(s)[0])
        return Phrase(N_("{hp} HP, {value} in monsters left"), hp=s.hp,
                      value=monster_value_left(s))

    def resigned(self, s: ScoundrelState) -> tuple[list[int], str]:
        # The score never falls during play, so the score so far never beats playing on.
        points = self.score(s)
        return points, Phrase(N_("resigned: {score}"), score=points[0])

    # ----- what a player sees --------------------------------------------------------------

    def prompt(self, s: ScoundrelState) -> str:
        if s.outcome == "won":
            return Phrase(N_("You made it through the dungeon: {score}."),
                          score=self.score_text(s))
        if s.outcome == "dead":
            return Phrase(N_("You died with {value} in monsters left."),
                          value=monster_value_left(s))
        if self.avoid_refusal(s) is None:
            return Phrase(N_("Take a card from the room, or avoid the room."))
        return Phrase(N_("Take a card from the room."))

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
            return Phrase(N_("Avoid the room"))
        verb, _, card = action.partition(" ")
        if card in VALUE and verb in ("take", "fight", "fist"):
            return card_label(view, verb, card)
        return action

    def text(self, state: ScoundrelState) -> str:
        v = self.view(state)
        shown: list[str] = [
            Phrase(N_("{game} · seed {seed} · move {move}"), game=self.title, seed=v["seed"],
                   move=v["moves"]),
            Phrase(N_("Health: {health}"), health=health_text(v["hp"])),
            Phrase(N_("Weapon: {weapon}"), weapon=weapon_text(v)),
            Phrase(N_("Potions: {potions}"), potions=potion_text(v["potions_taken"])),
            Phrase(N_("Room: {room}"), room=room_text(v["room"])),
            Phrase(N_("Dungeon: {dungeon}"), dungeon=dungeon_text(v)),
            *(Phrase("  ▸ {event}", event=e) for e in v["events"]),
        ]
        if not v["over"] and not v["can_avoid"]:
            shown.append(Phrase(N_("Avoid: 🚫 {reason}"), reason=v["avoid_reason"]))
        shown.append(Phrase(N_("Score: {score}"), score=v["score_text"]))
        shown.append(v["prompt"])
        return lines(*shown)


SCOUNDREL = Scoundrel()
