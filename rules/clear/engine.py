"""Clear the Dungeon: slay the twelve face-card monsters with the 42 cards of the power deck.

The rules as this engine plays them (PySolFC's game 909; ``docs/games/clear.md``):

- Four piles of three monsters (J 11, Q 12, K 13); only each pile's top monster is face up.
- The power deck (A–10 of each suit and both jokers, 42 cards) deals hands of three. A joker
  is worth 10 and matches any suit; an ace is worth 1.
- ``put <card> <pile>`` plays a hand card, or the reserve's top card, onto a monster. The 1st
  attack card must satisfy ``value + 10 >= power``, the 2nd ``first + second >= power``, the
  3rd must be of the monster's suit or a joker. The 3rd card always slays: the monster and
  its three cards leave the table and the next monster of the pile turns up.
- ``reserve <card>`` puts a hand card on the reserve (unlimited, last in first out; only
  its top card can be played, and only onto a monster).
- A move from the hand that leaves all three slots empty deals three new cards at once
  (while the power deck has any); a move from the reserve never deals.
- Won when all 12 monsters are slain; stuck (a loss) when no action is left before that.
- Score ``[monsters slain, power cards never used]`` (power deck plus hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.cards import CANONICAL, JOKERS, SUIT_SYMBOLS, display, show
from rules.engine import Game, lazy_events, state_builder
from rules.words import N_, Nn_, Pending, Phrase, counted, counted_later, later, lines, plural

#: The cards a deal shuffles, in canonical order: all 54.
DECK: tuple[str, ...] = CANONICAL
PILES = 4
PILE_SIZE = 3
MONSTERS = PILES * PILE_SIZE
HAND_SIZE = 3
ATTACK_CARDS = 3

_FACE_RANKS = ("J", "Q", "K")
#: A monster's power, by card code.
POWER: dict[str, int] = {
    c: 11 + _FACE_RANKS.index(c[:-1]) for c in CANONICAL if c[:-1] in _FACE_RANKS
}
#: A power card's value, by card code: A = 1, 2–10 face value, jokers 10.
VALUE: dict[str, int] = {
    **{
        c: int(c[:-1]) if c[:-1].isdigit() else 1
        for c in CANONICAL
        if c not in JOKERS and c not in POWER
    },
    **dict.fromkeys(JOKERS, 10),
}
POWER_CARDS = len(VALUE)  # 42

#: Four tuples of cards, one per pile (the monsters, or the attack cards on them).
Piles = tuple[tuple[str, ...], ...]

#: A suit as one card of it is called (``a spade``): a phrase in the players' language.
_SUIT_SINGULAR: dict[str, Phrase] = {
    "S": Phrase(N_("spade")), "H": Phrase(N_("heart")), "D": Phrase(N_("diamond")),
    "C": Phrase(N_("club")),
}
_OVER = Phrase(N_("The game is over."))
#: Every card as the events show it (``display``), worked out once.
_SHOWN: dict[str, str] = {c: display(c) for c in CANONICAL}

# The three attack conditions, tabulated once: legality is then a set look-up, which keeps
# random play well above the 50,000 actions a second that benchmarks ask for.
_FIRST: dict[str, frozenset[str]] = {
    m: frozenset(c for c, v in VALUE.items() if v + 10 >= p) for m, p in POWER.items()
}
_SECOND: dict[tuple[str, str], frozenset[str]] = {
    (m, first): frozenset(c for c, v in VALUE.items() if VALUE[first] + v >= p)
    for m, p in POWER.items()
    for first in VALUE
}
_THIRD: dict[str, frozenset[str]] = {
    m: frozenset(c for c in VALUE if c in JOKERS or c[-1] == m[-1]) for m in POWER
}
_PILE_WORDS = ("1", "2", "3", "4")
# Every action's text, built once (formatting them on each call cost a third of a move).
_PUT: dict[str, tuple[str, ...]] = {c: tuple(f"put {c} {n}" for n in _PILE_WORDS) for c in VALUE}
_RESERVE: dict[str, str] = {c: f"reserve {c}" for c in VALUE}


@lazy_events
@dataclass(frozen=True, slots=True)
class ClearState:
    """One moment of a Clear the Dungeon run. Cards are codes.

    ``piles[i]`` holds pile ``i + 1``'s monsters bottom to top (the last one is face up) and
    ``attack[i]`` the cards already on that top monster, in the order played. ``talon`` is
    the power deck, top first; ``hand`` has three slots (``None`` for an empty one);
    ``reserve`` is bottom to top; ``graveyard`` holds every slain monster followed by its
    three attack cards, in the order they were slain.
    """

    variant: str
    seed: int
    stream: int  # words of the seed's stream used so far (only the deal uses any)
    piles: Piles
    attack: Piles
    talon: tuple[str, ...]
    hand: tuple[str | None, ...]
    reserve: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    moves: int = 0
    outcome: str | None = None  # None, "won" or "stuck"
    events: tuple[str, ...] = ()  # what the last action did, in sentences


#: ``ClearState(*fields)`` without the frozen ``__init__``'s cost: fields in their order.
_build = state_builder(ClearState)


def fits(card: str, monster: str, attack: tuple[str, ...]) -> bool:
    """True when ``card`` may go onto ``monster`` that already carries ``attack``."""
    return card in _allowed(monster, attack)


def _allowed(monster: str, attack: tuple[str, ...]) -> frozenset[str]:
    """Every power card that may go next onto ``monster`` carrying ``attack``."""
    played = len(attack)
    if played == 0:
        return _FIRST[monster]
    if played == 1:
        return _SECOND[monster, attack[0]]
    return _THIRD[monster]


def slain_count(state: ClearState) -> int:
    """How many monsters have been slain."""
    return MONSTERS - sum(len(p) for p in state.piles)


def spare_cards(state: ClearState) -> int:
    """Power cards never used: the power deck plus the cards in the hand."""
    return len(state.talon) + sum(c is not None for c in state.hand)


# ----- the words a board shows (the terminal and Discord alike) ---------------------------


def next_card_text(monster: str, attack: list[str] | tuple[str, ...]) -> str:
    """What the monster's next attack card must be: ``next: 4 or more``."""
    power = POWER[monster]
    if len(attack) == 2:
        return Phrase(N_("next: a {suit} or {joker} slays it"), suit=SUIT_SYMBOLS[monster[-1]],
                      joker="🃏")
    # A first card must leave room for a 10 (the highest value) to complete the power.
    least = power - 10 if not attack else power - VALUE[attack[0]]
    if least <= 1:
        return Phrase(N_("next: any card"))
    return Phrase(N_("next: {least} or more"), least=least)


def pile_text(pile: dict[str, Any]) -> str:
    """A pile of the view: ``K♠ (13) ⟵ 9♣ · next: 4 or more · 1 hidden``, or ``cleared``."""
    monster = pile["monster"]
    if monster is None:
        return Phrase(N_("cleared"))
    attack = pile["attack"]
    shown = f"{display(monster)} ({POWER[monster]})"
    on = show(attack) if attack else Phrase(N_("no attack yet"))
    nxt = next_card_text(monster, attack)
    if pile["hidden"]:
        return Phrase(N_("{monster} ⟵ {attack} · {next} · {hidden} hidden"), monster=shown,
                      attack=on, next=nxt, hidden=pile["hidden"])
    return Phrase("{monster} ⟵ {attack} · {next}", monster=shown, attack=on, next=nxt)


def hand_text(hand: list[str | None]) -> str:
    """The hand's three places: ``8♠  —  10♥``."""
    return "  ".join(display(c) if c else "—" for c in hand)


def reserve_text(reserve: list[str]) -> str:
    """``top 3♦ · 2 cards``, or ``empty``."""
    if not reserve:
        return Phrase(N_("empty"))
    return counted(Nn_("top {card} · {count} card", "top {card} · {count} cards"), len(reserve),
                   card=display(reserve[-1]))


def power_deck_text(talon: int) -> str:
    """``39 cards (13 deals)``."""
    return Phrase("{cards} ({deals})", cards=plural(talon, "card"),
                  deals=plural(talon // HAND_SIZE, "deal"))


def slain_text(slain: int) -> str:
    """``⚔️ 3/12``."""
    return f"⚔️ {slain}/{MONSTERS}"


class ClearTheDungeon(Game[ClearState]):
    """The Clear the Dungeon engine."""

    key = "clear"
    title = "Clear the Dungeon"
    variants = ("standard",)
    state_type = ClearState
    deck = DECK
    stat = (0, "monsters slain")
    stat_units = Nn_("{count} monster slain", "{count} monsters slain")
    outcomes: ClassVar[dict[str, str]] = {"won": "win", "stuck": "loss"}
    outcome_names: ClassVar[dict[str, str]] = {"won": N_("won"), "stuck": N_("stuck")}
    variant_names: ClassVar[dict[str, str]] = {"standard": N_("standard")}
    #: 2: events are dumped with their templates and fields.
    format_version = 2

    def _new(self, seed: int, variant: str, deck: tuple[str, ...] | None) -> ClearState:
        cards, used = self.deal_order(seed, self.deck, deck)
        monsters = [c for c in cards if c in POWER]
        power = tuple(c for c in cards if c not in POWER)
        piles = tuple(tuple(monsters[i * PILE_SIZE : (i + 1) * PILE_SIZE]) for i in range(PILES))
        hand, talon = power[:HAND_SIZE], power[HAND_SIZE:]
        guards = [display(p[-1]) for p in piles]
        return ClearState(
            variant=variant,
            seed=seed,
            stream=used,
            piles=piles,
            attack=((),) * PILES,
            talon=talon,
            hand=hand,
            events=(
                later(N_("You enter the dungeon: {first}, {second}, {third} and {fourth} stand "
                         "guard."), first=guards[0], second=guards[1], third=guards[2],
                      fourth=guards[3]),
                later(N_("Your first hand: {cards}."), cards=show(hand)),
            ),
        )

    # ----- rules ---------------------------------------------------------------------------

    def actions(self, state: ClearState) -> list[str]:
        if state.outcome is not None:
            return []
        attack = state.attack
        targets = [(i, _allowed(pile[-1], attack[i])) for i, pile in enumerate(state.piles) if pile]
        held = [c for c in state.hand if c is not None]
        sources = [*held, state.reserve[-1]] if state.reserve else held
        moves = [_PUT[card][i] for card in sources for i, allowed in targets if card in allowed]
        moves.extend([_RESERVE[card] for card in held])
        return moves

    def is_legal(self, state: ClearState, action: str) -> bool:
        if state.outcome is not None:
            return False
        words = action.split(" ")
        if len(words) == 2 and words[0] == "reserve":
            return words[1] in state.hand
        if len(words) != 3 or words[0] != "put" or words[2] not in _PILE_WORDS:
            return False
        card, i = words[1], int(words[2]) - 1
        if card not in state.hand and not (state.reserve and card == state.reserve[-1]):
            return False
        pile = state.piles[i]
        return bool(pile) and card in _allowed(pile[-1], state.attack[i])

    def refusal(self, state: ClearState, action: str) -> str:
        if state.outcome is not None:
            return _OVER
        words = action.split(" ")
        if words[0] == "put" and len(words) == 3:
            return self._put_refusal(state, words[1], words[2])
        if words[0] == "reserve" and len(words) == 2:
            card = words[1]
            if card in state.reserve:
                return Phrase(N_("A card on the reserve can only go onto a monster."))
            if card in state.hand:
                return Phrase(N_("You cannot put {card} on the reserve now."),
                              card=display(card))
            return self._whereabouts(state, card)
        return Phrase(N_("{action} is not a Clear the Dungeon move: put <card> <pile> (pile 1 "
                         "to 4) or reserve <card>."), action=repr(action))

    def _put_refusal(self, s: ClearState, card: str, pile: str) -> str:
        if card in s.reserve and card != s.reserve[-1]:
            return Phrase(N_("Only the reserve's top card ({card}) can be played."),
                          card=display(s.reserve[-1]))
        if card not in s.hand and not (s.reserve and card == s.reserve[-1]):
            return self._whereabouts(s, card)
        if pile not in _PILE_WORDS:
            return Phrase(N_("There is no pile {pile}: the piles are numbered 1 to 4."), pile=pile)
        i = int(pile) - 1
        if not s.piles[i]:
            return Phrase(N_("Pile {pile} is empty."), pile=pile)
        monster, on = s.piles[i][-1], s.attack[i]
        if fits(card, monster, on):
            return Phrase(N_("You cannot put {card} on {monster} now."), card=display(card),
                          monster=display(monster))
        power = POWER[monster]
        if not on:
            return Phrase(
                N_("{card} is too weak to start on {monster}: the first card must be {need}."),
                card=display(card), monster=display(monster), need=_at_least(power - 10))
        if len(on) == 1:
            return Phrase(
                N_("{card} is too weak for {monster}: with {first} on it, the second card must "
                   "be {need}."), card=display(card), monster=display(monster),
                first=display(on[0]), need=_at_least(power - VALUE[on[0]]))
        return Phrase(N_("The third card on {monster} must be a {suit} or a joker."),
                      monster=display(monster), suit=_SUIT_SINGULAR[monster[-1]])

    def _whereabouts(self, s: ClearState, card: str) -> str:
        """Why ``card`` cannot be played: where it is, or that it is no card at all."""
        if card not in VALUE and card not in POWER:
            return Phrase(N_("{card} is not a card."), card=repr(card))
        if card in POWER:
            return Phrase(N_("{card} is a monster, not a power card."), card=display(card))
        for i, on in enumerate(s.attack):
            if card in on:
                return Phrase(N_("{card} is already on pile {pile}."), card=display(card),
                              pile=i + 1)
        if card in s.graveyard:
            return Phrase(N_("{card} has already been used to slay a monster."),
                          card=display(card))
        return Phrase(N_("{card} is not in your hand."), card=display(card))

    def _apply(self, state: ClearState, action: str) -> ClearState:
        words = action.split(" ")
        if words[0] == "reserve":
            return self._to_reserve(state, words[1])
        return self._put(state, words[1], int(words[2]) - 1)

    def _put(self, s: ClearState, card: str, i: int) -> ClearState:
        hand, reserve = s.hand, s.reserve
        from_hand = card in hand
        if from_hand:
            hand = tuple(None if c == card else c for c in hand)
        else:
            reserve = reserve[:-1]
        pile = s.piles[i]
        monster = pile[-1]
        on = (*s.attack[i], card)
        piles, attack, graveyard = s.piles, s.attack, s.graveyard
        events: list[Pending | Phrase]
        if len(on) < ATTACK_CARDS:
            total = sum(VALUE[c] for c in on)
            events = [later(
                N_("You strike {monster} with {card} ({total} of {power}).") if from_hand else
                N_("You strike {monster} with {card} from the reserve ({total} of {power})."),
                monster=_SHOWN[monster], card=_SHOWN[card], total=total, power=POWER[monster],
            )]
            if len(on) == 2:
                events.append(later(N_("Now a {suit} or a joker finishes {monster}."),
                                    suit=_SUIT_SINGULAR[monster[-1]], monster=_SHOWN[monster]))
            attack = _replaced(attack, i, on)
        else:
            piles = _replaced(piles, i, pile[:-1])
            attack = _replaced(attack, i, ())
            graveyard = (*graveyard, monster, *on)
            events = [later(
                N_("You finish {monster} with {card}.") if from_hand else
                N_("You finish {monster} with {card} from the reserve."),
                monster=_SHOWN[monster], card=_SHOWN[card],
            )]
            if len(pile) > 1:
                events.append(later(N_("{monster} is slain! {next} turns up."),
                                    monster=_SHOWN[monster], next=_SHOWN[pile[-2]]))
            else:
                events.append(later(N_("{monster} is slain! Pile {pile} is clear."),
                                    monster=_SHOWN[monster], pile=i + 1))
        return self._settle(s, events, from_hand, piles, attack, graveyard, hand, reserve)

    def _to_reserve(self, s: ClearState, card: str) -> ClearState:
        hand = tuple(None if c == card else c for c in s.hand)
        events = [later(N_("You set {card} aside on the reserve."), card=_SHOWN[card])]
        return self._settle(
            s, events, True, s.piles, s.attack, s.graveyard, hand, (*s.reserve, card)
        )

    def _settle(
        self,
        s: ClearState,
        events: list[Pending | Phrase],
        from_hand: bool,
        piles: Piles,
        attack: Piles,
        graveyard: tuple[str, ...],
        hand: tuple[str | None, ...],
        reserve: tuple[str, ...],
    ) -> ClearState:
        """Deal a new hand if due, decide whether the game is over, and build the new state.

        The state is built directly (``_build``) rather than with ``dataclasses.replace``,
        which costs more than the rest of a move.
        """
        talon = s.talon
        empty = hand == (None, None, None)
        if from_hand and empty:
            if talon:
                hand, talon = talon[:HAND_SIZE], talon[HAND_SIZE:]
                empty = False
                events.append(later(N_("A new hand: {cards}."), cards=show(hand)))
            else:
                events.append(later(N_("Your hand is empty and the power deck is spent.")))
        outcome = None
        if not any(piles):
            outcome = "won"
            spare = len(talon) + HAND_SIZE - hand.count(None)
            events.append(counted_later(
                Nn_("All {monsters} monsters are slain: you cleared the dungeon with {count} card "
                    "to spare!",
                    "All {monsters} monsters are slain: you cleared the dungeon with {count} cards "
                    "to spare!"), spare, monsters=MONSTERS))
        elif empty and not talon and not _playable(reserve, piles, attack):
            outcome = "stuck"
            slain = MONSTERS - sum(len(p) for p in piles)
            events.append(later(
                N_("No card can be played: you are stuck with {slain} of {monsters} monsters "
                   "slain."), slain=slain, monsters=MONSTERS))
        return _build(
            s.variant, s.seed, s.stream, piles, attack, talon, hand, reserve, graveyard,
            s.moves + 1, outcome, tuple(events),
        )

    # ----- what a player sees --------------------------------------------------------------

    def label(self, view: dict[str, Any], action: str) -> str:
        """``5♥ → K♠``, ``From reserve: 5♥ → K♠``, ``5♥ → reserve``: the board's buttons."""
        words = action.split(" ")
        if words[0] == "reserve" and len(words) == 2:
            return Phrase(N_("{card} → reserve"), card=display(words[1]))
        if words[0] == "put" and len(words) == 3 and words[2] in _PILE_WORDS:
            card, p = words[1], int(words[2])
            monster = view["piles"][p - 1]["monster"]
            target = (display(monster) if monster
                      else Phrase(N_("pile {pile} (cleared)"), pile=p))
            from_reserve = card not in view["hand"] and card in view["reserve"][-1:]
            if from_reserve:
                return Phrase(N_("From reserve: {card} → {target}"), card=display(card),
                              target=target)
            return Phrase("{card} → {target}", card=display(card), target=target)
        return action

    def score(self, s: ClearState) -> list[int]:
        return [slain_count(s), spare_cards(s)]

    def resigned(self, s: ClearState) -> tuple[list[int], str]:
        # The monsters slain, and no spare cards: the power cards left are spare only for a
        # player who cleared the dungeon or played until stuck.
        slain = slain_count(s)
        return [slain, 0], Phrase(N_("resigned with {slain} of {monsters} monsters slain"),
                                  slain=slain, monsters=MONSTERS)

    def score_text(self, s: ClearState) -> str:
        if s.outcome == "won":
            return counted(Nn_("cleared the dungeon, {count} card to spare",
                               "cleared the dungeon, {count} cards to spare"), spare_cards(s))
        return Phrase(N_("{slain} of {monsters} monsters"), slain=slain_count(s),
                      monsters=MONSTERS)

    def prompt(self, s: ClearState) -> str:
        if s.outcome == "won":
            return counted(Nn_("You cleared the dungeon with {count} card to spare.",
                               "You cleared the dungeon with {count} cards to spare."),
                           spare_cards(s))
        if s.outcome == "stuck":
            return Phrase(N_("You are stuck with {slain} of {monsters} monsters slain."),
                          slain=slain_count(s), monsters=MONSTERS)
        if all(c is None for c in s.hand):
            return Phrase(N_("Play the reserve's top card onto a monster."))
        return Phrase(N_("Play a card onto a monster, or put one on the reserve."))

    def needs(self, monster: str, on: tuple[str, ...]) -> str:
        """What the next attack card on ``monster`` must be, in a few words."""
        power = POWER[monster]
        if not on:
            return Phrase(N_("1st card: {need}"), need=_at_least(power - 10))
        if len(on) == 1:
            return Phrase(N_("2nd card: {need}"), need=_at_least(power - VALUE[on[0]]))
        return Phrase(N_("3rd card: a {suit} or a joker"), suit=_SUIT_SINGULAR[monster[-1]])

    def view(self, state: ClearState) -> dict[str, Any]:
        piles = []
        for pile, on in zip(state.piles, state.attack, strict=True):
            monster = pile[-1] if pile else None
            piles.append(
                {
                    "monster": monster,
                    "hidden": max(0, len(pile) - 1),
                    "attack": list(on),
                    # Beyond the spec: the monster's power and what it takes next, so that
                    # boards need not know the rules.
                    "power": POWER[monster] if monster else None,
                    "needs": self.needs(monster, on) if monster else None,
                }
            )
        return {
            **self.common_view(state),
            "piles": piles,
            "hand": list(state.hand),
            "reserve": list(state.reserve),
            "talon": len(state.talon),
            "slain": slain_count(state),
        }

    def text(self, state: ClearState) -> str:
        v = self.view(state)
        return lines(
            Phrase(N_("{game} ({variant}) · seed {seed} · move {move}"), game=self.title,
                   variant=self.variant_name(v["variant"]), seed=v["seed"], move=v["moves"]),
            *(Phrase(N_("Pile {pile}: {words}"), pile=n, words=pile_text(p))
              for n, p in enumerate(v["piles"], start=1)),
            Phrase(N_("Hand: {hand}"), hand=hand_text(v["hand"])),
            Phrase(N_("Reserve: {reserve}"), reserve=reserve_text(v["reserve"])),
            Phrase(N_("Power deck: {deck}"), deck=power_deck_text(v["talon"])),
            Phrase(N_("Slain: {slain}"), slain=slain_text(v["slain"])),
            *(Phrase("  ▸ {event}", event=e) for e in v["events"]),
            Phrase(N_("Score: {score}"), score=v["score_text"]),
            v["prompt"],
        )


# ----- helpers -----------------------------------------------------------------------------


def _playable(reserve: tuple[str, ...], piles: Piles, attack: Piles) -> bool:
    """True when the reserve's top card fits some monster."""
    if not reserve:
        return False
    top = reserve[-1]
    return any(
        pile and top in _allowed(pile[-1], on) for pile, on in zip(piles, attack, strict=True)
    )


def _replaced(items: tuple[Any, ...], i: int, item: Any) -> tuple[Any, ...]:
    return (*items[:i], item, *items[i + 1 :])


def _at_least(need: int) -> str:
    """How a player reads "value >= need" for a power card (jokers count 10)."""
    if need <= 1:
        return Phrase(N_("any card"))
    if need >= 10:
        return Phrase(N_("a 10 or a joker"))
    return Phrase(N_("{need} or more"), need=need)


CLEAR = ClearTheDungeon()
