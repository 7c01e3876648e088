"""Each engine against its plain reference (``tests/rules/reference/``): random play of every
variant, the two agreeing on the legal actions, the outcome and the score at every step.

Two implementations written apart agree only when both follow the rules, so this catches an
engine optimisation that changes behaviour; it also keeps the bench's reference honest.
"""

from __future__ import annotations

import random

import pytest

from rules import GAMES
from tests.rules.reference import ALL_CARDS, reference, shuffle

GAMES_WITH_REFERENCE = [key for key in GAMES if reference(key) is not None]
CASES = [(key, v) for key in GAMES_WITH_REFERENCE for v in GAMES[key].variants]


def test_the_reference_shuffle_meets_the_test_vectors() -> None:
    deck, used = shuffle(0, ALL_CARDS)
    assert " ".join(deck[:4]) == "3D JC 8C 4H" and deck[-1] == "KC" and used == 53


def test_the_three_games_have_references() -> None:
    assert {"donsol", "tomb", "clear"} <= set(GAMES_WITH_REFERENCE)


@pytest.mark.parametrize(("key", "variant"), CASES)
def test_engine_and_reference_agree_on_random_play(key: str, variant: str) -> None:
    game, ref = GAMES[key], reference(key)
    assert ref is not None and variant in ref.VARIANTS
    rng = random.Random(f"{key}/{variant}")
    for _ in range(300):
        seed = rng.getrandbits(64)
        state, mirror = game.new(seed, variant), ref.new(seed, variant)
        history: list[str] = []
        while True:
            legal = game.actions(state)
            where = f"seed {seed}, after {history}"
            assert legal == ref.actions(mirror), where
            assert game.score(state) == ref.score(mirror), where
            assert state.outcome == ref.outcome(mirror), where
            if not legal:
                break
            action = legal[rng.randrange(len(legal))]
            history.append(action)
            before = ref.actions(mirror)
            state, next_mirror = game.apply(state, action), ref.apply(mirror, action)
            assert ref.actions(mirror) == before, "the reference changed its input"
            mirror = next_mirror
