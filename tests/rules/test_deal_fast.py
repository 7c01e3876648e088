"""The batched shuffle (``rules.deal.shuffle_from``) draws exactly what ``Stream.shuffle``,
the plain reading of ``docs/deal.md``, draws: same order, same stream position."""

from __future__ import annotations

import random

import pytest

from rules import deal


def plain(seed: int, position: int, cards: list[str]) -> tuple[list[str], int]:
    stream = deal.Stream(seed, position)
    items = list(cards)
    stream.shuffle(items)
    return items, stream.position


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 9, 44, 54, 130, 200])
def test_the_batched_shuffle_matches_the_stream(n: int) -> None:
    rng = random.Random(n)
    cards = [f"c{i}" for i in range(n)]
    for _ in range(40):
        seed, position = rng.getrandbits(64), rng.randrange(0, 100)
        items = list(cards)
        used = deal.shuffle_from(seed, position, items)
        assert (items, used) == plain(seed, position, cards)


def test_thrown_away_words_are_fetched_as_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    # Real limits almost never throw a word away; tiny ones throw most away, in both paths.
    monkeypatch.setattr(deal, "_LIMITS", (0, *(2**60 for _ in range(1, 129))))
    cards = [f"c{i}" for i in range(54)]
    for seed in range(20):
        items = list(cards)
        used = deal.shuffle_from(seed, seed % 7, items)
        expected, expected_used = plain(seed, seed % 7, cards)
        assert (items, used) == (expected, expected_used)
        assert used > seed % 7 + 53 * 4  # most words were thrown away


def test_shuffled_still_checks_the_seed() -> None:
    with pytest.raises(ValueError):
        deal.shuffled(-1, ["AS"])
