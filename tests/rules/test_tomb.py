"""Tomb of Four Kings: the spec's worked examples, refusals, and properties of random play."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import GAMES, IllegalAction, replay
from rules.tomb.engine import DECK as TOMB_DECK
from rules.tomb.engine import HIT_POINT_HEARTS, TOMB, TombState, locations

SEED_ZERO = (
    "5D 7D 4D 3C 3D 2D 8D AH 6S 2C 7C 10D KC 5S 4S 6C JD AD 6D AS 9S 8S 10C KD JH 9D KH 5C "
    "8C AC JC 4C 10S 7S KS QD 2S JS 3S QS 9C QH RJ QC"
).split()


def play(deck: str, *moves: str) -> TombState:
    """Deal ``deck`` (top first) and apply ``moves``."""
    state = TOMB.new(0, deck=deck.split())
    for move in moves:
        state = TOMB.apply(state, move)
    return state


def view(state: TombState) -> dict:
    return TOMB.view(state)


# ----- dealing --------------------------------------------------------------------------------


def test_registered_under_its_key() -> None:
    assert GAMES["tomb"] is TOMB
    assert TOMB.variants == ("standard",)


def test_seed_zero_deals_the_test_vector() -> None:
    state = TOMB.new(0)
    assert list(state.deck) == SEED_ZERO
    assert state.stream == 43
    v = view(state)
    assert v["deck"] == 44
    assert v["variant"] == "standard"
    assert TOMB.actions(state) == ["flip"]
    assert v["score"] == [0, 0, 1]
    assert v["score_text"] == "0 Kings, 0 points"
    assert v["hp_card"] == "10H"


@pytest.mark.parametrize(
    ("deck", "reason"),
    [(["4D", "4D"], "at most once"), (["5H"], "not a Tomb card"), (["BJ"], "not a Tomb card")],
)
def test_explicit_deck_must_be_tomb_cards_once(deck: list[str], reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        TOMB.new(0, deck=deck)


def test_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError):
        TOMB.new(0, variant="easy")


# ----- the spec's worked examples -------------------------------------------------------------


def test_e2_trap_won_and_out_at_once_after_one_turn() -> None:
    state = play("4D 9S", "flip")
    assert view(state)["hand"] == ["4D"]
    assert TOMB.actions(state) == ["flip", "retreat"]
    state = TOMB.apply(state, "retreat")
    v = view(state)
    assert v["outcome"] == "escaped"
    assert v["retreat_needed"] == 0
    assert v["score"] == [0, 4, 1]
    assert v["score_text"] == "0 Kings, 4 points"
    assert v["phase"] == "over"
    assert TOMB.actions(state) == []


def test_e3_all_treasure_turn_leaves_one_card() -> None:
    state = play("KC 3D 7D", "flip")
    v = view(state)
    assert v["pending"] == "leave"
    assert TOMB.actions(state) == ["leave KC", "leave 3D", "leave 7D"]
    state = TOMB.apply(state, "leave 3D")
    assert view(state)["hand"] == ["KC", "7D"]
    assert view(state)["turn"] == []
    assert state.stacks == ("3D",)
    state = TOMB.apply(state, "retreat")
    assert view(state)["score_text"] == "1 King, 17 points"
    assert view(state)["score"] == [1, 17, 1]


def test_e4_queen_before_the_encounter() -> None:
    state = play("QH AC KD JC 9S", "flip")
    v = view(state)
    assert v["torches"] == ["AC"]
    assert v["hand"] == ["JC", "KD"]
    assert v["delve_turns"] == 1
    assert v["turn"] == [] and v["encounter"] is None
    assert view(TOMB.apply(state, "retreat"))["score_text"] == "1 King, 10 points"


def test_e5a_eight_damage_is_survivable() -> None:
    state = play("10S 2C 10D", "flip")
    v = view(state)
    assert v["damage"] == 8
    assert v["hp_card"] == "2H"
    assert v["outcome"] is None
    state = TOMB.apply(state, "retreat")
    assert view(state)["score_text"] == "0 Kings, 10 points"
    assert view(state)["outcome"] == "escaped"


def test_e5b_ninth_damage_is_fatal() -> None:
    state = play("10S 2C 9C", "flip")
    v = view(state)
    assert v["outcome"] == "dead"
    assert v["damage"] == 9
    assert v["hp_card"] is None
    assert v["score"] == [0, 0, 0]
    assert v["score_text"] == "dead — 0"
    assert v["turn"] == ["10S", "2C", "9C"]  # a game that ends mid-turn keeps the turn
    assert TOMB.actions(state) == []


def test_e6_endure_then_dodge() -> None:
    state = play("JH 9S 8C 3C 9D", "flip")
    assert view(state)["pending"] == "dodge"
    assert TOMB.actions(state) == ["dodge", "endure"]
    state = TOMB.apply(state, "endure")
    assert view(state)["damage"] == 1
    assert view(state)["pending"] == "dodge"
    assert state.owed == 6
    state = TOMB.apply(state, "dodge")
    v = view(state)
    assert v["damage"] == 1
    assert v["hand"] == ["9D"]
    assert state.counter == ("JH",)
    assert view(TOMB.apply(state, "retreat"))["score_text"] == "0 Kings, 9 points"


def test_e7_treasure_drop_loses_the_turn() -> None:
    state = play("7D 10C KS 7S 2C 2S", "flip", "flip")
    assert TOMB.actions(state) == ["flip", "drop 7D"]
    assert view(state)["prompt"] == (
        "Fight the 7♠ monster: turn a card or drop a treasure to buy it off?"
    )
    state = TOMB.apply(state, "drop 7D")
    v = view(state)
    assert v["hand"] == []
    assert v["damage"] == 0
    assert v["delve_turns"] == 2
    assert set(state.stacks) >= {"KS", "7S", "7D"}
    state = TOMB.apply(state, "retreat")
    assert view(state)["retreat_needed"] == 1
    assert TOMB.actions(state) == ["flip"]
    state = TOMB.apply(state, "flip")
    v = view(state)
    assert v["outcome"] == "escaped"
    assert v["score"] == [0, 0, 1]
    assert v["score_text"] == "0 Kings, 0 points"
    assert v["retreat_turns"] == 1


def test_e7b_too_small_a_drop_is_refused_and_changes_nothing() -> None:
    state = play("5D 10C JS 7S 8C", "flip", "flip")
    assert TOMB.actions(state) == ["flip", "skill JS"]
    before = TOMB.dump(state)
    with pytest.raises(IllegalAction, match="Your 5♦ is worth 5, not enough to buy off the 7♠"):
        TOMB.apply(state, "drop 5D")
    assert TOMB.dump(state) == before
    state = TOMB.apply(state, "flip")  # 8♣ slays the 7♠
    assert view(state)["hand"] == ["5D", "JS"]
    assert view(state)["delve_turns"] == 2


def test_e8_scroll_of_light_saves_a_fourth_ace_burnt_by_a_door() -> None:
    deck = "RJ 4D 4S AS 9C 3D AH AD 2S AC 3S 4C 5C 6S"
    state = play(deck, "flip")
    assert view(state)["hand"] == ["RJ", "4D"]
    state = TOMB.apply(state, "flip")
    v = view(state)
    assert v["torches"] == ["AS", "AH", "AD", "RJ"]
    assert v["hand"] == ["4D"]
    assert state.discards == ("2S", "3S", "4C")
    assert list(state.deck) == ["5C", "6S", "AC"]
    assert v["outcome"] is None
    state = TOMB.apply(TOMB.apply(state, "retreat"), "flip")
    v = view(state)
    assert v["outcome"] == "escaped"
    assert v["score_text"] == "0 Kings, 4 points"
    assert list(state.deck) == ["AC"]


def test_e9_fourth_ace_without_the_scroll_is_lost_in_the_dark() -> None:
    state = play("AS AH KS 4C 8S AD 3S AC", "flip", "flip")
    assert TOMB.actions(state) == ["flip", "drop KS"]  # K♠ would buy off the 3♠
    state = TOMB.apply(state, "flip")
    v = view(state)
    assert v["outcome"] == "lost_in_dark"
    assert v["score"] == [0, 0, 0]
    assert v["torches"] == ["AS", "AH", "AD", "AC"]
    assert v["score_text"] == "lost in the dark — 0"


def test_e10_pick_lock_right_after_a_failed_door() -> None:
    state = play("8C JC KH 3D", "flip")
    assert TOMB.actions(state) == ["flip", "skill JC"]
    state = TOMB.apply(state, "flip")  # K♥: still before the door's card
    assert TOMB.actions(state) == ["flip", "skill JC"]
    state = TOMB.apply(state, "flip")  # 3♦ fails
    v = view(state)
    assert v["pending"] == "door"
    assert TOMB.actions(state) == ["skill JC", "discard"]
    state = TOMB.apply(state, "skill JC")
    v = view(state)
    assert v["hand"] == ["KH", "3D"]
    assert "JC" in state.stacks
    assert view(TOMB.apply(state, "retreat"))["score_text"] == "1 King, 13 points"


def test_e11_berserk_collects_the_failed_diamond() -> None:
    state = play("10S 4D JS", "flip")
    v = view(state)
    assert v["damage"] == 6
    assert TOMB.actions(state) == ["flip", "skill JS"]
    state = TOMB.apply(state, "skill JS")
    assert view(state)["hand"] == ["4D"]
    assert "JS" in state.stacks
    assert view(TOMB.apply(state, "retreat"))["score_text"] == "0 Kings, 4 points"


def test_e12_failed_trap_loses_the_king_and_the_retreat_kills() -> None:
    state = play("2C 5S KH 9D 4C 3D 6S 10S 3C", "flip", "flip")
    v = view(state)
    assert v["hand"] == []
    assert v["damage"] == 5
    assert "KH" in state.stacks
    state = TOMB.apply(TOMB.apply(state, "flip"), "retreat")
    assert view(state)["hand"] == ["3D"]
    assert view(state)["retreat_needed"] == 2
    state = TOMB.apply(state, "flip")
    v = view(state)
    assert v["outcome"] == "dead"
    assert v["damage"] == 12
    assert v["hp_card"] is None
    assert v["score"] == [0, 0, 0]
    assert v["retreat_needed"] == 2


# ----- more rules -----------------------------------------------------------------------------


def test_the_returned_ace_turning_up_again_is_lost() -> None:
    state = play("RJ 4D 4S AS AH AD 5C AC", "flip", "flip")
    v = view(state)
    assert v["outcome"] == "lost_in_dark"
    assert v["torches"] == ["AS", "AH", "AD", "RJ", "AC"]


def test_scroll_still_lying_in_the_turn_does_not_save() -> None:
    state = play("AS AH AD RJ AC 5S", "flip")
    assert view(state)["outcome"] == "lost_in_dark"
    assert view(state)["turn"] == ["RJ"]


def test_queen_after_the_encounter_wins_it() -> None:
    state = play("5S 2C KD QS", "flip")
    v = view(state)
    assert v["damage"] == 3
    assert v["hand"] == ["KD"]
    assert state.stacks == ("5S", "2C", "QS")


def test_disarm_before_the_trap_and_the_jack_marks_the_turn() -> None:
    state = play("JD 7D 2S", "flip")
    assert TOMB.actions(state) == ["flip", "skill JD"]
    state = TOMB.apply(state, "skill JD")
    assert view(state)["hand"] == ["7D"]
    assert state.stacks == ("JD",)
    assert list(state.deck) == ["2S"]


def test_dodging_a_trap_still_loses_the_turn() -> None:
    state = play("JH KD 9D 2S", "flip")
    assert TOMB.actions(state) == ["dodge", "endure"]
    state = TOMB.apply(state, "dodge")
    v = view(state)
    assert v["damage"] == 0
    assert v["hand"] == []
    assert v["delve_turns"] == 1
    assert state.counter == ("JH",)


def test_discarding_instead_of_picking_the_lock() -> None:
    state = play("JC 8C 3D 2S AH 4S KD 6S 7S", "flip", "flip")
    assert TOMB.actions(state) == ["skill JC", "discard"]
    assert "discard 5 cards" in view(state)["prompt"]
    state = TOMB.apply(state, "discard")
    v = view(state)
    assert v["hand"] == ["JC"]
    assert v["torches"] == ["AH"]
    assert state.discards == ("2S", "4S", "KD", "6S")
    assert list(state.deck) == ["7S"]


def test_a_door_that_discards_past_the_deck_is_lost_in_the_dark() -> None:
    state = play("9C 3D 2S", "flip")
    assert view(state)["outcome"] == "lost_in_dark"


def test_an_empty_deck_is_lost_in_the_dark() -> None:
    state = play("4D 9S", "flip", "flip")
    assert view(state)["outcome"] == "lost_in_dark"
    assert view(state)["score"] == [0, 0, 0]


def test_a_second_queen_adds_nothing() -> None:
    state = play("QS QH 5S 9S 2C 10D", "flip")
    v = view(state)
    assert v["delve_turns"] == 1 and v["damage"] == 0
    assert v["deck"] == 3  # the 5♠ gave way the moment it appeared
    assert "You turn Q♥: the goddess already favours you." in v["events"]
    state = TOMB.apply(state, "flip")  # no favour left over: the 9♠ must be fought
    v = view(state)
    assert v["damage"] == 7
    assert v["hand"] == ["10D"]


def test_only_an_action_card_uses_up_a_trap_whatever_its_suit() -> None:
    state = play("7D KS AH JC RJ 9C", "flip")
    v = view(state)
    assert v["torches"] == ["AH"]
    assert v["hand"] == ["JC", "7D", "KS", "RJ"]  # the 9♣ disarms the 7♦ trap
    assert v["score"] == [1, 23, 1]  # while playing: the hand so far, RJ = 6
    assert v["score_text"] == "1 King, 23 points"


def test_only_an_action_card_uses_up_a_door_whatever_its_suit() -> None:
    state = play("5C KD AS JS 8D", "flip")
    v = view(state)
    assert v["hand"] == ["JS", "KD", "8D"]
    assert v["torches"] == ["AS"]
    assert v["delve_turns"] == 1


def test_go_berserk_is_offered_before_every_card_of_the_fight() -> None:
    state = play("JS 9S 2C 8C 9C", "flip")
    for damage in (7, 8):
        assert TOMB.actions(state) == ["flip", "skill JS"]
        state = TOMB.apply(state, "flip")
        assert view(state)["damage"] == damage
    assert TOMB.actions(state) == ["flip", "skill JS"]
    state = TOMB.apply(state, "flip")  # 9♣ slays the 9♠, J♠ kept
    assert view(state)["hand"] == ["JS"]
    assert view(state)["delve_turns"] == 1


@pytest.mark.parametrize(
    ("monster", "drops"),
    [("7S", ["drop KS"]), ("6S", ["drop KS", "drop RJ", "drop 6D"]), ("10S", ["drop KS"])],
)
def test_a_treasure_drop_needs_a_card_worth_the_monster(monster: str, drops: list[str]) -> None:
    state = play(f"KS RJ 6D 9C {monster} 10C", "flip", "flip")
    assert view(state)["hand"] == ["KS", "RJ", "6D"]
    assert TOMB.actions(state) == ["flip", *drops]


def test_dodge_blow_can_cancel_a_deadly_blow() -> None:
    state = play("JH 10S 2C 2S 10D", "flip", "endure")
    v = view(state)
    assert v["damage"] == 8 and v["hp_card"] == "2H"
    assert v["pending"] == "dodge"  # the 2♠ deals another 8: deadly
    dead = view(TOMB.apply(state, "endure"))
    assert dead["outcome"] == "dead"
    assert dead["damage"] == 16 and dead["hp_card"] is None
    assert dead["score"] == [0, 0, 0]
    v = view(TOMB.apply(state, "dodge"))
    assert v["outcome"] is None
    assert v["damage"] == 8
    assert v["hand"] == ["10D"]


def test_a_door_discard_can_burn_the_fourth_torch() -> None:
    state = play("AS AH AD 9C 3D 2S AC 5S", "flip")
    v = view(state)
    assert v["outcome"] == "lost_in_dark"
    assert v["torches"] == ["AS", "AH", "AD", "AC"]
    assert v["turn"] == ["9C", "3D"]
    assert v["deck"] == 1
    assert v["score"] == [0, 0, 0]


def test_the_fourth_torch_during_the_retreat_scores_nothing() -> None:
    state = play("4D 9S 2C 3C AS AH AD AC", "flip", "flip", "retreat")
    assert view(state)["score"] == [0, 4, 1]
    v = view(TOMB.apply(state, "flip"))
    assert v["outcome"] == "lost_in_dark"
    assert v["score"] == [0, 0, 0]
    assert v["score_text"] == "lost in the dark — 0"
    assert v["retreat_needed"] == 1
    assert v["phase"] == "over"


def test_between_retreat_turns_only_flip() -> None:
    state = play("2C 5S 3C 6S 4C 7S 5C 8S 6C 9S", "flip", "flip", "flip", "retreat")
    assert view(state)["retreat_needed"] == 2
    assert view(state)["phase"] == "retreat"
    assert TOMB.actions(state) == ["flip"]
    with pytest.raises(IllegalAction, match="already on your way out"):
        TOMB.apply(state, "retreat")
    state = TOMB.apply(state, "flip")
    assert view(state)["retreat_turns"] == 1
    assert TOMB.actions(state) == ["flip"]
    state = TOMB.apply(state, "flip")
    assert view(state)["outcome"] == "escaped"
    assert view(state)["retreat_turns"] == 2


def test_events_tell_the_turn_card_by_card() -> None:
    state = play("9S 5C 9D", "flip")
    assert list(state.events) == [
        "You step into the tomb: turn 1.",
        "You turn 9♠: a monster of strength 9 blocks the way.",
        "Your 5♣ falls short: the monster hits you for 4.",
        "You take 4 damage (4 in all, 6♥ showing).",
        "Your 9♦ slays the 9♠ monster.",
        "You collect 9♦.",
    ]


def test_all_four_kings_out_alive_is_a_win() -> None:
    state = play("KS KH KD KC 2S 5D", "flip", "retreat")
    v = view(state)
    assert v["hand"] == ["KS", "KH", "KD", "KC", "5D"]
    assert v["outcome"] == "won"
    assert v["won"] is True
    assert v["score_text"] == "4 Kings, 45 points"


def test_text_shows_the_board_in_the_discord_boards_words() -> None:
    text = TOMB.text(play("10S 4D JS", "flip"))
    assert "Hit points: ❤️ 4♥ showing · 6 damage · ▰▰▱▱▱▱▱▱ 2 more survivable" in text
    assert "Hand: 💰 Treasure: none yet · ✨ Skills: J♠ Go Berserk" in text
    assert "This turn: Encounter: 10♠ monster · Cards: 10♠ 4♦" in text
    assert "Score: 0 Kings, 0 points" in text
    assert "Fight the 10♠ monster: turn a card or play J♠ (Go Berserk)?" in text


# ----- refusals -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "moves", "action", "reason"),
    [
        ("4D 9S", (), "retreat", "You have not entered the tomb yet"),
        ("JS 7S", ("flip",), "skill JC", "You have no J♣."),
        ("JD JS 7S", ("flip",), "skill JD", "only works against a trap"),
        ("JS 7S", ("flip",), "skill JH", "Dodge Blow"),
        ("JS 7S", ("flip",), "retreat", "only turn back between turns"),
        ("JS 7S", ("flip",), "drop KS", "You have no K♠."),
        ("JS 7S", ("flip",), "leave 7S", "nothing else"),
        ("JS 7S", ("flip",), "dodge", "No blow is landing."),
        ("JS 7S", ("flip",), "discard", "door that held"),
        ("JD JS 7D", ("flip",), "drop 7D", "only dropped to escape a monster"),
        ("JH 9S 8C", ("flip",), "flip", "dodge it or endure it first"),
        ("KC 3D 7D", ("flip",), "leave 9S", "not a treasure of this turn"),
        ("10S 2C 9C", ("flip",), "flip", "The game is over."),
        ("4D 9S", (), "jump", "not a Tomb move"),
    ],
)
def test_refusals_say_why(deck: str, moves: tuple[str, ...], action: str, reason: str) -> None:
    state = play(deck, *moves)
    before = TOMB.dump(state)
    with pytest.raises(IllegalAction, match=reason):
        TOMB.apply(state, action)
    assert TOMB.dump(state) == before


# ----- properties of random play --------------------------------------------------------------

ALL_CARDS = Counter(TOMB_DECK + HIT_POINT_HEARTS)
CANDIDATES = (
    ["flip", "retreat", "dodge", "endure", "discard", "skill JH", "", "flip now"]
    + [f"skill {j}" for j in ("JS", "JD", "JC")]
    + [f"{verb} {c}" for verb in ("drop", "leave") for c in TOMB_DECK]
)
PROPERTY = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def check_invariants(state: TombState) -> None:
    where = locations(state)
    assert Counter(c for cards in where.values() for c in cards) == ALL_CARDS
    v = view(state)
    json.dumps(v)
    assert TOMB.load(TOMB.dump(state)) == state
    assert v["over"] == (state.outcome is not None) == (TOMB.actions(state) == [])
    if v["outcome"] in ("dead", "lost_in_dark"):
        assert v["score"] == [0, 0, 0]
    else:
        assert v["score"][2] == 1
    if not v["over"] and v["pending"] is None and v["encounter"] is None:
        assert v["turn"] == []
    legal = TOMB.actions(state)
    if len(legal) == 1:  # a stop without a choice is only ever between turns
        assert v["encounter"] is None and v["pending"] is None and v["turn"] == []
    for action in legal:  # whatever is offered can be played
        TOMB.apply(state, action)


@PROPERTY
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_random_legal_play(seed: int, data: st.DataObject) -> None:
    state = TOMB.new(seed)
    delve_bias = data.draw(st.integers(0, 3), label="delve bias")
    moves: list[str] = []
    for _ in range(400):
        check_invariants(state)
        legal = TOMB.actions(state)
        if not legal:
            break
        illegal = data.draw(st.sampled_from(CANDIDATES), label="probe")
        if illegal not in legal:
            before = TOMB.dump(state)
            with pytest.raises(IllegalAction):
                TOMB.apply(state, illegal)
            assert TOMB.dump(state) == before
        if legal[:2] == ["flip", "retreat"] and data.draw(st.integers(0, 3)) < delve_bias:
            move = "flip"
        else:
            move = data.draw(st.sampled_from(legal), label="move")
        before = TOMB.dump(state)
        nxt = TOMB.apply(state, move)
        assert TOMB.dump(state) == before
        assert nxt.damage >= state.damage
        assert nxt.moves == state.moves + 1
        state = nxt
        moves.append(move)
    assert TOMB.actions(state) == [], "the game did not end"
    check_invariants(state)
    assert replay("tomb", None, seed, moves) == state


@pytest.mark.parametrize("seed", range(40))
def test_always_delving_ends_in_the_dark_or_dead(seed: int) -> None:
    state = TOMB.new(seed)
    while TOMB.actions(state):
        check_invariants(state)
        state = TOMB.apply(state, TOMB.actions(state)[0])
    assert view(state)["outcome"] in ("dead", "lost_in_dark")
