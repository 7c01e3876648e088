"""The core's refusals, and the messages they carry: each is one calm sentence for the player.

Only these are shown to a player as refusals; any other exception reaching the Discord layer
is a bug, answered with an error id.

A refusal carries a :class:`Message`: an English template marked with :func:`N_` (extracted
into the catalogs by ``make catalogs``) and its parameters. The core never translates: the
adapter renders the message in the reader's language (``bot.i18n.render``), and
``str(refusal)`` is the English sentence (logs, the terminal, tests). See docs/languages.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.model import Run


def N_(template: str) -> str:
    """Mark ``template`` for the catalogs; it is returned unchanged (translated when shown)."""
    return template


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a sentence with a plural form for the catalogs (``Message(..., plural=, count=)``)."""
    return singular, plural


#: How a renderer turns a template into the reader's words: (singular, plural, count) -> text.
Lookup = Callable[[str, str | None, int | None], str]


def english(singular: str, plural: str | None, count: int | None) -> str:
    """The source text itself: English's two plural forms."""
    return singular if plural is None or count == 1 else plural


@dataclass(frozen=True)
class Message:
    """A sentence still to be put in a language: an English ``template`` with ``{name}``
    fields, filled from ``params`` (a parameter may itself be a :class:`Message`, rendered in
    the same language). ``plural`` and ``count`` choose a plural form. A template without
    parameters is shown as it is (its braces are not fields)."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None
    count: int | None = None

    def render(self, lookup: Lookup) -> str:
        """The message in the language ``lookup`` speaks."""
        text = lookup(self.template, self.plural, self.count)
        if not self.params and self.count is None:
            return text
        values = {key: value.render(lookup) if isinstance(value, Message) else value
                  for key, value in self.params.items()}
        if self.count is not None:
            values.setdefault("count", self.count)
        return text.format_map(values)

    def __str__(self) -> str:
        return self.render(english)


class Refusal(Exception):
    """A request the core turns down; nothing was written. ``message`` is what to say:
    ``Refusal(N_("... {name} ..."), name=value)`` or a ready :class:`Message`."""

    def __init__(self, message: str | Message = "", /, **params: object) -> None:
        if not isinstance(message, Message):
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
    """The engine refused the action; ``reason`` is its explanation (the engine's own
    sentence: a whole message of its own, translated once the engines mark theirs)."""

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
