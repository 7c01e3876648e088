"""/rules and /help: what a player reads."""

from __future__ import annotations

import pytest

from bot.boards.rulebook import RULEBOOK
from rules import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_rules_shows_the_games_rulebook_privately(world, error_logs, game):
    result = await world.slash(world.alice, "rules", game=game)
    assert result.ephemeral
    (embed,) = result.response.embeds
    assert embed.title == f"{GAMES[game].title}: the rules"
    assert embed.description == RULEBOOK[game]


async def test_help_names_every_command_and_game(world, error_logs):
    result = await world.slash(world.alice, "help")
    assert result.ephemeral
    (embed,) = result.response.embeds
    for game in GAMES.values():
        assert game.title in embed.description
    commands = world.alice.available_commands(world.channel)
    assert {"daily", "games", "help", "leaderboard", "play", "rules", "stats", "verify"} <= set(
        commands
    )
    # Every command a player can use is explained (the admin's /settings too).
    assert {f"/{c}" for c in commands} <= {f.name for f in embed.fields}
    play = next(f.value for f in embed.fields if f.name == "/play")
    assert "`game`: The game to play" in play and "`private` (optional)" in play
    # The board's tie-break is written in /help.
    assert "Equal scores share a rank" in embed.description
