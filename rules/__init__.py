"""Pure game engines for Dungeon Deck: no Discord, no database, no clock, no global random.

``GAMES`` is the one list of games; every caller reaches an engine through it::

    from rules import GAMES, IllegalAction, replay
    game = GAMES["donsol"]
    state = game.new(seed)
    state = game.apply(state, game.actions(state)[0])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules.clear import CLEAR
from rules.donsol import DONSOL
from rules.engine import Game, IllegalAction
from rules.engine import replay as _replay
from rules.tomb import TOMB

GAMES: dict[str, Game[Any]] = {
    DONSOL.key: DONSOL,
    TOMB.key: TOMB,
    CLEAR.key: CLEAR,
}

#: The cards each game shuffles, in canonical order.
DECKS: dict[str, tuple[str, ...]] = {key: game.deck for key, game in GAMES.items()}


def find_game(key: str) -> Game[Any]:
    """The game registered under ``key``; ``ValueError`` naming the choices otherwise."""
    try:
        return GAMES[key]
    except KeyError:
        raise ValueError(f"unknown game {key!r} (choose from {', '.join(GAMES)})") from None


def replay(
    key: str,
    variant: str | None,
    seed: int,
    actions: Iterable[str],
    deck: Sequence[str] | None = None,
) -> Any:
    """Deal game ``key`` and apply ``actions``; return the final state.

    Raises ``IllegalAction`` at the first bad action (its 0-based ``index`` set).
    """
    return _replay(find_game(key), variant, seed, actions, deck)


__all__ = ["DECKS", "GAMES", "Game", "IllegalAction", "find_game", "replay"]
