"""The command sync keeps the Activity's Entry Point command (``bot.command_sync``).

Against the stand-in for Discord of ``bench/_standin`` (an aiohttp server on 127.0.0.1, which
discord.py's own HTTP code talks to), which keeps Discord's rule: once Activities are turned
on, the app has a Primary Entry Point command (type 4), and a bulk overwrite that leaves it
out is refused (error 50240). discord.py's own ``tree.sync`` is refused there; the bot's
sync is not, keeps the command as it was (same id, same handler), and still syncs only when
the bot's own commands changed.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from bench._standin.server import StandIn
from bot.command_sync import PRIMARY_ENTRY_POINT, entry_points

TOKEN = "MTIzNDU2Nzg5.stand-in-token.entry-point"


@pytest.fixture
async def standin(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[StandIn]:
    async with StandIn(token=TOKEN) as discord_standin:
        monkeypatch.setattr(discord.http.Route, "BASE", f"{discord_standin.base_url}/api/v10")
        yield discord_standin


async def logged_in(make_bot: Any, **options: Any) -> Any:
    """A bot logged in to the stand-in (its setup hook has synced, or not)."""
    bot = make_bot(**options)
    await bot.login(TOKEN)
    return bot


def puts(standin: StandIn) -> int:
    return sum(1 for _, method, path, _ in standin.rest_log
               if method == "PUT" and path.endswith("/commands"))


async def test_discord_py_alone_is_refused_once_the_activity_has_its_entry_point(
        standin, make_bot):
    """What the bot's sync guards against: the stand-in refuses the tree's own overwrite."""
    bot = await logged_in(make_bot, sync="never")
    standin.enable_activity()
    with pytest.raises(discord.HTTPException) as refused:
        await bot.tree.sync()
    assert refused.value.code == 50240
    await bot.close()


async def test_the_sync_keeps_the_entry_point_as_discord_made_it(standin, make_bot, caplog):
    caplog.set_level(logging.INFO, logger="bot.command_sync")
    made = standin.enable_activity()
    bot = await logged_in(make_bot, embedded_activity=True)
    assert puts(standin) == 1
    kept = standin.commands["launch"]
    assert {k: kept[k] for k in ("id", "type", "handler", "contexts", "integration_types")} == {
        k: made[k] for k in ("id", "type", "handler", "contexts", "integration_types")}
    assert {"play", "daily", "table"} <= set(standin.commands)
    assert "Keeping the Activity's Entry Point command /launch" in caplog.text
    await bot.close()

    # Unchanged commands: no sync at all, the entry point untouched.
    again = await logged_in(make_bot, embedded_activity=True)
    assert puts(standin) == 1
    await again.close()

    # Changed commands (the Activity turned off: no /table): a sync, the entry point kept.
    off = await logged_in(make_bot)
    assert puts(standin) == 2
    assert "table" not in standin.commands
    assert standin.commands["launch"]["id"] == made["id"]
    assert standin.unexpected == []
    await off.close()


async def test_a_guild_sync_sends_only_the_tree(standin, make_bot):
    """Entry Point commands are global: a DEV_GUILD_ID sync reads nothing first."""
    bot = await logged_in(make_bot, dev_guild_id=123)
    gets = [path for _, method, path, _ in standin.rest_log
            if method == "GET" and path.endswith("/commands")]
    assert gets == [] and puts(standin) == 1
    await bot.close()


def test_only_type_4_commands_are_carried_without_what_discord_fills_in():
    current = [
        {"id": "1", "application_id": "9", "version": "3", "name": "play", "type": 1},
        {"id": "2", "application_id": "9", "version": "4", "name": "launch", "type": 4,
         "handler": 2, "description": "", "contexts": [0, 1, 2]},
    ]
    assert entry_points(current) == [
        {"id": "2", "name": "launch", "type": PRIMARY_ENTRY_POINT, "handler": 2,
         "description": "", "contexts": [0, 1, 2]}]
    assert entry_points([]) == []
