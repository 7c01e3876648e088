"""Reading typed moves: menu numbers, any case, suit symbols and letters, menu words."""

from __future__ import annotations

import pytest

from rules import GAMES
from rules.notation import Reading, card_code, read_move

LEGAL = ["take 3D", "take JC", "take RJ", "take BJ", "escape"]
LABELS = ["Equip 3♦ (3)", "Fight J♣ (11)", "Fight red joker 🃏 (21)",
          "Fight black joker 🃏 (21)", "Escape"]


@pytest.mark.parametrize(
    ("token", "code"),
    [("4♠", "4S"), ("4s", "4S"), ("10♥", "10H"), ("t♥", "10H"), ("Q♦️", "QD"), ("rj", "RJ"),
     ("bj", "BJ"), ("4", None), ("xx", None), ("1♠", None)],
)
def test_card_codes_from_what_people_type(token: str, code: str | None) -> None:
    assert card_code(token) == code


@pytest.mark.parametrize(
    ("typed", "action"),
    [("2", "take JC"), ("take 3♦", "take 3D"), ("TAKE jc", "take JC"), ("  take   3d ", "take 3D"),
     ("equip 3d", "take 3D"), ("Fight J♣ (11)", "take JC"), ("fight black joker", "take BJ"),
     ("escape", "escape"), ("ESCAPE", "escape"), ("take bj", "take BJ")],
)
def test_typed_moves_become_legal_actions(typed: str, action: str) -> None:
    assert read_move(typed, LEGAL, LABELS) == Reading(action=action)


def test_a_label_reads_without_what_its_brackets_add() -> None:
    legal, labels = ["flip", "retreat"], ["Delve deeper (turn 2)", "Turn back (out at once)"]
    assert read_move("delve deeper", legal, labels).action == "flip"
    assert read_move("TURN BACK", legal, labels).action == "retreat"


def test_a_lone_joker_is_the_joker_that_makes_a_legal_move() -> None:
    assert read_move("take 🃏", ["take BJ", "escape"]).action == "take BJ"
    assert read_move("take joker", ["take RJ"]).action == "take RJ"


def test_what_is_not_legal_comes_back_in_the_engines_notation() -> None:
    assert read_move("take 4♠", LEGAL, LABELS) == Reading(guess="take 4S")
    assert read_move("9", LEGAL, LABELS) == Reading(number=9)
    assert read_move("0", LEGAL, LABELS) == Reading(number=0)
    assert read_move("", LEGAL, LABELS) == Reading()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_label_and_action_of_random_play_reads_back(key: str) -> None:
    game = GAMES[key]
    state = game.new(11)
    while legal := game.actions(state):
        view = game.view(state)
        labels = [game.label(view, a) for a in legal]
        for i, (action, label) in enumerate(zip(legal, labels, strict=True)):
            assert read_move(action, legal, labels).action == action
            assert read_move(action.upper(), legal, labels).action == action
            assert read_move(str(i + 1), legal, labels).action == action
            if labels.count(label) == 1:
                assert read_move(label, legal, labels).action == action
        state = game.apply(state, legal[-1])
