"""The deal algorithm v1: the spec's test vectors, bit for bit, and the daily seeds."""

from __future__ import annotations

import pytest

from rules import deal
from rules.cards import CANONICAL
from rules.donsol.engine import DONSOL
from rules.tomb.engine import TOMB

SEED0_DONSOL = (
    "3D JC 8C 4H 9D 7H AH 6C RJ 5H QD 10C JH 4S JS 3H 3C 9S 5C 5D 8H KH 10S 10D 6H 2H 3S "
    "4C AC KD 7S 9H 2S 7D QH 4D QC AD JD KS 6D 10H 7C 5S 2D 9C 8D 2C BJ QS AS 8S 6S KC"
).split()
SEED0_TOMB = (
    "5D 7D 4D 3C 3D 2D 8D AH 6S 2C 7C 10D KC 5S 4S 6C JD AD 6D AS 9S 8S 10C KD JH 9D KH "
    "5C 8C AC JC 4C 10S 7S KS QD 2S JS 3S QS 9C QH RJ QC"
).split()
SEED2026_DONSOL = (
    "QH 6S 10H 7C 6C KH 6D 9S 4C KS 4H AH 8D 2S 2D 6H 4D 3C 3S 9D 2H JS 9H 10S 5D JD AS "
    "3D KD 8S JH QS BJ QC 3H 10C QD 8H KC 7H 4S AD RJ 7D JC 10D 8C 7S 5S AC 5H 9C 5C 2C"
).split()


def test_canonical_order() -> None:
    assert CANONICAL[:3] == ("AS", "2S", "3S")
    assert CANONICAL[12:15] == ("KS", "AH", "2H")
    assert CANONICAL[-2:] == ("RJ", "BJ")
    assert len(CANONICAL) == 54


def test_tomb_deck_leaves_out_the_hit_point_hearts_and_the_black_joker() -> None:
    assert len(TOMB.deck) == 44
    assert "AH" in TOMB.deck and "JH" in TOMB.deck
    assert not {"2H", "10H", "BJ"} & set(TOMB.deck)


@pytest.mark.parametrize(
    ("seed", "cards", "expected", "words"),
    [
        (0, DONSOL.deck, SEED0_DONSOL, 53),
        (0, TOMB.deck, SEED0_TOMB, 43),
        (2026, DONSOL.deck, SEED2026_DONSOL, None),
    ],
)
def test_shuffle_vectors(seed: int, cards: tuple[str, ...], expected: list[str], words) -> None:
    shuffled, used = deal.shuffled(seed, cards)
    assert list(shuffled) == expected
    if words is not None:
        assert used == words


def test_stream_words_match_the_block_definition() -> None:
    stream = deal.Stream(7)
    assert [stream.next_word() for _ in range(9)] == [deal.word(7, k) for k in range(9)]
    resumed = deal.Stream(7, position=5)
    assert resumed.next_word() == deal.word(7, 5)


def test_below_rejects_the_top_partial_range() -> None:
    # n = 3 * 2**62 leaves a limit of 3 * 2**62: any word at or above it must be discarded.
    n = 3 * 2**62
    stream = deal.Stream(0)
    expected = []
    k = 0
    while len(expected) < 20:
        x = deal.word(0, k)
        k += 1
        if x < n:
            expected.append(x % n)
    got = [stream.below(n) for _ in range(20)]
    assert got == expected
    assert stream.position == k


def test_shuffle_continues_the_stream_from_a_position() -> None:
    first, used = deal.shuffled(5, DONSOL.deck)
    again, used_again = deal.shuffled(5, first, position=used)
    stream = deal.Stream(5)
    manual = list(DONSOL.deck)
    stream.shuffle(manual)
    stream.shuffle(manual)
    assert list(again) == manual and used_again == stream.position


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "3", True])
def test_bad_seeds_are_refused(bad) -> None:
    with pytest.raises(ValueError, match="seed"):
        deal.Stream(bad)


def test_daily_seed_and_commitment_example() -> None:
    seed = deal.daily_seed("example-secret", "donsol", "normal", "2026-12-01")
    assert seed == 15988344857776923734
    assert deal.commitment(seed) == (
        "b6557595408f669a395ebdb19a7e96f3d202e9dab943d3c9925b735bc1b52296"
    )


def test_daily_seeds_differ_by_game_variant_and_day() -> None:
    seeds = {
        deal.daily_seed("s", g, v, d)
        for g, v, d in [
            ("donsol", "normal", "2026-12-01"),
            ("donsol", "easy", "2026-12-01"),
            ("donsol", "normal", "2026-12-02"),
            ("clear", "standard", "2026-12-01"),
        ]
    }
    assert len(seeds) == 4
