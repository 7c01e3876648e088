"""Validation of what reaches the core from outside: ids, days, games and variants.

Anything malformed becomes a :class:`~core.errors.BadRequest` (or ``RunNotFound`` for a run
id) with one sentence saying what is accepted, never a bare ``ValueError``.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from core.errors import BadRequest, RunNotFound
from rules import GAMES, Game

#: The largest id SQLite (and PostgreSQL's bigint) can hold; Discord ids are far below it.
ID_MAX = 2**63 - 1
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def check_id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= ID_MAX:
        raise BadRequest(f"{value!r} is not a valid {what} id.")
    return value


def check_optional_id(value: object, what: str) -> int | None:
    return None if value is None else check_id(value, what)


def check_run_id(run_id: object) -> int:
    if isinstance(run_id, bool) or not isinstance(run_id, int) or not 0 <= run_id <= ID_MAX:
        raise RunNotFound(run_id)
    return run_id


def check_day(day: object) -> str:
    """A UTC day as ``YYYY-MM-DD``."""
    try:
        if not isinstance(day, str) or not _DAY.match(day):
            raise ValueError
        return date.fromisoformat(day).isoformat()
    except ValueError:
        raise BadRequest(f"{str(day)[:40]!r} is not a day: write it as YYYY-MM-DD.") from None


def check_game(key: object) -> Game[Any]:
    """The engine of game ``key``."""
    engine = GAMES.get(key) if isinstance(key, str) else None
    if engine is None:
        names = ", ".join(f"{g.title} ({k})" for k, g in GAMES.items())
        raise BadRequest(f"There is no game called {str(key)[:40]!r}: choose {names}.")
    return engine


def check_variant(engine: Game[Any], variant: object) -> str:
    """The variant's name (the game's default for None)."""
    if variant is None:
        return engine.variants[0]
    if isinstance(variant, str) and variant in engine.variants:
        return variant
    *others, last = engine.variants
    either = f"{', '.join(others)} or {last}" if others else last
    raise BadRequest(
        f"{engine.title} has no {str(variant)[:40]!r} variant: choose {either}, "
        f"or leave the variant out to play {engine.variants[0]}."
    )
