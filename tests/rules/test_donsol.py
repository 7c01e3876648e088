"""Donsol: the spec's worked examples G1–G10, refusals, and properties of random play."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import GAMES, IllegalAction, replay
from rules.donsol.engine import DECK as DONSOL_DECK
from rules.donsol.engine import DONSOL, DonsolState, value


def dealt(first: list[str], variant: str | None = None) -> DonsolState:
    """A game whose deck starts with ``first`` (the first room and what follows)."""
    rest = [c for c in DONSOL_DECK if c not in first]
    return DONSOL.new(1, variant, deck=[*first, *rest])


def at(room: list[str], **fields) -> DonsolState:
    """A mid-game position: this room (first room already left behind), other fields as given."""
    state = dealt(room)
    return replace(state, room=tuple(room), first_room=False, **fields)


def play(state: DonsolState, *cards: str) -> DonsolState:
    for card in cards:
        state = DONSOL.apply(state, f"take {card}")
    return state


def test_registry_and_variants() -> None:
    assert GAMES["donsol"] is DONSOL
    assert (DONSOL.key, DONSOL.title) == ("donsol", "Donsol")
    assert DONSOL.variants == ("normal", "easy", "hard")
    assert DONSOL.view(DONSOL.new(3))["variant"] == "normal"


def test_card_values_follow_the_table() -> None:
    assert [value(c) for c in ("2H", "10H", "JH", "QH", "KH", "AH")] == [2, 10, 11, 11, 11, 11]
    assert [value(c) for c in ("JD", "AD")] == [11, 11]
    monsters = ("9C", "JC", "QS", "KC", "AS", "RJ", "BJ")
    assert [value(c) for c in monsters] == [9, 11, 13, 15, 17, 21, 21]


def test_the_first_room_is_the_top_four_cards() -> None:
    view = DONSOL.view(DONSOL.new(0))
    assert view["room"] == ["3D", "JC", "8C", "4H"]
    assert view["dungeon"] == 50
    assert (view["hp"], view["xp"], view["shield"], view["sick"]) == (21, 0, None, False)
    assert view["score"] == [0, 21] and view["outcome"] is None and not view["over"]


def test_g1_shield_wear() -> None:
    s = at(["10C", "6S", "JS", "2D"], hp=15, shield="8D")
    s = play(s, "10C")
    assert (s.hp, s.shield, s.shield_last) == (13, "8D", 10)
    s = play(s, "6S")
    assert (s.hp, s.shield, s.shield_last) == (13, "8D", 6)
    s = play(s, "JS")
    assert (s.hp, s.shield, s.shield_last) == (2, None, None)
    assert "breaks" in " ".join(s.events)


def test_g2_equal_breaks() -> None:
    s = at(["9C", "9S", "3C", "2D"], shield="7D")
    s = play(s, "9C")
    assert (s.hp, s.shield_last) == (19, 9)
    s = play(s, "9S")
    assert (s.hp, s.shield) == (10, None)
    s = play(s, "3C")
    assert s.hp == 7


def test_g3_joker_on_a_face_shield() -> None:
    s = play(dealt(["KD", "RJ", "AC", "QS"]), "KD")
    assert (s.shield, s.shield_last) == ("KD", None)
    s = play(s, "RJ")
    assert (s.hp, s.shield_last) == (11, 21)
    s = play(s, "AC")
    assert (s.hp, s.shield_last) == (5, 17)
    s = play(s, "QS")
    assert (s.hp, s.shield_last) == (3, 13)


def test_g4_sickness() -> None:
    s = at(["5H", "6H", "KH", "2D"], hp=10)
    s = play(s, "5H")
    assert (s.hp, s.sick) == (15, True)
    s = play(s, "6H")
    assert (s.hp, s.sick) == (15, True)
    s = play(s, "KH")
    assert s.hp == 15
    s = play(s, "2D")
    assert s.sick is False
    # The room is cleared; the next room holds the 9♥ (put on top of the dungeon).
    s = replace(s, room=("9H",))
    s = play(s, "9H")
    assert (s.hp, s.sick) == (21, True)


def test_g5_sickness_crosses_rooms() -> None:
    s = at(["3H", "4S", "10H"])
    s = replace(s, dungeon=("8H", *(c for c in s.dungeon if c != "8H")))
    s = play(s, "3H")
    assert (s.hp, s.sick) == (21, True)
    s = play(s, "4S")
    assert (s.hp, s.sick) == (17, False)
    s = play(s, "10H")
    assert (s.hp, s.sick) == (21, True)
    assert s.room[0] == "8H" and len(s.room) == 4
    s = play(s, "8H")
    assert (s.hp, s.sick) == (21, True)
    assert "nothing" in s.events[0]


def test_g6_a_new_shield_is_fresh() -> None:
    s = at(["3D", "10C", "2S", "2H"], hp=20, shield="5D", shield_last=4, shield_monsters=("4C",))
    s = play(s, "3D")
    assert (s.shield, s.shield_last, s.shield_monsters) == ("3D", None, ())
    assert {"5D", "4C"} <= set(s.discard)
    s = play(s, "10C")
    assert (s.hp, s.shield, s.shield_last) == (13, "3D", 10)


G7_CASES = [
    # (situation, state fields, room, easy/normal/hard)
    ("first room, monster left", {"first_room": True}, ["5C", "2H", "3D", "4H"], "YYY"),
    ("later room, not escaped last, monster left", {}, ["5C", "2H", "3D", "4H"], "YYN"),
    ("escaped last, monster left", {"escaped_last": True}, ["5C", "2H", "3D", "4H"], "NNN"),
    ("escaped last, only potions and shields left", {"escaped_last": True}, ["2H", "3D"], "YNY"),
    ("not escaped last, only potions and shields", {}, ["2H", "3D"], "YYY"),
    ("dungeon empty", {"dungeon": ()}, ["2H", "3D"], "NNN"),
]


@pytest.mark.parametrize(("situation", "fields", "room", "answers"), G7_CASES)
def test_g7_escape_permission(situation: str, fields: dict, room: list[str], answers: str) -> None:
    for variant, answer in zip(("easy", "normal", "hard"), answers, strict=True):
        s = replace(at(room), variant=variant, **fields)
        view = DONSOL.view(s)
        assert view["can_escape"] is (answer == "Y"), (situation, variant)
        assert ("escape" in DONSOL.actions(s)) is (answer == "Y")
        if answer == "N":
            assert view["escape_reason"]
            with pytest.raises(IllegalAction) as refused:
                DONSOL.apply(s, "escape")
            assert str(refused.value) == view["escape_reason"]
        else:
            assert view["escape_reason"] is None


def test_g8_escape_keeps_sickness() -> None:
    s = play(dealt(["6D", "5C", "3H", "QS"]), "6D", "5C")
    assert s.hp == 21
    s = play(s, "3H")
    assert s.sick
    s = DONSOL.apply(s, "escape")
    assert s.sick and s.escaped_last and s.xp == 3
    assert "QS" in s.room + s.dungeon
    assert len(s.room) == 4 and len(s.dungeon) == 54 - 3 - 4
    assert s.shield == "6D" and s.shield_last == 5


def test_g9_dying_on_the_last_card_is_a_loss() -> None:
    s = at(["5S"], hp=5, xp=53, dungeon=())
    s = play(s, "5S")
    view = DONSOL.view(s)
    assert (view["hp"], view["outcome"], view["xp"], view["score"]) == (0, "dead", 54, [54, 0])
    assert view["over"] and not view["won"] and DONSOL.actions(s) == []
    assert view["escape_reason"] == "The game is over."
    assert view["score_text"] == "died after 54/54 cards"


def test_g10_a_partial_last_room() -> None:
    s = at(["2H", "3C"], hp=4, xp=52, dungeon=())
    with pytest.raises(IllegalAction, match="last room"):
        DONSOL.apply(s, "escape")
    s = play(s, "3C")
    assert s.hp == 1
    s = play(s, "2H")
    view = DONSOL.view(s)
    assert (view["outcome"], view["won"], view["score"]) == ("won", True, [54, 3])
    assert view["score_text"] == "won with 3 HP"


def test_winning_in_a_room_entered_by_escape_resets_escaped_last() -> None:
    # Rule 7: clearing a room resets "escaped last room", the last room too.
    s = at(["2D", "3D"], xp=50, dungeon=("4D", "5D"))
    s = DONSOL.apply(s, "escape")
    assert s.escaped_last and not s.dungeon and sorted(s.room) == ["2D", "3D", "4D", "5D"]
    s = play(s, *s.room)
    view = DONSOL.view(s)
    assert (view["outcome"], view["xp"]) == ("won", 54)
    assert view["escaped_last"] is False


def test_death_ends_the_game_at_once_and_keeps_the_room() -> None:
    s = at(["RJ", "2H", "3D", "4C"], hp=20)
    s = play(s, "RJ")
    view = DONSOL.view(s)
    assert view["outcome"] == "dead" and view["hp"] == 0
    assert view["room"] == ["2H", "3D", "4C"] and view["dungeon"] == 50
    assert DONSOL.actions(s) == []
    with pytest.raises(IllegalAction, match="over"):
        DONSOL.apply(s, "take 2H")


def test_refusals_say_why_and_change_nothing() -> None:
    s = DONSOL.new(0)
    before = DONSOL.dump(s)
    cases = {
        "take AS": "A♠ is not in this room.",
        "take ZZ": "'ZZ' is not in this room.",
        "dance": "'dance' is not a Donsol move: take a card of the room, or escape.",
        "": "'' is not a Donsol move: take a card of the room, or escape.",
    }
    for action, message in cases.items():
        with pytest.raises(IllegalAction) as refused:
            DONSOL.apply(s, action)
        assert str(refused.value) == message
    assert DONSOL.dump(s) == before


def test_escape_reshuffles_with_the_stream_deterministically() -> None:
    a = DONSOL.apply(DONSOL.new(9), "escape")
    b = DONSOL.apply(DONSOL.new(9), "escape")
    assert a == b and a.stream > DONSOL.new(9).stream
    assert sorted(a.room + a.dungeon) == sorted(DONSOL_DECK)


def test_replay_names_the_bad_move() -> None:
    with pytest.raises(IllegalAction) as refused:
        replay("donsol", None, 0, ["take 3D", "take 3D"])
    assert refused.value.index == 1
    assert str(refused.value).startswith("move 2 ('take 3D'):")


def test_explicit_decks_must_hold_every_card_once() -> None:
    with pytest.raises(ValueError, match="54 cards"):
        DONSOL.new(0, deck=["AS", "2S"])
    with pytest.raises(ValueError, match="variant"):
        DONSOL.new(0, "nightmare")


# ----- properties of random play -------------------------------------------------------------


def accounted(s: DonsolState) -> list[str]:
    shield = [s.shield] if s.shield else []
    return sorted([*s.dungeon, *s.room, *s.discard, *shield, *s.shield_monsters])


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    variant=st.sampled_from(DONSOL.variants),
    picks=st.randoms(use_true_random=False),
)
def test_random_play_keeps_every_invariant(seed: int, variant: str, picks) -> None:
    state = DONSOL.new(seed, variant)
    taken: list[str] = []
    everything = sorted(DONSOL_DECK)
    for _ in range(500):
        legal = DONSOL.actions(state)
        if not legal:
            break
        assert accounted(state) == everything
        assert 0 <= state.hp <= 21
        # Anything outside actions() is refused and changes nothing.
        for bogus in ("escape", "take BJ", "take 10H", "flip"):
            if bogus not in legal:
                snapshot = DONSOL.dump(state)
                with pytest.raises(IllegalAction):
                    DONSOL.apply(state, bogus)
                assert DONSOL.dump(state) == snapshot
        for offered in legal:  # every action offered is accepted
            assert DONSOL.apply(state, offered).moves == state.moves + 1
        action = picks.choice(legal)
        before = DONSOL.dump(state)
        nxt = DONSOL.apply(state, action)
        assert DONSOL.dump(state) == before  # the input is untouched
        assert DONSOL.load(DONSOL.dump(nxt)) == nxt
        assert nxt.moves == state.moves + 1
        state = nxt
        taken.append(action)
    else:
        pytest.fail("a game did not end within 500 actions")
    view = DONSOL.view(state)
    assert view["over"] and view["outcome"] in ("won", "dead")
    assert accounted(state) == everything
    assert 0 <= state.hp <= 21
    assert DONSOL.view(replay("donsol", variant, seed, taken)) == view


def test_a_second_escape_is_refused_without_calling_the_room_before_the_last_room() -> None:
    # "The last room" means the final one ("nowhere left to run"); the room escaped from is
    # named differently, so a newcomer does not read the two as one.
    for variant, reason in [
        ("normal", "You came into this room by escaping: clear it before you escape again."),
        ("easy", "You came into this room by escaping: you may only escape again once no "
                 "monster is left here."),
    ]:
        state = DONSOL.apply(dealt(["2D", "3D", "4D", "5D"], variant), "escape")
        state = replace(state, room=("9C", *state.room[1:]))
        with pytest.raises(IllegalAction) as refused:
            DONSOL.apply(state, "escape")
        assert str(refused.value) == reason


def test_escaping_says_card_goes_or_cards_go() -> None:
    state = play(dealt(["2D", "3D", "4D", "5D"]), "2D", "3D", "4D")
    state = DONSOL.apply(state, "escape")
    assert state.events[0] == (
        "You escape. 1 card goes back under the dungeon, and it is reshuffled."
    )
    state = DONSOL.apply(dealt(["2D", "3D", "4D", "5D"]), "escape")
    assert state.events[0].startswith("You escape. 4 cards go back under the dungeon")
