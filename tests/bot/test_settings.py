"""/settings and /preferences end to end: the real bot through discord.py and simcord.

What an admin sees: the settings as they stand after every change, refusals in one calm
sentence that change nothing; what everyone else sees: no /settings at all (Discord hides it
without Manage Server and in DMs), and a refusal if a server grants it to them anyway.
"""

from __future__ import annotations

from datetime import UTC, datetime

import discord
import pytest
import simcord

from bot.cogs.settings import OptionRefused, _channel, _days, _on_off
from core.settings import GuildSettings
from tests.bot.raw import FakeDiscord
from tests.core.conftest import Clock


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 12, 14, 12, 0, tzinfo=UTC))


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


@pytest.fixture
def admin(world):
    """carol, a member whose role has Manage Server."""
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("carol"), roles=[role])


async def settings(world, actor, **options):
    result = await world.slash(actor, "settings", **options)
    assert result.ephemeral, "settings are answered only to the one who asks"
    return result.response.content


async def test_no_option_shows_the_settings_with_their_defaults(world, admin, error_logs):
    text = await settings(world, admin)
    assert "The settings of **Dungeon Hall**:" in text
    assert "- `results-channel`: not set" in text
    assert "- `min-account-age`: 0 days" in text
    assert "- `daily-post`: `on`, once a results channel is set" in text
    assert "- `pictures`: `on`" in text
    assert "Changed" not in text


async def test_each_change_is_answered_with_the_settings_as_they_now_stand(
    world, admin, error_logs
):
    results = world.guild.create_text_channel("results")
    text = await settings(world, admin, **{"results-channel": results, "min-account-age": 7})
    assert text.startswith("Changed `results-channel`, `min-account-age`.")
    assert f"- `results-channel`: <#{results.id}>" in text
    assert "- `min-account-age`: 7 days" in text
    assert f"- `daily-post`: `on` (at 01:00 UTC in <#{results.id}>)" in text
    assert text.endswith(f"Today's post (daily #14) goes out in <#{results.id}> within a minute.")
    assert await world.core.settings.guild(world.guild.id) == GuildSettings(
        results_channel=results.id, min_account_age=7, daily_post=True, pictures=True
    )

    text = await settings(world, admin, **{"daily-post": "off", "pictures": "off"})
    assert text.startswith("Changed `daily-post`, `pictures`.")
    assert f"- `results-channel`: <#{results.id}>" in text  # earlier changes stand
    assert "- `min-account-age`: 7 days" in text
    assert "- `daily-post`: `off`" in text and "- `pictures`: `off`" in text
    assert "goes out" not in text
    assert await world.core.settings.guild(world.guild.id) == GuildSettings(
        results_channel=results.id, min_account_age=7, daily_post=False, pictures=False
    )
    assert "- `min-account-age`: 1 day " in await settings(world, admin, **{"min-account-age": 1})


async def test_a_channel_the_bot_cannot_post_in_is_refused_and_nothing_changes(
    world, admin, error_logs
):
    me = world.env.bot.get_guild(world.guild.id).me
    closed = world.guild.create_text_channel(
        "closed", overwrites={me: discord.PermissionOverwrite(send_messages=False)}
    )
    text = await settings(world, admin, **{"results-channel": closed, "min-account-age": 30})
    assert text == (
        f"I cannot post in <#{closed.id}>: I need Send Messages there. Nothing was changed; "
        "give me those permissions in that channel and choose it again."
    )
    assert await world.core.settings.guild(world.guild.id) == GuildSettings()


async def test_discord_hides_settings_without_manage_server_and_in_dms(world, admin, error_logs):
    with pytest.raises(simcord.SetupError, match="default-member-permissions"):
        await world.alice.slash(world.channel, "settings")
    with pytest.raises(simcord.SetupError, match="context"):
        await admin.user.slash("settings")
    assert "settings" in admin.available_commands(world.channel)
    assert "settings" not in world.alice.available_commands(world.channel)


async def test_a_member_granted_the_command_without_manage_server_is_refused(
    world, admin, error_logs
):
    command = next(c for c in await world.env.bot.tree.fetch_commands() if c.name == "settings")
    world.guild.set_command_permissions(command, {world.bob: True})  # Integrations override
    result = await world.slash(world.bob, "settings", **{"daily-post": "off"})
    assert result.ephemeral
    assert result.response.content == (
        "Only members with the Manage Server permission can change these settings."
    )
    assert await world.core.settings.guild(world.guild.id) == GuildSettings()


async def test_settings_delivered_in_a_dm_anyway_are_refused(make_bot, error_logs):
    """A DM interaction reaching /settings (a client Discord let through, or a stale cache)
    gets a calm answer from the bot itself."""
    fake, bot = FakeDiscord(), make_bot(sync="never")
    await fake.attach(bot)
    try:
        asked = fake.command(bot, 1001, "settings", **{"daily-post": "off"})
        await fake.settle()
        answer = fake.response(asked)["data"]
        assert answer["flags"] & 64
        assert answer["content"].startswith("Server settings are changed in the server")
    finally:
        await bot.close()


async def test_preferences_show_and_change_a_players_own_choice(world, error_logs):
    result = await world.slash(world.alice, "preferences")
    assert result.ephemeral
    assert result.response.content.startswith(
        "Your preferences:\n- `pictures`: `on` (table pictures on your boards)\n"
    )
    result = await world.slash(world.alice.user, "preferences", pictures="off")  # in a DM
    assert result.ephemeral
    assert result.response.content.startswith(
        "Your preferences are now:\n- `pictures`: `off` (table pictures on your boards)\n"
    )
    assert await world.core.settings.player(world.alice.id) == {"pictures": "off"}
    assert await world.core.settings.player(world.bob.id) == {}


async def test_forged_option_values_are_refused_before_anything_is_written(world, error_logs):
    """What a modified client could send past Discord's own checks: each value is refused
    with one sentence (the command answers it as a refusal and writes nothing)."""
    guild = world.env.bot.get_guild(world.guild.id)
    voice = world.guild.create_voice_channel("voice")
    elsewhere = world.env.create_guild("Elsewhere").create_text_channel("theirs")
    for value in ("123", 123, discord.Object(voice.id), discord.Object(elsewhere.id)):
        with pytest.raises(OptionRefused, match="must be a text channel of this server"):
            _channel(guild, value)
    assert _channel(guild, discord.Object(world.channel.id)) == world.channel.id
    for value in ("7", True, 7.5, -1, 3651):
        with pytest.raises(OptionRefused, match="whole number of days from 0 to 3650"):
            _days(value)
    assert _days(0) == 0 and _days(3650) == 3650
    for value in ("yes", "ON", True, 1):
        with pytest.raises(OptionRefused, match="pictures is on or off"):
            _on_off("pictures", value)
    assert _on_off("pictures", "on") is True and _on_off("pictures", "off") is False
