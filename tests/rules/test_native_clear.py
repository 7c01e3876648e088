"""Clear the Dungeon's native search against the Python engine and the Python solver.

The C side (``rules/clear/_native.c``) encodes the rules once more: its legal moves and next
states are compared step by step with the engine along random games, its bound with the
Python strategy's, and its scores with the Python search's wherever that one is exact.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from rules import GAMES, native, plugin, replay
from rules.clear.engine import CLEAR, ClearState
from rules.solver import best_from, solve
from tests.rules.test_solver import clear_endgames, clear_late, exhaustive

pytestmark = pytest.mark.skipif(not native.available("clear"),
                                reason="rules/clear/_native.c is not built (pip install -e .)")

SMALL = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STRATEGY = plugin("clear").strategy
HARD = 5893448777124979737  # a deal the native search does not settle in 21 million nodes
GLUE = STRATEGY.native


def c_side() -> Any:
    """The built extension module."""
    return native.module("clear")


def random_game(seed: int) -> list[ClearState]:
    """Every state of one random game from a fresh deal."""
    rng = random.Random(seed)
    state = CLEAR.new(rng.getrandbits(64))
    states = [state]
    while legal := CLEAR.actions(state):
        state = CLEAR.apply(state, rng.choice(legal))
        states.append(state)
    return states


@pytest.mark.parametrize("chunk", range(6))
def test_the_c_moves_and_next_states_are_the_engines_along_random_games(chunk: int) -> None:
    for seed in range(chunk * 50, chunk * 50 + 50):
        for state in random_game(seed):
            assert native.compare_step("clear", state) == [], (seed, state)


@pytest.mark.parametrize("chunk", range(3))
def test_the_c_bound_is_the_python_strategys(chunk: int) -> None:
    for seed in range(1000 + chunk * 40, 1000 + chunk * 40 + 40):
        for state in random_game(seed):
            assert c_side().bound(GLUE.encode(state)) == tuple(STRATEGY.bound(state)), state


def test_the_comparison_sees_a_wrong_move_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    # The debug check is not one that cannot fail: a C side that forgets the reserve's top
    # card, or deals no new hand, is caught.
    state = next(s for s in random_game(3) if s.reserve and CLEAR.actions(s))
    real = c_side()

    class Forgetful:
        def moves(self, encoded: Any) -> list[int]:
            return real.moves(encoded)[:-1]

        def play(self, encoded: Any, move: int) -> Any:
            piles, attack, talon, hand, reserve, outcome = real.play(encoded, move)
            return piles, attack, talon[1:], hand, reserve, outcome

    monkeypatch.setattr(native, "module", lambda key: Forgetful())
    problems = native.compare_step("clear", state)
    assert any(p.startswith("legal moves") for p in problems)


def test_the_comparison_sees_a_wrong_next_state(monkeypatch: pytest.MonkeyPatch) -> None:
    state = CLEAR.new(8)
    real = c_side()

    class NoDeal:
        def moves(self, encoded: Any) -> list[int]:
            return real.moves(encoded)

        def play(self, encoded: Any, move: int) -> Any:
            piles, attack, talon, hand, reserve, _ = real.play(encoded, move)
            return piles, attack, talon, hand, reserve, 2

    monkeypatch.setattr(native, "module", lambda key: NoDeal())
    assert native.compare_step("clear", state)


@SMALL
@given(state=clear_endgames())
def test_native_endgames_match_exhaustive_search(state: ClearState) -> None:
    if not CLEAR.actions(state):
        return
    found = best_from("clear", state, native=True)
    assert found.exact
    assert tuple(found.score) == exhaustive(CLEAR, state)


@pytest.mark.parametrize("seed", range(40))
def test_native_scores_match_the_python_search_on_late_positions(seed: int) -> None:
    state = clear_late(seed)
    if not CLEAR.actions(state):
        return
    python = best_from("clear", state, budget_nodes=3000, native=False)
    ours = best_from("clear", state, native=True)
    assert ours.exact
    assert ours.score >= python.score  # a native "exact" is never below a line found
    if python.exact:
        assert ours.score == python.score


@pytest.mark.parametrize("seed", range(60))
def test_native_solves_whole_deals_as_the_python_search_does(seed: int) -> None:
    # Whole deals: where the Python search is exact within a modest budget, the native one
    # finds the same score; its bound, cut short, never exceeds a Python exact answer, and
    # its "exact" is never below a line the Python search found.
    python = solve("clear", seed, budget_nodes=4000, native=False)
    ours = solve("clear", seed, budget_nodes=4000, native=True)
    if ours.exact:
        assert ours.score >= python.score
    if python.exact:
        assert ours.score <= python.score
        if ours.exact:
            assert ours.score == python.score
    final = replay("clear", None, seed, ours.actions)
    assert CLEAR.score(final) == ours.score and CLEAR.actions(final) == []


def test_a_native_search_is_deterministic() -> None:
    state = CLEAR.new(11)
    first = native.search("clear", state, 300)
    again = native.search("clear", state, 300)
    assert (first.score, first.actions, first.exact, first.nodes) == (
        again.score, again.actions, again.exact, again.nodes)


def test_a_native_search_cut_short_still_returns_a_whole_line() -> None:
    found = solve("clear", 2, budget_nodes=0, native=True)
    assert not found.exact
    assert found.text.startswith("at least ")
    assert GAMES["clear"].score(replay("clear", None, 2, found.actions)) == found.score


def test_a_native_deadline_is_read_between_rounds() -> None:
    # No clock in C: the wrapper doubles a node budget and reads the caller's clock between
    # rounds; a clock already past the deadline stops after the first, small round.
    found = solve("clear", HARD, deadline=1.0, clock=lambda: 2.0, native=True)
    assert not found.exact
    assert found.text.startswith("at least ")


@pytest.mark.parametrize("bad", [
    ((), (), (), (), (), 0),
    (((99,),) + ((),) * 3, ((),) * 4, (), (-1, -1, -1), (), 0),
    (((10,),) + ((),) * 3, ((),) * 4, (11,), (-1, -1, -1), (), 0),  # a monster in the talon
    (((10,),) + ((),) * 3, ((0, 1, 2),) + ((),) * 3, (), (-1, -1, -1), (), 0),
    (((10,),) + ((),) * 3, ((),) * 4, (), (0, -1), (), 0),
    (((10,),) + ((),) * 3, ((),) * 4, (), (0, -1, -1), tuple(range(43)), 0),
    (((10,),) + ((),) * 3, ((),) * 4, (), (0, -1, -1), (), 7),
])
def test_the_c_side_refuses_a_state_it_cannot_hold(bad: tuple[Any, ...]) -> None:
    with pytest.raises((ValueError, TypeError)):
        c_side().search(bad, 10, 1)
    with pytest.raises((ValueError, TypeError)):
        c_side().moves(bad)


def test_the_c_side_refuses_an_illegal_move() -> None:
    encoded = GLUE.encode(CLEAR.new(4))
    with pytest.raises(ValueError, match="not legal"):
        c_side().play(encoded, 53 * 8 + 3)
