"""Boards: how every game looks in Discord — an engine's view turned into an embed and buttons.

Pure rendering: no core, no store, no Discord connection. The adapter turns each
:class:`ButtonSpec` into a button whose custom id is ``dd:<run id>:<move>:<action>`` and adds
its own controls in row 4::

    board = render_board(game.view(state), game.actions(state), run_id=42)
    board.embed, board.buttons
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.boards import clear, donsol, tomb
from bot.boards.common import Board, ButtonSpec, frame
from bot.boards.rulebook import RULEBOOK
from rules import GAMES

#: A game's renderer: its fields and buttons, added to the shared frame.
Renderer = Callable[[dict[str, Any], list[str], discord.Embed], Board]


@dataclass(frozen=True)
class GameBoard:
    """What a game's board module provides: its renderer and its outcome headings."""

    render: Renderer
    headings: Mapping[str, str]


#: The board of each game key (the view's ``game``): the one registry line per game here.
BOARDS: dict[str, GameBoard] = {
    "donsol": GameBoard(donsol.render, donsol.HEADINGS),
    "tomb": GameBoard(tomb.render, tomb.HEADINGS),
    "clear": GameBoard(clear.render, clear.HEADINGS),
}
RENDERERS: dict[str, Renderer] = {key: board.render for key, board in BOARDS.items()}


def render_board(
    view: dict[str, Any],
    actions: list[str],
    *,
    run_id: int,
    kind: str = "practice",
    day: str | None = None,
    owner: str | None = None,
    notice: str | None = None,
) -> Board:
    """The board for ``view`` (``GAMES[key].view(state)``) with a button per legal action.

    ``actions`` are the engine's legal actions, in its order. ``kind`` is ``practice`` or
    ``daily`` (then ``day`` is the challenge's date, ``YYYY-MM-DD``); ``owner`` names the
    player; ``notice`` is a line shown at the top of the description.
    Raises ``ValueError`` for a game without a board.
    """
    try:
        board = BOARDS[view["game"]]
    except KeyError:
        raise ValueError(f"no board for game {view.get('game')!r}") from None
    title = GAMES[view["game"]].title
    embed = frame(view, title, run_id=run_id, kind=kind, day=day, owner=owner, notice=notice,
                  headings=board.headings)
    return board.render(view, list(actions), embed)


__all__ = ["BOARDS", "RENDERERS", "RULEBOOK", "Board", "ButtonSpec", "GameBoard", "render_board"]
