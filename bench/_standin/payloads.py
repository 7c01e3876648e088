"""The Discord objects the stand-in sends: its bot user, application, guild, and the
INTERACTION_CREATE payloads of slash commands and button clicks.

Only the fields discord.py 2.7 reads are filled in (``Interaction._from_data`` needs ``id``,
``application_id``, ``type``, ``token``, ``version`` and ``attachment_size_limit``; a guild
member needs ``roles``, ``joined_at`` and ``flags``; a click needs the whole message it is on).
"""

from __future__ import annotations

from typing import Any

import orjson

APPLICATION_ID = 7_100_000_000_000_000_001
BOT_ID = 7_100_000_000_000_000_002
GUILD_ID = 7_100_000_000_000_000_003
CHANNEL_ID = 7_100_000_000_000_000_004
TIMESTAMP = "2026-11-30T12:00:00+00:00"
EPHEMERAL = 64

#: Interaction types and the callback types the stand-in understands.
APPLICATION_COMMAND, MESSAGE_COMPONENT = 2, 3
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL = 4, 5, 6, 7, 9

#: Option types of slash commands (Discord's numbering).
OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN, OPTION_NUMBER = 3, 4, 5, 10


def user(user_id: int, *, bot: bool = False) -> dict[str, Any]:
    name = "Dungeon Deck" if bot else f"player{user_id}"
    return {"id": str(user_id), "username": name, "discriminator": "0",
            "global_name": None, "avatar": None, "bot": bot}


BOT_USER = user(BOT_ID, bot=True)


def application() -> dict[str, Any]:
    return {"id": str(APPLICATION_ID), "name": "Dungeon Deck", "icon": None,
            "description": "", "bot_public": True, "bot_require_code_grant": False,
            "verify_key": "0" * 64, "flags": 0, "owner": BOT_USER, "bot": BOT_USER}


def member(user_id: int) -> dict[str, Any]:
    return {"user": user(user_id), "roles": [], "joined_at": TIMESTAMP, "flags": 0,
            "deaf": False, "mute": False, "nick": None, "permissions": "2251799813685247"}


def channel() -> dict[str, Any]:
    return {"id": str(CHANNEL_ID), "type": 0, "guild_id": str(GUILD_ID), "name": "games",
            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None}


def guild() -> dict[str, Any]:
    """The one guild, as GUILD_CREATE sends it."""
    return {
        "id": str(GUILD_ID), "name": "Stand-in guild", "icon": None, "owner_id": "1",
        "afk_channel_id": None, "afk_timeout": 300, "verification_level": 0,
        "default_message_notifications": 0, "explicit_content_filter": 0,
        "roles": [{"id": str(GUILD_ID), "name": "@everyone", "color": 0, "hoist": False,
                   "position": 0, "permissions": "2251799813685247", "managed": False,
                   "mentionable": False, "flags": 0}],
        "emojis": [], "stickers": [], "features": [], "mfa_level": 0, "system_channel_id": None,
        "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None,
        "description": None, "banner": None, "premium_tier": 0, "preferred_locale": "en-US",
        "public_updates_channel_id": None, "nsfw_level": 0, "premium_progress_bar_enabled": False,
        "large": False, "unavailable": False, "member_count": 2, "joined_at": TIMESTAMP,
        "members": [member(BOT_ID) | {"user": BOT_USER}], "channels": [channel()],
        "threads": [], "voice_states": [], "presences": [], "stage_instances": [],
        "guild_scheduled_events": [], "soundboard_sounds": [],
    }


def ready(session_id: str, resume_url: str) -> dict[str, Any]:
    return {"v": 10, "user": BOT_USER, "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "session_id": session_id, "resume_gateway_url": resume_url,
            "application": {"id": str(APPLICATION_ID), "flags": 0}, "private_channels": [],
            "relationships": []}


def interaction(
    interaction_id: int, token: str, kind: int, user_id: int, data: dict[str, Any],
    message: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An INTERACTION_CREATE payload from ``user_id`` in the guild's channel."""
    payload: dict[str, Any] = {
        "id": str(interaction_id), "application_id": str(APPLICATION_ID), "type": kind,
        "token": token, "version": 1, "attachment_size_limit": 8 << 20, "data": data,
        "guild_id": str(GUILD_ID), "guild": {"id": str(GUILD_ID), "locale": "en-US",
                                              "features": []},
        "member": member(user_id), "channel_id": str(CHANNEL_ID), "channel": channel(),
        "app_permissions": "2251799813685247", "locale": "en-US", "guild_locale": "en-US",
        "entitlements": [], "context": 0,
        "authorizing_integration_owners": {"0": str(GUILD_ID)},
    }
    if message is not None:
        payload["message"] = message
    return payload


def message(
    message_id: int, data: dict[str, Any], *, interaction_id: int | None = None,
    user_id: int | None = None,
) -> dict[str, Any]:
    """A message the bot posted, from the ``data`` of its callback or webhook call."""
    msg: dict[str, Any] = {
        "id": str(message_id), "channel_id": str(CHANNEL_ID), "guild_id": str(GUILD_ID),
        "author": BOT_USER, "content": data.get("content") or "",
        "embeds": data.get("embeds") or [], "components": data.get("components") or [],
        "flags": int(data.get("flags") or 0), "type": 20 if interaction_id else 0, "tts": False,
        "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
        "pinned": False, "timestamp": TIMESTAMP, "edited_timestamp": None,
    }
    if interaction_id is not None and user_id is not None:
        msg["interaction_metadata"] = {"id": str(interaction_id), "type": 2,
                                       "user": user(user_id),
                                       "authorizing_integration_owners": {}}
    return msg


def buttons(msg: dict[str, Any]) -> list[dict[str, Any]]:
    """Every button on a message, row by row (type 2 components in action rows)."""
    found: list[dict[str, Any]] = []
    stack = list(reversed(msg.get("components") or []))
    while stack:
        component = stack.pop()
        if component.get("type") == 2:
            found.append(component)
        stack.extend(reversed(component.get("components") or []))
    return found


def copied(msg: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a JSON message (through orjson: several times quicker than deepcopy)."""
    return orjson.loads(orjson.dumps(msg))  # type: ignore[no-any-return]
