"""The browser table's words (``web/words.py``) and the keys the client reads
(``web/client/src/words.ts``) are the same set, and every key is used by the client's code:
a word added on one side only, or left behind when the page stops showing it, fails here
(a missing word would show the page its key; a stale one costs every language a
translation nobody reads)."""

from __future__ import annotations

import re
from pathlib import Path

from web.words import WORDS

CLIENT = Path(__file__).resolve().parents[2] / "web" / "client" / "src"
#: Keys the client builds from a value (``phase_${view.phase}``): their prefixes.
BUILT = ("phase_",)


def client_keys() -> list[str]:
    source = (CLIENT / "words.ts").read_text(encoding="utf-8")
    listed = source[source.index("WORD_KEYS"):source.index("] as const")]
    return re.findall(r'"(\w+)"', listed)


def test_the_server_sends_exactly_the_words_the_client_reads() -> None:
    keys = client_keys()
    assert len(keys) == len(set(keys)), "a key listed twice in words.ts"
    assert set(keys) == set(WORDS), (
        f"only in web/words.py: {sorted(set(WORDS) - set(keys))}; "
        f"only in words.ts: {sorted(set(keys) - set(WORDS))}")


def test_every_word_is_shown_somewhere_by_the_client() -> None:
    code = "\n".join(path.read_text(encoding="utf-8") for path in CLIENT.rglob("*.ts")
                     if path.name != "words.ts")
    unused = [key for key in WORDS
              if f'"{key}"' not in code and not key.startswith(BUILT)]
    assert not unused, f"words the client never shows: {unused}"
