"""Every board of every reachable state fits Discord and offers exactly the legal actions.

Random legal play over every game in ``rules.GAMES`` (each variant), every state rendered
as the adapter will send it: custom ids ``dd:<run id>:<move>:<action>`` with the largest run
id and move number we expect.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from bot.boards.common import Board
from bot.games import choose, render_board
from rules import GAMES

GAMES_PER_VARIANT = 200
WORST_RUN_ID = 10**12
WORST_MOVE = 9999
LONG_NOTICE = "The board was behind; here it is now. " * 20
# A card code as ASCII (``10H``, ``QS``): the board must show ``10♥`` and ``Q♠`` instead.
ASCII_CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


def check(board: Board, view: dict[str, Any], actions: list[str]) -> None:
    embed = board.embed
    assert embed.title and len(embed.title) <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for f in embed.fields:
        assert f.name and len(f.name) <= 256
        assert f.value and len(f.value) <= 1024
        assert not ASCII_CARD.search(f.value), f.value
    assert len(embed.footer.text or "") <= 2048
    assert len(embed) <= 6000
    everything = f"{embed.title}\n{embed.description}\n{embed.footer.text}"
    assert not ASCII_CARD.search(everything), everything

    buttons = board.buttons
    assert len(buttons) <= 20
    rows = Counter(b.row for b in buttons)
    assert set(rows) <= {0, 1, 2, 3} and max(rows.values(), default=0) <= 5
    ids = [f"dd:{WORST_RUN_ID}:{WORST_MOVE}:{b.action}" for b in buttons]
    assert all(len(i) <= 100 for i in ids)
    assert len(set(ids)) == len(ids), "custom ids must be unique on a message"
    for b in buttons:
        assert 0 < len(b.label) <= 80
        assert not ASCII_CARD.search(b.label), b.label
    # One enabled button per legal action, and nothing else enabled; a two-step board's
    # first step leads to each action once, and each choice's board offers exactly its moves.
    reached = [a for b in buttons if not b.disabled for a in (b.opens or (b.action,))]
    assert sorted(reached) == sorted(actions)
    for b in buttons:
        if b.opens:
            chosen = choose(view, actions, b.action)
            assert chosen is not None and len(chosen.prompt) <= 300
            assert sorted(s.action for s in chosen.buttons) == sorted(b.opens)
            assert all(0 < len(s.label) <= 80 and not s.disabled for s in chosen.buttons)
    if view["over"]:
        assert buttons == ()


def play(key: str, variant: str, seed: int) -> int:
    game = GAMES[key]
    rng = random.Random(seed)
    state = game.new(seed, variant)
    states = 0
    while True:
        view, actions = game.view(state), game.actions(state)
        notice = LONG_NOTICE if rng.random() < 0.1 else None
        kind = rng.choice(["practice", "daily"])
        board = render_board(
            view, actions, run_id=WORST_RUN_ID, kind=kind, day="2026-12-01",
            owner="a" * 32, notice=notice,
        )
        check(board, view, actions)
        states += 1
        if not actions:
            assert view["over"]
            return states
        # Odd seeds lean on the engine's first action (Tomb: delve deeper), which reaches
        # long runs, big hands and many treasure drops that uniform play rarely sees.
        lean = seed % 2 and rng.random() < 0.7
        state = game.apply(state, actions[0] if lean else rng.choice(actions))


@pytest.mark.parametrize(
    ("key", "variant"), [(k, v) for k, g in sorted(GAMES.items()) for v in g.variants]
)
def test_every_state_of_random_games_fits_discord(key: str, variant: str) -> None:
    states = sum(play(key, variant, seed) for seed in range(GAMES_PER_VARIANT))
    assert states > GAMES_PER_VARIANT


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_flood_of_events_keeps_the_latest_within_the_limits(key: str) -> None:
    game = GAMES[key]
    state = game.new(1)
    view = game.view(state) | {"events": [f"Event {i}: " + "x" * 300 for i in range(100)]}

    board = render_board(view, game.actions(state), run_id=WORST_RUN_ID, notice=LONG_NOTICE)

    check(board, view, game.actions(state))
    text = board.embed.description or ""
    assert "Event 99: " in text and "Event 0: " not in text
    assert "earlier events" in text
