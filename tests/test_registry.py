"""One plug-in point per layer: every registered game has every part the project asks of it,
and nothing outside the registries and the game's own modules names a game or judges an
outcome word, so a game added with a missing piece fails here, not in front of a player."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from bot.boards.common import HEADINGS_BY_KIND
from bot.boards.rulebook import RULEBOOK
from bot.choices import GAME_CHOICES
from bot.games import BOARDS
from bot.pictures.canvas import Canvas
from bot.pictures.table import render_table, scene
from rules import GAMES, PLUGINS, plugin
from rules.recap import RESIGNED, Tally
from tests.pictures.references import CASES

ROOT = Path(__file__).resolve().parents[1]
SQL_OUTCOME = re.compile(r"outcome\s*(?:=|<>|!=|IN\s*\()\s*'(\w+)'", re.IGNORECASE)
KINDS = set(HEADINGS_BY_KIND)
#: The only modules that list games by key: the two registries.
REGISTRIES = {ROOT / "rules" / "__init__.py", ROOT / "bot" / "games" / "__init__.py"}


def test_the_registries_list_the_same_games_in_the_same_order() -> None:
    assert [p.key for p in PLUGINS] == list(GAMES) == list(BOARDS)
    assert [choice.value for choice in GAME_CHOICES] == list(GAMES)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_has_its_engine_facts(key: str) -> None:
    engine = GAMES[key]
    assert engine.key == key and engine.title and engine.variants and engine.deck
    assert engine.outcomes and set(engine.outcomes.values()) <= KINDS
    assert "win" in engine.outcomes.values() and "loss" in engine.outcomes.values()
    assert all(engine.is_win(word) == (kind == "win") for word, kind in engine.outcomes.items())
    assert not engine.is_win(None)
    index, unit = engine.stat
    assert index < len(engine.score(engine.new(0))) and unit
    assert engine.rules_tag == f"{key}/{engine.rules_version}"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_has_its_solver_strategy_hints_and_recap(key: str) -> None:
    part = plugin(key)
    engine = part.engine
    start = engine.new(3)
    for name in ("key", "bound", "children", "bound_text"):
        assert callable(getattr(part.strategy, name, None)), f"{key}'s strategy lacks {name}"
    assert tuple(part.strategy.bound(start)) >= tuple(engine.score(start))
    world = part.hints.sample_world(start, random.Random(1))
    seen, sampled = engine.view(start), engine.view(world)
    seen.pop("seed"), sampled.pop("seed")  # a world draws its own stream
    assert sampled == seen, "a sampled world shows the same table"
    assert isinstance(part.hints.utility(engine.score(start)), int)
    assert part.hints.reason(start, engine.actions(start)[0], world)
    assert issubclass(part.recap.tally, Tally)
    assert RESIGNED in {symbol for symbol, _ in part.recap.legend}
    assert set(part.recap.marks) == set(engine.outcomes), "a result-line mark per outcome"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_has_a_board_a_picture_rules_docs_and_references(key: str) -> None:
    engine = GAMES[key]
    board = BOARDS[key]
    assert set(board.headings) <= set(engine.outcomes), "a heading for an unknown outcome"
    assert set(board.banners) <= set(engine.outcomes), "a banner for an unknown outcome"
    view = engine.view(engine.new(5))
    drawn = scene(view)
    assert isinstance(board.draw(drawn), Canvas)
    assert render_table(view).startswith(b"\x89PNG")
    assert RULEBOOK.get(key), f"{key} has no rules text"
    assert (ROOT / "docs" / "games" / f"{key}.md").is_file(), f"docs/games/{key}.md is missing"
    assert (ROOT / "rules" / key / "rules.md").is_file()
    assert any(name.startswith(f"{key}_") for name in CASES), f"no reference picture of {key}"
    assert (ROOT / "web" / "client" / "src" / "games" / f"{key}.ts").is_file(), (
        f"{key} has no table in the Activity (web/client/src/games/{key}.ts)")


def test_the_activitys_tables_are_registered_for_exactly_the_games() -> None:
    index = (ROOT / "web" / "client" / "src" / "games" / "index.ts").read_text(encoding="utf-8")
    listed = re.search(r"TABLES[^=]*=\s*\{([^}]*)\}", index)
    assert listed, "web/client/src/games/index.ts has no TABLES"
    assert re.findall(r"\b(\w+)\b", listed[1]) == list(GAMES)


def _python_files() -> list[Path]:
    return [path for layer in ("bot", "web", "core", "language", "store")
            for path in (ROOT / layer).rglob("*.py")]


def _own_modules(key: str) -> set[Path]:
    """Where a game may name itself and its outcome words: its package and its bot module."""
    return {*(ROOT / "rules" / key).rglob("*.py"), ROOT / "bot" / "games" / f"{key}.py"}


def test_no_outcome_word_is_compared_outside_its_game() -> None:
    words = {word for engine in GAMES.values() for word in engine.outcomes}
    found = []
    for path in _python_files():
        if any(path in _own_modules(key) for key in GAMES):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                for side in (node.left, *node.comparators):
                    for const in ast.walk(side):
                        if isinstance(const, ast.Constant) and const.value in words:
                            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {const.value!r}")
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for word in SQL_OUTCOME.findall(node.value):
                    if word in words:  # SQL that judges an outcome word
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno} {word!r} in SQL")
    assert not found, "outcome words judged outside the engine: " + ", ".join(found)


def test_no_table_keyed_by_game_outside_the_registries() -> None:
    found = []
    for path in _python_files():
        if path in REGISTRIES or any(path in _own_modules(key) for key in GAMES):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            keys: list[ast.expr | None] = []
            if isinstance(node, ast.Dict):
                keys = list(node.keys)
            elif isinstance(node, ast.Compare):
                keys = [node.left, *node.comparators]
            for key in keys:
                if isinstance(key, ast.Constant) and key.value in GAMES:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {key.value!r}")
    assert not found, "game keys named outside the registries: " + ", ".join(found)
