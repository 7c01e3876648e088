"""Card codes: parsing, ranks, suits and display with suit symbols.

A card is ``rank + suit`` (``AS``, ``10H``, ``QD``) or a joker (``RJ``, ``BJ``), exactly as
``docs/deal.md`` fixes them. Codes stay ASCII everywhere (storage, transcripts,
custom ids); :func:`display` is the one place that turns them into ``A♠``, ``10♥``, ``🃏``.
"""

from __future__ import annotations

from rules.words import N_, Phrase

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
JOKERS: tuple[str, ...] = ("RJ", "BJ")

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
JOKER_SYMBOL = "🃏"

#: Every card in canonical order: suits S, H, D, C; ranks A..K; then RJ, BJ.
CANONICAL: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + JOKERS
_VALID = frozenset(CANONICAL)

#: Number of a rank: A = 1, 2..10, J = 11, Q = 12, K = 13.
RANK_NUMBER: dict[str, int] = {r: i + 1 for i, r in enumerate(RANKS)}


def is_card(code: str) -> bool:
    """True when ``code`` is a valid card code."""
    return code in _VALID


def parse(text: str) -> str:
    """Return the card code for ``text`` (case-insensitive, ``T`` accepted for 10).

    Raises ``ValueError`` naming the text when it is not a card.
    """
    code = text.strip().upper()
    if code.startswith("T") and len(code) == 2:
        code = "10" + code[1]
    if code == "JOKER":
        code = "RJ"
    if code not in _VALID:
        raise ValueError(f"not a card: {text!r}")
    return code


def is_joker(code: str) -> bool:
    """True for ``RJ`` and ``BJ``."""
    return code in JOKERS


def rank(code: str) -> str:
    """The rank part of a non-joker card (``10H`` -> ``10``)."""
    return code[:-1]


def suit(code: str) -> str:
    """The suit letter of a non-joker card (``10H`` -> ``H``)."""
    return code[-1]


def number(code: str) -> int:
    """The rank number of a non-joker card: A = 1 … K = 13."""
    return RANK_NUMBER[code[:-1]]


def display(code: str) -> str:
    """The card as a person reads it: ``A♠``, ``10♥``, ``🃏`` (red) / ``🃏`` (black)."""
    if code in JOKERS:
        return JOKER_SYMBOL
    return code[:-1] + SUIT_SYMBOLS[code[-1]]


#: The ranks' and suits' names in a long card name (``Queen of Spades``).
RANK_NAMES: dict[str, str] = {
    "A": N_("Ace"), "J": N_("Jack"), "Q": N_("Queen"), "K": N_("King"),
    **{str(n): str(n) for n in range(2, 11)},
}
LONG_SUIT_NAMES: dict[str, str] = {
    "S": N_("Spades"), "H": N_("Hearts"), "D": N_("Diamonds"), "C": N_("Clubs"),
}
_JOKER_NAMES: dict[str, str] = {"RJ": N_("red joker"), "BJ": N_("black joker")}


def long_name(code: str) -> Phrase:
    """The card's name in words: ``Queen of Spades``, ``10 of Hearts``, ``red joker``."""
    if code in _JOKER_NAMES:
        return Phrase(_JOKER_NAMES[code])
    rank_word = RANK_NAMES[code[:-1]]
    rank_name = Phrase(rank_word) if rank_word.isalpha() else rank_word
    return Phrase(N_("{rank} of {suit}"), rank=rank_name, suit=Phrase(LONG_SUIT_NAMES[code[-1]]))


_LONG_JOKERS: dict[str, Phrase] = {
    "RJ": Phrase(N_("red joker {joker}"), joker=JOKER_SYMBOL),
    "BJ": Phrase(N_("black joker {joker}"), joker=JOKER_SYMBOL),
}


def display_long(code: str) -> str:
    """A longer form that tells the two jokers apart: ``red joker 🃏`` (a phrase), ``A♠``."""
    joker = _LONG_JOKERS.get(code)
    return joker if joker is not None else display(code)


def name(text: str) -> str:
    """A card code as a player reads it, or the text itself quoted when it is no card.

    For refusals, which must speak of whatever the player sent: ``name("AS")`` is ``A♠``,
    ``name("ZZ")`` is ``'ZZ'``.
    """
    if text in _VALID:
        return display(text)
    return repr(text) if text else Phrase(N_("That card"))


def show(cards: tuple[str, ...] | list[str], empty: str = "—") -> str:
    """Cards joined by spaces for display, or ``empty`` when there are none."""
    return " ".join(display(c) for c in cards) if cards else empty
