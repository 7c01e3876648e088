"""Scoundrel's native search (``rules/scoundrel/_native.c``) against the Python engine and
solver.

The C side encodes the rules once more; the engine stays the truth. These tests walk random
games and compare the C move generator with the engine at every step, and compare the
native search's answers with the pure Python search (``rules.search``), the reference:
equal where the Python one is exact, never above a Python exact answer, never below a line
the Python search found, and every line replays through the engine.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import native
from rules.scoundrel.engine import DECK, ROLE, SCOUNDREL, ScoundrelState
from rules.scoundrel.hints import ScoundrelHints
from rules.scoundrel.solver import ScoundrelStrategy
from rules.search import Search
from rules.solver import best_from
from tests.rules.test_solver import exhaustive

STRATEGY = ScoundrelStrategy()
GLUE = STRATEGY.native


def test_the_native_module_is_built() -> None:
    # The install builds it (setup.py); every test below needs it.
    assert native.available("scoundrel"), "rules/scoundrel/_native.c is not built: pip install -e ."


def c_side() -> Any:
    module = native.module("scoundrel")
    assert module is not None
    return module


def nsolve(state: ScoundrelState, budget: int | None) -> tuple[list[int], bool, int, list[str]]:
    """The C search from ``state`` with ``budget`` of its own nodes (None: no budget)."""
    score, exact, nodes, line = c_side().search(
        GLUE.encode(state), -1 if budget is None else budget, native.SEED)
    return list(score), exact, nodes, GLUE.actions(state, line)


def random_positions(seed: int, count: int) -> list[ScoundrelState]:
    """``count`` states along random games (random legal play), finished ones included."""
    rng = random.Random(seed)
    found: list[ScoundrelState] = []
    while len(found) < count:
        state = SCOUNDREL.new(rng.getrandbits(64))
        while state.outcome is None and len(found) < count:
            found.append(state)
            state = SCOUNDREL.apply(state, rng.choice(SCOUNDREL.actions(state)))
        found.append(state)
    return found[:count]


def check_moves(state: ScoundrelState) -> None:
    """The C side's legal moves are the engine's, in its order, and each leads to the
    engine's next state: the dungeon and room in order, HP, the weapon and its last kill,
    the room's count of cards and potions taken, the avoid flag, the last card (the potion
    bonus) and the outcome."""
    moves = c_side().moves(GLUE.encode(state))
    assert GLUE.actions(state, moves) == SCOUNDREL.actions(state), state
    assert native.compare_step("scoundrel", state) == [], state


def test_the_native_moves_are_the_engines_along_random_games() -> None:
    for state in random_positions(26, 6000):
        check_moves(state)


def test_the_native_moves_follow_sampled_worlds() -> None:
    # A hint's sampled world reshuffles what the player has not seen: the C side reads the
    # state it is given.
    rng = random.Random(5)
    hints = ScoundrelHints()
    for state in random_positions(3, 300):
        if state.outcome is None:
            state = hints.sample_world(state, rng)
        while state.outcome is None:
            check_moves(state)
            state = SCOUNDREL.apply(state, rng.choice(SCOUNDREL.actions(state)))


def replayed(state: ScoundrelState, actions: list[str]) -> ScoundrelState:
    for action in actions:
        state = SCOUNDREL.apply(state, action)
    return state


def late_positions(seed: int, count: int) -> list[ScoundrelState]:
    """``count`` unfinished states late in deals: along a native best line (random games die
    early) once at most 20 cards are left in the dungeon, then a few random moves."""
    rng = random.Random(seed)
    found: list[ScoundrelState] = []
    while len(found) < count:
        state = SCOUNDREL.new(rng.getrandbits(64))
        line = nsolve(state, 300_000)[3]
        for action in line:
            if len(state.dungeon) <= 20 and rng.random() < 0.3:
                off = state
                for _ in range(rng.randrange(4)):
                    if off.outcome is None:
                        off = SCOUNDREL.apply(off, rng.choice(SCOUNDREL.actions(off)))
                if off.outcome is None:
                    found.append(off)
            state = SCOUNDREL.apply(state, action)
    return found[:count]


def test_native_answers_match_the_python_search() -> None:
    compared = 0
    for state in late_positions(31, 90):
        python = Search(SCOUNDREL, STRATEGY, budget_nodes=3000).run(state)
        score, exact, _, actions = nsolve(state, 2_000_000)
        final = replayed(state, actions)
        assert final.outcome is not None and SCOUNDREL.score(final) == score
        if python.exact:
            compared += 1
            assert exact and score == list(python.score), state
        if exact:  # never below a line the Python search found
            assert tuple(score) >= python.score, state
    assert compared >= 35  # most of these small positions are solved by both


def test_native_bounds_never_exceed_an_exact_answer() -> None:
    # Cut short, the native search returns a line found so far: at most the exact score.
    for seed in (1, 2, 3, 4):
        state = SCOUNDREL.new(seed)
        exact_score, exact, _, _ = nsolve(state, None)
        assert exact
        for budget in (0, 10, 1000):
            score, cut_exact, nodes, actions = nsolve(state, budget)
            assert score <= exact_score
            assert nodes <= budget + 1
            assert SCOUNDREL.score(replayed(state, actions)) == score
            if cut_exact:
                assert score == exact_score


def test_whole_deals_are_never_below_the_python_search() -> None:
    rng = random.Random(11)
    for _ in range(4):
        state = SCOUNDREL.new(rng.getrandbits(64))
        python = Search(SCOUNDREL, STRATEGY, budget_nodes=5000).run(state)
        score, exact, _, actions = nsolve(state, 20_000_000)
        assert SCOUNDREL.score(replayed(state, actions)) == score
        assert tuple(score) >= python.score
        if python.exact:
            assert exact and tuple(score) == python.score


def test_the_same_deal_and_budget_give_the_same_answer() -> None:
    state = SCOUNDREL.new(156965572740024566)
    first = nsolve(state, 100_000)
    assert nsolve(state, 100_000) == first


def test_bad_input_is_refused_with_a_message() -> None:
    c = c_side()
    state = GLUE.encode(SCOUNDREL.new(1))
    with pytest.raises(ValueError, match="out of range"):  # a card that is none
        c.search((bytes([60]), *state[1:]), 10, 0)
    with pytest.raises(ValueError, match="not in the deck"):  # the red joker, the ace of hearts
        c.search((bytes([52]), *state[1:]), 10, 0)
    with pytest.raises(ValueError, match="not in the deck"):
        c.moves((bytes([13]), *state[1:]))
    with pytest.raises(ValueError, match="out of range"):  # a weapon that is no weapon (2♠)
        c.search((*state[:3], 1, *state[4:]), 10, 0)
    with pytest.raises(TypeError):
        c.moves([1, 2])
    with pytest.raises(ValueError, match="not a legal move"):
        c.play(state, 7)
    with pytest.raises(ValueError, match="is no move"):
        GLUE.actions(SCOUNDREL.new(1), [400])


def test_the_production_path_replays_the_line() -> None:
    # rules.native.search, as rules.solver calls it: budget in the reference's nodes, the
    # line replayed through the engine before it is returned.
    state = SCOUNDREL.new(156965572740024566)
    found = native.search("scoundrel", state, 100_000)
    assert found.exact and found.score == (30,)
    assert SCOUNDREL.score(replayed(state, found.actions)) == [30]


# ----- small endgames against an exhaustive search (no pruning, no table) -----------------

WEAPONS = [c for c in DECK if ROLE[c] == "weapon"]
MONSTERS = [c for c in DECK if ROLE[c] == "monster"]


@st.composite
def endgames(draw: st.DrawFn) -> ScoundrelState:
    cards = draw(st.lists(st.sampled_from(DECK), min_size=2, max_size=8, unique=True))
    cut = min(4, len(cards))
    room, dungeon = tuple(cards[:cut]), tuple(cards[cut:])
    weapon = draw(st.one_of(st.none(), st.sampled_from([w for w in WEAPONS if w not in cards])))
    slain: tuple[str, ...] = ()
    if weapon is not None and draw(st.booleans()):
        slain = (draw(st.sampled_from([m for m in MONSTERS if m not in cards])),)
    taken = 0 if len(room) == 4 and draw(st.booleans()) else draw(st.integers(0, 2))
    return ScoundrelState(
        variant="standard", seed=1, stream=43, dungeon=dungeon, room=room,
        hp=draw(st.integers(1, 20)), weapon=weapon, slain=slain, taken=taken,
        potions_taken=draw(st.integers(0, 1)), avoided_last=draw(st.booleans()),
        last_card=None,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=endgames())
def test_native_endgames_match_an_exhaustive_search(state: ScoundrelState) -> None:
    score, exact, _, actions = nsolve(state, None)
    assert exact
    assert tuple(score) == exhaustive(SCOUNDREL, state)
    assert SCOUNDREL.score(replayed(state, actions)) == score


def test_the_solver_uses_the_native_search_and_keeps_the_python_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # rules.solver (the par, hints and turning points) goes through the native search once
    # it is built; native=False is the Python reference, which finds the same exact score.
    calls: list[str] = []
    real = native.search

    def counted(game_key: str, state: Any, budget: int | None) -> Any:
        calls.append(game_key)
        return real(game_key, state, budget)

    monkeypatch.setattr(native, "search", counted)
    state = late_positions(8, 1)[0]
    fast = best_from("scoundrel", state, budget_nodes=100_000)
    assert calls == ["scoundrel"]
    reference = best_from("scoundrel", state, budget_nodes=100_000, native=False)
    assert calls == ["scoundrel"]
    assert fast.exact and reference.exact and fast.score == reference.score
    assert fast.text == reference.text
