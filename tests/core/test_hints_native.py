"""Hints and turning points on the native searches: the native nodes they buy are the ones
the docs give (``HINT_NATIVE_SCALE``, ``TURN_NATIVE_SCALE``, fewer than a par's), and a hint
is the same from one process to the next."""

from __future__ import annotations

import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from core.hints import compute_hint
from core.replays import TURN_BUDGET_PER_STEP, TURN_NATIVE_SCALE, compute_turn
from rules import GAMES, native
from rules.hints import DEFAULT_BUDGET, DEFAULT_SAMPLES, HINT_NATIVE_SCALE, hint

NATIVE = [key for key in GAMES if native.available(key)]


class Spy:
    """A game's built native module, recording the node budget of every search."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.budgets: list[int] = []

    def search(self, encoded: Any, budget: int, seed: int) -> Any:
        self.budgets.append(budget)
        return self.real.search(encoded, budget, seed)


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> dict[str, Spy]:
    spies = {key: Spy(native.module(key)) for key in NATIVE}
    monkeypatch.setattr(native, "module", lambda key: spies.get(key))
    return spies


def midgame(key: str, seed: int) -> Any:
    """A position a few random moves in, with at least two legal actions."""
    game = GAMES[key]
    state, pick = game.new(seed), random.Random(seed)
    for _ in range(4):
        after = game.apply(state, pick.choice(game.actions(state)))
        if game.is_over(after) or len(game.actions(after)) < 2:
            break
        state = after
    assert len(game.actions(state)) > 1
    return state


def test_the_native_searches_are_built() -> None:
    assert {"donsol", "clear", "scoundrel"} <= set(NATIVE)


@pytest.mark.parametrize("key", NATIVE)
def test_a_hint_buys_its_own_scale_of_native_nodes_not_a_pars(
    key: str, spied: dict[str, Spy]
) -> None:
    state = midgame(key, 11)
    found = hint(key, state, rng=random.Random(1))
    assert found.action in GAMES[key].actions(state)
    glue = native.glue(key)
    assert glue is not None and glue.scale > HINT_NATIVE_SCALE
    budgets = spied[key].budgets
    assert budgets, "the hint searched natively"
    # Every (world, action) pair gets an equal share of the budget, in reference nodes, and
    # each reference node buys HINT_NATIVE_SCALE native nodes (rounded up to the glue's).
    share = max(50, DEFAULT_BUDGET // (DEFAULT_SAMPLES * len(GAMES[key].actions(state))))
    for budget in budgets:
        assert share * HINT_NATIVE_SCALE <= budget < share * HINT_NATIVE_SCALE + glue.scale


@pytest.mark.parametrize("key", NATIVE)
def test_a_turning_point_buys_its_own_scale_of_native_nodes(
    key: str, spied: dict[str, Spy]
) -> None:
    game, pick = GAMES[key], random.Random(3)
    seed, state, actions = 3, GAMES[key].new(3), []
    while not game.is_over(state) and len(actions) < 12:
        actions.append(pick.choice(game.actions(state)))
        state = game.apply(state, actions[-1])
    compute_turn(key, game.variants[0], seed, None, actions, TURN_BUDGET_PER_STEP)
    glue = native.glue(key)
    assert glue is not None and glue.scale > TURN_NATIVE_SCALE
    wanted = TURN_BUDGET_PER_STEP * TURN_NATIVE_SCALE
    assert spied[key].budgets
    assert all(wanted <= b < wanted + glue.scale for b in spied[key].budgets)


def test_budget_for_a_game_without_a_native_search_is_the_reference_budget() -> None:
    without = [key for key in GAMES if native.glue(key) is None]
    assert without, "tomb has no native search"
    assert native.budget_for(without[0], 1_234, HINT_NATIVE_SCALE) == 1_234


def _hint_here(args: tuple[str, dict[str, Any], str]) -> tuple[str, str, int]:
    key, dump, rng_seed = args
    found = compute_hint(key, dump, rng_seed, DEFAULT_BUDGET, DEFAULT_SAMPLES)
    return found.action, str(found.reason), found.wins


@pytest.mark.parametrize("key", list(GAMES))
def test_the_same_position_gets_the_same_hint_in_every_process(key: str) -> None:
    state = midgame(key, 29)
    job = (key, GAMES[key].dump(state), f"hint:7:{state.moves}")
    here = _hint_here(job)
    answers = []
    for _ in range(2):  # two fresh processes: a hash seed of their own each
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            answers.append(pool.submit(_hint_here, job).result(timeout=120))
    assert answers == [here, here]
