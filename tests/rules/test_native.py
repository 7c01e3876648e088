"""The shared wrapper of the native searches (rules/native.py): the Python engine stays the
truth, so an answer whose line does not replay to what the C side claims is never returned."""

from __future__ import annotations

from typing import Any

import pytest

from rules import GAMES, native
from rules.clear.engine import CLEAR
from rules.solver import solve

built = pytest.mark.skipif(not native.available("clear"),
                           reason="rules/clear/_native.c is not built (pip install -e .)")


class Liar:
    """A native module whose search answers ``answer`` whatever it is asked."""

    def __init__(self, answer: tuple[Any, ...]) -> None:
        self.answer = answer

    def search(self, encoded: Any, budget: int, seed: int) -> tuple[Any, ...]:
        return self.answer


def honest_line(seed: int) -> tuple[list[int], list[int]]:
    """A real native answer for deal ``seed``: its C line and its score."""
    score, _, _, line = native.module("clear").search(
        native.glue("clear").encode(CLEAR.new(seed)), 2000, native.SEED)
    return line, list(score)


@built
@pytest.mark.parametrize("lie", ["score", "illegal", "short"])
def test_an_answer_that_does_not_replay_raises(lie: str, monkeypatch: pytest.MonkeyPatch) -> None:
    line, (slain, spare) = honest_line(5)
    answer = {
        "score": ((slain, spare + 1), True, 10, line),  # one card more than the line keeps
        "illegal": ((slain, spare), True, 10, [line[1], *line]),
        "short": ((slain, spare), True, 10, line[:-1]),  # the game is not over there
    }[lie]
    monkeypatch.setattr(native, "module", lambda key: Liar(answer))
    with pytest.raises(native.NativeMismatch):
        solve("clear", 5)
    with pytest.raises(native.NativeMismatch):
        native.search("clear", CLEAR.new(5), 100)


@built
def test_an_honest_answer_is_returned_as_its_line_replays() -> None:
    found = native.search("clear", CLEAR.new(5), 1000)
    assert found.actions and found.nodes > 0
    final = CLEAR.new(5)
    for action in found.actions:
        final = CLEAR.apply(final, action)
    assert CLEAR.score(final) == list(found.score)


def test_a_game_without_a_native_search_is_solved_in_python() -> None:
    assert native.glue("tomb") is None
    assert not native.available("tomb")
    assert solve("tomb", 3, budget_nodes=200).actions  # the Python search, as before
    with pytest.raises(RuntimeError, match="no native search"):
        solve("tomb", 3, budget_nodes=200, native=True)


def test_a_native_search_not_built_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    class Unbuilt:
        module = "rules.clear._not_built"
        scale = 1

    monkeypatch.setattr(GAMES["clear"], "key", "clear")  # the game itself is unchanged
    monkeypatch.setattr(native, "glue", lambda key: Unbuilt())
    native.module.cache_clear()
    try:
        assert not native.available("clear")
        found = solve("clear", 5, budget_nodes=300)  # falls back on the Python search
        assert found.nodes <= 301
        with pytest.raises(RuntimeError, match="no native search"):
            solve("clear", 5, budget_nodes=300, native=True)
    finally:
        native.module.cache_clear()
