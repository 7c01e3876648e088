"""Clear the Dungeon: the spec's worked examples, the deal, refusals and random play."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import GAMES, IllegalAction, replay
from rules.cards import CANONICAL, display
from rules.clear.engine import CLEAR, POWER, VALUE, ClearState
from rules.clear.engine import DECK as CLEAR_DECK
from rules.deal import shuffled

FACES = [c for c in CANONICAL if c[:-1] in ("J", "Q", "K")]
POWER_CARDS = [c for c in CANONICAL if c not in FACES]


def deck(piles: Sequence[Sequence[str]] = (), power: Sequence[str] = ()) -> list[str]:
    """A full 54-card order (top first) that deals these piles and this power deck.

    ``piles[i]`` lists the top of pile ``i + 1``, bottom to top (its last card is face up);
    unnamed monsters fill the piles from below. ``power`` starts the power deck, top first
    (its first three cards are the first hand); the other power cards follow in canonical order.
    """
    named = [c for pile in piles for c in pile]
    spare = iter(c for c in FACES if c not in named)
    monsters: list[str] = []
    for i in range(4):
        top = list(piles[i]) if i < len(piles) else []
        monsters += [next(spare) for _ in range(3 - len(top))] + top
    return monsters + list(power) + [c for c in POWER_CARDS if c not in power]


def dealt(piles: Sequence[Sequence[str]] = (), power: Sequence[str] = ()) -> ClearState:
    return CLEAR.new(7, deck=deck(piles, power))


def play(state: ClearState, *actions: str) -> ClearState:
    for action in actions:
        state = CLEAR.apply(state, action)
    return state


def refused(state: ClearState, action: str) -> str:
    """Apply ``action``, expect a refusal that changes nothing, and return its message."""
    before = CLEAR.dump(state)
    with pytest.raises(IllegalAction) as info:
        CLEAR.apply(state, action)
    assert CLEAR.dump(state) == before
    return str(info.value)


def every_card(state: ClearState) -> Counter[str]:
    """Where every card is, as a multiset: it must always be the whole deck."""
    cards = [c for pile in state.piles for c in pile]
    cards += [c for on in state.attack for c in on]
    cards += [c for c in state.hand if c is not None]
    cards += [*state.talon, *state.reserve, *state.graveyard]
    return Counter(cards)


def position(
    piles: Sequence[Sequence[str]],
    attack: Sequence[Sequence[str]],
    hand: Sequence[str | None],
    talon: Sequence[str] = (),
    reserve: Sequence[str] = (),
) -> ClearState:
    """A mid-game position: every monster not named is slain (in the graveyard with three
    power cards not named); power cards left over lie at the bottom of the reserve."""
    named = {c for group in (*piles, *attack, hand, talon, reserve) for c in group if c}
    faces = [c for c in FACES if c not in named]
    power = [c for c in POWER_CARDS if c not in named]
    graveyard = [c for i, face in enumerate(faces) for c in (face, *power[3 * i : 3 * i + 3])]
    state = ClearState(
        variant="standard",
        seed=1,
        stream=0,
        piles=tuple(tuple(p) for p in piles),
        attack=tuple(tuple(a) for a in attack),
        talon=tuple(talon),
        hand=tuple(hand),
        reserve=(*power[3 * len(faces) :], *reserve),
        graveyard=tuple(graveyard),
        moves=50,
    )
    assert every_card(state) == Counter(CLEAR_DECK)
    return state


# ----- the registry and the deal ----------------------------------------------------------


def test_registry() -> None:
    assert GAMES["clear"] is CLEAR
    assert (CLEAR.key, CLEAR.title, CLEAR.variants) == ("clear", "Clear the Dungeon", ("standard",))


def test_values_and_powers() -> None:
    assert [VALUE[c] for c in ("AS", "2H", "9D", "10C", "RJ", "BJ")] == [1, 2, 9, 10, 10, 10]
    assert [POWER[c] for c in ("JS", "QH", "KD")] == [11, 12, 13]
    assert len(VALUE) == 42 and len(POWER) == 12


def test_seed_0_deals_the_spec_test_vector() -> None:
    # dealing.md: seed 0 over the 54 cards gives 3D JC 8C 4H 9D 7H AH 6C RJ 5H QD 10C JH ...
    view = CLEAR.view(CLEAR.new(0))
    assert [p["monster"] for p in view["piles"]] == ["JH", "KD", "JD", "KC"]
    assert [p["hidden"] for p in view["piles"]] == [2, 2, 2, 2]
    assert view["hand"] == ["3D", "8C", "4H"]
    assert view["talon"] == 39 and view["reserve"] == [] and view["slain"] == 0
    state = CLEAR.new(0)
    assert state.piles == (
        ("JC", "QD", "JH"),
        ("JS", "KH", "KD"),
        ("QH", "QC", "JD"),
        ("KS", "QS", "KC"),
    )
    assert state.talon[:6] == ("9D", "7H", "AH", "6C", "RJ", "5H")
    assert state.stream == 53


@given(st.integers(0, 2**64 - 1))
@settings(max_examples=25, deadline=None)
def test_the_deal_walks_the_shuffled_deck(seed: int) -> None:
    cards, used = shuffled(seed, CLEAR_DECK)
    state = CLEAR.new(seed)
    monsters = [c for c in cards if c[:-1] in ("J", "Q", "K")]
    power = [c for c in cards if c not in monsters]
    assert [list(p) for p in state.piles] == [
        monsters[0:3],
        monsters[3:6],
        monsters[6:9],
        monsters[9:12],
    ]
    assert list(state.hand) == power[:3]
    assert list(state.talon) == power[3:]
    assert state.stream == used


def test_an_explicit_deck_is_dealt_without_shuffling() -> None:
    order = deck([["QC", "JS", "KH"]], ["5D", "RJ", "AS", "2C"])
    state = CLEAR.new(99, deck=order)
    assert state.piles[0] == ("QC", "JS", "KH") and state.stream == 0
    assert state.hand == ("5D", "RJ", "AS") and state.talon[0] == "2C"


@pytest.mark.parametrize(
    "order",
    [
        CLEAR_DECK[:-1],
        (*CLEAR_DECK[:-1], "AS"),
        (*CLEAR_DECK, "AS"),
        (*CLEAR_DECK[:-1], "XX"),
    ],
)
def test_a_deck_must_hold_each_card_once(order: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="each of the 54 cards exactly once"):
        CLEAR.new(1, deck=order)


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="no variant"):
        CLEAR.new(1, "easy")


def test_the_opening_view() -> None:
    state = dealt([["KS"], ["QH"], ["JD"], ["JC"]], ["9C", "4D", "RJ"])
    view = CLEAR.view(state)
    assert view["game"] == "clear" and view["variant"] == "standard" and view["seed"] == 7
    assert (view["moves"], view["over"], view["won"], view["outcome"]) == (0, False, False, None)
    assert view["score"] == [0, 42] and view["score_text"] == "0 of 12 monsters"
    assert view["prompt"] == "Play a card onto a monster, or put one on the reserve."
    assert view["events"] == [
        "You enter the dungeon: K♠, Q♥, J♦ and J♣ stand guard.",
        "Your first hand: 9♣ 4♦ 🃏.",
    ]
    assert view["piles"][0] == {
        "monster": "KS",
        "hidden": 2,
        "attack": [],
        "power": 13,
        "needs": "1st card: 3 or more",
    }
    json.dumps(view)


def test_actions_are_listed_hand_then_reserve_top_then_reserve_moves() -> None:
    state = dealt([["KS"], ["QH"], ["JD"], ["JC"]], ["AH", "2D", "3C", "4S", "5S", "6S"])
    assert CLEAR.actions(state) == [
        "put AH 3",
        "put AH 4",
        "put 2D 2",
        "put 2D 3",
        "put 2D 4",
        "put 3C 1",
        "put 3C 2",
        "put 3C 3",
        "put 3C 4",
        "reserve AH",
        "reserve 2D",
        "reserve 3C",
    ]
    state = play(state, "reserve 3C", "reserve AH")
    assert CLEAR.actions(state) == [
        "put 2D 2",
        "put 2D 3",
        "put 2D 4",
        "put AH 3",
        "put AH 4",
        "reserve 2D",
    ]


# ----- worked examples ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("monster", "card", "legal"),
    [
        ("KS", "AH", False),
        ("KS", "2D", False),
        ("KS", "3C", True),
        ("KS", "RJ", True),
        ("KS", "BJ", True),
        ("QH", "AC", False),
        ("QH", "2C", True),
        ("JD", "AC", True),
    ],
)
def test_first_attack_card(monster: str, card: str, legal: bool) -> None:
    state = dealt([[monster]], [card])
    assert (f"put {card} 1" in CLEAR.actions(state)) is legal
    if legal:
        after = CLEAR.apply(state, f"put {card} 1")
        assert CLEAR.view(after)["piles"][0]["attack"] == [card]
        assert CLEAR.view(after)["hand"] == [None, *state.hand[1:]]
    else:
        refused(state, f"put {card} 1")


def test_first_card_refusals_say_what_is_needed() -> None:
    state = dealt([["KS"], ["QH"]], ["AH", "2D", "AC"])
    assert refused(state, "put AH 1") == (
        "A♥ is too weak to start on K♠: the first card must be 3 or more."
    )
    assert refused(state, "put 2D 1") == (
        "2♦ is too weak to start on K♠: the first card must be 3 or more."
    )
    assert refused(state, "put AC 2") == (
        "A♣ is too weak to start on Q♥: the first card must be 2 or more."
    )


def test_second_card_on_a_queen() -> None:
    state = play(dealt([["QH"]], ["5C", "6D", "7S"]), "put 5C 1")
    assert refused(state, "put 6D 1") == (
        "6♦ is too weak for Q♥: with 5♣ on it, the second card must be 7 or more."
    )
    after = play(state, "put 7S 1")
    assert CLEAR.view(after)["piles"][0]["attack"] == ["5C", "7S"]
    assert after.events == (
        "You strike Q♥ with 7♠ (12 of 12).",
        "Now a heart or a joker finishes Q♥.",
    )
    with_joker = play(dealt([["QH"]], ["5C", "BJ", "2S"]), "put 5C 1", "put BJ 1")
    assert with_joker.attack[0] == ("5C", "BJ")


def test_third_card_must_match_the_suit_and_slays() -> None:
    state = dealt([["KC", "QS", "JD"]], ["9C", "2S", "10C", "AD"])
    state = play(state, "put 9C 1", "put 2S 1")
    assert CLEAR.view(state)["piles"][0] == {
        "monster": "JD",
        "hidden": 2,
        "attack": ["9C", "2S"],
        "power": 11,
        "needs": "3rd card: a diamond or a joker",
    }
    assert refused(state, "put 10C 1") == "The third card on J♦ must be a diamond or a joker."
    state = play(state, "reserve 10C")  # the hand is empty: A♦ comes in the new hand
    assert state.hand[0] == "AD"
    state = play(state, "put AD 1")
    pile = CLEAR.view(state)["piles"][0]
    assert pile["monster"] == "QS" and pile["hidden"] == 1 and pile["attack"] == []
    assert state.graveyard == ("JD", "9C", "2S", "AD")
    assert state.events == ("You finish J♦ with A♦.", "J♦ is slain! Q♠ turns up.")
    assert CLEAR.view(state)["slain"] == 1 and CLEAR.view(state)["score"][0] == 1


def test_a_joker_finishes_a_king() -> None:
    state = play(dealt([["KC"]], ["10H", "3D", "RJ"]), "put 10H 1", "put 3D 1", "put RJ 1")
    assert state.graveyard == ("KC", "10H", "3D", "RJ")
    assert CLEAR.view(state)["slain"] == 1


def test_second_card_on_a_king_after_a_joker() -> None:
    state = play(dealt([["KC"]], ["RJ", "2S", "3S"]), "put RJ 1")
    assert refused(state, "put 2S 1") == (
        "2♠ is too weak for K♣: with 🃏 on it, the second card must be 3 or more."
    )
    state = play(state, "put 3S 1")
    assert state.attack[0] == ("RJ", "3S") and state.piles[0][-1] == "KC"


@pytest.mark.parametrize("third", ["2H", "BJ"])
def test_reaching_the_power_does_not_slay_without_a_third_card(third: str) -> None:
    state = play(dealt([["JH"]], ["5H", "6H", "4C", third]), "put 5H 1", "put 6H 1")
    assert state.piles[0][-1] == "JH" and state.attack[0] == ("5H", "6H")
    assert CLEAR.view(state)["slain"] == 0
    assert refused(state, "put 4C 1") == "The third card on J♥ must be a heart or a joker."
    state = play(state, "reserve 4C")  # the hand is empty: the third card comes in
    assert f"put {third} 1" in CLEAR.actions(state)
    state = play(state, f"put {third} 1")
    assert state.graveyard == ("JH", "5H", "6H", third)
    assert CLEAR.view(state)["slain"] == 1


def test_emptying_the_hand_through_the_reserve_deals_a_new_hand() -> None:
    state = dealt([["KS"], ["JC"], ["QD"]], ["5H", "8C", "2D", "7S", "AC", "RJ"])
    state = play(state, "reserve 5H", "put 8C 2")
    assert state.hand == (None, None, "2D") and state.talon[0] == "7S"
    state = play(state, "reserve 2D")
    view = CLEAR.view(state)
    assert view["reserve"] == ["5H", "2D"]
    assert view["hand"] == ["7S", "AC", "RJ"] and view["talon"] == 36
    assert state.events == ("You set 2♦ aside on the reserve.", "A new hand: 7♠ A♣ 🃏.")
    assert refused(state, "put 5H 1") == "Only the reserve's top card (2♦) can be played."
    assert [a for a in CLEAR.actions(state) if "2D" in a] == ["put 2D 3"]


def test_a_move_from_the_reserve_never_deals() -> None:
    state = dealt([["JS"], ["JC"]], ["4D", "5D", "6D", "7S", "AC", "RJ"])
    state = play(state, "reserve 4D", "put 5D 2", "put 6D 2")
    assert state.hand == ("7S", "AC", "RJ") and state.reserve == ("4D",)
    after = play(state, "put 4D 1")
    assert after.hand == state.hand and after.talon == state.talon and after.reserve == ()
    assert after.events == ("You strike J♠ with 4♦ from the reserve (4 of 11).",)


def test_the_hand_slots_keep_their_places() -> None:
    state = play(dealt([["JS"]], ["4D", "5D", "6D"]), "put 5D 1")
    assert CLEAR.view(state)["hand"] == ["4D", None, "6D"]
    state = play(state, "reserve 6D")
    assert CLEAR.view(state)["hand"] == ["4D", None, None]


def test_the_last_monster_slain_wins_with_cards_to_spare() -> None:
    state = position(
        piles=[(), (), ["QC"], ()],
        attack=[(), (), ["7D", "5S"], ()],
        hand=["3C", "4D", None],
        talon=["8H", "9H", "10H"],
    )
    won = play(state, "put 3C 3")
    view = CLEAR.view(won)
    assert (view["over"], view["won"], view["outcome"]) == (True, True, "won")
    assert view["slain"] == 12 and view["score"] == [12, 4]
    assert view["score_text"] == "cleared the dungeon, 4 cards to spare"
    assert view["prompt"] == "You cleared the dungeon with 4 cards to spare."
    assert won.events == (
        "You finish Q♣ with 3♣.",
        "Q♣ is slain! Pile 3 is clear.",
        "All 12 monsters are slain: you cleared the dungeon with 4 cards to spare!",
    )
    assert CLEAR.actions(won) == [] and CLEAR.is_over(won)
    assert refused(won, "reserve 4D") == "The game is over."


def test_the_winning_move_still_deals_when_it_empties_the_hand() -> None:
    state = position(
        piles=[(), (), ["QC"], ()],
        attack=[(), (), ["7D", "5S"], ()],
        hand=[None, "3C", None],
        talon=["8H", "9H", "10H"],
    )
    won = play(state, "put 3C 3")
    assert won.outcome == "won" and won.hand == ("8H", "9H", "10H") and won.talon == ()
    assert CLEAR.view(won)["score"] == [12, 3]
    assert CLEAR.view(won)["score_text"] == "cleared the dungeon, 3 cards to spare"
    assert won.events[2] == "A new hand: 8♥ 9♥ 10♥."


def test_stuck_when_the_reserve_top_fits_no_monster() -> None:
    state = position(
        piles=[["KS"], (), (), ()],
        attack=[["9C", "4D"], (), (), ()],
        hand=[None, "4H", None],
        reserve=["2H"],
    )
    assert CLEAR.actions(state) == ["reserve 4H"]
    assert refused(state, "put 4H 1") == "The third card on K♠ must be a spade or a joker."
    stuck = play(state, "reserve 4H")
    view = CLEAR.view(stuck)
    assert view["reserve"][-1] == "4H" and view["hand"] == [None, None, None]
    assert view["talon"] == 0
    assert (view["over"], view["won"], view["outcome"]) == (True, False, "stuck")
    assert view["score"] == [11, 0] and view["score_text"] == "11 of 12 monsters"
    assert view["prompt"] == "You are stuck with 11 of 12 monsters slain."
    assert stuck.events == (
        "You set 4♥ aside on the reserve.",
        "Your hand is empty and the power deck is spent.",
        "No card can be played: you are stuck with 11 of 12 monsters slain.",
    )
    assert CLEAR.actions(stuck) == []


def test_with_the_hand_spent_the_reserve_top_can_still_be_played() -> None:
    state = position(
        piles=[["KS"], ["QH"], (), ()],
        attack=[["9C", "4D"], (), (), ()],
        hand=[None, "5H", None],
        reserve=["2S"],
    )
    state = play(state, "put 5H 2")
    assert state.outcome is None and CLEAR.actions(state) == ["put 2S 1"]
    assert CLEAR.view(state)["prompt"] == "Play the reserve's top card onto a monster."
    state = play(state, "put 2S 1")
    assert state.events[:2] == (
        "You finish K♠ with 2♠ from the reserve.",
        "K♠ is slain! Pile 1 is clear.",
    )
    # Q♥ still waits for a second card, and the reserve's new top (a left-over card) may
    # or may not fit it: the game goes on exactly as long as some action is left.
    assert (state.outcome == "stuck") is (CLEAR.actions(state) == [])


@pytest.mark.parametrize(("under", "stuck"), [("AH", True), ("7C", False)])
def test_a_move_from_the_reserve_can_leave_the_game_stuck(under: str, stuck: bool) -> None:
    # Hand and power deck spent; K♠ [9♣, 4♦] and Q♥ [5♥] are left; the reserve is ..., under, 2♠.
    state = position(
        piles=[["KS"], ["QH"], (), ()],
        attack=[["9C", "4D"], ["5H"], (), ()],
        hand=[None, None, None],
        reserve=[under, "2S"],
    )
    assert CLEAR.actions(state) == ["put 2S 1"]
    after = play(state, "put 2S 1")
    view = CLEAR.view(after)
    assert view["reserve"][-1] == under and view["hand"] == [None, None, None]
    assert view["slain"] == 11 and view["score"] == [11, 0]
    finish = ("You finish K♠ with 2♠ from the reserve.", "K♠ is slain! Pile 1 is clear.")
    if stuck:  # A♥ cannot bring Q♥'s 5♥ up to 12
        assert (view["over"], view["won"], view["outcome"]) == (True, False, "stuck")
        assert CLEAR.actions(after) == []
        assert after.events == (
            *finish,
            "No card can be played: you are stuck with 11 of 12 monsters slain.",
        )
    else:  # 5♥ + 7♣ = 12
        assert (view["over"], view["outcome"]) == (False, None)
        assert CLEAR.actions(after) == ["put 7C 2"]
        assert after.events == finish


def test_every_card_to_the_reserve_deals_exactly_13_more_hands() -> None:
    state = CLEAR.new(2026)
    deals = 0
    while state.hand != (None, None, None):
        card = next(c for c in state.hand if c is not None)
        state = CLEAR.apply(state, f"reserve {card}")
        deals += any(e.startswith("A new hand: ") for e in state.events)
    assert deals == 13
    assert state.talon == () and len(state.reserve) == 42
    assert CLEAR.view(state)["score"] == [0, 0]


# ----- refusals -----------------------------------------------------------------------------


def test_refusals_name_the_reason() -> None:
    state = position(
        piles=[["KS"], ["QH"], (), ["JD"]],
        attack=[["9C"], (), (), ()],
        hand=["5H", "AC", None],
        talon=["7S", "8S", "9S"],
        reserve=["2D", "3D"],
    )
    spent = state.graveyard[1]
    assert refused(state, "put 5H 3") == "Pile 3 is empty."
    assert refused(state, "put 2D 1") == "Only the reserve's top card (3♦) can be played."
    assert refused(state, "reserve 3D") == "A card on the reserve can only go onto a monster."
    assert refused(state, "reserve 2D") == "A card on the reserve can only go onto a monster."
    assert refused(state, "put 5H 5") == "There is no pile 5: the piles are numbered 1 to 4."
    assert refused(state, "put 5H 0") == "There is no pile 0: the piles are numbered 1 to 4."
    assert refused(state, "put XX 1") == "'XX' is not a card."
    assert refused(state, "put KS 1") == "K♠ is a monster, not a power card."
    assert refused(state, "put 7S 1") == "7♠ is not in your hand."
    assert refused(state, "reserve 7S") == "7♠ is not in your hand."
    assert refused(state, "put 9C 1") == "9♣ is already on pile 1."
    assert refused(state, f"put {spent} 1") == (
        f"{display(spent)} has already been used to slay a monster."
    )
    assert refused(state, "put AC 1") == (
        "A♣ is too weak for K♠: with 9♣ on it, the second card must be 4 or more."
    )
    assert refused(state, "put AC 2") == (
        "A♣ is too weak to start on Q♥: the first card must be 2 or more."
    )
    for action in ("take 5H", "put 5H", "put 5H 1 2", "", "reserve", "RESERVE 5H"):
        assert refused(state, action) == (
            f"{action!r} is not a Clear the Dungeon move: "
            "put <card> <pile> (pile 1 to 4) or reserve <card>."
        )


def test_the_board_as_text() -> None:
    state = position(
        piles=[["QD", "KS"], ["QH"], (), ["JD"]],
        attack=[["9C"], (), (), ()],
        hand=["5H", None, "RJ"],
        talon=["7S", "8S", "9S"],
        reserve=["3D"],
    )
    text = CLEAR.text(state)
    assert "Clear the Dungeon (standard) · seed 1 · move 50" in text
    # The same words as the Discord board's fields (bot/boards/clear.py).
    assert "Pile 1: K♠ (13) ⟵ 9♣ · next: 4 or more · 1 hidden" in text
    assert "Pile 2: Q♥ (12) ⟵ no attack yet · next: 2 or more\n" in text
    assert "Pile 3: cleared" in text
    assert "Hand: 5♥  —  🃏" in text
    assert "Reserve: top 3♦ · " in text
    assert "Power deck: 3 cards (1 deal)\nSlain: ⚔️ 8/12" in text
    assert text.endswith("Play a card onto a monster, or put one on the reserve.")


# ----- random play --------------------------------------------------------------------------

FULL_DECK = Counter(CLEAR_DECK)
CANDIDATES = [
    *(f"put {c} {p}" for c in CANONICAL for p in range(6)),
    *(f"reserve {c}" for c in CANONICAL),
    "",
    "put",
    "reserve",
    "put AS",
    "take AS",
    "put AS 1 2",
    "reserve  AS",
    "put 10s 1",
]


@given(seed=st.integers(0, 2**64 - 1), rnd=st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_random_play_keeps_every_promise(seed: int, rnd: random.Random) -> None:
    state = CLEAR.new(seed)
    played: list[str] = []
    # Every action moves one power card, and each moves at most twice (hand, reserve,
    # monster): 84 actions at most.
    for _ in range(85):
        assert every_card(state) == FULL_DECK
        assert len(state.talon) % 3 == 0 and len(state.hand) == 3
        view = CLEAR.view(state)
        assert json.loads(json.dumps(view)) == view
        legal = CLEAR.actions(state)
        assert view["over"] is (legal == []) and view["won"] is (view["outcome"] == "won")
        held = sum(c is not None for c in state.hand)
        assert view["score"] == [view["slain"], view["talon"] + held]
        assert CLEAR.load(json.loads(json.dumps(CLEAR.dump(state)))) == state
        for bad in rnd.sample(CANDIDATES, 4):
            if bad not in legal:
                message = refused(state, bad)
                assert message and not message.startswith("You cannot")
        if not legal:
            break
        action = rnd.choice(legal)
        before = CLEAR.dump(state)
        after = CLEAR.apply(state, action)
        assert CLEAR.dump(state) == before
        assert after.moves == state.moves + 1
        played.append(action)
        state = after
    else:
        pytest.fail("the game did not end within 84 actions")
    assert state.outcome in ("won", "stuck")
    if state.outcome == "stuck":
        assert state.talon == () and state.hand == (None, None, None)
        assert CLEAR.view(state)["slain"] < 12
    else:
        assert state.piles == ((), (), (), ())
    assert replay("clear", None, seed, played) == state
    assert replay("clear", "standard", seed, played) == state


def _fits_by_the_rules(card: str, monster: str, on: Sequence[str]) -> bool:
    """The spec's three attack conditions, written out again without the engine's tables."""

    def value(c: str) -> int:
        return 10 if c in ("RJ", "BJ") else 1 if c[0] == "A" else int(c[:-1])

    power = {"J": 11, "Q": 12, "K": 13}[monster[:-1]]
    if not on:
        return value(card) + 10 >= power
    if len(on) == 1:
        return value(on[0]) + value(card) >= power
    return card in ("RJ", "BJ") or card[-1] == monster[-1]


@given(seed=st.integers(0, 2**64 - 1), rnd=st.randoms(use_true_random=False))
@settings(max_examples=30, deadline=None)
def test_the_actions_are_exactly_the_legal_moves_and_each_applies(
    seed: int, rnd: random.Random
) -> None:
    state = CLEAR.new(seed)
    while state.outcome is None:
        held = [c for c in state.hand if c is not None]
        sources = held + list(state.reserve[-1:])
        expected = {
            f"put {card} {i + 1}"
            for card in sources
            for i, pile in enumerate(state.piles)
            if pile and _fits_by_the_rules(card, pile[-1], state.attack[i])
        } | {f"reserve {card}" for card in held}
        legal = CLEAR.actions(state)
        assert len(legal) == len(set(legal)) and set(legal) == expected
        after = [CLEAR.apply(state, action) for action in legal]
        puts = [s for a, s in zip(legal, after, strict=True) if a.startswith("put")]
        state = rnd.choice(puts) if puts and rnd.random() < 0.8 else rnd.choice(after)
    assert CLEAR.actions(state) == []


@given(st.integers(0, 2**64 - 1))
@settings(max_examples=20, deadline=None)
def test_reserving_every_card_deals_13_more_hands(seed: int) -> None:
    state = CLEAR.new(seed)
    deals = 0
    while state.hand != (None, None, None):
        slot = next(i for i, c in enumerate(state.hand) if c is not None)
        state = CLEAR.apply(state, f"reserve {state.hand[slot]}")
        deals += sum(e.startswith("A new hand: ") for e in state.events)
    assert deals == 13 and state.talon == () and len(state.reserve) == 42
    assert every_card(state) == FULL_DECK


def test_a_replay_names_the_first_bad_action() -> None:
    state = CLEAR.new(5)
    good = CLEAR.actions(state)[0]
    with pytest.raises(IllegalAction) as info:
        replay("clear", None, 5, [good, "reserve XX"])
    assert info.value.index == 1 and "move 2" in str(info.value)


def test_a_state_from_another_engine_is_refused() -> None:
    data = CLEAR.dump(CLEAR.new(5))
    with pytest.raises(ValueError):
        CLEAR.load({**data, "engine": "donsol/1"})
    assert CLEAR.load(data) == CLEAR.new(5)
