"""The contract every game engine implements (``docs/engine.md``).

A game is a stateless object; a state is an immutable value. ``apply`` checks the action
against ``actions`` first (python-chess's "parse, then push") and otherwise returns a new
state, leaving its input untouched. ``dump``/``load`` turn a state into JSON-safe data and
back, exactly; the dump is tagged with the engine's format version so that a store can
tell a state it can no longer load and rebuild it by replaying the moves.
"""

from __future__ import annotations

import dataclasses
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from rules.deal import check_seed, shuffled
from rules.words import N_, Message, Nn_, Phrase, dump_text, load_text, made

S = TypeVar("S")


class IllegalAction(ValueError):
    """An action that is not legal in this state; the message says why, for a player.

    ``index`` is set by :func:`replay` to the 0-based position of the refused action.
    ``str(exc)`` is the message itself: the engine's :class:`~rules.words.Phrase`, so that
    whoever shows it can say it in the reader's language.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.index = index

    def __str__(self) -> str:
        return self.message


class Game(ABC, Generic[S]):
    """One game: how to deal it, what may be done, what happens, and what a player sees."""

    key: ClassVar[str]
    title: ClassVar[str]
    variants: ClassVar[tuple[str, ...]]
    #: The cards a deal shuffles, in canonical order (``docs/deal.md``).
    deck: ClassVar[tuple[str, ...]]
    #: Bumped whenever the dumped state's shape or meaning changes.
    format_version: ClassVar[int] = 1
    #: Each variant's name as a player reads it (marked for the catalogs); the variants
    #: themselves stay the values commands and ids use.
    variant_names: ClassVar[dict[str, str]] = {}
    #: Each outcome word as a player reads it in a sentence (marked for the catalogs).
    outcome_names: ClassVar[dict[str, str]] = {}
    #: Bumped whenever the rules change what a deal plays like: a run (and a day's daily)
    #: keeps the rules it was dealt under, so a change reaches the daily from the next day on.
    rules_version: ClassVar[int] = 1
    #: The part of the score that stats average, and what it counts: ``(index, unit)``.
    stat: ClassVar[tuple[int, str]] = (0, "points")
    #: The stat's unit counted, in the players' words: ``Nn_("{count} point", "{count} points")``
    #: (:meth:`stat_text`).
    stat_units: ClassVar[tuple[str, str]] = Nn_("{count} point", "{count} points")
    #: Every outcome word the game ends with, and what it is: ``win``, ``loss`` or ``out``
    #: (ended alive without winning). Boards colour and head a finished run by it.
    outcomes: ClassVar[dict[str, str]]
    state_type: ClassVar[type]

    def outcome_text(self, outcome: str) -> str:
        """An outcome word as a player reads it in a sentence ("lost in the dark"): a
        :class:`Phrase` from :attr:`outcome_names`, else its underscores read as spaces."""
        marked = self.outcome_names.get(outcome)
        return Phrase(marked) if marked is not None else outcome.replace("_", " ")

    def stat_text(self, value: float, shown: str | None = None) -> Phrase:
        """``value`` of the stat with its unit, ``12 cards``: a plural phrase. ``shown`` is the
        number as the reader's locale writes it (``12,5``), the value itself by default; a
        value that is not whole takes the plural form."""
        count = int(value) if float(value).is_integer() else 2
        number = shown if shown is not None else f"{value:g}"
        # The plural form is chosen by ``count``; the text shows ``number`` in its place.
        return Phrase.of(Message(self.stat_units[0], {"count": number}, self.stat_units[1],
                                 count))

    def variant_name(self, variant: str) -> str:
        """A variant as a player reads it (``hard``; ``difficile`` in French): a
        :class:`Phrase` from :attr:`variant_names`, else the variant itself."""
        marked = self.variant_names.get(variant)
        return Phrase(marked) if marked is not None else variant

    def is_win(self, outcome: str | None) -> bool:
        """Whether ``outcome`` (an outcome word, or None while playing) is a win by the rules:
        the one place an outcome word is judged."""
        return outcome is not None and self.outcomes.get(outcome) == "win"

    @property
    def rules_tag(self) -> str:
        """``"<key>/<rules_version>"``: recorded with every run."""
        return f"{self.key}/{self.rules_version}"

    # ----- dealing -------------------------------------------------------------------------

    def new(self, seed: int, variant: str | None = None, deck: Sequence[str] | None = None) -> S:
        """Deal a new game from ``seed`` (or from the explicit ``deck``, top first).

        Raises ``ValueError`` for an unknown variant, a bad seed or a deck that does not fit.
        """
        check_seed(seed)
        return self._new(seed, self.variant(variant), tuple(deck) if deck is not None else None)

    def variant(self, variant: str | None) -> str:
        """The variant's name, the default for ``None``; ``ValueError`` for an unknown one."""
        if variant is None:
            return self.variants[0]
        if variant not in self.variants:
            choices = ", ".join(self.variants)
            raise ValueError(f"{self.title} has no variant {variant!r} (choose from {choices})")
        return variant

    def deal_order(
        self, seed: int, cards: tuple[str, ...], deck: tuple[str, ...] | None
    ) -> tuple[tuple[str, ...], int]:
        """``(order top first, stream words used)``: ``cards`` shuffled with the seed's stream,
        or the explicit ``deck`` unshuffled (the stream then starts at word 0).

        Raises ``ValueError`` unless ``deck`` holds each of ``cards`` exactly once.
        """
        if deck is None:
            return shuffled(seed, cards)
        if sorted(deck) != sorted(cards):
            raise ValueError(
                f"a {self.title} deck holds each of the {len(cards)} cards exactly once"
            )
        return deck, 0

    # ----- playing -------------------------------------------------------------------------

    def apply(self, state: S, action: str) -> S:
        """Return the state after ``action``.

        Raises ``IllegalAction`` (saying why) when ``action`` is not in ``actions(state)``.
        """
        if not isinstance(action, str) or not self.is_legal(state, action):
            raise IllegalAction(self.refusal(state, action if isinstance(action, str) else ""))
        return self._apply(state, action)

    def is_legal(self, state: S, action: str) -> bool:
        """Whether ``action`` is in ``actions(state)``. A game may answer faster than building
        the list, never differently (``tests/rules/test_is_legal.py`` checks)."""
        return action in self.actions(state)

    def is_over(self, state: S) -> bool:
        """True once no action is left."""
        return not self.actions(state)

    # ----- what a player sees --------------------------------------------------------------

    def common_view(self, state: Any) -> dict[str, Any]:
        """``engine.md``'s keys every view holds, and ``events``; the games add their own.

        States carry ``variant``, ``seed``, ``moves``, ``outcome`` (None while playing) and
        ``events`` (what the last action did).
        """
        return {
            "game": self.key,
            "variant": state.variant,
            "seed": state.seed,
            "moves": state.moves,
            "over": state.outcome is not None,
            "won": self.is_win(state.outcome),
            "outcome": state.outcome,
            "score": self.score(state),
            "score_text": self.score_text(state),
            "prompt": self.prompt(state),
            "events": list(state.events),
        }

    def label(self, view: dict[str, Any], action: str) -> str:
        """What ``action`` does, in a few words a player reads on a button or a menu.

        ``view`` is :meth:`view`'s output for the state the action is legal in. The terminal
        menu and the Discord buttons both show this label. A game that does not say more
        shows the action itself.
        """
        return action

    # ----- storage -------------------------------------------------------------------------

    def dump(self, state: S) -> dict[str, Any]:
        """The full state as JSON-safe data (hidden cards and stream position included)."""
        data: dict[str, Any] = {"engine": f"{self.key}/{self.format_version}"}
        for name in _field_names(type(state)):
            value = getattr(state, name)
            data[name] = _thaw(value) if isinstance(value, tuple) else value
        if "events" in data:  # sentences: kept with their templates and fields
            data["events"] = [dump_text(e) for e in data["events"]]
        return data

    def load(self, data: dict[str, Any]) -> S:
        """Rebuild a state from :meth:`dump`'s output.

        Raises ``ValueError`` when the data was written by another engine or format version.
        """
        tag = data.get("engine")
        if tag != f"{self.key}/{self.format_version}":
            raise ValueError(f"cannot load a {tag!r} state with the {self.key} engine")
        fields = {k: _freeze(v) for k, v in data.items() if k != "engine"}
        if "events" in fields:
            fields["events"] = tuple(load_text(e) for e in data["events"])
        try:
            return self.state_type(**fields)
        except TypeError as exc:
            raise ValueError(f"malformed {self.key} state: {exc}") from exc

    # ----- what each game provides ---------------------------------------------------------

    @abstractmethod
    def _new(self, seed: int, variant: str, deck: tuple[str, ...] | None) -> S:
        """Deal: ``variant`` is already checked, ``deck`` is an explicit order or None."""

    @abstractmethod
    def actions(self, state: S) -> list[str]:
        """Every legal action now, in a stable order; ``[]`` when the game is over."""

    @abstractmethod
    def _apply(self, state: S, action: str) -> S:
        """Apply an action already known to be legal."""

    @abstractmethod
    def refusal(self, state: S, action: str) -> str:
        """Why ``action`` is not legal here, in one sentence a player understands."""

    @abstractmethod
    def score(self, state: S) -> list[int]:
        """The leaderboard's sort key, compared lexicographically, higher is better."""

    @abstractmethod
    def score_text(self, state: S) -> str:
        """The score as a person reads it."""

    def resigned(self, state: S) -> tuple[list[int], str]:
        """``(score, score_text)`` of a run given up in ``state``: what it ranks with. It must
        never beat playing on, or resigning would be the way to rank (a game overrides this
        when its score so far would); by default, the score so far."""
        return self.score(state), self.score_text(state)

    @abstractmethod
    def prompt(self, state: S) -> str:
        """One short sentence: what the player decides now, or how the game ended."""

    @abstractmethod
    def view(self, state: S) -> dict[str, Any]:
        """The public, JSON-safe view: ``engine.md``'s keys and the game's own."""

    @abstractmethod
    def text(self, state: S) -> str:
        """The board as plain text, for the terminal and for logs."""


def replay(
    game: Game[Any],
    variant: str | None,
    seed: int,
    actions: Iterable[str],
    deck: Sequence[str] | None = None,
) -> Any:
    """Deal and apply ``actions`` in order; return the final state.

    Raises ``IllegalAction`` at the first refused action, with its 0-based ``index`` set and
    its 1-based move number in the message.
    """
    state = game.new(seed, variant, deck)
    for i, action in enumerate(actions):
        try:
            state = game.apply(state, action)
        except IllegalAction as exc:
            raise IllegalAction(Phrase(N_("move {number} ({action}): {reason}"), number=i + 1,
                                       action=repr(action), reason=exc.message),
                                index=i) from exc
    return state


def state_builder(cls: type[S]) -> Callable[..., S]:
    """A function that builds a frozen, slotted dataclass ``cls`` from all its fields in order,
    positionally: exactly ``cls(*fields)``, in about a sixth of the time.

    A frozen dataclass's ``__init__`` goes through ``object.__setattr__`` by name for every
    field. The builder instead fills an instance of an open twin of ``cls`` (the very same
    slots, in the same order, without the frozen ``__setattr__``) by plain attribute stores,
    then makes it a ``cls`` by assigning ``__class__``, which Python allows exactly because
    the two lay out their slots alike (checked here once, on a first object). From then on
    it is an ordinary frozen ``cls``. For the engines' hot paths, where building the new
    state is a large part of a move. Only for classes without ``__post_init__`` or
    ``InitVar`` (checked).
    """
    names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or not hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__} is not a plain slotted dataclass")
    if any(name.startswith("_") for name in names):
        raise TypeError(f"{cls.__name__}'s field names would clash with the builder's own")
    twin = type(f"_Open{cls.__name__}", (), {"__slots__": cls.__slots__})  # type: ignore[attr-defined]
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_twin": twin}
    lines = [f"def build({', '.join(names)}):", "    _o = _new(_twin)"]
    lines += [f"    _o.{name} = {name}" for name in names]
    lines += ["    _o.__class__ = _cls", "    return _o"]
    exec("\n".join(lines), scope)
    build = scope["build"]
    build.__doc__ = f"``{cls.__name__}(*fields)``, faster."
    build(*[None] * len(names))  # raises TypeError now if the layouts did not match
    return build  # type: ignore[no-any-return]


def lazy_events(cls: type[S]) -> type[S]:
    """Let the slotted state class ``cls`` keep its ``events`` as :func:`rules.words.later`
    items, made phrases only when they are read.

    An engine says what every move did, and a solver, a hint's sampling or a random playout
    plays millions of moves whose sentences nobody reads: formatting them was a third of a
    move. So the engines store the templates and fields (and phrases already made), and
    ``state.events`` still reads as the tuple of phrases it stands for, to every caller
    (views, ``==``, ``hash``, ``repr``, dumps, pickles, ``dataclasses.replace``). The first
    read makes the phrases and keeps them in the slot in place of the items: the state's value
    does not change (the same sentences), only how far it is made, as a cached property."""
    cls.events = _EventsWhenRead(cls.__dict__["events"])  # type: ignore[attr-defined]
    return cls


class _EventsWhenRead:
    """The ``events`` field of a :func:`lazy_events` state: its slot, read as phrases."""

    __slots__ = ("_slot",)

    def __init__(self, slot: Any) -> None:
        self._slot = slot  # the slot's own descriptor, which stores the value

    def __get__(self, state: Any, owner: type | None = None) -> Any:
        if state is None:
            return self
        items = self._slot.__get__(state, owner)
        for item in items:
            if type(item) is tuple:  # a later() item: make them all, once
                items = tuple(map(made, items))
                self._slot.__set__(state, items)
                break
        return items

    def __set__(self, state: Any, value: Any) -> None:
        self._slot.__set__(state, value)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    # A write dumps its state (and a finished run's replay too): the fields of a state class
    # are looked up once, not walked for every dump.
    return tuple(f.name for f in dataclasses.fields(cls))


def _thaw(value: Any) -> Any:
    # A state's tuples are mostly of cards (text): an item is thawed only if it is a tuple.
    if isinstance(value, tuple):
        return [_thaw(v) if isinstance(v, tuple) else v for v in value]
    return value


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value
