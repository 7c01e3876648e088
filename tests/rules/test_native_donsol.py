"""Donsol's native search (``rules/donsol/_native.c``) against the Python engine and solver.

The C side encodes the rules once more; the engine stays the truth. These tests walk random
games of every variant and compare the C move generator with the engine at every step, and
compare the native search's answers with the pure Python search (``rules.search``), the
reference: equal where the Python one is exact, never above a Python exact answer, never
below a line the Python search found, and every line replays through the engine.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import native
from rules.donsol.engine import DECK, DONSOL, DonsolState, role
from rules.donsol.hints import DonsolHints
from rules.donsol.solver import DonsolStrategy
from rules.search import Search
from rules.solver import solve
from tests.rules.test_solver import exhaustive

VARIANTS = DONSOL.variants
STRATEGY = DonsolStrategy()
GLUE = STRATEGY.native


def test_the_native_module_is_built() -> None:
    # The install builds it (setup.py); every test below needs it.
    assert native.available("donsol"), "rules/donsol/_native.c is not built: pip install -e ."


def c_side() -> Any:
    module = native.module("donsol")
    assert module is not None
    return module


def check_moves(state: DonsolState) -> None:
    """The C side's legal moves are the engine's, in its order, and each leads to the
    engine's next state: the dungeon and room in order, HP, shield, its last monster,
    sickness, the escape flags, XP, the outcome and the stream position."""
    moves = c_side().moves(GLUE.encode(state))
    assert GLUE.actions(state, moves) == DONSOL.actions(state), state
    assert native.compare_step("donsol", state) == [], state


def nsolve(state: DonsolState, budget: int | None) -> tuple[list[int], bool, int, list[str]]:
    """The C search from ``state`` with ``budget`` of its own nodes (None: no budget)."""
    score, exact, nodes, line = c_side().search(
        GLUE.encode(state), -1 if budget is None else budget, native.SEED)
    return list(score), exact, nodes, GLUE.actions(state, line)


def random_positions(variant: str, seed: int, count: int) -> list[DonsolState]:
    """``count`` states along random games of ``variant`` (random legal play)."""
    rng = random.Random(seed)
    found: list[DonsolState] = []
    while len(found) < count:
        state = DONSOL.new(rng.getrandbits(64), variant)
        while state.outcome is None and len(found) < count:
            found.append(state)
            state = DONSOL.apply(state, rng.choice(DONSOL.actions(state)))
        found.append(state)  # the finished state too
    return found[:count]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_native_moves_are_the_engines_along_random_games(variant: str) -> None:
    for state in random_positions(variant, 26, 2500):
        check_moves(state)


def test_the_native_moves_follow_a_sampled_world_and_a_short_deck() -> None:
    # A hint's sampled world has a new seed and a shuffled dungeon; an endgame is built
    # field by field: the C side reads both from the state it is given.
    rng = random.Random(5)
    hints = DonsolHints()
    states = [hints.sample_world(s, rng) for s in random_positions("easy", 3, 300)
              if s.outcome is None]
    states += [DonsolState(variant="hard", seed=9, stream=80, dungeon=("2C", "3H", "RJ"),
                           room=("4D", "JS", "AH", "5C"), hp=12, shield="9D", shield_last=8,
                           xp=47, first_room=False)]
    for state in states:
        while state.outcome is None:
            check_moves(state)
            state = DONSOL.apply(state, rng.choice(DONSOL.actions(state)))


def late_positions(variant: str, seed: int, count: int) -> list[DonsolState]:
    """``count`` unfinished states late in deals: along a native best line (random games die
    early) until at most 24 cards are left in the dungeon, then a few random moves."""
    rng = random.Random(seed)
    found: list[DonsolState] = []
    while len(found) < count:
        state = DONSOL.new(rng.getrandbits(64), variant)
        line = nsolve(state, 200_000)[3]
        for action in line:
            if len(state.dungeon) <= 24 and rng.random() < 0.3:
                off = state
                for _ in range(rng.randrange(4)):
                    if off.outcome is None:
                        off = DONSOL.apply(off, rng.choice(DONSOL.actions(off)))
                if off.outcome is None:
                    found.append(off)
            state = DONSOL.apply(state, action)
    return found[:count]


def replayed(state: DonsolState, actions: list[str]) -> DonsolState:
    for action in actions:
        state = DONSOL.apply(state, action)
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_native_answers_match_the_python_search(variant: str) -> None:
    rng = random.Random(f"native {variant}")
    compared = 0
    for state in late_positions(variant, rng.getrandbits(32), 100):
        python = Search(DONSOL, STRATEGY, budget_nodes=3000).run(state)
        score, exact, _, actions = nsolve(state, 2_000_000)
        final = replayed(state, actions)
        assert final.outcome is not None and DONSOL.score(final) == score
        if python.exact:
            compared += 1
            assert exact and score == list(python.score), state
        if exact:  # never below a line the Python search found
            assert tuple(score) >= python.score, state
    assert compared >= 40  # most of these small positions are solved by both


def test_native_bounds_never_exceed_an_exact_answer() -> None:
    # Cut short, the native search returns a line found so far: at most the exact score.
    for variant in VARIANTS:
        for seed in (1, 2, 3):
            state = DONSOL.new(seed, variant)
            exact_score, exact, _, _ = nsolve(state, None)
            assert exact
            for budget in (0, 10, 1000):
                score, cut_exact, nodes, actions = nsolve(state, budget)
                assert score <= exact_score
                assert nodes <= budget + 1
                assert DONSOL.score(replayed(state, actions)) == score
                if cut_exact:
                    assert score == exact_score


def test_whole_deals_agree_with_the_python_search_where_it_is_exact() -> None:
    rng = random.Random(11)
    compared = 0
    for n in range(6):
        variant = VARIANTS[n % 3]
        state = DONSOL.new(rng.getrandbits(64), variant)
        python = Search(DONSOL, STRATEGY, budget_nodes=10_000).run(state)
        score, exact, _, actions = nsolve(state, 5_000_000)
        assert exact
        assert DONSOL.score(replayed(state, actions)) == score
        assert tuple(score) >= python.score
        if python.exact:
            compared += 1
            assert tuple(score) == python.score
    assert compared >= 2


def test_the_same_deal_and_budget_give_the_same_answer() -> None:
    state = DONSOL.new(2000498615258223355, "normal")
    first = nsolve(state, 50_000)
    assert nsolve(state, 50_000) == first


def test_bad_input_is_refused_with_a_message() -> None:
    c = c_side()
    state = GLUE.encode(DONSOL.new(1, "normal"))
    with pytest.raises(ValueError, match="out of range"):  # a card that is none
        c.search((*state[:2], bytes([60]), *state[3:]), 10, 0)
    with pytest.raises(ValueError, match="out of range"):  # no such variant
        c.search((7, *state[1:]), 10, 0)
    with pytest.raises(ValueError, match="out of range"):  # 30 HP
        c.moves((*state[:4], 30, *state[5:]))
    with pytest.raises(TypeError):
        c.moves([1, 2])
    with pytest.raises(ValueError, match="not a legal move"):
        c.play(state, 53 if 53 not in state[3] else 0)
    with pytest.raises(ValueError, match="is no move"):
        GLUE.actions(DONSOL.new(1, "normal"), [99])


def test_the_production_path_replays_the_line() -> None:
    # rules.native.search, as rules.solver calls it: budget in the reference's nodes, the
    # line replayed through the engine before it is returned.
    state = DONSOL.new(2000498615258223355, "normal")
    found = native.search("donsol", state, 100_000)
    assert found.exact and found.score == (54, 21)
    assert DONSOL.score(replayed(state, found.actions)) == [54, 21]


# ----- small endgames against an exhaustive search (no pruning, no table) -----------------

CARDS = list(DECK)
SHIELDS = [c for c in CARDS if role(c) == "shield"]


@st.composite
def endgames(draw: st.DrawFn) -> DonsolState:
    variant = draw(st.sampled_from(VARIANTS))
    cards = draw(st.lists(st.sampled_from(CARDS), min_size=2, max_size=7, unique=True))
    cut = min(4, len(cards) - 1)
    shield = draw(st.one_of(st.none(), st.sampled_from([c for c in SHIELDS if c not in cards])))
    last = draw(st.one_of(st.none(), st.integers(2, 21))) if shield else None
    return DonsolState(
        variant=variant, seed=draw(st.integers(0, 2**64 - 1)), stream=60,
        dungeon=tuple(cards[cut:]), room=tuple(cards[:cut]), hp=draw(st.integers(1, 21)),
        shield=shield, shield_last=last, sick=draw(st.booleans()),
        # a full room with the flag set reads as "just escaped" to the solver, which then
        # does not escape again; the exhaustive search only knows the moves it made
        escaped_last=cut < 4 and draw(st.booleans()), first_room=False, xp=54 - len(cards),
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=endgames())
def test_native_endgames_match_an_exhaustive_search(state: DonsolState) -> None:
    score, exact, _, actions = nsolve(state, None)
    assert exact
    # the solver's rule on easy and hard: never an escape right after an escape
    assert tuple(score) == exhaustive(DONSOL, state, no_double_escape=True)
    assert DONSOL.score(replayed(state, actions)) == score


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
    seed = 572462451924842619
    fast = solve("donsol", seed, "easy", budget_nodes=600_000)
    assert calls == ["donsol"]
    reference = solve("donsol", seed, "easy", budget_nodes=600_000, native=False)
    assert calls == ["donsol"]
    assert fast.exact and reference.exact and fast.score == reference.score
    assert fast.text == reference.text
