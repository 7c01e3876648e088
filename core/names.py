"""The name a player is listed (and ordered) by on the boards: kept by whatever knows it (a
``/daily`` start, a challenge), on its own or inside the transaction that starts a run."""

from __future__ import annotations

from store.base import Tx

#: The longest name kept (longer ones are cut).
LONGEST = 64


def listed_as(user_id: int, name: str) -> str:
    """``name`` as kept: its runs of spaces made one, cut at :data:`LONGEST` characters; the
    user's id when nothing is left."""
    return " ".join(name.split())[:LONGEST] or str(user_id)


def keep_name(tx: Tx, user_id: int, name: str, now: str) -> None:
    """Write the player's name (as :func:`listed_as` made it), in ``tx``."""
    tx.set_player_name(user_id, name, now)
