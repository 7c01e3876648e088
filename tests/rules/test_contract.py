"""The engine contract (``engine.md``) checked on every registered game through its common API.

One generic test in the manner of OpenSpiel's: random legal play of every game in
``rules.GAMES``, checking what every caller above the engines relies on.
"""

from __future__ import annotations

import json
import random

import pytest

from rules import GAMES, IllegalAction, find_game, replay

CONTRACT_KEYS = {
    "game", "variant", "seed", "moves", "over", "won", "outcome",
    "score", "score_text", "prompt", "events",
}
OUTCOMES = {
    "donsol": {"won", "dead"},
    "tomb": {"won", "escaped", "dead", "lost_in_dark"},
    "clear": {"won", "stuck"},
}


def test_the_registry_lists_each_game_under_its_key() -> None:
    assert "donsol" in GAMES
    for key, game in GAMES.items():
        assert game.key == key and game.title and game.variants
        assert find_game(key) is game
    with pytest.raises(ValueError, match="unknown game 'poker'"):
        find_game("poker")


@pytest.mark.parametrize("key", list(GAMES))
@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1, 123456789])
def test_random_play_honours_the_contract(key: str, seed: int) -> None:
    game = GAMES[key]
    rng = random.Random(seed % 1000)
    for variant in game.variants:
        state = game.new(seed, variant)
        played: list[str] = []
        views = []
        while True:
            view = game.view(state)
            assert view.keys() >= CONTRACT_KEYS
            assert json.loads(json.dumps(view)) == view  # JSON-safe
            assert (view["game"], view["variant"], view["seed"]) == (key, variant, seed)
            assert view["moves"] == len(played)
            assert isinstance(view["score"], list) and all(type(x) is int for x in view["score"])
            assert view["score_text"] and view["prompt"]
            assert all(isinstance(e, str) and e for e in view["events"])
            dumped = game.dump(state)
            assert json.loads(json.dumps(dumped)) == dumped
            assert game.load(json.loads(json.dumps(dumped))) == state
            views.append(view)
            legal = game.actions(state)
            assert len(set(legal)) == len(legal)
            assert view["over"] is (not legal)
            if not legal:
                break
            assert view["outcome"] is None and not view["won"]
            action = rng.choice(legal)
            state = game.apply(state, action)
            assert game.dump(game.load(dumped)) == dumped  # the old state is untouched
            played.append(action)
        assert view["outcome"] in OUTCOMES.get(key, {view["outcome"]})
        assert view["won"] is (view["outcome"] == "won")
        with pytest.raises(IllegalAction):
            game.apply(state, played[-1] if played else "anything")
        # Same deal and actions, same views, step by step.
        again = game.new(seed, variant)
        assert game.view(again) == views[0]
        for i, action in enumerate(played, 1):
            again = game.apply(again, action)
            assert game.view(again) == views[i]
        assert game.view(replay(key, variant, seed, played)) == views[-1]


@pytest.mark.parametrize("key", list(GAMES))
def test_nonsense_is_refused_with_a_reason_and_changes_nothing(key: str) -> None:
    game = GAMES[key]
    state = game.new(77)
    before = game.dump(state)
    for nonsense in ("", " ", "take", "put AS 9", "drop", "flip flip", "x" * 200, "ESCAPE"):
        if nonsense in game.actions(state):
            continue
        with pytest.raises(IllegalAction) as refused:
            game.apply(state, nonsense)
        assert str(refused.value).strip()
        assert isinstance(refused.value, ValueError)
    assert game.dump(state) == before


@pytest.mark.parametrize("key", list(GAMES))
def test_a_state_from_another_engine_version_is_refused(key: str) -> None:
    game = GAMES[key]
    dumped = game.dump(game.new(5))
    with pytest.raises(ValueError, match="cannot load"):
        game.load({**dumped, "engine": f"{key}/999"})
    with pytest.raises(ValueError, match="malformed"):
        game.load({**dumped, "no_such_field": 1})
