"""Button labels come from the engines' words: distinct jokers, and /rules from the rules text."""

from __future__ import annotations

import re

import pytest

from bot.boards.rulebook import RULEBOOK
from bot.games import BOARDS, render_board
from rules import GAMES
from rules.donsol.engine import DECK as DONSOL_DECK
from rules.donsol.engine import DONSOL
from rules.rulebook import discord_text


def test_the_two_jokers_get_distinct_labels() -> None:
    first = ["RJ", "BJ", "2D", "3H"]
    state = DONSOL.new(1, deck=[*first, *(c for c in DONSOL_DECK if c not in first)])
    board = render_board(DONSOL.view(state), DONSOL.actions(state), run_id=1)
    labels = {s.action: s.label for s in board.buttons}
    assert labels["take RJ"] == "Fight red joker 🃏 (21)"
    assert labels["take BJ"] == "Fight black joker 🃏 (21)"
    assert len(set(labels.values())) == len(labels)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_button_label_is_the_engines_label(key: str) -> None:
    game = GAMES[key]
    state = game.new(7)
    for _ in range(40):
        actions = game.actions(state)
        if not actions:
            break
        view = game.view(state)
        board = render_board(view, actions, run_id=1)
        # A two-step board's buttons name only the card, then only the target (the prompt
        # says the rest): tests/bot/test_board_clear.py reads them.
        for spec in board.buttons if BOARDS[key].choose is None else ():
            if not spec.disabled:
                assert spec.label == game.label(view, spec.action)
        state = game.apply(state, actions[len(actions) // 2])


@pytest.mark.parametrize("key", sorted(GAMES))
def test_rules_in_discord_are_the_rules_text(key: str) -> None:
    assert RULEBOOK[key] == discord_text(key)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_terminal_board_says_what_the_discord_fields_say(key: str) -> None:
    game = GAMES[key]
    state = game.new(3)
    while True:
        view = game.view(state)
        text = game.text(state)
        board = render_board(view, game.actions(state), run_id=1)
        for field in board.embed.fields:
            for line in (field.value or "").splitlines():
                words = re.sub(r"^\*\*\d\*\* ", "", line).replace("**", "")
                assert words in text, f"{field.name}: {words!r} is not on the terminal board"
        if not (actions := game.actions(state)):
            break
        state = game.apply(state, actions[len(actions) // 3])
