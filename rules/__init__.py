"""Pure game engines for Dungeon Deck: no Discord, no database, no clock, no global random.

:data:`PLUGINS` is the one list of games: each game is a package (``rules/<key>/``) whose
:class:`~rules.plugin.GamePlugin` joins its engine, solver strategy, hints and result-line
tally. ``GAMES`` maps each key to its engine; every caller reaches a game through them::

    from rules import GAMES, IllegalAction, replay
    game = GAMES["donsol"]
    state = game.new(seed)
    state = game.apply(state, game.actions(state)[0])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules import clear, donsol, scoundrel, tomb
from rules.engine import Game, IllegalAction
from rules.engine import replay as _replay
from rules.plugin import GamePlugin

#: Every game, in the order players see them: adding a game is one line here.
PLUGINS: tuple[GamePlugin, ...] = (
    donsol.PLUGIN,
    tomb.PLUGIN,
    clear.PLUGIN,
    scoundrel.PLUGIN,
)

GAMES: dict[str, Game[Any]] = {p.key: p.engine for p in PLUGINS}
_BY_KEY: dict[str, GamePlugin] = {p.key: p for p in PLUGINS}


def find_game(key: str) -> Game[Any]:
    """The game registered under ``key``; ``ValueError`` naming the choices otherwise."""
    try:
        return GAMES[key]
    except KeyError:
        raise ValueError(f"unknown game {key!r} (choose from {', '.join(GAMES)})") from None


def plugin(key: str) -> GamePlugin:
    """The plug-in of game ``key``; ``ValueError`` naming the choices otherwise."""
    find_game(key)
    return _BY_KEY[key]


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


__all__ = [
    "GAMES", "PLUGINS", "Game", "GamePlugin", "IllegalAction", "find_game", "plugin", "replay",
]
