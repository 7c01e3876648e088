"""Card codes parse, display and round-trip."""

from __future__ import annotations

import pytest

from rules import cards


def test_every_code_round_trips_through_parse() -> None:
    for code in cards.CANONICAL:
        assert cards.parse(code) == code
        assert cards.parse(code.lower()) == code


def test_display_uses_suit_symbols() -> None:
    assert cards.display("AS") == "A♠"
    assert cards.display("10H") == "10♥"
    assert cards.display("QD") == "Q♦"
    assert cards.display("7C") == "7♣"
    assert cards.display("RJ") == "🃏"
    assert cards.show(("2H", "BJ")) == "2♥ 🃏"
    assert cards.show(()) == "—"


def test_parse_accepts_t_for_ten_and_refuses_nonsense() -> None:
    assert cards.parse("th") == "10H"
    for bad in ("1S", "11H", "ZZ", "", "AX", "10"):
        with pytest.raises(ValueError, match="not a card"):
            cards.parse(bad)


def test_rank_suit_and_number() -> None:
    assert (cards.rank("10H"), cards.suit("10H"), cards.number("10H")) == ("10", "H", 10)
    assert cards.number("AS") == 1 and cards.number("KC") == 13
    assert cards.is_joker("BJ") and not cards.is_joker("JS")
