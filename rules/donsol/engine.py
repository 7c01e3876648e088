"""Donsol: clear a 54-card dungeon, four cards a room, before your 21 HP run out.

The rules as this engine plays them (``docs/games/donsol.md`` for players):

- ♥ potions heal (not after another potion: sickness), ♦ shields block, ♣ ♠ and the two
  jokers are monsters. J/Q/K/A of ♥ ♦ are worth 11; monsters J 11, Q 13, K 15, A 17, jokers 21.
- A used shield only holds against monsters lower than the last one on it; an equal or
  higher one breaks it and hits in full.
- Escaping puts the room's untaken cards under the dungeon and reshuffles it with the game's
  stream. The variants decide when: ``normal`` (not twice in a row), ``easy`` (not twice in a
  row unless no monster is left), ``hard`` (only when no monster is left). The first room may
  always be escaped; the last room never.
- Score ``[xp, hp]``: every card taken is 1 XP; a loss has 0 HP.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.cards import CANONICAL, display, display_long, name
from rules.deal import check_seed, shuffle_from
from rules.engine import Game, lazy_events, state_builder
from rules.words import N_, Nn_, Pending, Phrase, counted, counted_later, later, lines, scaled_bar

MAX_HP = 21
ROOM_SIZE = 4
#: The cards a deal shuffles, in canonical order: all 54.
DECK: tuple[str, ...] = CANONICAL
DECK_SIZE = len(DECK)

_FACE_WORTH = {"J": 11, "Q": 11, "K": 11, "A": 11}
_MONSTER_WORTH = {"J": 11, "Q": 13, "K": 15, "A": 17}
JOKER_WORTH = 21


@lazy_events
@dataclass(frozen=True, slots=True)
class DonsolState:
    """One moment of a Donsol run. Cards are codes; ``dungeon`` and ``room`` are top first."""

    variant: str
    seed: int
    stream: int  # words of the seed's stream used so far
    dungeon: tuple[str, ...]
    room: tuple[str, ...]  # untaken cards of the room, in room order
    hp: int = MAX_HP
    shield: str | None = None
    shield_last: int | None = None  # value of the last monster on the shield; None = fresh
    shield_monsters: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    sick: bool = False
    escaped_last: bool = False
    first_room: bool = True
    xp: int = 0
    moves: int = 0
    outcome: str | None = None  # None, "won" or "dead"
    events: tuple[str, ...] = ()  # what the last action did, in sentences


#: ``DonsolState(*fields)`` without the frozen ``__init__``'s cost: fields in their order.
_build = state_builder(DonsolState)


def value(card: str) -> int:
    """What a card is worth: potion and shield strength, or monster damage."""
    if card in ("RJ", "BJ"):
        return JOKER_WORTH
    r = card[:-1]
    if card[-1] in "CS":
        return _MONSTER_WORTH.get(r) or int(r)
    return _FACE_WORTH.get(r) or int(r)


def role(card: str) -> str:
    """``potion``, ``shield`` or ``monster``."""
    if card in ("RJ", "BJ") or card[-1] in "CS":
        return "monster"
    return "potion" if card[-1] == "H" else "shield"


def is_monster(card: str) -> bool:
    return card in ("RJ", "BJ") or card[-1] in "CS"


# Each card's facts and words, worked out once: a move then only looks them up.
_VALUE: dict[str, int] = {c: value(c) for c in DECK}
_ROLE: dict[str, str] = {c: role(c) for c in DECK}
_MONSTERS: frozenset[str] = frozenset(c for c in DECK if is_monster(c))
_SHOWN: dict[str, str] = {c: display(c) for c in DECK}
_TAKE: dict[str, str] = {c: f"take {c}" for c in DECK}
#: The game's words that have no field, made once.
_OVER = Phrase(N_("The game is over."))
_SICK_AGAIN = Phrase(N_("Another potion right away would do nothing: you feel sick."))
_NO_LONGER_SICK = Phrase(N_("You are no longer sick."))
#: Why escaping is not allowed (``escape_refusal``, asked by every ``actions``).
_LAST_ROOM = Phrase(N_("This is the last room: there is nowhere left to run."))
_ESCAPED_NORMAL = Phrase(N_(
    "You came into this room by escaping: clear it before you escape again."))
_ESCAPED_EASY = Phrase(N_(
    "You came into this room by escaping: you may only escape again once no monster is left "
    "here."))
_MONSTERS_HARD = Phrase(N_("On hard you may only escape once no monster is left in the room."))


def _show(cards: tuple[str, ...]) -> str:
    """``rules.cards.show`` of dealt cards, from the table."""
    return " ".join([_SHOWN[c] for c in cards]) if cards else "—"


# ----- the words a board shows (the terminal and Discord alike) ---------------------------

ROLE_EMOJI: dict[str, str] = {"monster": "⚔️", "shield": "🛡️", "potion": "🧪"}
#: The button label of taking a card of each role (``Fight J♣ (11)``).
ROLE_LABEL: dict[str, str] = {
    "monster": N_("Fight {card} ({value})"),
    "shield": N_("Equip {card} ({value})"),
    "potion": N_("Drink {card} ({value})"),
}


def health_text(hp: int) -> str:
    """``❤️ 15/21 ▰▰▰▰▰▰▰▱▱▱``."""
    return f"❤️ {hp}/{MAX_HP} {scaled_bar(hp, MAX_HP)}"


def shield_text(view: dict[str, Any]) -> str:
    """The shield, its strength and what it still blocks."""
    shield = view["shield"]
    if not shield:
        return Phrase(N_("None: monsters hit in full"))
    text = f"🛡️ {display(shield)} ({value(shield)})"
    last = view["shield_last"]
    if last is None:
        return Phrase(N_("{shield}, fresh: blocks {value} of any monster's damage"),
                      shield=text, value=value(shield))
    on_it = view.get("shield_monsters") or []
    if on_it:
        return Phrase(N_("{shield}, last monster {card} ({last}): breaks on {last} or more"),
                      shield=text, card=display(on_it[-1]), last=last)
    return Phrase(N_("{shield}, last monster ({last}): breaks on {last} or more"),
                  shield=text, last=last)


def sickness_text(sick: bool) -> str:
    """Whether the next potion heals."""
    return Phrase(N_("🤢 Sick: the next potion heals nothing") if sick else N_("Not sick"))


def room_text(room: list[str] | tuple[str, ...]) -> str:
    """The room's cards, each with its role and value: ``🛡️ 3♦ (3)  ⚔️ J♣ (11)``."""
    if not room:
        return "—"
    # A card's words are a field of their own (a joker's name is a phrase).
    return lines(*(Phrase("{emoji} {card} ({value})", emoji=ROLE_EMOJI[role(c)],
                          card=display_long(c), value=value(c)) for c in room), sep="  ")


def dungeon_text(view: dict[str, Any]) -> str:
    """``50 cards left to deal · 1/54 cards taken``."""
    return counted(Nn_("{count} card left to deal · {xp}/{total} cards taken",
                       "{count} cards left to deal · {xp}/{total} cards taken"),
                   view["dungeon"], xp=view["xp"], total=DECK_SIZE)


def take_label(card: str) -> str:
    """What taking ``card`` means: ``Fight J♣ (11)``, ``Fight red joker 🃏 (21)``."""
    return Phrase(ROLE_LABEL[role(card)], card=display_long(card), value=value(card))


class Donsol(Game[DonsolState]):
    """The Donsol engine."""

    key = "donsol"
    title = "Donsol"
    variants = ("normal", "easy", "hard")
    state_type = DonsolState
    deck = DECK
    stat = (0, "cards")
    stat_units = Nn_("{count} card", "{count} cards")
    outcomes: ClassVar[dict[str, str]] = {"won": "win", "dead": "loss"}
    outcome_names: ClassVar[dict[str, str]] = {"won": N_("won"), "dead": N_("dead")}
    variant_names: ClassVar[dict[str, str]] = {
        "normal": N_("normal"), "easy": N_("easy"), "hard": N_("hard"),
    }
    #: 2: events are dumped with their templates and fields.
    format_version = 2

    def _new(self, seed: int, variant: str, deck: tuple[str, ...] | None) -> DonsolState:
        cards, used = self.deal_order(seed, self.deck, deck)
        room, dungeon = cards[:ROOM_SIZE], cards[ROOM_SIZE:]
        # DonsolState(variant, seed, stream=used, dungeon, room, events=...), defaults spelt out.
        return _build(
            variant, seed, used, dungeon, room, MAX_HP, None, None, (), (), False, False, True,
            0, 0, None,
            (later(N_("You enter the dungeon. The first room: {cards}."), cards=_show(room)),),
        )

    # ----- rules ---------------------------------------------------------------------------

    def escape_refusal(self, s: DonsolState) -> str | None:
        """Why escaping is not allowed now, or None when it is."""
        if s.outcome is not None:
            return _OVER
        if not s.dungeon:
            return _LAST_ROOM
        if s.first_room:
            return None
        monsters_left = not _MONSTERS.isdisjoint(s.room)
        if s.variant == "normal" and s.escaped_last:
            return _ESCAPED_NORMAL
        if s.variant == "easy" and s.escaped_last and monsters_left:
            return _ESCAPED_EASY
        if s.variant == "hard" and monsters_left:
            return _MONSTERS_HARD
        return None

    def actions(self, state: DonsolState) -> list[str]:
        if state.outcome is not None:
            return []
        moves = [_TAKE[c] for c in state.room]
        if self.escape_refusal(state) is None:
            moves.append("escape")
        return moves

    def is_legal(self, state: DonsolState, action: str) -> bool:
        if state.outcome is not None:
            return False
        if action == "escape":
            return self.escape_refusal(state) is None
        return action[:5] == "take " and action[5:] in state.room

    def refusal(self, state: DonsolState, action: str) -> str:
        if state.outcome is not None:
            return _OVER
        verb, _, arg = action.partition(" ")
        if verb == "take":
            if arg in state.room:
                return Phrase(N_("You cannot take {card} now."), card=display(arg))
            return Phrase(N_("{card} is not in this room."), card=name(arg))
        if verb == "escape" and not arg:
            return self.escape_refusal(state) or Phrase(N_("You cannot escape now."))
        return Phrase(N_("{action} is not a Donsol move: take a card of the room, or escape."),
                      action=repr(action))

    def _apply(self, state: DonsolState, action: str) -> DonsolState:
        if action == "escape":
            return self._escape(state)
        return self._take(state, action[5:])

    def _take(self, s: DonsolState, card: str) -> DonsolState:
        # Built field by field rather than with ``dataclasses.replace``, which cost more than
        # the rest of the move; the card facts come from the tables above.
        events: list[Pending | Phrase] = []
        room = tuple([c for c in s.room if c != card])
        hp, sick = s.hp, s.sick
        shield, last, on_shield, discard = s.shield, s.shield_last, s.shield_monsters, s.discard
        worth = _VALUE[card]
        kind = _ROLE[card]
        shown = _SHOWN[card]
        if kind == "potion":
            if sick:
                events.append(later(N_("You drink {card}, but you are sick: it heals nothing."),
                                    card=shown))
            else:
                healed = min(MAX_HP, hp + worth) - hp
                hp += healed
                if healed:
                    events.append(later(N_("You drink {card} and heal {hp} HP."), card=shown,
                                        hp=healed))
                else:
                    events.append(later(N_("You drink {card} at full health: it heals nothing."),
                                        card=shown))
                events.append(_SICK_AGAIN)
            sick = True
            discard += (card,)
        elif kind == "shield":
            if shield is not None:
                discard += (shield, *on_shield)
                events.append(later(N_("You drop {old} and take up {card} as your shield."),
                                    old=_SHOWN[shield], card=shown))
            else:
                events.append(later(N_("You take up {card} as your shield ({value})."),
                                    card=shown, value=worth))
            if sick:
                events.append(_NO_LONGER_SICK)
            shield, last, on_shield, sick = card, None, (), False
        else:
            sick = False
            if shield is None:
                damage = worth
                discard += (card,)
                events.append(later(N_("You fight {card} bare-handed and take {damage} damage."),
                                    card=shown, damage=damage))
            elif last is None or worth < last:
                damage = max(0, worth - _VALUE[shield])
                last, on_shield = worth, (*on_shield, card)
                if damage:
                    events.append(later(
                        N_("You fight {card} ({value}): your {shield} blocks {blocked}, "
                           "you take {damage} damage."),
                        card=shown, value=worth, shield=_SHOWN[shield], blocked=worth - damage,
                        damage=damage,
                    ))
                else:
                    events.append(later(N_("Your {shield} absorbs {card} ({value}) completely."),
                                        shield=_SHOWN[shield], card=shown, value=worth))
            else:
                damage = worth
                events.append(later(
                    N_("Your {shield} breaks on {card} ({value} ≥ {last}): you take {damage} "
                       "damage."),
                    shield=_SHOWN[shield], card=shown, value=worth, last=last, damage=damage,
                ))
                discard += (shield, *on_shield, card)
                shield, last, on_shield = None, None, ()
            hp -= damage
        xp = s.xp + 1
        dungeon, escaped_last, first_room, outcome = s.dungeon, s.escaped_last, s.first_room, None
        if hp <= 0:
            events.append(later(N_("You fall after {xp} of {total} cards."), xp=xp,
                                total=DECK_SIZE))
            hp, outcome = 0, "dead"
        elif not room:
            # Rule 7: clearing a room resets the flag, the last room too.
            escaped_last = False
            if not dungeon:
                events.append(later(
                    N_("You have cleared the whole dungeon with {hp} HP. You win!"), hp=hp))
                outcome = "won"
            else:
                room, dungeon = dungeon[:ROOM_SIZE], dungeon[ROOM_SIZE:]
                first_room = False
                events.append(later(N_("Room cleared. The next room: {cards}."),
                                    cards=_show(room)))
        return _build(
            s.variant, s.seed, s.stream, dungeon, room, hp, shield, last, on_shield, discard,
            sick, escaped_last, first_room, xp, s.moves + 1, outcome, tuple(events),
        )

    def _escape(self, s: DonsolState) -> DonsolState:
        pile = [*s.dungeon, *s.room]
        position = shuffle_from(check_seed(s.seed), s.stream, pile)
        room, dungeon = tuple(pile[:ROOM_SIZE]), tuple(pile[ROOM_SIZE:])
        left = len(s.room)
        events = (
            counted_later(Nn_("You escape. {count} card goes back under the dungeon, and it "
                              "is reshuffled.",
                              "You escape. {count} cards go back under the dungeon, and it "
                              "is reshuffled."), left),
            later(N_("The next room: {cards}."), cards=_show(room)),
        )
        return _build(
            s.variant, s.seed, position, dungeon, room, s.hp, s.shield, s.shield_last,
            s.shield_monsters, s.discard, s.sick, True, False, s.xp, s.moves + 1, s.outcome,
            events,
        )

    # ----- what a player sees --------------------------------------------------------------

    def label(self, view: dict[str, Any], action: str) -> str:
        verb, _, card = action.partition(" ")
        if verb == "take" and card:
            return take_label(card)
        return Phrase(N_("Escape")) if action == "escape" else action

    def score(self, s: DonsolState) -> list[int]:
        return [s.xp, s.hp]

    def resigned(self, s: DonsolState) -> tuple[list[int], str]:
        # A loss: the cards taken, no HP (as a death), so resigning never beats dying later.
        return [s.xp, 0], Phrase(N_("resigned after {xp}/{total} cards"), xp=s.xp,
                                 total=DECK_SIZE)

    def score_text(self, s: DonsolState) -> str:
        if s.outcome == "won":
            return Phrase(N_("won with {hp} HP"), hp=s.hp)
        if s.outcome == "dead":
            return Phrase(N_("died after {xp}/{total} cards"), xp=s.xp, total=DECK_SIZE)
        return Phrase(N_("{xp}/{total} cards, {hp} HP"), xp=s.xp, total=DECK_SIZE, hp=s.hp)

    def prompt(self, s: DonsolState) -> str:
        if s.outcome == "won":
            return Phrase(N_("You cleared the dungeon with {hp} HP."), hp=s.hp)
        if s.outcome == "dead":
            return Phrase(N_("You died after {xp} of {total} cards."), xp=s.xp, total=DECK_SIZE)
        if self.escape_refusal(s) is None:
            return Phrase(N_("Take a card from the room, or escape."))
        return Phrase(N_("Take a card from the room."))

    def view(self, state: DonsolState) -> dict[str, Any]:
        reason = self.escape_refusal(state)
        return {
            **self.common_view(state),
            "hp": state.hp,
            "max_hp": MAX_HP,
            "shield": state.shield,
            "shield_last": state.shield_last,
            "shield_monsters": list(state.shield_monsters),
            "sick": state.sick,
            "escaped_last": state.escaped_last,
            "first_room": state.first_room,
            "room": list(state.room),
            "dungeon": len(state.dungeon),
            "xp": state.xp,
            "can_escape": reason is None,
            "escape_reason": reason,
        }

    def text(self, state: DonsolState) -> str:
        v = self.view(state)
        shown: list[str] = [
            Phrase(N_("{game} ({variant}) · seed {seed} · move {move}"), game=self.title,
                   variant=self.variant_name(v["variant"]), seed=v["seed"], move=v["moves"]),
            Phrase(N_("Health: {health}"), health=health_text(v["hp"])),
            Phrase(N_("Shield: {shield}"), shield=shield_text(v)),
            Phrase(N_("Sickness: {sickness}"), sickness=sickness_text(v["sick"])),
            Phrase(N_("Room: {room}"), room=room_text(v["room"])),
            Phrase(N_("Dungeon: {dungeon}"), dungeon=dungeon_text(v)),
            *(Phrase("  ▸ {event}", event=e) for e in v["events"]),
        ]
        if not v["over"] and not v["can_escape"]:
            shown.append(Phrase(N_("Escape: 🚫 {reason}"), reason=v["escape_reason"]))
        shown.append(Phrase(N_("Score: {score}"), score=v["score_text"]))
        shown.append(v["prompt"])
        return lines(*shown)


DONSOL = Donsol()
