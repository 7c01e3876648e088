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
        seed, position = rng.getrandbits(64), rng.choice([rng.randrange(100), 1020, 5000])
        items = list(cards)
        used = deal.shuffle_from(seed, position, items)
        assert (items, used) == plain(seed, position, cards)


def test_every_word_below_may_throw_away_starts_with_the_marker() -> None:
    bound = 2**64 - deal._SAFE_UP_TO
    assert all(deal._LIMITS[m] >= bound for m in range(1, deal._SAFE_UP_TO + 1))
    # Every word from the bound up begins with the marker the batch searches for.
    assert bound.to_bytes(8, "big").startswith(deal._NEAR_TOP)
    assert (2**64 - 1).to_bytes(8, "big").startswith(deal._NEAR_TOP)


def test_a_batch_with_a_high_word_falls_back_to_the_stream(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Real batches meet the marker about once in 10**14 shuffles: a one-byte marker sends
    # most of them to the fallback, and both paths must still agree with the plain stream.
    monkeypatch.setattr(deal, "_NEAR_TOP", b"\xff")
    cards = [f"c{i}" for i in range(54)]
    fell_back = 0
    for seed in range(60):
        fell_back += deal._words(seed, 3, 53) is None
        items = list(cards)
        used = deal.shuffle_from(seed, 3, items)
        assert (items, used) == plain(seed, 3, cards)
    assert 0 < fell_back < 60


def test_shuffled_still_checks_the_seed() -> None:
    with pytest.raises(ValueError):
        deal.shuffled(-1, ["AS"])
