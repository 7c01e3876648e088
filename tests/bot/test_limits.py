"""Discord's hard limits hold for the real views of worst-case boards: long run ids, many moves.

Discord refuses a message whose custom ids exceed 100 characters, that holds more than 25
components or 5 rows, or whose labels exceed 80 characters, and it does so only when the
message is sent (discord.py checks none of it); so every screen is built here for states
met on random playouts of every game, with a thirteen-digit run id and a six-digit move count.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import discord
import pytest

from bot import screens
from bot.buttons import CONTROL, CUSTOM_ID_MAX, MOVE, move_id, parse
from core import Run, RunKind, RunStatus
from rules import GAMES

RUN_ID = 10**12
MANY_MOVES = 999_999
#: The most writes a run can have before its version outgrows the id's nine digits.
MANY_VERSIONS = 999_999_999
LONG_NAME = "A Player With A Very Long Display Name"
PLAYOUTS = 12


def worst_run(
    game: str, state: Any, *, status: str = "playing", kind: str = "practice"
) -> Run:
    state = dataclasses.replace(state, moves=MANY_MOVES)
    view = GAMES[game].view(state)
    return Run(
        id=RUN_ID, owner_id=2**63 - 1, guild_id=None, channel_id=None, game=game,
        variant=view["variant"], seed=view["seed"], deck=None, kind=RunKind(kind),
        day="2026-11-29" if kind == "daily" else None, status=RunStatus(status),
        outcome=view["outcome"], score=view["score"], moves=MANY_MOVES, version=MANY_VERSIONS,
        ranked=False, rules=GAMES[game].rules_tag, hinted=False,
        created_at="2026-11-29T00:00:00Z",
        updated_at="2026-11-29T00:00:00Z", finished_at=None, state=state,
    )


def states(game: str) -> list[Any]:
    """Every state met on a few random playouts of every variant."""
    engine = GAMES[game]
    rng = random.Random(game)
    seen = []
    for variant in engine.variants:
        for _ in range(PLAYOUTS):
            state = engine.new(rng.getrandbits(64), variant)
            seen.append(state)
            while actions := engine.actions(state):
                state = engine.apply(state, rng.choice(actions))
                seen.append(state)
    return seen


def check(view: discord.ui.View) -> int:
    """Assert Discord's limits on ``view``; the number of buttons."""
    rows = view.to_components()
    assert len(rows) <= 5
    items = [c for row in rows for c in row["components"]]
    assert len(items) <= 25
    assert all(len(row["components"]) <= 5 for row in rows)
    for item in items:
        assert len(item["custom_id"]) <= CUSTOM_ID_MAX, item["custom_id"]
        assert len(item.get("label", "")) <= 80
        # Each id parses back as the move or control it was made for.
        assert parse(item["custom_id"]).kind in (MOVE, CONTROL), item["custom_id"]
    return len(items)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_board_fits_discords_limits(game):
    most = 0
    for state in states(game):
        run = worst_run(game, state)
        status = RunStatus.OVER if run.view["over"] else RunStatus.PLAYING
        run = dataclasses.replace(run, status=status)
        most = max(most, check(screens.board(run, owner=LONG_NAME, notice=screens.STALE).buttons))
        if status is RunStatus.PLAYING:
            check(screens.confirm_resign(run, owner=LONG_NAME).buttons)
            check(screens.unfinished(run, variant=max(GAMES[game].variants, key=len)).buttons)
            check(screens.board(dataclasses.replace(run, status=RunStatus.RESIGNED)).buttons)
            daily = dataclasses.replace(run, kind=RunKind.DAILY, day="2026-11-29")
            check(screens.board(daily).buttons)
    assert most > 5, "the playouts reached boards with several buttons"


def test_the_games_list_fits_with_the_most_runs():
    engine = GAMES["donsol"]
    runs = [worst_run("donsol", engine.new(i)) for i in range(40)]
    text, view = screens.games_list(runs, private=True)
    assert view is not None
    assert check(view) == screens.GAMES_LISTED
    assert len(text) <= 2000


def test_the_longest_move_id_is_far_below_the_limit():
    longest = max(
        (a for game in GAMES for s in states(game)[:200] for a in GAMES[game].actions(s)), key=len
    )
    assert len(move_id(RUN_ID, MANY_VERSIONS, longest)) <= CUSTOM_ID_MAX - 40
