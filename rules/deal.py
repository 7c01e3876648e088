"""The seeded random stream, the shuffle and the daily seeds (deal algorithm v1).

Everything here is fixed to the bit by ``docs/deal.md``: block ``b`` of the
stream is ``SHA-256(seed ‖ b)`` (both 8 bytes big-endian), read as four big-endian 64-bit
words. A game keeps how many words it has used, so a later shuffle continues the same
stream and a replay reproduces it. Pure functions only: no clock, no global random.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import MutableSequence, Sequence
from operator import mod
from typing import TypeVar

T = TypeVar("T")

ALGORITHM = "v1"
SEED_LIMIT = 2**64
_TWO64 = 2**64
_FOUR_WORDS = struct.Struct(">4Q")  # a block's 32 bytes as four big-endian words
_SEED_AND_BLOCK = struct.Struct(">QQ")  # a block's hash input: seed ‖ block index
_sha256 = hashlib.sha256
_BLOCKS: tuple[bytes, ...] = tuple(b.to_bytes(8, "big") for b in range(256))  # hash inputs
#: Unpackers of 1, 2, … blocks' digests into words, by the number of blocks.
_UNPACK = (None, *(struct.Struct(f">{4 * k}Q").unpack for k in range(1, 33)))
#: ``below(n)``'s rejection limit for the small ``n`` a deck's shuffle draws with.
_LIMITS: tuple[int, ...] = (0, *(_TWO64 - (_TWO64 % n) for n in range(1, 129)))
#: ``below(m)`` keeps every word under ``2**64 - m + 1``, so a batch of a shuffle of at most
#: ``_SAFE_UP_TO`` items whose words are all under ``2**64 - _SAFE_UP_TO`` throws none away;
#: every word from there up starts with the bytes ``_NEAR_TOP``.
_SAFE_UP_TO = 128
_NEAR_TOP = b"\xff" * 7
#: ``_DOWN_FROM[n]``: n, n − 1, …, 2, the ``i + 1`` a shuffle of n items draws below in turn.
_DOWN_FROM: tuple[range, ...] = tuple(range(n, 1, -1) for n in range(_SAFE_UP_TO + 1))


def check_seed(seed: int) -> int:
    """Return ``seed`` if it is a valid 64-bit seed, else raise ``ValueError``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a seed is an integer from 0 to 2**64 - 1, not {seed!r}")
    return seed


def word(seed: int, k: int) -> int:
    """Word ``k`` of the stream of ``seed``."""
    block = hashlib.sha256(seed.to_bytes(8, "big") + (k // 4).to_bytes(8, "big")).digest()
    i = (k % 4) * 8
    return int.from_bytes(block[i : i + 8], "big")


class Stream:
    """A cursor over the stream of one seed, starting at word ``position``.

    Callers create one from a state's stored position, draw from it, and store
    ``stream.position`` back into the new state.
    """

    __slots__ = ("_block_index", "_words", "position", "seed")

    def __init__(self, seed: int, position: int = 0) -> None:
        self.seed = check_seed(seed)
        self.position = position
        self._block_index = -1
        self._words: tuple[int, ...] = ()

    def next_word(self) -> int:
        """The next 64-bit word of the stream."""
        k = self.position
        b = k >> 2
        if b != self._block_index:
            digest = hashlib.sha256(self.seed.to_bytes(8, "big") + b.to_bytes(8, "big")).digest()
            self._words = _FOUR_WORDS.unpack(digest)
            self._block_index = b
        self.position = k + 1
        return self._words[k & 3]

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection of the top partial range."""
        if n <= 0:
            raise ValueError("below(n) needs n >= 1")
        limit = _LIMITS[n] if n < len(_LIMITS) else _TWO64 - (_TWO64 % n)
        while True:
            x = self.next_word()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place: for i from len-1 down to 1, swap i with below(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def shuffled(seed: int, cards: Sequence[str], position: int = 0) -> tuple[tuple[str, ...], int]:
    """Return ``(cards shuffled, new stream position)``; the input is left unchanged."""
    check_seed(seed)
    deck = list(cards)
    used = shuffle_from(seed, position, deck)
    return tuple(deck), used


def _words(seed: int, start: int, count: int) -> tuple[int, ...] | None:
    """Words ``start`` … ``start + count - 1`` of the stream, hashing each block once; None
    when some word of those blocks may lie in the top ``_SAFE_UP_TO`` of the range (the
    caller then draws one word at a time, as ``below`` may throw such a word away)."""
    first, last = start >> 2, (start + count - 1) >> 2
    # Hashing a copy of the seed's hash state skips re-hashing its 8 bytes for every block.
    copy = _sha256(seed.to_bytes(8, "big")).copy
    digests = []
    blocks = _BLOCKS[first : last + 1] if last < len(_BLOCKS) else [
        b.to_bytes(8, "big") for b in range(first, last + 1)
    ]
    for block in blocks:
        h = copy()
        h.update(block)
        digests.append(h.digest())
    data = b"".join(digests)
    # A word that high starts with seven 0xFF bytes: one search of the bytes rules all out.
    if _NEAR_TOP in data:
        return None
    blocks_read = last - first + 1
    unpack = _UNPACK[blocks_read] if blocks_read < len(_UNPACK) else struct.Struct(
        f">{blocks_read * 4}Q"
    ).unpack
    offset = start & 3
    return unpack(data)[offset : offset + count]


def shuffle_from(seed: int, position: int, items: MutableSequence[T]) -> int:
    """:meth:`Stream.shuffle` of ``items`` in place from word ``position`` (the seed already
    checked); returns the new position. The same draws, bit for bit, fetched in one batch:
    a shuffle of n cards takes n − 1 words unless ``below`` throws one away (less than once
    in 10¹⁴ shuffles may come near), and then the plain :class:`Stream` does this shuffle."""
    n = len(items)
    if n < 2:
        return position
    words = _words(seed, position, n - 1) if n <= _SAFE_UP_TO else None
    if words is None:
        stream = Stream(seed, position)
        stream.shuffle(items)
        return stream.position
    # Swap i with words[k] % (i + 1) for i = n − 1 … 1, the remainders taken in one C loop.
    i = n - 1
    for j in map(mod, words, _DOWN_FROM[n]):
        items[i], items[j] = items[j], items[i]
        i -= 1
    return position + n - 1


def daily_seed(secret: str | bytes, game: str, variant: str, day: str) -> int:
    """The seed of a daily challenge: HMAC-SHA256(secret, "<game>/<variant>/<YYYY-MM-DD>")[:8]."""
    key = secret.encode() if isinstance(secret, str) else secret
    message = f"{game}/{variant}/{day}".encode()
    return int.from_bytes(hmac.new(key, message, hashlib.sha256).digest()[:8], "big")


def commitment(seed: int) -> str:
    """SHA-256 of the seed as 8 bytes big-endian, in hex: published before the reveal."""
    return hashlib.sha256(check_seed(seed).to_bytes(8, "big")).hexdigest()
