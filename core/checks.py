"""Validation of what reaches the core from outside: ids, days, games and variants.

Anything malformed becomes a :class:`~core.errors.BadRequest` (or ``RunNotFound`` for a run
id) with one sentence saying what is accepted, never a bare ``ValueError``.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from core.errors import N_, BadRequest, Message, RunNotFound
from rules import GAMES, Game

#: The largest id SQLite (and PostgreSQL's bigint) can hold; Discord ids are far below it.
ID_MAX = 2**63 - 1
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


#: The refusal of a malformed id, by what the id names (a whole sentence each: translators
#: see every noun in its sentence).
BAD_ID = {
    "server": N_("{value} is not a valid server id."),
    "channel": N_("{value} is not a valid channel id."),
    "user": N_("{value} is not a valid user id."),
    "role": N_("{value} is not a valid role id."),
}


def check_id(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= ID_MAX:
        raise BadRequest(BAD_ID[what], value=repr(value)[:40])
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
        raise BadRequest(N_("{day} is not a day: write it as YYYY-MM-DD."),
                         day=repr(str(day)[:40])) from None


def check_game(key: object) -> Game[Any]:
    """The engine of game ``key``."""
    engine = GAMES.get(key) if isinstance(key, str) else None
    if engine is None:
        names = ", ".join(f"{g.title} ({k})" for k, g in GAMES.items())
        raise BadRequest(N_("There is no game called {name}: choose {games}."),
                         name=repr(str(key)[:40]), games=names)
    return engine


def check_variant(engine: Game[Any], variant: object) -> str:
    """The variant's name (the game's default for None)."""
    if variant is None:
        return engine.variants[0]
    if isinstance(variant, str) and variant in engine.variants:
        return variant
    *others, last = engine.variants
    either = (Message(N_("{others} or {last}"), {"others": ", ".join(others), "last": last})
              if others else last)
    raise BadRequest(
        N_("{game} has no {name} variant: choose {variants}, or leave the variant out to play "
           "{default}."),
        game=engine.title, name=repr(str(variant)[:40]), variants=either,
        default=engine.variants[0],
    )
