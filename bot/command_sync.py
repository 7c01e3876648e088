"""Pushing the slash commands to Discord without taking the Activity's Entry Point away.

An app with Activities enabled has a Primary Entry Point command (type 4: the Activity's
button in Discord's app launcher), which Discord creates itself when Activities are turned on
in the Developer Portal. discord.py's ``CommandTree.sync`` is a bulk overwrite
(``PUT /applications/{id}/commands``) of exactly the tree's commands, and its
``AppCommandType`` has no type 4, so the tree can never hold that command: an overwrite
without it is refused by Discord ("You cannot remove this app's Primary Entry Point
command", error 50240) or would delete it.

:func:`overwrite` is the tree's sync with one step added for a global sync: it reads the
application's global commands first and carries every type-4 command into the overwrite as
Discord returned it (its id, so Discord keeps that command rather than making a new one, its
name, its handler, its contexts...), leaving out only the fields Discord fills in itself. Entry
Point commands are global only, so a guild sync (``DEV_GUILD_ID``) sends the tree as it is.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

#: Discord's application command type of an Activity's Entry Point.
PRIMARY_ENTRY_POINT = 4
#: What Discord fills in on a command it returns, which a command sent to it does not carry.
READ_ONLY = ("application_id", "version", "guild_id")


async def overwrite(tree: app_commands.CommandTree[Any],
                    guild: discord.abc.Snowflake | None = None) -> list[dict[str, Any]]:
    """Replace the application's commands (global, or ``guild``'s) with the tree's, keeping
    any Entry Point command of a global sync; returns the commands Discord now holds."""
    client = tree.client
    application_id = client.application_id
    if application_id is None:
        raise app_commands.MissingApplicationID
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        payload = [await command.get_translated_payload(tree, translator)
                   for command in commands]
    else:
        payload = [command.to_dict(tree) for command in commands]
    http = client.http
    try:
        if guild is not None:
            return list(await http.bulk_upsert_guild_commands(
                application_id, guild.id, payload=payload))
        kept = entry_points(await http.get_global_commands(application_id))
        for command in kept:
            log.info("Keeping the Activity's Entry Point command /%s (id %s) in the sync",
                     command.get("name"), command.get("id"))
        return list(await http.bulk_upsert_global_commands(
            application_id, payload=[*payload, *kept]))
    except discord.HTTPException as exc:
        if exc.status == 400 and exc.code == 50035:  # as the tree's sync says it
            raise app_commands.CommandSyncFailure(exc, commands) from None
        raise


def entry_points(current: list[Any]) -> list[dict[str, Any]]:
    """The Entry Point commands among the application's ``current`` commands, each as it
    goes back into an overwrite."""
    return [
        {key: value for key, value in command.items() if key not in READ_ONLY}
        for command in current
        if isinstance(command, dict) and command.get("type") == PRIMARY_ENTRY_POINT
    ]


__all__ = ["PRIMARY_ENTRY_POINT", "entry_points", "overwrite"]
