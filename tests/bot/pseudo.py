"""What a screen drawn in the pseudo-locale (``en-XA``) may still show in plain English: the
check every pseudo-locale test shares. A string the code forgot to mark or to translate stays
plain English there; everything translated is accented and bracketed."""

from __future__ import annotations

import re

#: Words of the slice's screens that may stay as they are in any language: the games' and the
#: bot's names, and command or option names (which stay English).
KEPT = {"dungeon", "deck", "donsol", "tomb", "of", "four", "kings", "clear", "the", "scoundrel"}


def english_words(text: str) -> list[str]:
    """Plain ASCII words left outside code spans, mentions and timestamps."""
    # Code spans, mentions and timestamps, and commands (``/daily``, ``**/stats**``): the same
    # in every language.
    text = re.sub(r"`[^`]*`|<[^<>]*>|\*\*/[a-z-]+\*\*|(?<![\w/])/[a-z][a-z-]*\b", " ", text)
    return [w for w in re.findall(r"\b[A-Za-z]{3,}\b", text) if w.lower() not in KEPT]
