"""The one place outside ``bot/`` that reads the project's custom ids.

Players never build an id: they click buttons read off their boards. They only need to tell a
move button from a control (Undo, Resign, Play again) and from a two-step board's first step
(a card to choose), and the checks need to know which run
and which board version a promised move belongs to. Both the current form
``dd.m:<run>:<version>:<action>`` and the first release's ``dd:<run>:<move>:<action>`` are
read. Without undo (the load never clicks it) a run's version is its move count.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_MOVE = re.compile(r"dd(?:\.m)?:([0-9]{1,19}):([0-9]{1,9}):(.+)", re.S)
_STEP = re.compile(r"dd\.c:pick:[0-9]{1,19}:[0-9]{1,9}:[^:]+")


class Move(NamedTuple):
    run_id: int
    version: int  # the board's version: the move count it showed
    action: str


def parse_move(custom_id: str) -> Move | None:
    """The move a move button's id names, or None for any other id."""
    m = _MOVE.fullmatch(custom_id)
    return Move(int(m[1]), int(m[2]), m[3]) if m else None


def is_move(custom_id: str) -> bool:
    return _MOVE.fullmatch(custom_id) is not None


def is_step(custom_id: str) -> bool:
    """A two-step board's first-step button (Clear's card to play): the click only redraws
    the board with that card's moves (``dd.c:pick:<run>:<version>:<card>``)."""
    return _STEP.fullmatch(custom_id) is not None


def is_minimal_move(custom_id: str) -> bool:
    """The minimal bot's two buttons (``bench._minimal_bot``)."""
    return custom_id.startswith("mini:")
