"""Dungeon Solitaire: Tomb of Four Kings — delve for the four Kings' hoards and get out alive.

The rules as this engine plays them (``docs/games/tomb.md`` for players):

- 2–10♥ are the hit point counter (never in the deck): 9 damage in all is death, 8 is not.
- The 44-card deck is turned one card at a time into a *turn*. Aces burn as torches (the 4th
  is lost in the dark unless the Scroll of Light, ``RJ``, is in the hand: it burns instead
  and that Ace goes under the deck). Jacks are skills kept in the hand, Queens win the
  encounter, Kings and ``RJ`` are treasure waiting in the turn.
- The first 2–10 of ♠ ♦ ♣ is the encounter (monster, trap, door); later ones are action
  cards, counted by number only. A monster fight goes on until an action card is high
  enough (each lower one hits for the difference); a trap or a door gets one action card.
- Skills: ``JS`` wins a fight, ``JD`` a trap before its card, ``JC`` a door before its card or
  right after it fails, ``JH`` cancels one blow. A treasure drop worth at least the monster
  ends a fight with no damage and no loot.
- Winning collects the turn's treasure (every 2–10♦, King and ``RJ``); one card must stay
  to mark the turn. A failed door discards ``door − action`` cards from the deck.
- After N delve turns the way out takes N − 1 retreat turns. Score ``[kings, points, 1]``
  out alive, ``[0, 0, 0]`` dead or lost in the dark; all four Kings out alive is a win.

An action plays on through every step without a choice and stops only where more than one
action is legal, at the end of a turn, or at the end of the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import filterfalse
from typing import Any, ClassVar

from rules.cards import CANONICAL, display, name, show
from rules.deal import shuffle_from
from rules.engine import Game, lazy_events, state_builder
from rules.words import (
    COUNTED,
    N_,
    Nn_,
    Pending,
    Phrase,
    bar,
    counted,
    counted_later,
    later,
    lines,
    made,
)

#: The hit point counter, 2–10♥: never shuffled into the deck.
HIT_POINT_HEARTS: tuple[str, ...] = tuple(f"{r}H" for r in range(2, 11))
#: The cards a deal shuffles, in canonical order: the 44 left without the counter and BJ.
DECK: tuple[str, ...] = tuple(c for c in CANONICAL if c != "BJ" and c not in HIT_POINT_HEARTS)
DEADLY_DAMAGE = 9  # the 2♥ would be turned: dead
TORCHES = 4
KINGS = 4
SKILL_NAMES: dict[str, str] = {
    "JS": Phrase(N_("Go Berserk")),
    "JD": Phrase(N_("Disarm Mechanism")),
    "JC": Phrase(N_("Pick Lock")),
    "JH": Phrase(N_("Dodge Blow")),
}
#: Which skill beats which kind of encounter (by the encounter's suit).
SKILL_FOR: dict[str, str] = {"S": "JS", "D": "JD", "C": "JC"}
KIND_NAMES: dict[str, str] = {
    "S": Phrase(N_("monster")), "D": Phrase(N_("trap")), "C": Phrase(N_("door")),
}

_NUMBERS = tuple(str(n) for n in range(2, 11))
#: 2–10 of ♠ ♦ ♣ by number: encounters and action cards.
NUMBER: dict[str, int] = {f"{n}{s}": int(n) for n in _NUMBERS for s in "SDC"}
#: What each treasure is worth, in the score and in a treasure drop.
TREASURE_VALUE: dict[str, int] = {
    **{f"{n}D": int(n) for n in _NUMBERS},
    **{f"K{s}": 10 for s in "SHDC"},
    "RJ": 6,
}


@lazy_events
@dataclass(frozen=True, slots=True)
class TombState:
    """One moment of a Tomb run. Cards are codes; ``deck`` is top first.

    Every card of the deal is in exactly one of ``deck``, ``torches``, ``hand``, ``turn``,
    ``stacks``, ``discards`` and ``counter`` (with the nine hit point hearts beside them).
    """

    variant: str
    seed: int
    stream: int  # words of the seed's stream used so far (the deal's shuffle)
    deck: tuple[str, ...]
    torches: tuple[str, ...] = ()  # burnt Aces (and the Scroll of Light once it saved one)
    hand: tuple[str, ...] = ()  # in the order the cards joined it
    damage: int = 0
    turn: tuple[str, ...] = ()  # the current turn's cards, in order (used Jacks included)
    encounter: str | None = None  # None exactly between turns (and before a turn's encounter)
    pending: str | None = None  # None, "dodge", "door" or "leave"
    owed: int = 0  # the blow about to land ("dodge") or the cards to discard ("door")
    phase: str = "delve"  # "delve", "retreat" or "over"
    delve_turns: int = 0  # finished delve turns
    retreat_turns: int = 0  # finished retreat turns
    retreat_needed: int | None = None  # N − 1 once the player turned back
    stacks: tuple[str, ...] = ()  # cards of finished turns, stacked face down
    discards: tuple[str, ...] = ()  # cards a failed door threw out of the game
    counter: tuple[str, ...] = ()  # J♥ once played on the hit point counter
    outcome: str | None = None  # None, "won", "escaped", "dead" or "lost_in_dark"
    moves: int = 0
    events: tuple[str, ...] = ()  # what the last action did, in sentences


#: ``TombState(*fields)`` without the frozen ``__init__``'s cost: fields in their order.
_build = state_builder(TombState)


def is_treasure(card: str) -> bool:
    """True for the cards a won turn collects: 2–10♦, Kings and the Scroll of Light."""
    return card in TREASURE_VALUE


def score_of(hand: tuple[str, ...] | list[str]) -> tuple[int, int]:
    """``(kings, points)`` of a hand: K 10, 2–10♦ face value, ``RJ`` 6, Jacks 0."""
    kings = points = 0
    for c in hand:  # a plain loop: every finished run and every board asks
        if c[0] == "K":
            kings += 1
        points += TREASURE_VALUE.get(c, 0)
    return kings, points


def score_words(kings: int, points: int) -> str:
    """The score as a newcomer reads it: ``1 King, 17 points`` (not the rulebook's ``1/17``)."""
    return made(_score_later(kings, points))


def _score_later(kings: int, points: int) -> Pending:
    """:func:`score_words`, made when read (the last event of a run: ``rules.words.later``)."""
    return later("{kings}, {points}", kings=counted_later(COUNTED["King"], kings),
                 points=counted_later(COUNTED["point"], points))


def hp_card(damage: int) -> str | None:
    """The heart showing on the hit point counter after ``damage``; None once dead."""
    return f"{10 - damage}H" if damage < DEADLY_DAMAGE else None


def locations(state: TombState) -> dict[str, tuple[str, ...]]:
    """Where every card of the deal is: the 44 (or fewer) deck cards and the 9 hearts."""
    return {
        "deck": state.deck,
        "torches": state.torches,
        "hand": state.hand,
        "turn": state.turn,
        "stacks": state.stacks,
        "discards": state.discards,
        "counter": HIT_POINT_HEARTS + state.counter,
    }


def encounter_options(hand: tuple[str, ...] | list[str], encounter: str) -> list[str]:
    """The actions before the next card of an encounter: flip, its skill, treasure drops."""
    suit = encounter[-1]
    options = ["flip"]
    skill = SKILL_FOR[suit]
    if skill in hand:
        options.append(_SKILL_ACTION[skill])
    if suit == "S":
        strength = NUMBER[encounter]
        for c in hand:  # a plain loop: this runs for every state of a fight
            if TREASURE_VALUE.get(c, 0) >= strength:
                options.append(_DROP_ACTION[c])
    return options


_IS_TREASURE = TREASURE_VALUE.__contains__  # is_treasure, for filter()
_SKILL_ACTION: dict[str, str] = {c: f"skill {c}" for c in SKILL_NAMES}
_DROP_ACTION: dict[str, str] = {c: f"drop {c}" for c in TREASURE_VALUE}


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``cards`` less the first ``card`` (``ValueError`` when absent, like ``list.remove``)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


# The words of a turn's cards, worked out once.
_SHOWN: dict[str, str] = {c: display(c) for c in CANONICAL}
#: An encounter as the sentences name it (``the 7♠ monster``): a whole phrase per kind.
_ENCOUNTER_NAME: dict[str, str] = {
    c: Phrase({"S": N_("{card} monster"), "D": N_("{card} trap"), "C": N_("{card} door")}[c[-1]],
              card=display(c))
    for c in NUMBER
}
_MEET: dict[str, str] = {
    c: Phrase({
        "S": N_("You turn {card}: a monster of strength {strength} blocks the way."),
        "D": N_("You turn {card}: a trap of strength {strength} guards the way."),
        "C": N_("You turn {card}: a door sealed with strength {strength} bars the way."),
    }[c[-1]], card=display(c), strength=NUMBER[c])
    for c in NUMBER
}
#: What a high enough action card does to each kind of encounter.
_OVERCOMES: dict[str, str] = {
    "S": N_("Your {card} slays the {encounter}."),
    "D": N_("Your {card} disarms the {encounter}."),
    "C": N_("Your {card} opens the {encounter}."),
}
_TURN_JACK: dict[str, str] = {
    c: Phrase(N_("You turn {card}: {skill} joins your hand."), card=display(c), skill=skill)
    for c, skill in SKILL_NAMES.items()
}
_TURN_TREASURE: dict[str, str] = {
    c: Phrase(N_("You turn {card}: the Scroll of Light! It waits in the turn.") if c == "RJ"
              else N_("You turn {card}: a King's treasure! It waits in the turn."),
              card=display(c))
    for c in ("KS", "KH", "KD", "KC", "RJ")
}


def _delve(number: int) -> Phrase:
    if number == 1:
        return Phrase(N_("You step into the tomb: turn 1."))
    return Phrase(N_("You delve deeper: turn {number}."), number=number)


#: What starting delve turn n says (the deck cannot hold out for more turns than cards).
_DELVE: tuple[str, ...] = ("", *(_delve(n) for n in range(1, len(DECK) + 1)))
_OVER = Phrase(N_("The game is over."))
_TURN_LOST = Phrase(N_("The turn is lost."))


def _show(cards: tuple[str, ...] | list[str]) -> str:
    """``rules.cards.show`` from the table."""
    return " ".join(map(_SHOWN.__getitem__, cards)) if cards else "—"

# ----- the words a board shows (the terminal and Discord alike) ---------------------------

#: Damage a player survives: the hit point counter runs 10♥ … 2♥, the 2♥ turned is death.
SURVIVABLE = DEADLY_DAMAGE - 1


def hit_points_text(view: dict[str, Any]) -> str:
    """``❤️ 8♥ showing · 2 damage`` and a bar of what is still survivable, on two lines."""
    damage = view["damage"]
    if view["hp_card"] is None:
        return Phrase(N_("💀 {damage} damage: the 2♥ is turned"), damage=damage)
    left = max(0, SURVIVABLE - damage)
    return lines(
        Phrase(N_("❤️ {card} showing · {damage} damage"), card=display(view["hp_card"]),
               damage=damage),
        Phrase(N_("{bar} {left} more survivable"), bar=bar(left, SURVIVABLE), left=left),
    )


def torches_text(view: dict[str, Any]) -> str:
    """``🔥 2/4 burnt out: A♠ A♥`` and the Scroll of Light's part, if any."""
    aces = [c for c in view["torches"] if c.startswith("A")]
    if aces:
        text = Phrase(N_("🔥 {burnt}/{torches} burnt out: {cards}"), burnt=len(aces),
                      torches=TORCHES, cards=show(aces))
    else:
        text = Phrase(N_("🔥 {burnt}/{torches} burnt out"), burnt=0, torches=TORCHES)
    if "RJ" in view["torches"]:
        return lines(text, Phrase(N_("📜 The Scroll of Light burnt instead of a 4th Ace")))
    if "RJ" in view["hand"]:
        return lines(text, Phrase(N_("📜 Scroll of Light in hand: it saves you from the 4th Ace")))
    return text


def progress_text(view: dict[str, Any]) -> str:
    """How deep the player is and what the way out costs."""
    delved, back, needed = view["delve_turns"], view["retreat_turns"], view["retreat_needed"]
    between = not view["turn"]
    if view["phase"] == "delve":
        if not between:
            return Phrase(N_("⬇️ Delving: turn {turn} (deeper turns cost retreat turns)"),
                          turn=delved + 1)
        if delved == 0:
            return Phrase(N_("⬇️ At the entrance: no turn played yet"))
        return counted(Nn_("⬇️ Delved {count} turn · turning back now: {way}",
                           "⬇️ Delved {count} turns · turning back now: {way}"), delved,
                       way=_way_out(delved))
    if view["phase"] == "retreat":
        if not between:
            return Phrase(N_("↩️ Retreating: turn {turn} of {needed} on the way out"),
                          turn=back + 1, needed=needed)
        return counted(Nn_("↩️ Retreating: {back} of {count} retreat turn done",
                           "↩️ Retreating: {back} of {count} retreat turns done"), needed or 0,
                       back=back)
    if needed is not None:
        return counted(Nn_("Delved {count} turn, retreated {back} of {needed}",
                           "Delved {count} turns, retreated {back} of {needed}"), delved,
                       back=back, needed=needed)
    return counted(Nn_("Delved {count} turn", "Delved {count} turns"), delved)


def turn_text(view: dict[str, Any]) -> str:
    """The encounter (bold) and the cards of the turn so far."""
    encounter = view["encounter"]
    if encounter:
        kind = KIND_NAMES.get(encounter[-1]) or Phrase(N_("encounter"))
        head = Phrase(N_("Encounter: {card} {kind}"), card=f"**{display(encounter)}**", kind=kind)
    else:
        head = Phrase(N_("No encounter yet"))
    return lines(head, Phrase(N_("Cards: {cards}"), cards=show(view["turn"])))


def hand_text(hand: list[str]) -> str:
    """The treasure and the skills in the hand, on two lines."""
    treasure = [c for c in hand if c in TREASURE_VALUE]
    skills = [c for c in hand if c in SKILL_NAMES]
    shown = show(treasure) if treasure else Phrase(N_("none yet"))
    first = Phrase(N_("💰 Treasure: {cards}"), cards=shown)
    if skills:
        named = lines(*(Phrase("{card} {skill}", card=display(c), skill=SKILL_NAMES[c])
                        for c in skills), sep=", ")
        return lines(first, Phrase(N_("✨ Skills: {skills}"), skills=named))
    return lines(first, Phrase(N_("✨ Skills: none")))


def _way_out(delved: int) -> str:
    return Phrase(N_("out at once")) if delved <= 1 else plural(delved - 1, "retreat turn")


def _flip_label(view: dict[str, Any]) -> str:
    if view["turn"]:
        return Phrase(N_("Turn the next card"))
    if view["phase"] == "retreat":
        return Phrase(N_("Retreat turn {turn} of {needed}"), turn=view["retreat_turns"] + 1,
                      needed=view["retreat_needed"])
    if view["delve_turns"] == 0:
        return Phrase(N_("Enter the tomb"))
    return Phrase(N_("Delve deeper (turn {turn})"), turn=view["delve_turns"] + 1)


def action_label(view: dict[str, Any], action: str) -> str:
    """What ``action`` does, in the words of the board's button."""
    verb, _, arg = action.partition(" ")
    if action == "flip":
        return _flip_label(view)
    if action == "retreat":
        return Phrase(N_("Turn back ({way})"), way=_way_out(view["delve_turns"]))
    if verb == "skill":
        return Phrase("{card} {skill}", card=display(arg),
                      skill=SKILL_NAMES.get(arg) or Phrase(N_("skill")))
    if action == "dodge":
        return Phrase(N_("Dodge the blow ({card})"), card="J♥")
    if action == "endure":
        owed = view.get("owed")
        if owed:
            return Phrase(N_("Take the blow ({damage} damage)"), damage=owed)
        return Phrase(N_("Take the blow"))
    if action == "discard":
        owed = view.get("owed")
        if owed:
            return counted(Nn_("Discard {count} card from the deck",
                               "Discard {count} cards from the deck"), owed)
        return Phrase(N_("Discard cards"))
    if verb == "drop":
        return Phrase(N_("Drop {card} ({value})"), card=display(arg),
                      value=TREASURE_VALUE.get(arg, 0))
    if verb == "leave":
        return Phrase(N_("Leave {card} to mark the turn"), card=display(arg))
    return action


class _Table:
    """A mutable working copy of a state while one action plays out (fast, then frozen).

    The card rows stay tuples, replaced rather than changed: most actions touch one or two of
    them, so the rest pass to the next state as they are.
    """

    __slots__ = (
        "counter", "damage", "deck", "delve_turns", "discards", "encounter", "events",
        "favour", "hand", "in_turn", "outcome", "owed", "pending", "phase", "retreat_needed",
        "retreat_turns", "stacks", "top", "torches", "turn",
    )

    def __init__(self, s: TombState) -> None:
        self.deck = s.deck
        self.top = 0  # cards taken off the top of ``deck``: sliced off once, when frozen
        self.torches = s.torches
        self.hand = s.hand
        self.turn = s.turn
        self.stacks = s.stacks
        self.discards = s.discards
        self.counter = s.counter
        self.damage = s.damage
        self.encounter = s.encounter
        self.pending = s.pending
        self.owed = s.owed
        self.phase = s.phase
        self.delve_turns = s.delve_turns
        self.retreat_turns = s.retreat_turns
        self.retreat_needed = s.retreat_needed
        self.outcome = s.outcome
        # Every stop inside a turn has its encounter out, so this is all a state must keep;
        # a Queen's favour is spent the moment the encounter appears.
        self.in_turn = s.encounter is not None
        self.favour = False
        self.events: list[Pending | Phrase] = []  # later() items and phrases

    def freeze(self, s: TombState) -> TombState:
        return _build(
            s.variant, s.seed, s.stream, self.deck[self.top :], self.torches, self.hand,
            self.damage, self.turn, self.encounter, self.pending, self.owed, self.phase,
            self.delve_turns, self.retreat_turns, self.retreat_needed, self.stacks,
            self.discards, self.counter, self.outcome, s.moves + 1, tuple(self.events),
        )

    # ----- the flow of a turn --------------------------------------------------------------

    def play_on(self) -> None:
        """Turn cards until the player has a choice, the turn ends or the game does."""
        while self.in_turn and self.outcome is None and self.pending is None:
            encounter = self.encounter
            if encounter is not None:
                # Stop where encounter_options() offers more than flip (inlined: this runs
                # before every card turned on its own).
                suit = encounter[-1]
                if SKILL_FOR[suit] in self.hand:
                    return
                if suit == "S":
                    strength = NUMBER[encounter]
                    for c in self.hand:  # a plain loop: no generator to build each card
                        if TREASURE_VALUE.get(c, 0) >= strength:
                            return
            self.turn_card()

    def start_turn(self) -> None:
        self.in_turn = True
        if self.phase == "delve":
            number = self.delve_turns + 1
            self.events.append(_DELVE[number] if number < len(_DELVE) else _delve(number))
        else:
            self.events.append(later(
                N_("You head for the exit: retreat turn {turn} of {needed}."),
                turn=self.retreat_turns + 1, needed=self.retreat_needed))

    def turn_card(self) -> None:
        if self.top == len(self.deck):
            self.end("lost_in_dark", later(N_("The deck is empty: you are lost in the dark.")))
            return
        card = self.deck[self.top]
        self.top += 1
        # The commonest cards first: 27 of the 44 are numbers.
        if card in NUMBER:
            self.turn += (card,)
            if self.encounter is not None:
                self.attempt(card)
                return
            # The turn's encounter appears.
            self.encounter = card
            self.events.append(_MEET[card])
            if self.favour:
                self.events.append(later(N_("By the goddess's favour the {encounter} gives way."),
                                         encounter=self.encounter_name()))
                self.win()
        elif card in _TURN_JACK:
            self.hand += (card,)
            self.events.append(_TURN_JACK[card])
        elif card in _TURN_TREASURE:  # a King or the Scroll of Light
            self.turn += (card,)
            self.events.append(_TURN_TREASURE[card])
        elif card[0] == "A":
            self.burn(card, _SHOWN[card], turned=True)
        else:  # a Queen
            shown = _SHOWN[card]
            self.turn += (card,)
            if self.encounter is not None:
                self.events.append(later(
                    N_("You turn {card}: the goddess smiles on you and the {encounter} gives way."),
                    card=shown, encounter=self.encounter_name()))
                self.win()
            elif self.favour:
                self.events.append(later(N_("You turn {card}: the goddess already favours you."),
                                         card=shown))
            else:
                self.favour = True
                self.events.append(later(
                    N_("You turn {card}: the goddess smiles on you. The next encounter is won."),
                    card=shown))

    def attempt(self, card: str) -> None:
        enc = self.encounter
        assert enc is not None
        shown, strength, value = _SHOWN[card], NUMBER[enc], NUMBER[card]
        suit = enc[-1]
        if value >= strength:
            self.events.append(later(_OVERCOMES[suit], card=shown,
                                     encounter=_ENCOUNTER_NAME[enc]))
            self.win()
            return
        short = strength - value
        if suit == "S":
            self.events.append(later(
                N_("Your {card} falls short: the monster hits you for {damage}."), card=shown,
                damage=short))
            self.blow(short)
        elif suit == "D":
            self.events.append(later(
                N_("Your {card} falls short: the trap springs for {damage}."), card=shown,
                damage=short))
            self.blow(short)
            if self.pending is None and self.outcome is None:
                self.lose_turn()
        elif "JC" in self.hand:
            self.events.append(counted_later(
                Nn_("Your {card} fails to open the {door} door: pick the lock with {jack}, or "
                    "discard {count} card.",
                    "Your {card} fails to open the {door} door: pick the lock with {jack}, or "
                    "discard {count} cards."), short, card=shown, door=_SHOWN[enc], jack="J♣"))
            self.pending, self.owed = "door", short
        else:
            self.events.append(counted_later(
                Nn_("Your {card} fails to open the {door} door: you discard {count} card.",
                    "Your {card} fails to open the {door} door: you discard {count} cards."),
                short, card=shown, door=_SHOWN[enc]))
            self.discard(short)

    def blow(self, amount: int) -> None:
        if "JH" in self.hand:
            self.pending, self.owed = "dodge", amount
            self.events.append(later(N_("{card} in your hand could dodge this blow of {damage}."),
                                     card="J♥", damage=amount))
        else:
            self.hurt(amount)

    def hurt(self, amount: int) -> None:
        self.damage += amount
        if self.damage >= DEADLY_DAMAGE:
            self.end("dead", later(N_("You take {damage} damage ({total} in all): you die."),
                                   damage=amount, total=self.damage))
            return
        showing = _SHOWN[f"{10 - self.damage}H"]
        self.events.append(later(
            N_("You take {damage} damage ({total} in all, {card} showing)."), damage=amount,
            total=self.damage, card=showing))

    def after_blow(self) -> None:
        """A blow was dodged or taken: a trap's turn is lost, a fight goes on."""
        if self.outcome is None and self.encounter is not None and self.encounter[-1] == "D":
            self.lose_turn()

    def discard(self, count: int) -> None:
        for _ in range(count):
            if self.top == len(self.deck):
                self.end("lost_in_dark",
                         Phrase(N_("The deck runs out while you discard: lost in the dark.")))
                return
            card = self.deck[self.top]
            self.top += 1
            if card[0] == "A":
                self.burn(card, _SHOWN[card], turned=False)
                if self.outcome is not None:
                    return
            else:
                self.discards += (card,)
                self.events.append(later(N_("You discard {card}: it is out of the game."),
                                         card=_SHOWN[card]))
        self.lose_turn()

    def burn(self, ace: str, shown: str, turned: bool) -> None:
        """An Ace turned up (``turned``) or discarded: a torch burns, or the 4th-Ace rule."""
        burnt = len(self.torches) - ("RJ" in self.torches)  # the Scroll burns once at most
        words = _BURN_TURNED if turned else _BURN_DISCARDED
        if burnt < TORCHES - 1:
            self.torches += (ace,)
            left = TORCHES - 1 - burnt
            self.events.append(later(words[0], card=shown, left=left))
        elif "RJ" in self.hand:
            self.hand = _without(self.hand, "RJ")
            self.torches += ("RJ",)
            self.deck += (ace,)
            self.events.append(later(words[1], card=shown, joker="🃏", ace=display(ace)))
        else:
            self.torches += (ace,)
            self.end("lost_in_dark", later(words[2], card=shown))

    def win(self) -> None:
        treasures = list(filter(_IS_TREASURE, self.turn))
        if treasures and len(treasures) == len(self.turn):
            if len(treasures) == 1:  # cannot happen with real cards; keep it anyway
                self.leave(treasures[0])
                return
            self.pending = "leave"
            self.events.append(later(
                N_("The turn holds only treasure: choose one card to leave behind to mark it.")))
            return
        if treasures:
            self.collect(treasures, tuple(filterfalse(_IS_TREASURE, self.turn)))
        else:
            self.end_turn()

    def collect(self, treasures: list[str], kept: tuple[str, ...]) -> None:
        """The hand takes ``treasures``, the turn keeps ``kept`` (the rest) to mark it."""
        self.hand += tuple(treasures)
        self.turn = kept
        self.events.append(later(N_("You collect {cards}."), cards=_show(treasures)))
        self.end_turn()

    def leave(self, card: str) -> None:
        self.pending = None
        self.events.append(later(N_("You leave {card} to mark the turn."), card=_SHOWN[card]))
        rest = [c for c in self.turn if c != card]
        if rest:
            self.collect(rest, (card,))
        else:
            self.end_turn()

    def lose_turn(self) -> None:
        lost = list(filter(_IS_TREASURE, self.turn))
        if lost:
            self.events.append(later(N_("The turn is lost, and {cards} with it."),
                                     cards=_show(lost)))
        else:
            self.events.append(_TURN_LOST)
        self.end_turn()

    def end_turn(self) -> None:
        self.stacks += self.turn
        self.turn = ()
        self.encounter = None
        self.favour = False
        self.in_turn = False
        if self.phase == "delve":
            self.delve_turns += 1
            return
        self.retreat_turns += 1
        if self.retreat_needed is not None and self.retreat_turns >= self.retreat_needed:
            self.get_out()

    def get_out(self) -> None:
        kings, points = score_of(self.hand)
        if kings == KINGS:
            self.end("won", counted_later(
                Nn_("You climb out with all four Kings' hoards and {count} point. You win!",
                    "You climb out with all four Kings' hoards and {count} points. You win!"),
                points))
        else:
            self.end("escaped", later(N_("You climb out of the tomb alive with {score}."),
                                      score=_score_later(kings, points)))

    def end(self, outcome: str, sentence: Pending | Phrase) -> None:
        self.outcome = outcome
        self.phase = "over"
        self.pending = None
        self.owed = 0
        self.in_turn = False
        self.events.append(sentence)

    def encounter_name(self) -> str:
        enc = self.encounter
        return _ENCOUNTER_NAME[enc] if enc else Phrase(N_("encounter"))


#: What an Ace turned up (or discarded) says: a torch burns out, the Scroll of Light burns
#: in the last one's place, or the last torch burns out.
_BURN_TURNED: tuple[str, str, str] = (
    N_("You turn {card}: a torch burns out, {left} left."),
    N_("You turn {card}: your last torch fails, but the Scroll of Light {joker} burns in its "
       "place and {ace} goes to the bottom of the deck."),
    N_("You turn {card}: your last torch burns out. Darkness falls."),
)
_BURN_DISCARDED: tuple[str, str, str] = (
    N_("You discard {card}: a torch burns out, {left} left."),
    N_("You discard {card}: your last torch fails, but the Scroll of Light {joker} burns in "
       "its place and {ace} goes to the bottom of the deck."),
    N_("You discard {card}: your last torch burns out. Darkness falls."),
)


def _retreat(needed: int) -> str:
    return counted(Nn_("You turn back: {count} retreat turn to the way out.",
                       "You turn back: {count} retreat turns to the way out."), needed)


#: What turning back with n retreat turns ahead says, for every n a deck allows.
_RETREAT: tuple[str, ...] = tuple(_retreat(n) for n in range(len(DECK) + 1))


def _dealt(cards: int) -> str:
    return Phrase(N_("The tomb lies before you: {cards} cards, four torches, 9 hit points."),
                  cards=cards)


_DEALT = _dealt(len(DECK))


class Tomb(Game[TombState]):
    """The Tomb of Four Kings engine."""

    key = "tomb"
    title = "Tomb of Four Kings"
    variants = ("standard",)
    state_type = TombState
    deck = DECK
    stat = (1, "points")
    outcomes: ClassVar[dict[str, str]] = {
        "won": "win", "escaped": "out", "dead": "loss", "lost_in_dark": "loss"
    }
    outcome_names: ClassVar[dict[str, str]] = {
        "won": N_("won"), "escaped": N_("escaped"), "dead": N_("dead"),
        "lost_in_dark": N_("lost in the dark"),
    }
    variant_names: ClassVar[dict[str, str]] = {"standard": N_("standard")}
    #: 2: events are dumped with their templates and fields.
    format_version = 2

    def _new(self, seed: int, variant: str, deck: tuple[str, ...] | None) -> TombState:
        if deck is None:
            order = list(self.deck)
            used = shuffle_from(seed, 0, order)  # the seed checked by new()
            cards = tuple(order)
        else:
            known = set(self.deck)
            strays = [c for c in deck if c not in known]
            if strays:
                raise ValueError(f"not a Tomb card: {', '.join(map(str, strays))}")
            if len(set(deck)) != len(deck):
                raise ValueError("a Tomb deck holds each card at most once")
            cards, used = deck, 0
        # TombState(variant, seed, stream=used, deck=cards, events=...), every default spelt out.
        return _build(
            variant, seed, used, cards, (), (), 0, (), None, None, 0, "delve", 0, 0, None, (),
            (), (), None, 0,
            (_DEALT if len(cards) == len(DECK) else _dealt(len(cards)),),
        )

    # ----- rules ---------------------------------------------------------------------------

    def actions(self, state: TombState) -> list[str]:
        if state.outcome is not None:
            return []
        pending = state.pending
        if pending is None:
            if state.encounter is None:
                # Between turns: once a delve turn is done the player may turn back; during
                # the retreat (and before the first card) turning the next card is the only
                # move.
                if state.phase == "delve" and state.delve_turns > 0:
                    return ["flip", "retreat"]
                return ["flip"]
            return encounter_options(state.hand, state.encounter)
        if pending == "dodge":
            return ["dodge", "endure"]
        if pending == "door":
            return ["skill JC", "discard"]
        return [f"leave {c}" for c in state.turn if c in TREASURE_VALUE]  # "leave"

    def apply(self, state: TombState, action: str) -> TombState:
        # The two commonest moves of random play go straight through, without the generic
        # check and dispatch, their legality read as is_legal reads it: flip (two moves in
        # three) whenever nothing is pending, turning back (one in five) between delve turns.
        if state.pending is None and state.outcome is None:
            if action == "flip":
                t = _Table(state)
                if t.in_turn:
                    t.turn_card()
                else:
                    t.start_turn()
                t.play_on()
                return t.freeze(state)
            if (action == "retreat" and state.encounter is None and state.phase == "delve"
                    and state.delve_turns > 0):
                return self._apply(state, action)
        return super().apply(state, action)

    def _apply(self, state: TombState, action: str) -> TombState:
        if action == "retreat" and state.delve_turns > 1:
            # A fifth of random play: turning back with retreat turns ahead sets two fields,
            # built directly (the table below would do the same, only slower).
            s, needed = state, state.delve_turns - 1
            return _build(
                s.variant, s.seed, s.stream, s.deck, s.torches, s.hand, s.damage, s.turn,
                s.encounter, s.pending, s.owed, "retreat", s.delve_turns, s.retreat_turns,
                needed, s.stacks, s.discards, s.counter, s.outcome, s.moves + 1,
                (_RETREAT[needed] if needed < len(_RETREAT) else _retreat(needed),),
            )
        t = _Table(state)
        verb, _, arg = action.partition(" ")
        if verb == "flip":
            if t.in_turn:
                t.turn_card()
            else:
                t.start_turn()
        elif verb == "retreat":
            t.retreat_needed = t.delve_turns - 1
            t.phase = "retreat"
            if t.retreat_needed == 0:
                t.events.append(later(
                    N_("You turn back after a single turn: the way out is right there.")))
                t.get_out()
            else:
                t.events.append(_retreat(t.retreat_needed))
        elif verb == "skill":
            t.hand = _without(t.hand, arg)
            t.turn += (arg,)
            if t.pending == "door":
                t.pending, t.owed = None, 0
                t.events.append(later(N_("You play {card}, {skill}: the lock gives."),
                                      card=display(arg), skill=SKILL_NAMES[arg]))
            else:
                t.events.append(later(
                    N_("You play {card}, {skill}: the {encounter} is overcome."),
                    card=display(arg), skill=SKILL_NAMES[arg], encounter=t.encounter_name()))
            t.win()
        elif verb == "drop":
            t.hand = _without(t.hand, arg)
            t.turn += (arg,)
            t.events.append(later(
                N_("You drop {card} to buy off the {encounter}: no damage, no loot."),
                card=display(arg), encounter=t.encounter_name()))
            t.lose_turn()
        elif verb == "dodge":
            t.hand = _without(t.hand, "JH")
            t.counter += ("JH",)
            t.events.append(later(N_("You dodge the blow of {damage} with {card}."),
                                  damage=t.owed, card="J♥"))
            t.pending, t.owed = None, 0
            t.after_blow()
        elif verb == "endure":
            amount = t.owed
            t.pending, t.owed = None, 0
            t.hurt(amount)
            t.after_blow()
        elif verb == "discard":
            count = t.owed
            t.pending, t.owed = None, 0
            t.events.append(counted_later(Nn_("You keep {card} and discard {count} card.",
                                              "You keep {card} and discard {count} cards."),
                                          count, card="J♣"))
            t.discard(count)
        else:  # leave
            t.leave(arg)
        t.play_on()
        return t.freeze(state)

    def is_legal(self, state: TombState, action: str) -> bool:
        if state.pending is None and state.outcome is None:
            # With nothing pending, flip is always legal; between turns, retreat may be too.
            if action == "flip":
                return True
            if state.encounter is None:
                return action == "retreat" and state.phase == "delve" and state.delve_turns > 0
        return action in self.actions(state)

    def refusal(self, state: TombState, action: str) -> str:
        if state.outcome is not None:
            return _OVER
        verb, _, arg = action.partition(" ")
        pending = state.pending
        waiting = {
            "dodge": Phrase(N_("A blow of {damage} is landing: dodge it or endure it first."),
                            damage=state.owed),
            "door": Phrase(N_("The door held: pick the lock with {card} or discard first."),
                           card="J♣"),
            "leave": Phrase(N_("Choose the treasure that stays to mark the turn first.")),
        }
        if verb == "flip" and not arg:
            return waiting.get(pending or "") or Phrase(N_("You cannot turn a card now."))
        if verb == "retreat" and not arg:
            if state.phase == "retreat":
                return Phrase(N_("You are already on your way out."))
            if state.encounter is not None:
                return Phrase(N_("You can only turn back between turns."))
            if state.delve_turns == 0:
                return Phrase(N_("You have not entered the tomb yet: turn the first card."))
            return waiting.get(pending or "") or Phrase(N_("You cannot turn back now."))
        if verb == "skill":
            return self._skill_refusal(state, arg)
        if verb in ("dodge", "endure") and not arg:
            if pending != "dodge":
                return Phrase(N_("No blow is landing."))
            if verb == "dodge":
                return Phrase(N_("You have no {card}."), card="J♥")
            return Phrase(N_("You cannot endure now."))
        if verb == "discard" and not arg:
            if pending != "door":
                return Phrase(N_("Only a door that held while you hold {card} asks you to "
                                 "discard."), card="J♣")
            return Phrase(N_("You cannot discard now."))
        if verb == "drop":
            return self._drop_refusal(state, arg)
        if verb == "leave":
            if pending != "leave":
                return Phrase(N_("You only leave a treasure behind when a won turn holds nothing "
                                 "else."))
            return Phrase(N_("{card} is not a treasure of this turn."), card=name(arg))
        return Phrase(
            N_("{action} is not a Tomb move: flip, retreat, skill JS|JD|JC, dodge, endure, "
               "discard, drop <card> or leave <card>."), action=repr(action))

    def _skill_refusal(self, state: TombState, card: str) -> str:
        if card == "JH":
            return Phrase(N_("{skill} ({card}) is played with 'dodge' when a blow is about to "
                             "land."), skill=SKILL_NAMES["JH"], card="J♥")
        if card not in ("JS", "JD", "JC"):
            return Phrase(N_("{card} is not a skill: play JS, JD or JC."), card=name(card))
        if card not in state.hand:
            return Phrase(N_("You have no {card}."), card=display(card))
        if state.pending is not None and not (state.pending == "door" and card == "JC"):
            if state.pending == "dodge":
                return Phrase(N_("A blow of {damage} is landing: dodge it or endure it first."),
                              damage=state.owed)
            if state.pending == "door":
                return Phrase(N_("The door held: only {skill} ({card}) helps now."),
                              skill=SKILL_NAMES["JC"], card="J♣")
            return Phrase(N_("The encounter is already won."))
        enc = state.encounter
        if enc is None or SKILL_FOR[enc[-1]] != card:
            return Phrase({
                "JS": N_("{skill} ({card}) only works against a monster."),
                "JD": N_("{skill} ({card}) only works against a trap, before its card."),
                "JC": N_("{skill} ({card}) only works against a sealed door."),
            }[card], skill=SKILL_NAMES[card], card=display(card))
        return Phrase(N_("You cannot play {card} now."), card=display(card))

    def _drop_refusal(self, state: TombState, card: str) -> str:
        if state.pending is not None:
            return Phrase(N_("You can only drop treasure before turning a card against a "
                             "monster."))
        enc = state.encounter
        if enc is None or enc[-1] != "S":
            return Phrase(N_("Treasure is only dropped to escape a monster."))
        if card not in state.hand:
            return Phrase(N_("You have no {card}."), card=name(card))
        if card not in TREASURE_VALUE:
            return Phrase(N_("{card} is not treasure."), card=display(card))
        worth = TREASURE_VALUE[card]
        return Phrase(N_("Your {card} is worth {value}, not enough to buy off the {monster}."),
                      card=display(card), value=worth, monster=display(enc))

    # ----- what a player sees --------------------------------------------------------------

    def label(self, view: dict[str, Any], action: str) -> str:
        return action_label(view, action)

    def score(self, s: TombState) -> list[int]:
        if s.outcome in ("dead", "lost_in_dark"):
            return [0, 0, 0]
        kings, points = score_of(s.hand)
        return [kings, points, 1]

    def resigned(self, s: TombState) -> tuple[list[int], str]:
        # Treasure counts only for a delver who climbs out: giving up inside scores what dying
        # does, or resigning with Kings in hand would beat the risk of the way back.
        return [0, 0, 0], Phrase(N_("resigned in the tomb — 0"))

    def score_text(self, s: TombState) -> str:
        if s.outcome == "dead":
            return Phrase(N_("dead — 0"))
        if s.outcome == "lost_in_dark":
            return Phrase(N_("lost in the dark — 0"))
        return score_words(*score_of(s.hand))

    def prompt(self, s: TombState) -> str:
        if s.outcome == "won":
            return counted(Nn_("You escaped with all four Kings and {count} point. You win!",
                               "You escaped with all four Kings and {count} points. You win!"),
                           score_of(s.hand)[1])
        if s.outcome == "escaped":
            return Phrase(N_("You escaped alive with {score}."), score=self.score_text(s))
        if s.outcome == "dead":
            return Phrase(N_("You died in the tomb."))
        if s.outcome == "lost_in_dark":
            return Phrase(N_("You are lost in the dark forever."))
        if s.pending == "dodge":
            return Phrase(N_("A blow of {damage} is about to land: dodge it with {card}, or "
                             "endure it?"), damage=s.owed, card="J♥")
        if s.pending == "door":
            return counted(Nn_("The door held: pick the lock with {card}, or discard {count} "
                               "card?",
                               "The door held: pick the lock with {card}, or discard {count} "
                               "cards?"), s.owed, card="J♣")
        if s.pending == "leave":
            return Phrase(N_("The turn holds only treasure: which card stays behind to mark it?"))
        enc = s.encounter
        if enc is None:
            if s.phase == "retreat":
                return Phrase(N_("Turn the first card of retreat turn {turn} of {needed}."),
                              turn=s.retreat_turns + 1, needed=s.retreat_needed)
            if s.delve_turns == 0:
                return Phrase(N_("Turn the first card to enter the tomb."))
            return Phrase(N_("Delve deeper, or turn back?"))
        # One whole question for each set of choices, so that each reads well in any language.
        skill = SKILL_FOR[enc[-1]]
        has_skill = skill in s.hand
        may_drop = any(a.startswith("drop ") for a in encounter_options(s.hand, enc))
        fight = enc[-1] == "S"
        template = _ENCOUNTER_PROMPTS[fight, has_skill, may_drop]
        return Phrase(template, encounter=_ENCOUNTER_NAME[enc], card=display(skill),
                      skill=SKILL_NAMES[skill])

    def view(self, state: TombState) -> dict[str, Any]:
        over = state.outcome is not None
        return {
            **self.common_view(state),
            "damage": state.damage,
            "hp_card": hp_card(state.damage),
            "torches": list(state.torches),
            "hand": list(state.hand),
            "phase": "over" if over else state.phase,
            "delve_turns": state.delve_turns,
            "retreat_turns": state.retreat_turns,
            "retreat_needed": state.retreat_needed,
            "turn": list(state.turn),
            "encounter": state.encounter,
            "deck": len(state.deck),
            "pending": state.pending,
            "owed": state.owed,
        }

    def text(self, state: TombState) -> str:
        v = self.view(state)
        shown: list[str] = [
            Phrase(N_("{game} ({variant}) · seed {seed} · move {move}"), game=self.title,
                   variant=self.variant_name(v["variant"]), seed=v["seed"], move=v["moves"]),
            Phrase(N_("Hit points: {hp}"), hp=_rejoined(hit_points_text(v), " · ")),
            Phrase(N_("Torches: {torches}"), torches=_rejoined(torches_text(v), "\n  ")),
            Phrase(N_("Deck: {cards}"), cards=plural(v["deck"], "card")),
            Phrase(N_("Progress: {progress}"), progress=progress_text(v)),
        ]
        if v["turn"]:
            turn = turn_text(v)
            shown.append(Phrase(N_("This turn: {turn}"), turn=_rejoined(turn, " · ", bold=False)))
        shown += [
            Phrase(N_("Hand: {hand}"), hand=_rejoined(hand_text(v["hand"]), " · ")),
            *(Phrase("  ▸ {event}", event=e) for e in v["events"]),
            Phrase(N_("Score: {score}"), score=v["score_text"]),
            v["prompt"],
        ]
        return lines(*shown)


# Helpers

#: The question of an encounter, by (a fight?, the skill in hand?, a treasure to drop?).
_ENCOUNTER_PROMPTS: dict[tuple[bool, bool, bool], str] = {
    (True, False, False): N_("Fight the {encounter}: turn a card?"),
    (True, True, False): N_("Fight the {encounter}: turn a card or play {card} ({skill})?"),
    (True, False, True): N_("Fight the {encounter}: turn a card or drop a treasure to buy it "
                            "off?"),
    (True, True, True): N_("Fight the {encounter}: turn a card, play {card} ({skill}) or drop "
                           "a treasure to buy it off?"),
    (False, False, False): N_("Face the {encounter}: turn a card?"),
    (False, True, False): N_("Face the {encounter}: turn a card or play {card} ({skill})?"),
    (False, False, True): N_("Face the {encounter}: turn a card or drop a treasure to buy it "
                             "off?"),
    (False, True, True): N_("Face the {encounter}: turn a card, play {card} ({skill}) or drop "
                            "a treasure to buy it off?"),
}


def plural(n: int, word: str) -> str:
    """``1 King``, ``3 Kings``: the game words of ``rules.words.COUNTED`` as phrases."""
    forms = COUNTED.get(word)
    if forms is not None:
        return counted(forms, n)
    return f"{n} {word}{'' if n == 1 else 's'}"


def _rejoined(text: str, sep: str, bold: bool = True) -> str:
    """A board's two-line words on one line of the terminal: a :func:`lines` phrase's parts
    joined by ``sep`` instead (``bold=False`` also drops the Discord bold of a field)."""
    message = getattr(text, "message", None)
    if message is None or not all(k.startswith("p") and k[1:].isdigit() for k in message.params):
        return text if bold else text.replace("**", "")
    parts = [message.params[f"p{i}"] for i in range(len(message.params))]
    if not bold:
        parts = [_unbold(p) for p in parts]
    return lines(*parts, sep=sep)


def _unbold(part: object) -> object:
    message = getattr(part, "message", None)
    if message is None:
        return part.replace("**", "") if isinstance(part, str) else part
    params = {k: _unbold(v) for k, v in message.params.items()}
    return Phrase.of(type(message)(message.template, params, message.plural, message.count))


TOMB = Tomb()
