"""Reading a move as a person types it: a number from the menu, any case, suit symbols.

The engines take exact actions (``take 4S``, ``put 5H 2``). People type ``take 4♠``,
``Take 4s``, ``put 5♥ 2``, ``TAKE JOKER`` or the number of a menu line; :func:`read_move`
turns all of these into the action they mean. Pure: text in, action out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules.cards import JOKERS, is_card

_SUIT_LETTERS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
_JOKER_WORDS = {"🃏", "JOKER"}


@dataclass(frozen=True)
class Reading:
    """What a typed line means: a legal ``action``, or a ``guess`` to ask the engine about,
    or a menu ``number`` that does not exist."""

    action: str | None = None
    guess: str | None = None
    number: int | None = None


def card_code(token: str) -> str | None:
    """The card code a typed token names (``4♠``, ``4s``, ``T♥``, ``rj``), or None."""
    text = token.strip().upper()
    for symbol, letter in _SUIT_LETTERS.items():
        text = text.replace(symbol, letter)
    text = text.replace("\ufe0f", "")  # an emoji variation selector after a suit symbol
    if len(text) == 2 and text[0] == "T":
        text = "10" + text[1]
    return text if is_card(text) else None


def read_move(text: str, legal: Sequence[str], labels: Sequence[str] = ()) -> Reading:
    """The action ``text`` means among ``legal`` (whose menu ``labels`` may also be typed).

    A number picks that line of the menu; a menu label may be typed without its value
    (``fight 8♣``, ``equip 3d``). Otherwise the verb is matched in any case and each
    card in any of the forms :func:`card_code` reads; a lone joker (``🃏``, ``joker``) is
    whichever joker makes a legal move. What matches no legal action comes back as a
    ``guess`` in the engines' notation, so that the engine can say why it is refused.
    """
    typed = " ".join(text.split())
    if not typed:
        return Reading()
    if typed.isdigit():
        n = int(typed)
        return Reading(action=legal[n - 1]) if 0 < n <= len(legal) else Reading(number=n)
    said = _words(typed)
    for action, label in zip(legal, labels, strict=False):
        if said in (_words(label), _words(action)):
            return Reading(action=action)
    words = typed.split(" ")
    verb, args = words[0].lower(), words[1:]
    options: list[list[str]] = []
    for arg in args:
        if arg.upper() in _JOKER_WORDS:
            options.append(list(JOKERS))
        else:
            options.append([card_code(arg) or arg])
    candidates = [" ".join([verb, *choice]) for choice in _product(options)]
    for candidate in candidates:
        if candidate in legal:
            return Reading(action=candidate)
    return Reading(guess=candidates[0])


def _words(text: str) -> tuple[str, ...]:
    """A label or a move, compared loosely: cards as codes, other words in lower case,
    without what a label adds in brackets at its end (``Fight 8♣ (8)`` reads as ``fight 8C``,
    ``Delve deeper (turn 2)`` as ``delve deeper``) or a lone 🃏."""
    out = []
    for word in re.sub(r"\s*\([^()]*\)$", "", text).split():
        if word.rstrip("\ufe0f") == "🃏":
            continue
        out.append(card_code(word) or word.casefold())
    return tuple(out)


def _product(options: list[list[str]]) -> list[list[str]]:
    result: list[list[str]] = [[]]
    for choices in options:
        result = [[*done, choice] for done in result for choice in choices]
    return result
