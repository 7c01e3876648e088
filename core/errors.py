"""The core's refusals, and the messages they carry: each is one calm sentence for the player.

Only these are shown to a player as refusals; any other exception reaching the Discord layer
is a bug, answered with an error id.

A refusal carries a :class:`Message`: an English template marked with :func:`N_` (extracted
into the catalogs by ``make catalogs``) and its parameters. The core never translates: the
adapter renders the message in the reader's language (``language.Language.render``), and
``str(refusal)`` is the English sentence (logs, the terminal, tests). See docs/languages.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# The markers and the message live with the engines (the lowest layer), which say sentences
# too; the core and the adapters import them from here as before.
from rules.words import N_, Lookup, Message, Nn_, Phrase, english

__all__ = ["N_", "Lookup", "Message", "Nn_", "Phrase", "english"]

if TYPE_CHECKING:
    from core.model import Run


class Refusal(Exception):
    """A request the core turns down; nothing was written. ``message`` is what to say:
    ``Refusal(N_("... {name} ..."), name=value)`` or a ready :class:`Message`."""

    def __init__(self, message: str | Message = "", /, **params: object) -> None:
        if isinstance(message, Phrase):  # an engine's sentence: keep its template and fields
            message = message.message
        elif not isinstance(message, Message):
            message = Message(message, params)
        super().__init__(str(message))
        self.message = message


class BadRequest(Refusal):
    """The request names something that does not exist or is malformed (a game, a variant,
    a day, a seed); the message says what is accepted."""


class RunNotFound(Refusal):
    """No run has that id."""

    def __init__(self, run_id: object) -> None:
        super().__init__(N_("That run does not exist (any more), so nothing was changed."))
        self.run_id = run_id


class NotYourRun(Refusal):
    """Someone else's run; ``run`` names its owner."""

    def __init__(self, run: Run) -> None:
        super().__init__(N_("This {game} run belongs to someone else."), game=run.title)
        self.run = run


class StaleBoard(Refusal):
    """The board the player acted on is out of date; ``run`` is the current one."""

    def __init__(self, run: Run) -> None:
        super().__init__(N_("That board was out of date; here is the current one."))
        self.run = run


class RunOver(Refusal):
    """The run has ended (or was resigned)."""

    def __init__(self, run: Run) -> None:
        super().__init__(N_("This {game} run is already over."), game=run.title)
        self.run = run


class IllegalMove(Refusal):
    """The engine refused the action; ``reason`` is its explanation: the engine's own
    sentence, a :class:`Phrase` (``str(IllegalAction)`` is the phrase itself), whose
    template and fields the refusal keeps for the adapter to say in the reader's language."""

    def __init__(self, run: Run, reason: str) -> None:
        super().__init__(reason)
        self.run = run
        self.reason = reason


class AlreadyPlayed(Refusal):
    """The player's daily of that game, variant and day exists; ``run`` is that run."""

    def __init__(self, run: Run) -> None:
        super().__init__(N_("You have already played today's {game} ({variant}) daily."),
                         game=run.title, variant=run.variant)
        self.run = run


class CannotUndo(Refusal):
    """Undo is not possible here (not a practice run, or no move yet)."""

    def __init__(self, run: Run, message: str) -> None:
        super().__init__(message)
        self.run = run


class BrokenRun(Refusal):
    """The run's stored state cannot be loaded and its moves no longer replay, or it was
    dealt under rules this version of the bot no longer has."""

    def __init__(self, run_id: int, message: str | Message | None = None) -> None:
        super().__init__(message or N_(
            "This run was saved by another version of the game and cannot be resumed."))
        self.run_id = run_id
