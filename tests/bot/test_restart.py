"""Restarts lose nothing: old boards keep working, and commands are synced only when changed."""

from __future__ import annotations

import logging

import discord

from bot.client import PERMISSIONS

DEV_GUILD = 1_111_111_111_111_111_111


def command_syncs(env, where: str = "/commands"):
    """The bot's PUTs of its slash commands, in order."""
    return [r.path for r in env.http_requests if r.method == "PUT" and r.path.endswith(where)]


async def test_a_board_from_before_a_restart_keeps_working(world, make_bot, error_logs):
    board = await world.play(world.alice, "donsol")
    board = (await world.click(world.alice, board, world.moves(board)[0]["custom_id"])).response
    (run,) = await world.core.runs.unfinished(world.alice.id)
    played = await world.core.runs.moves(run.id)
    old_bot = world.env.bot

    await world.env.restart_bot(make_bot())

    assert world.env.bot is not old_bot
    button = world.moves(world.message(board))[0]
    result = await world.click(world.alice, board, button["custom_id"])
    action = button["custom_id"].split(":", 3)[3]
    assert await world.core.runs.moves(run.id) == [*played, action]
    assert (await world.core.runs.get(run.id)).moves == 2
    assert "move 2" in result.response.embeds[0].footer.text
    assert len(command_syncs(world.env)) == 1, "unchanged commands are not synced again"


async def test_changed_commands_are_synced_again_and_sync_forces_it(world, make_bot, error_logs):
    assert len(command_syncs(world.env)) == 1
    changed = make_bot()

    @changed.tree.command(name="ping", description="A command added in a new release")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    await world.env.restart_bot(changed)
    assert len(command_syncs(world.env)) == 2
    assert "ping" in world.alice.available_commands(world.channel)

    await world.env.restart_bot(make_bot())  # back to the old definitions: changed again
    assert len(command_syncs(world.env)) == 3
    await world.env.restart_bot(make_bot())
    assert len(command_syncs(world.env)) == 3
    await world.env.restart_bot(make_bot(sync="force"))  # what `python -m bot sync` does
    assert len(command_syncs(world.env)) == 4


async def test_the_invite_link_is_logged_with_scopes_and_permissions(
    world, make_bot, caplog, error_logs
):
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await world.env.restart_bot(make_bot())
    app_id = world.env.bot.application_id
    links = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Invite link")]
    assert links == [
        "Invite link: https://discord.com/oauth2/authorize"
        f"?client_id={app_id}&scope=bot+applications.commands&permissions={PERMISSIONS.value}"
    ]
    assert PERMISSIONS.value == 1024 + 2048 + 16384  # View Channel, Send Messages, Embed Links


async def test_a_dev_guild_gets_the_commands_at_once(simcord_env, make_bot, error_logs):
    guild = simcord_env.create_guild("Dev", id=DEV_GUILD)
    channel = guild.create_text_channel("dev")
    dave = guild.add_member(simcord_env.create_user("dave"))
    await simcord_env.restart_bot(make_bot(dev_guild_id=DEV_GUILD))

    assert command_syncs(simcord_env, f"/guilds/{DEV_GUILD}/commands")
    result = await dave.slash(channel, "play", game="donsol")
    assert result.acknowledged and result.response.embeds[0].title.startswith("Donsol")
