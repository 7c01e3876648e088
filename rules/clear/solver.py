"""What the Clear the Dungeon solver knows beyond the rules: the key, a bound and a move order.

- Key: the piles, what the top monsters' next card must beat (the first card's value, or
  that two are on), how much of the power deck is left (it is always a suffix of the same
  order), the hand as a set and the reserve in order, each card by its value, and by its
  suit only while a monster of that suit stands (symmetry: such cards are interchangeable).
- Bound: a win ends with 36 cards on the monsters, so with ``6 −`` the reserve's leftovers
  to spare; and the cards kept for a spare of ``k`` include the last ``k // 3`` hands of
  the power deck, so the cards before them must finish every monster, order aside: enough
  cards, a third card of each monster's suit or a joker, and first and second cards that
  add up to the monsters' power (``_can_finish``). A reserve card that no standing monster
  can take never leaves, nor does any card under it: they are leftovers of every win. Last
  in, first out, the cards that leave are a top run, and it must fit the monsters' slots:
  thirds by suit, and at most one card worth 5 or less among a monster's first two
  (``_stuck``, ``_fits``). Without a win the run ends stuck, with nothing to spare, after
  at best the cheapest monsters that the cards and the suits allow.
- Order: a finishing card first, then the reserve's top card, then second and first attack
  cards (the weakest card that fits first), a move to the reserve last.

The same key, bound and order are compiled in ``rules/clear/_native.c`` (:class:`ClearNative`
hands it a state; docs/solver.md): ``rules.solver`` uses it once built, and this Python
strategy stays the reference it is tested against.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from rules.cards import CANONICAL, JOKERS
from rules.clear.engine import (
    ATTACK_CARDS,
    CLEAR,
    HAND_SIZE,
    MONSTERS,
    POWER,
    VALUE,
    ClearState,
    Piles,
)
from rules.search import Score
from rules.words import N_, Nn_, Phrase, counted

#: A card's number on the C side: its place in the canonical order (jokers 52 and 53).
_NUMBER = {c: n for n, c in enumerate(CANONICAL)}
_OUTCOME = {None: 0, "won": 1, "stuck": 2}
_TARGETS = 5  # a C move is card * 8 + target: piles 0-3, 4 the reserve


class ClearNative:
    """How a Clear state goes to ``rules/clear/_native.c`` and its moves come back
    (:class:`rules.native.Glue`)."""

    module = "rules.clear._native"
    #: Native nodes per node of a caller's budget: the compiled search visits about this
    #: many nodes in the time the Python one visits one (bench/solver.py).
    scale = 35

    def encode(self, s: ClearState) -> tuple[object, ...]:
        n = _NUMBER
        return (
            tuple(tuple(n[c] for c in pile) for pile in s.piles),
            tuple(tuple(n[c] for c in on) for on in s.attack),
            tuple(n[c] for c in s.talon),
            tuple(-1 if c is None else n[c] for c in s.hand),
            tuple(n[c] for c in s.reserve),
            _OUTCOME[s.outcome],
        )

    def actions(self, state: ClearState, line: Sequence[int]) -> list[str]:
        actions = []
        for move in line:
            card, target = divmod(move, 8)
            if not 0 <= card < len(CANONICAL) or target >= _TARGETS:
                raise ValueError(f"clear native search: {move} is no move")
            code = CANONICAL[card]
            actions.append(f"reserve {code}" if target == 4 else f"put {code} {target + 1}")
        return actions


class ClearStrategy:
    """The solver's knowledge of Clear the Dungeon."""

    native = ClearNative()

    game = CLEAR
    #: Randomised dives before the search (see ``Search._probe``): the order is often right,
    #: and a depth-first search alone stays stuck below an early wrong card.
    probe = (2000, 0.2, 0.8)

    def key(self, s: ClearState) -> Hashable:
        # Symmetry: a card in the hand or the reserve matters by its value, and by its suit
        # only while a monster of that suit stands (jokers keep theirs: "*"). On a monster,
        # only what the next card must beat: the first card's value, or that two are on.
        suits = {m[-1] for pile in s.piles for m in pile}
        look = _LOOK[frozenset(suits)]
        hand = tuple(sorted([look[c] for c in s.hand if c is not None]))
        reserve = tuple([look[c] for c in s.reserve])
        attack = tuple(
            len(on) if len(on) != 1 else -VALUE[on[0]] for on in s.attack
        )
        return (s.piles, attack, len(s.talon), hand, reserve)

    def bound(self, s: ClearState) -> Score:
        if s.outcome is not None:
            return tuple(CLEAR.score(s))
        return _bound(s.piles, s.attack, s.talon, s.hand, s.reserve)

    def children(self, s: ClearState) -> Iterator[tuple[str, ClearState]]:
        ranked: list[tuple[int, int, int, str]] = []
        top = s.reserve[-1] if s.reserve else None
        for i, action in enumerate(CLEAR.actions(s)):
            words = action.split(" ")
            card = words[1]
            if words[0] == "reserve":
                rank = 4
            else:
                played = len(s.attack[int(words[2]) - 1])
                if played == ATTACK_CARDS - 1:
                    rank = 0
                elif card == top and card not in s.hand:
                    rank = 1
                else:
                    rank = 3 - played  # a second card (2) before a first one (3)
            ranked.append((rank, VALUE[card], i, action))
        ranked.sort()
        return ((action, CLEAR._apply(s, action)) for *_, action in ranked)

    def bound_text(self, score: Score) -> str:
        slain, spare = score
        if slain == MONSTERS:
            return counted(Nn_("at least a clear with {count} card to spare",
                               "at least a clear with {count} cards to spare"), spare)
        return Phrase(N_("at least {slain} of {monsters} monsters"), slain=slain,
                      monsters=MONSTERS)


_JOKER = "*"
#: What the greater of a monster's first two cards must reach: half its power, rounded up.
_HALF = {m: (p + 1) // 2 for m, p in POWER.items()}
SUITS = ("S", "H", "D", "C")
_SUIT_OF = {c: (_JOKER if c in JOKERS else c[-1]) for c in VALUE}


#: For each set of suits still standing, each card as the key sees it: its value, and its
#: suit while it can still be a third card (jokers always can).
_LOOK = {
    frozenset(standing): {
        c: (VALUE[c], _SUIT_OF[c] if _SUIT_OF[c] in (*standing, _JOKER) else "") for c in VALUE
    }
    for n in range(len(SUITS) + 1)
    for standing in combinations(SUITS, n)
}


def _suits(cards: Iterable[str]) -> dict[str, int]:
    """How many of ``cards`` are of each suit, jokers apart."""
    have = dict.fromkeys((*SUITS, _JOKER), 0)
    for c in cards:
        have[_SUIT_OF[c]] += 1
    return have


@lru_cache(maxsize=1 << 16)
def _bound(
    piles: Piles,
    attack: Piles,
    talon: tuple[str, ...],
    hand: tuple[str | None, ...],
    reserve: tuple[str, ...],
) -> Score:
    """``ClearStrategy.bound`` of a game not over, from the fields it reads (remembered:
    the probing dives and the search meet the same states again and again)."""
    costs: list[int] = []
    slain = MONSTERS - sum(len(p) for p in piles)
    thirds = dict.fromkeys(SUITS, 0)  # monsters standing, by suit: each needs a third
    pairs = 0  # first and second cards still to come
    power = 0  # what those cards must add up to, at least
    big: list[int] = []  # per monster, what its greater first or second card must reach
    for pile, on in zip(piles, attack, strict=True):
        if pile:
            costs.append(ATTACK_CARDS - len(on))
            costs.extend([ATTACK_CARDS] * (len(pile) - 1))
            for monster in pile:
                thirds[monster[-1]] += 1
                pairs += 2
                power += POWER[monster]
                big.append(_HALF[monster])
            if on:
                big.pop()
                top = POWER[pile[-1]]
                pairs -= len(on)
                power -= top
                if len(on) == 1:
                    power += max(0, top - VALUE[on[0]])
                    big.append(top - VALUE[on[0]])
    held = [c for c in hand if c is not None]
    spare = len(talon) + len(held)
    needed = sum(costs)
    # A reserve card no standing monster can ever take stays, and so does every card
    # under it (last in, first out): a win keeps them all as leftovers.
    stuck = _stuck(piles, attack, reserve)
    if stuck:
        reserve = reserve[stuck:]
    if spare + len(reserve) >= needed:
        # A win ends with the reserve's leftovers and ``spare_final`` cards of the hand
        # and power deck unused, among them the last ``spare_final // 3`` hands (the
        # current hand is the first of them once the deck runs short). The cards
        # before those must finish every monster: see _can_finish.
        best = spare - max(0, needed - len(reserve))
        dealt = len(talon) // HAND_SIZE
        for blocks in range(best // 3, -1, -1):
            if blocks > dealt + 1:
                continue
            if blocks > dealt:
                pool = reserve
            else:
                pool = (*reserve, *held, *talon[: len(talon) - HAND_SIZE * blocks])
            if _can_finish(pool, needed, thirds, pairs, power, big):
                return (MONSTERS, min(best, 3 * blocks + 2))
    # No win: stuck, which ends with the hand and the power deck spent.
    cards = spare + len(reserve)
    falls = 0
    for cost in sorted(costs):
        if cost > cards:
            break
        cards -= cost
        falls += 1
    have = _suits((*held, *reserve, *talon))
    can = sum(min(n, have[suit]) for suit, n in thirds.items())
    can += min(have[_JOKER], sum(thirds.values()) - can)
    return (slain + min(falls, can, MONSTERS - slain - 1), 0)


def _stuck(piles: Piles, attack: Piles, reserve: tuple[str, ...]) -> int:
    """How many reserve cards, from the bottom, can never leave it.

    Last in, first out: the cards that leave are a top run of the reserve, and each goes
    onto a slot of a standing monster. Order aside, a run fits only if its cards fit the
    slots (``_fits``); the longest run that fits leaves the rest below it for good.
    """
    if not reserve:
        return 0
    thirds = dict.fromkeys(SUITS, 0)
    pairs = 0  # first and second slots
    low: list[int] = []  # per slot that may take a card worth 5 or less: the least it takes
    for pile, on in zip(piles, attack, strict=True):
        for n, monster in enumerate(pile):
            thirds[monster[-1]] += 1
            if n < len(pile) - 1 or not on:
                pairs += 2
                low.append(POWER[monster] - 10)
            elif len(on) == 1:
                pairs += 1
                least = POWER[monster] - VALUE[on[0]]
                if least <= _LOW:
                    low.append(least)
    slots = (thirds, pairs, sorted(low))
    if _fits(reserve, slots):
        return 0
    fit, unfit = 0, len(reserve)  # the longest top run known to fit, the shortest not
    while unfit - fit > 1:
        mid = (fit + unfit) // 2
        if _fits(reserve[len(reserve) - mid :], slots):
            fit = mid
        else:
            unfit = mid
    return len(reserve) - fit


_LOW = 5  # two cards worth 5 or less never reach a monster's power (11 and more) together


def _fits(cards: tuple[str, ...], slots: tuple[dict[str, int], int, list[int]]) -> bool:
    """Whether ``cards`` could all go onto distinct slots of the standing monsters: a third
    slot takes a card of its monster's suit (or a joker), a first or second any card whose
    value can still reach the power with its partner; and a monster's first two cards
    cannot both be worth 5 or less. Each suit's lowest cards take its third slots (a lower
    card fits fewer of the other slots), the rest need first or second slots: no more than
    there are, and no more low ones worth ``v`` or less than slots that take them (Hall's
    condition: those sets of slots are nested). Jokers take any slot left."""
    thirds, pairs, low = slots
    by_suit: dict[str, list[int]] = {}
    jokers = 0
    for c in cards:
        suit = _SUIT_OF[c]
        if suit == _JOKER:
            jokers += 1
        else:
            by_suit.setdefault(suit, []).append(VALUE[c])
    free = 0  # third slots left for jokers
    paired: list[int] = []  # the low values that need a first or second slot
    count = 0  # cards that need a first or second slot
    for suit in SUITS:
        values = by_suit.get(suit)
        t = thirds[suit]
        if not values:
            free += t
            continue
        if len(values) <= t:
            free += t - len(values)
            continue
        values.sort()
        rest = values[t:]
        count += len(rest)
        paired.extend(v for v in rest if v <= _LOW)
    if count > pairs:
        return False
    if paired:
        paired.sort()
        for n, v in enumerate(paired):
            # the n+1 lowest need n+1 low slots that take a card worth v
            if sum(1 for least in low if least <= v) <= n:
                return False
    return jokers <= pairs - count + free


def _can_finish(
    pool: tuple[str, ...],
    needed: int,
    thirds: dict[str, int],
    pairs: int,
    power: int,
    big: list[int],
) -> bool:
    """Whether ``pool`` could finish every standing monster, order aside: ``needed`` cards
    in all, a third card of each monster's suit (or a joker), and first and second cards
    (``pairs`` of them) worth ``power`` together. The cards of the pool not used are
    ``len(pool) - needed``; the third cards and those are worth at least the least the
    suits allow and the smallest values, so the first and second cards at most the rest.
    """
    unused = len(pool) - needed
    if unused < 0:
        return False
    by_suit: dict[str, list[int]] = {suit: [] for suit in (*SUITS, _JOKER)}
    for c in pool:
        by_suit[_SUIT_OF[c]].append(VALUE[c])
    jokers = len(by_suit[_JOKER])
    short = 0
    least = 0  # the third cards' least worth
    for suit, n in thirds.items():
        if n:
            own = by_suit[suit]
            if n > len(own):
                short += n - len(own)
                least += sum(own)
            else:
                least += sum(sorted(own)[:n])
    if short > jokers:
        return False
    least += 10 * short
    values = sorted(VALUE[c] for c in pool)
    if big:
        wanted = sorted(big, reverse=True)
        for n, reach in enumerate(wanted, start=1):
            # the n-th highest need must be met by the n-th highest card
            if n > len(values) or values[-n] < reach:
                return False
    total = sum(values)
    if total - least - sum(values[:unused]) < power:
        return False
    return sum(values[len(values) - pairs :]) >= power if pairs else True
