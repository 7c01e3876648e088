"""``rules.engine.state_builder`` builds exactly what the state class builds."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules import GAMES
from rules.engine import state_builder


@pytest.mark.parametrize("key", list(GAMES))
def test_the_builder_makes_the_same_frozen_state(key: str) -> None:
    game = GAMES[key]
    cls = game.state_type
    if not hasattr(cls, "__slots__") or hasattr(cls, "__post_init__"):
        pytest.skip(f"{key}'s state is not a plain slotted dataclass: no builder for it")
    build = state_builder(cls)
    rng = random.Random(key)
    state = game.new(rng.getrandbits(64))
    for _ in range(20):
        values = [getattr(state, f.name) for f in dataclasses.fields(cls)]
        built = build(*values)
        assert type(built) is cls
        assert built == state == cls(*values) and hash(built) == hash(state)
        assert game.dump(built) == game.dump(state)
        with pytest.raises(dataclasses.FrozenInstanceError):
            built.seed = 1  # type: ignore[misc]
        legal = game.actions(state)
        if not legal:
            break
        state = game.apply(state, rng.choice(legal))
    with pytest.raises(TypeError):
        build(*values[:-1])


def test_only_plain_slotted_dataclasses() -> None:
    @dataclasses.dataclass(frozen=True)
    class Unslotted:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            assert self.a > 0

    for cls in (Unslotted, Checked):
        with pytest.raises(TypeError):
            state_builder(cls)
