"""The words and bars a board shows, shared by the terminal and Discord, and the sentences
still to be put in a language.

The engines describe their boards with these (``text``, ``label`` and the games' wording
functions), and the Discord boards reuse the same functions, so both say the same thing.
Every sentence a player reads is marked for the catalogs (:func:`N_`, :func:`Nn_`) and made a
:class:`Phrase` (English, remembering its template and fields) or a :class:`Message`; the
engines never translate (they touch no file): an adapter says them in the reader's language
(``docs/languages.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


def bar(filled: int, total: int) -> str:
    """A bar of ``total`` segments, ``filled`` of them full: ``▰▰▰▱▱``."""
    filled = max(0, min(total, filled))
    return "▰" * filled + "▱" * (total - filled)


def scaled_bar(value: int, maximum: int, segments: int = 10) -> str:
    """``value`` of ``maximum`` as a bar of ``segments``; any value above 0 shows one at least."""
    filled = round(value * segments / maximum) if maximum else 0
    if value > 0:
        filled = max(1, filled)
    return bar(filled, segments)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``3 cards``: a plural :class:`Phrase` for the game words of
    :data:`COUNTED` (said in the reader's language), the English words for any other."""
    forms = COUNTED.get(word)
    if forms is not None and many is None:
        return counted(forms, n)
    return f"{n} {word if n == 1 else (many or word + 's')}"


# ----- sentences to be put in a language -------------------------------------------------

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
        values = {key: said(value, lookup) if isinstance(value, (Message, Phrase)) else value
                  for key, value in self.params.items()}
        if self.count is not None:
            values.setdefault("count", self.count)
        return text.format_map(values)

    def __str__(self) -> str:
        return self.render(english)


class Phrase(str):
    """An English sentence that remembers its :class:`Message`, so that an adapter can say it
    in the reader's language (``language.render(phrase)``) while everything else (the
    terminal, logs, tests, equality with a plain string) keeps using it as the English
    ``str`` it is. The engines' events, refusals, labels and board words are phrases:
    ``Phrase(N_("You drink {card}."), card=shown)``. A field may itself be a phrase (or a
    message), which is said in the same language."""

    # The template and fields are kept as they came and the Message is only built when an
    # adapter asks for it: the engines make a phrase for every event of every move (a solver
    # or a random playout makes millions that nobody reads), so a phrase costs no more than
    # its formatted English and four slots.
    __slots__ = ("_count", "_message", "_params", "_plural", "_said", "_template")

    def __new__(cls, template: str, /, *, plural: str | None = None, count: int | None = None,
                **params: object) -> Phrase:
        # A sentence without fields is made once and shared (a phrase never changes).
        # Otherwise the English is formatted straight from the template (a field's phrase
        # formats as the English it is, a message as its English): exactly str(Message(...)).
        if not params and count is None and plural is None and cls is Phrase:
            shared = _FIXED.get(template)
            if shared is None:
                shared = cls.of(Message(template))
                if len(_FIXED) < _FIXED_LIMIT:
                    _FIXED[template] = shared
            return shared
        # The engines say the same few sentences about the same few cards again and again: a
        # phrase whose fields are all plain strings and numbers is made once and shared too
        # (a field that is a phrase or a message is not: equal English, other words).
        if cls is not Phrase:
            return cls._made(template, plural, count, params)
        for value in params.values():
            if type(value) is not str and type(value) is not int:
                return cls._made(template, plural, count, params)
        key = (template, plural, count, *params.items())
        shared = _MADE.get(key)
        if shared is None:
            shared = cls._made(template, plural, count, params)
            if len(_MADE) < _MADE_LIMIT:
                _MADE[key] = shared
        return shared

    @classmethod
    def _made(cls, template: str, plural: str | None, count: int | None,
              params: dict[str, object]) -> Phrase:
        text = template if plural is None or count == 1 else plural
        if count is not None:
            if "count" not in params:
                text = text.format_map({**params, "count": count})
            else:
                text = text.format_map(params)
        elif params:
            text = text.format_map(params)
        made = str.__new__(cls, text)
        made._template = template
        made._params = params
        made._plural = plural
        made._count = count
        made._message = None
        made._said = None
        return made

    @property
    def message(self) -> Message:
        """The sentence still to be put in a language (built once, when first asked for)."""
        message = self._message
        if message is None:
            message = object.__new__(Message)  # a frozen dataclass, built without __setattr__
            message.__dict__.update(template=self._template, params=self._params,
                                    plural=self._plural, count=self._count)
            self._message = message
        return message

    @classmethod
    def of(cls, message: Message) -> Phrase:
        made = str.__new__(cls, str(message))
        made._template = message.template
        made._params = message.params
        made._plural = message.plural
        made._count = message.count
        made._message = message
        made._said = None
        return made

    def __reduce__(self) -> tuple[Any, ...]:  # pickled to the picture worker with its message
        return (Phrase.of, (self.message,))


#: The phrases without fields made so far (see ``Phrase.__new__``), bounded in case a caller
#: makes phrases of texts that are not templates.
_FIXED: dict[str, Phrase] = {}
_FIXED_LIMIT = 4096
#: The phrases of plain fields made so far (see ``Phrase.__new__``), bounded likewise.
_MADE: dict[tuple[object, ...], Phrase] = {}
_MADE_LIMIT = 1 << 16


def said(message: Message | Phrase | str, lookup: Lookup) -> str:
    """``message`` in the language ``lookup`` speaks: a plain ``str`` is looked up whole (a
    marked word without fields, or, if never marked, itself)."""
    if isinstance(message, Phrase):
        # Said once per language: a phrase never changes, and neither does a language's
        # catalog, so the last language's words are kept on the phrase (a board says the
        # same shared phrases, the card names and the run's events, click after click).
        speaker = getattr(lookup, "__self__", lookup)  # a Language's lookup is a bound method
        kept = message._said
        if kept is not None and kept[0] is speaker:
            return kept[1]
        text = message.message.render(lookup)
        message._said = (speaker, text)
        return text
    if isinstance(message, Message):
        return message.render(lookup)
    return lookup(message, None, None)


def dump_text(text: str | Message) -> Any:
    """A phrase (or message) as JSON-safe data that :func:`load_text` turns back into the same
    phrase, its fields' phrases included; a plain ``str`` stays itself."""
    message = text.message if isinstance(text, Phrase) else text
    if not isinstance(message, Message):
        return text
    data: dict[str, Any] = {"t": message.template}
    if message.params:
        data["p"] = {k: dump_text(v) if isinstance(v, (str, Message)) else v
                     for k, v in message.params.items()}
    if message.plural is not None:
        data["n"] = [message.plural, message.count]
    return data


def load_text(data: Any) -> Any:
    """The inverse of :func:`dump_text`: a :class:`Phrase` from its data, a ``str`` as is."""
    if not isinstance(data, dict):
        return data
    params = {k: load_text(v) for k, v in data.get("p", {}).items()}
    plural, count = data.get("n", (None, None))
    return Phrase.of(Message(data["t"], params, plural, count))


def counted(forms: tuple[str, str], count: int, /, **params: object) -> Phrase:
    """A plural phrase from ``Nn_(singular, plural)``: ``counted(Nn_("{count} card",
    "{count} cards"), 3)`` is ``3 cards``."""
    return Phrase(forms[0], plural=forms[1], count=count, **params)


#: A sentence still to be made a :class:`Phrase`: what :func:`later` returns, a template with
#: its fields, ``(template, plural, count, fields)``; :func:`made` makes it.
Pending = tuple[str, str | None, int | None, dict[str, object]]


def later(template: str, /, **params: object) -> Pending:
    """``Phrase(template, **params)``, made only when someone reads it (:func:`made`).

    For the sentences an engine says on every move (its events): a solver, a hint's sampling
    or a random playout plays millions of moves whose sentences nobody reads, and keeping a
    template and its fields costs a tenth of formatting them into a phrase. A state holds
    them in its ``events`` (``rules.engine.said_when_read``), which reads as phrases."""
    return (template, None, None, params)


def counted_later(forms: tuple[str, str], count: int, /, **params: object) -> Pending:
    """:func:`counted`, made only when someone reads it (see :func:`later`)."""
    return (forms[0], forms[1], count, params)


def made(item: Pending | Phrase) -> Phrase:
    """The phrase a :func:`later` item stands for (a field that is a :func:`later` item is
    made too); a phrase already made is itself."""
    if type(item) is not tuple:
        return item  # type: ignore[return-value]
    template, plural, count, params = item
    for value in params.values():
        if type(value) is tuple:
            params = {k: made(v) if type(v) is tuple else v for k, v in params.items()}
            break
    return Phrase(template, plural=plural, count=count, **params)


def lines(*parts: str, sep: str = "\n") -> Phrase:
    """``parts`` (phrases or plain text) joined by ``sep`` as one phrase, each part said in
    the reader's language: a board's text. The joining template holds no words, so it is
    not in the catalogs (a lookup gives it back as it is)."""
    template = sep.join(f"{{p{i}}}" for i in range(len(parts)))
    return Phrase(template, **{f"p{i}": part for i, part in enumerate(parts)})


#: The counted game words :func:`plural` says in any language.
COUNTED: dict[str, tuple[str, str]] = {
    "card": Nn_("{count} card", "{count} cards"),
    "deal": Nn_("{count} deal", "{count} deals"),
    "turn": Nn_("{count} turn", "{count} turns"),
    "retreat turn": Nn_("{count} retreat turn", "{count} retreat turns"),
    "King": Nn_("{count} King", "{count} Kings"),
    "point": Nn_("{count} point", "{count} points"),
    "monster": Nn_("{count} monster", "{count} monsters"),
}
