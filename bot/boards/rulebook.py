"""The /rules text of every game, rendered for an embed from the one rules text per game.

The words live in ``rules/<key>/rules.md`` (read through :mod:`rules.rulebook`), the same
text the terminal's ``help`` prints and ``docs/games/<key>.md`` holds, so the three cannot
drift apart. Each text fits one embed description (4096 characters); a test checks it.
"""

from __future__ import annotations

from rules import GAMES
from rules.rulebook import discord_text

#: The /rules text per game key. Built at import: a game without rules text stops the bot
#: at start-up (``LookupError``) rather than at the first /rules.
RULEBOOK: dict[str, str] = {key: discord_text(key) for key in GAMES}
