"""``Game.is_legal``, the quick check ``apply`` makes, answers exactly ``action in
actions(state)``: on random play of every game, for every action met anywhere in its play
and some nonsense."""

from __future__ import annotations

import random

import pytest

from rules import GAMES

NONSENSE = ["", " ", "take", "take ", "put", "put AS", "put AS 0", "put AS 5", "put 2S  1",
            "reserve", "reserve None", "escape ", " escape", "flip flip", "drop", "leave"]


@pytest.mark.parametrize("key", list(GAMES))
def test_is_legal_agrees_with_actions(key: str) -> None:
    game = GAMES[key]
    rng = random.Random(key)
    games = []
    vocabulary = set(NONSENSE)
    for _ in range(60):
        state = game.new(rng.getrandbits(64), rng.choice(game.variants))
        states = [state]
        while legal := game.actions(state):
            vocabulary.update(legal)
            state = game.apply(state, rng.choice(legal))
            states.append(state)
        games.append(states)
    words = sorted(vocabulary)
    for states in games:
        for state in states:
            legal = set(game.actions(state))
            for action in words:
                assert game.is_legal(state, action) is (action in legal), (action, state)
