"""Each game in Discord: one module per game (its board and its table picture's scene), and the
registry that names them.

A module under this package turns a game's engine view into the embed's fields and buttons
(``render``) and into the table picture's scene (``scene``, ``draw``), and names it all in one
:class:`~bot.boards.common.GameBoard` called ``BOARD``. Nothing else in the adapter names a
game: boards, pictures and tests reach each game through :data:`BOARDS`::

    board = render_board(game.view(state), game.actions(state), run_id=42)
    board.embed, board.buttons
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.boards.common import Board, Choice, GameBoard, frame, pictured
from bot.games import clear, donsol, scoundrel, tomb
from bot.i18n import ENGLISH, Language
from rules import GAMES
from rules.words import Message

#: The board of each game key (the view's ``game``): adding a game is one line here.
BOARDS: dict[str, GameBoard] = {
    "donsol": donsol.BOARD,
    "tomb": tomb.BOARD,
    "clear": clear.BOARD,
    "scoundrel": scoundrel.BOARD,
}


def render_board(
    view: dict[str, Any],
    actions: list[str],
    *,
    run_id: int,
    kind: str = "practice",
    day: str | None = None,
    owner: str | None = None,
    notice: str | Message | None = None,
    choice: str | None = None,
    language: Language = ENGLISH,
) -> Board:
    """The board for ``view`` (``GAMES[key].view(state)``) with a button per legal action.

    ``actions`` are the engine's legal actions, in its order. ``kind`` is ``practice`` or
    ``daily`` (then ``day`` is the challenge's date, ``YYYY-MM-DD``); ``owner`` names the
    player; ``notice`` is a line shown at the top of the description. The board is in
    full; ``Board.pictured`` says how a playing board reads with its table picture.
    ``choice`` draws a two-step board's second step for that choice (its own prompt and
    buttons; see :func:`choose`). Every word is in ``language`` (the engines' phrases too).
    Raises ``ValueError`` for a game without a board, or a choice it does not offer now.
    """
    try:
        board = BOARDS[view["game"]]
    except KeyError:
        raise ValueError(f"no board for game {view.get('game')!r}") from None
    title = GAMES[view["game"]].title
    chosen = None
    if choice is not None:
        chosen = choose(view, actions, choice, language)
        if chosen is None:
            raise ValueError(f"{choice!r} is not a choice on this board")
        view = {**view, "prompt": chosen.prompt}
    embed = frame(view, title, run_id=run_id, kind=kind, day=day, owner=owner, notice=notice,
                  headings=board.headings, language=language)
    drawn = board.render(view, list(actions), embed, language)
    if chosen is not None:
        drawn = Board(embed=drawn.embed, buttons=chosen.buttons)
    # Every field the game added is its table's: the picture carries them (bot.presenter).
    return dataclasses.replace(drawn, pictured=pictured(
        view, board.status(view, language), len(drawn.embed.fields), drawn.embed.description or ""))


def choose(view: dict[str, Any], actions: list[str], choice: str,
           language: Language = ENGLISH) -> Choice | None:
    """The second step for ``choice`` on a two-step board, or None when the game's board
    offers no such choice now."""
    board = BOARDS.get(view["game"])
    if board is None or board.choose is None or view["over"]:
        return None
    return board.choose(view, list(actions), choice, language)


__all__ = ["BOARDS", "Choice", "GameBoard", "choose", "render_board"]
