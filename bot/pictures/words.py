"""The words of a picture, in the language it is drawn in.

A picture is drawn in the pictures worker (``core.workers``) from its scene, which carries
the language's code (``lang``) and English words marked with ``N_`` or
:class:`~rules.words.Phrase` s; the worker says them in that language with its own copy of the
catalogs, loaded once a process (:func:`bot.pictures.table.warm_up` loads them at start).

Why the code rather than the translated words (measured with today's 210 messages): the
catalogs cost the worker once a process (18 ms for French and German from their ``.po``;
seven languages take 52 ms from ``.po``, 13 ms from the ``.mo`` that ``make`` compiles),
while translating in the scene would cost the bot's event loop a dozen look-ups of about
4 µs on every click, and make each scene bigger than its 200-odd pickled bytes. Saying the
labels in the worker adds about 0.1 ms to a table's 1.5 ms. The cache is keyed by the whole
scene, ``lang`` with it, so a French and a German picture of one state are two pictures.
"""

from __future__ import annotations

from functools import cache

from bot.i18n import ENGLISH, PSEUDO_CODE, Language, catalogs, pseudo_language
from rules.words import Message, Phrase


@cache
def _pseudo() -> Language:
    return pseudo_language()


def picture_language(code: str) -> Language:
    """The language a picture's ``lang`` names: an offered one (the pseudo-locale too, for the
    tests), else English."""
    if code == ENGLISH.code:
        return ENGLISH
    if code == PSEUDO_CODE:
        return _pseudo()
    return catalogs().resolve(code)


def said(language: Language, text: str | Message) -> str:
    """``text`` in ``language``: a marked English word looked up whole, a phrase or message
    rendered with each whole number written the language's way (``1 500`` in French,
    ``1.500`` in German); an unmarked ``str`` (a card code, ``×3``) comes back as it is."""
    message = text.message if isinstance(text, Phrase) else text
    if not isinstance(message, Message):
        return language.render(message)
    return language.render(_numbered(language, message))


def _numbered(language: Language, message: Message) -> Message:
    params = {}
    for key, value in message.params.items():
        if isinstance(value, int) and not isinstance(value, bool):
            value = language.number(value)
        elif isinstance(value, (Phrase, Message)):
            value = _numbered(language, value.message if isinstance(value, Phrase) else value)
        params[key] = value
    if message.count is not None and "count" not in params:
        params["count"] = language.number(message.count)
    return Message(message.template, params, message.plural, message.count)
