"""One plug-in point per layer: every registered game has its engine facts, its board and its
rules text, so a game added with a missing piece fails here, not in front of a player."""

from __future__ import annotations

import pytest

from bot.boards.common import HEADINGS_BY_KIND
from bot.boards.rulebook import RULEBOOK
from bot.choices import GAME_CHOICES
from bot.games import BOARDS
from rules import GAMES

KINDS = set(HEADINGS_BY_KIND)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_has_a_board_headings_and_rules(key: str) -> None:
    engine = GAMES[key]
    assert key in BOARDS, f"{key} has no board module in bot.boards.BOARDS"
    assert RULEBOOK.get(key), f"{key} has no rules text"
    assert engine.outcomes and set(engine.outcomes.values()) <= KINDS
    assert "win" in engine.outcomes.values() and "loss" in engine.outcomes.values()
    assert set(BOARDS[key].headings) <= set(engine.outcomes), "a heading for an unknown outcome"
    index, unit = engine.stat
    assert index < len(engine.score(engine.new(0))) and unit
    assert engine.rules_tag == f"{key}/{engine.rules_version}"


def test_every_game_can_be_chosen_in_discord() -> None:
    assert [choice.value for choice in GAME_CHOICES] == list(GAMES)
