"""A raw-payload harness: the real bot fed INTERACTION_CREATE payloads directly, its answers
recorded by a fake transport. simcord refuses overlapping clicks; this harness delivers two at
once, for races, and clicks custom ids no honest client would send, for forgeries.

discord.py has two outbound seams and one inbound one (its ``http.py``, ``webhook/async_.py``
and ``state.py``):
REST goes through ``bot.http.request`` (login, command sync), interaction responses through
the ``AsyncWebhookAdapter`` found in the ``async_context`` ContextVar, and gateway events enter
through ``bot._connection.parsers``. Nothing leaves the process.

Discord's rules kept here: one response per interaction (a second one is refused with 40060),
and an update (type 7) edits the message the button is on.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from copy import deepcopy
from types import SimpleNamespace
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

APPLICATION_ID = 4_000_000_000_000_000_001
BOT_USER = {"id": "4000000000000000002", "username": "Dungeon Deck", "discriminator": "0",
            "global_name": None, "avatar": None, "bot": True}
CHANNEL_ID = 4_000_000_000_000_000_003
EPHEMERAL = 64
UPDATE_MESSAGE = 7
#: A click acknowledged, its message to be edited later (a deferral).
DEFERRED_UPDATE = 6
#: The launch-activity response (``InteractionResponse.launch_activity``): no message.
LAUNCH_ACTIVITY = 12
GUILD_ID = 4_000_000_000_000_000_004


class FakeDiscord:
    """Records what the bot sends and keeps the messages it posted."""

    def __init__(self) -> None:
        self.rest: list[tuple[str, str]] = []
        self.commands: list[dict[str, Any]] = []  # the global commands, as last synced
        self.responses: dict[int, list[dict[str, Any]]] = {}  # interaction id -> its callbacks
        self.messages: dict[int, dict[str, Any]] = {}
        self._ids = itertools.count(5_000_000_000_000_000_000)
        self._sources: dict[int, int | None] = {}  # interaction id -> clicked message id
        self._answered: dict[int, int] = {}  # interaction id -> the message its answer shows
        self.picture_edits: list[int] = []  # interactions whose message got it in an edit
        self.pictured_answers: list[int] = []  # interactions answered with a picture

    async def attach(self, bot: discord.Client) -> None:
        """Install the fakes on ``bot`` and log it in (running its ``setup_hook``)."""
        bot.http.request = self._rest  # type: ignore[method-assign]
        async_context.set(_Adapter(self))
        await bot.login("raw.fake.token")

    # ----- what a user does ------------------------------------------------------------------

    def command(self, bot: discord.Client, user_id: int, name: str, *,
                guild_id: int | None = None, **options: Any) -> int:
        """Deliver a slash command (in a DM, or a channel of ``guild_id``); returns the
        interaction id."""
        return self._deliver(bot, self.command_payload(user_id, name, guild_id=guild_id,
                                                       **options))

    def click(
        self, bot: discord.Client, user_id: int, message_id: int, custom_id: str, *,
        guild_id: int | None = None,
    ) -> int:
        """Deliver a click on the button ``custom_id`` of a message the bot posted. The
        message sent along is the one stored, with ``custom_id`` put on its first button if no
        button has it (a forged id: what a modified client could send)."""
        return self._deliver(bot, self.click_payload(user_id, message_id, custom_id,
                                                     guild_id=guild_id))

    async def settle(self, timeout: float = 5.0) -> None:
        """Wait until every task the deliveries started has finished."""
        current = asyncio.current_task()
        while pending := [t for t in asyncio.all_tasks() if t is not current and not t.done()]:
            await asyncio.wait(pending, timeout=timeout)

    def response(self, interaction_id: int) -> dict[str, Any]:
        """The one response to an interaction (fails if there were none or several)."""
        (only,) = self.responses.get(interaction_id, [])
        return only

    # ----- the transport -----------------------------------------------------------------------

    def _deliver(self, bot: discord.Client, payload: dict[str, Any]) -> int:
        bot._connection.parsers["INTERACTION_CREATE"](payload)  # type: ignore[attr-defined]
        return int(payload["id"])

    def command_payload(self, user_id: int, name: str, *, guild_id: int | None = None,
                        **options: Any) -> dict[str, Any]:
        """A slash command's INTERACTION_CREATE payload, not delivered (see :meth:`command`)."""
        data = {"id": str(next(self._ids)), "name": name, "type": 1, "options": [
            {"name": k, "type": 5 if isinstance(v, bool) else 3, "value": v}
            for k, v in options.items()
        ]}
        return self.payload(user_id, 2, data, None, guild_id)

    def click_payload(self, user_id: int, message_id: int, custom_id: str, *,
                      guild_id: int | None = None) -> dict[str, Any]:
        """A click's INTERACTION_CREATE payload, not delivered (see :meth:`click`)."""
        message = deepcopy(self.messages[message_id])
        ids = [c["custom_id"] for row in message["components"] for c in row["components"]]
        if custom_id not in ids:
            message["components"][0]["components"][0]["custom_id"] = custom_id
        return self.payload(user_id, 3, {"custom_id": custom_id, "component_type": 2}, message,
                            guild_id)

    def payload(
        self, user_id: int, kind: int, data: dict[str, Any],
        message: dict[str, Any] | None, guild_id: int | None = None,
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload (its id new; the clicked message noted, so that an
        update edits it)."""
        interaction_id = next(self._ids)
        user = {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0",
                "global_name": None, "avatar": None}
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(APPLICATION_ID), "type": kind,
            "token": f"token-{interaction_id}", "version": 1,
            "attachment_size_limit": 8 << 20, "data": data, "user": user, "context": 1,
            "channel_id": str(CHANNEL_ID), "channel": {"id": str(CHANNEL_ID), "type": 1},
            "locale": "en-US",
        }
        if guild_id is not None:  # a server's channel: the user comes as a member
            payload.update(guild_id=str(guild_id), context=0,
                           channel={"id": str(CHANNEL_ID), "type": 0, "guild_id": str(guild_id),
                                    "name": "games", "position": 0, "nsfw": False,
                                    "permission_overwrites": [], "parent_id": None},
                           member={"user": payload.pop("user"), "roles": [], "flags": 0,
                                   "joined_at": "2026-11-29T12:00:00+00:00", "deaf": False,
                                   "mute": False, "permissions": "2251799813685247"})
        if message is not None:
            payload["message"] = message
        self._sources[interaction_id] = int(message["id"]) if message else None
        return payload

    async def _rest(self, route: Any, **kwargs: Any) -> Any:
        self.rest.append((route.method, route.path))
        if route.path == "/users/@me":
            return BOT_USER
        if route.path == "/oauth2/applications/@me":
            return {"id": str(APPLICATION_ID), "name": "Dungeon Deck", "icon": None,
                    "description": "", "bot_public": True, "bot_require_code_grant": False,
                    "verify_key": "0", "flags": 0, "owner": BOT_USER}
        if route.method == "GET" and route.path.endswith("/commands"):
            return deepcopy(self.commands)
        if route.method == "PUT" and route.path.endswith("/commands"):
            self.commands = [dict(c, id=str(next(self._ids)), application_id=str(APPLICATION_ID),
                                  version="1") for c in kwargs.get("json", [])]
            return deepcopy(self.commands)
        raise AssertionError(f"unexpected REST call {route.method} {route.path}")

    def _edit_original(self, token: str, files: list[Any],
                       payload: dict[str, Any] | None = None) -> dict[str, Any]:
        interaction_id = int(token.removeprefix("token-"))
        message = self.messages[self._answered[interaction_id]]
        edited = {k: payload[k] for k in ("content", "embeds", "components")
                  if k in (payload or {})}
        if edited:  # the answer after a deferral: its text, embeds and buttons
            message.update(edited)
            if not files:
                return deepcopy(message)
        self.picture_edits.append(interaction_id)
        message["attachments"] = [
            {"id": str(next(self._ids)), "filename": f.filename, "size": 0, "url": "",
             "proxy_url": ""} for f in files
        ]
        return deepcopy(message)

    def _callback(self, interaction_id: int, payload: dict[str, Any],
                  files: list[Any] | None = None) -> dict[str, Any]:
        done = self.responses.setdefault(interaction_id, [])
        done.append(payload)
        if len(done) > 1:
            raise discord.HTTPException(
                SimpleNamespace(status=400, reason="Bad Request"),
                {"code": 40060, "message": "Interaction has already been acknowledged."},
            )
        kind, data = payload["type"], payload.get("data") or {}
        if kind == LAUNCH_ACTIVITY:  # Discord opens the Activity: no message
            return {"interaction": {"id": str(interaction_id), "type": 3,
                                    "activity_instance_id": "i-1",
                                    "response_message_id": None,
                                    "response_message_loading": False,
                                    "response_message_ephemeral": False},
                    "resource": {"type": kind, "activity_instance": {"id": "i-1"}}}
        if kind in (UPDATE_MESSAGE, DEFERRED_UPDATE):  # the clicked message (later edited)
            message = self.messages[self._sources[interaction_id]]  # type: ignore[index]
            message.update({k: data[k] for k in ("content", "embeds", "components") if k in data})
        else:
            message = {
                "id": str(next(self._ids)), "channel_id": str(CHANNEL_ID), "author": BOT_USER,
                "content": data.get("content") or "", "embeds": data.get("embeds", []),
                "components": data.get("components", []), "flags": data.get("flags", 0),
                "type": 20, "tts": False, "mention_everyone": False, "mentions": [],
                "mention_roles": [], "attachments": [], "pinned": False,
                "timestamp": "2026-11-29T12:00:00+00:00", "edited_timestamp": None,
            }
            self.messages[int(message["id"])] = message
        if files:  # the table picture, in the answer itself
            self.pictured_answers.append(interaction_id)
            message["attachments"] = [
                {"id": str(next(self._ids)), "filename": f.filename, "size": 0, "url": "",
                 "proxy_url": ""} for f in files
            ]
        elif "attachments" in data:
            message["attachments"] = data["attachments"]
        self._answered[interaction_id] = int(message["id"])
        return {
            "interaction": {"id": str(interaction_id), "type": 3,
                            "response_message_id": message["id"],
                            "response_message_loading": False,
                            "response_message_ephemeral": bool(message["flags"] & EPHEMERAL)},
            "resource": {"type": kind, "message": deepcopy(message)},
        }


class _Adapter(AsyncWebhookAdapter):
    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__()
        self.fake = fake

    async def request(self, route: Any, session: Any, *, payload: Any = None,
                      **kwargs: Any) -> Any:
        if route.path == "/webhooks/{webhook_id}/{webhook_token}/messages/@original":
            # The table picture, attached to the answered message after the click, or the
            # answer after a deferral.
            if payload is None and kwargs.get("multipart"):
                (form,) = [f for f in kwargs["multipart"] if f["name"] == "payload_json"]
                payload = json.loads(form["value"])
            return self.fake._edit_original(route.webhook_token, kwargs.get("files") or [],
                                            payload)
        if route.path != "/interactions/{webhook_id}/{webhook_token}/callback":
            raise AssertionError(f"unexpected webhook call {route.method} {route.path}")
        if payload is None and kwargs.get("multipart"):  # an answer with files: a form
            (form,) = [f for f in kwargs["multipart"] if f["name"] == "payload_json"]
            payload = json.loads(form["value"])
        return self.fake._callback(int(route.webhook_id), payload, kwargs.get("files"))
