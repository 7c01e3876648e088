"""The game and variant choices of the slash commands, built from ``rules.GAMES``."""

from __future__ import annotations

from discord import app_commands

from rules import GAMES

#: Discord shows at most 25 choices per option.
MAX_CHOICES = 25

GAME_CHOICES = [app_commands.Choice(name=game.title, value=key) for key, game in GAMES.items()]


def _variant_choices() -> list[app_commands.Choice[str]]:
    """Every variant of every game, once, naming the games that have it."""
    games_of: dict[str, list[str]] = {}
    for game in GAMES.values():
        for variant in game.variants:
            games_of.setdefault(variant, []).append(game.title)
    return [
        app_commands.Choice(name=f"{variant} ({', '.join(titles)})"[:100], value=variant)
        for variant, titles in games_of.items()
    ][:MAX_CHOICES]


VARIANT_CHOICES = _variant_choices()
