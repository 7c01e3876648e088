"""The /rules text of every game, rendered for an embed from the one rules text per game and
language.

The words live in ``rules/<key>/rules.md`` and ``rules/<key>/rules.<code>.md`` (read through
:mod:`rules.rulebook`), the same texts the terminal's ``help`` prints and ``docs/games/`` holds,
so they cannot drift apart. Each text fits one embed description (4096 characters); a test
checks it.
"""

from __future__ import annotations

from functools import cache

from rules import GAMES
from rules.rulebook import discord_text, language

#: The English /rules text per game key. Built at import: a game without rules text stops the
#: bot at start-up (``LookupError``) rather than at the first /rules.
RULEBOOK: dict[str, str] = {key: discord_text(key) for key in GAMES}


@cache
def rulebook(key: str, lang: str = "en") -> tuple[str, str]:
    """The /rules text of game ``key`` for a reader of ``lang``: ``(code, text)``, ``code``
    being the language the text is written in (English when ``lang`` has none)."""
    code = language(key, lang)
    return code, discord_text(key, code)
