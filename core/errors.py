"""The core's refusals: each is one calm sentence for the player (``str(exc)``).

Only these are shown to a player as refusals; any other exception reaching the Discord layer
is a bug, answered with an error id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.model import Run


class Refusal(Exception):
    """A request the core turns down; nothing was written."""


class BadRequest(Refusal):
    """The request names something that does not exist or is malformed (a game, a variant,
    a day, a seed); the message says what is accepted."""


class RunNotFound(Refusal):
    """No run has that id."""

    def __init__(self, run_id: object) -> None:
        super().__init__("That run does not exist (any more), so nothing was changed.")
        self.run_id = run_id


class NotYourRun(Refusal):
    """Someone else's run; ``run`` names its owner."""

    def __init__(self, run: Run) -> None:
        super().__init__(f"This {run.title} run belongs to someone else.")
        self.run = run


class StaleBoard(Refusal):
    """The board the player acted on is out of date; ``run`` is the current one."""

    def __init__(self, run: Run) -> None:
        super().__init__("That board was out of date; here is the current one.")
        self.run = run


class RunOver(Refusal):
    """The run has ended (or was resigned)."""

    def __init__(self, run: Run) -> None:
        super().__init__(f"This {run.title} run is already over.")
        self.run = run


class IllegalMove(Refusal):
    """The engine refused the action; ``reason`` is its explanation."""

    def __init__(self, run: Run, reason: str) -> None:
        super().__init__(reason)
        self.run = run
        self.reason = reason


class AlreadyPlayed(Refusal):
    """The player's daily of that game, variant and day exists; ``run`` is that run."""

    def __init__(self, run: Run) -> None:
        super().__init__(f"You have already played today's {run.title} ({run.variant}) daily.")
        self.run = run


class CannotUndo(Refusal):
    """Undo is not possible here (not a practice run, or no move yet)."""

    def __init__(self, run: Run, message: str) -> None:
        super().__init__(message)
        self.run = run


class BrokenRun(Refusal):
    """The run's stored state cannot be loaded and its moves no longer replay, or it was
    dealt under rules this version of the bot no longer has."""

    def __init__(self, run_id: int, message: str | None = None) -> None:
        super().__init__(
            message or "This run was saved by another version of the game and cannot be resumed."
        )
        self.run_id = run_id
