"""/rules and /help: what a player reads."""

from __future__ import annotations

from typing import Any

import discord
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


def registered(world) -> dict[str, dict]:
    """The slash commands as the bot registered them with Discord (their names as shown)."""
    return {c["name"]: c for scope in world.env.backend.commands.values()
            for c in scope.values()}


async def open_topics(world, actor) -> tuple[Any, dict[str, Any]]:
    """/help, then each of its topic buttons: the introduction and each topic's embed."""
    result = await world.slash(actor, "help")
    assert result.ephemeral
    intro = result.response
    shown = {"intro": discord.Embed.from_dict(intro.embeds[0].to_dict())}
    for b in world.buttons(intro):
        if b.get("disabled"):
            continue
        clicked = await world.click(actor, intro, b["custom_id"])
        shown[b["label"]] = clicked.response.embeds[0]
    return intro, shown


async def test_help_opens_short_and_every_topic_names_its_commands(world, error_logs):
    _, topics = await open_topics(world, world.bob)
    embed = topics.pop("intro")
    for game in GAMES.values():
        assert game.title in embed.description
    assert len(embed.description) < 400 and not embed.fields  # not 1,900 px of everything
    assert set(topics) == {"Playing", "The daily", "Boards and seasons",
                           "Challenges and series"}  # bob may not manage the server
    text = "\n".join(e.description for e in topics.values())
    commands = world.bob.available_commands(world.channel)
    assert {"daily", "games", "help", "leaderboard", "play", "rules", "stats", "verify"} <= set(
        commands)
    for name in commands:  # every command bob can use is explained, once
        assert text.count(f"**/{name}**") == 1, name
    assert "**/settings**" not in text
    play = topics["Playing"].description
    assert "`game`: The game to play" in play and "`private` (optional)" in play
    # The board's tie-break is written in /help.
    assert "Equal scores share a rank" in topics["Boards and seasons"].description


async def test_help_shows_options_as_discord_does_and_no_description_cut(world, error_logs):
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    carol = world.guild.add_member(world.env.create_user("carol"), roles=[role])
    _, topics = await open_topics(world, carol)
    topics.pop("intro")
    assert "Server settings" in topics
    text = "\n".join(e.description for e in topics.values())
    for name, command in registered(world).items():
        assert f"**/{name}**: {command['description']}" in text, name
        for option in command.get("options", []):
            # The registered name (``results-channel``) and the whole description.
            assert f"`{option['name']}`" in text, (name, option["name"])
            assert option["description"] in text, (name, option["name"])
    assert "`results-channel`" in topics["Server settings"].description
    assert "results_channel" not in text
