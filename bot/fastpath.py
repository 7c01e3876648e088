"""The cheap path of a click on one of the bot's own buttons (a ``dd`` custom id).

discord.py pays twice per click for the clicked message, which on a board is an embed and up
to 16 buttons: ``Interaction`` builds a full ``Message`` from the payload's copy of it (its
embed, its components, its interaction metadata), and ``edit_message`` asks Discord to send
the edited message back (``with_response``) and builds a second ``Message`` from that. The
handlers read neither: of the clicked message they use its id, its flags (ephemeral or not)
and its attachments (a picture to take off); of the answer, nothing.

:func:`install` puts a parser in front of discord.py's INTERACTION_CREATE parser. For a
component click with a ``dd`` id it builds the same ``discord.Interaction`` (a subclass,
:class:`ClickInteraction`) from the payload with the clicked message cut down to what the
handlers read, hands it to discord.py's view store as discord.py does, and dispatches
``on_interaction``: the router, the handlers, the presenter and every guarantee (one answer,
refusals, error ids, logs) are the ones every other click goes through. Its ``response`` is a
:class:`ClickResponse`, whose ``edit_message`` posts the same callback through discord.py's
own webhook adapter without ``with_response`` (Discord answers 204, nothing to parse). Every
other interaction takes discord.py's path untouched.

A new board (``/play``, ``/daily``, a board's Again or Show) is answered by
:func:`send_message` the same way: the callback discord.py's ``send_message`` would post,
without asking for the posted message back (which discord.py would parse into a ``Message``
nobody reads).

The private discord.py pieces this relies on are listed in :data:`PRIVATE` and checked by
``tests/bot/test_fastpath.py``, so a discord.py release that moves one fails a test rather
than a click.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord
import orjson
from discord import utils
from discord.http import Route
from discord.utils import MISSING
from discord.webhook.async_ import (
    AsyncWebhookAdapter,
    async_context,
    interaction_message_response_params,
)

from bot.callbacks import JSON, form

#: The clicked message's keys the handlers (and ``discord.Message``) need; the rest (embeds,
#: components, interaction metadata, mentions) is dropped before discord.py parses it.
MESSAGE_KEYS = ("id", "channel_id", "type", "flags", "attachments", "author", "timestamp",
                "edited_timestamp", "webhook_id", "application_id", "pinned", "tts")

#: The private discord.py names this module uses (checked by a test on every release).
PRIVATE = (
    "ConnectionState.parsers['INTERACTION_CREATE']",
    "ConnectionState._view_store.dispatch_view(component_type, custom_id, interaction)",
    "Client._connection",
    "Interaction(data=..., state=...)",
    "Interaction._cs_response (cached_slot_property)",
    "Interaction._session, ._state, .token, .id",
    "InteractionResponse._parent, ._response_type",
    "webhook.async_.async_context.get().request(route, session=..., payload=..., files=..., "
    "multipart=..., proxy=..., proxy_auth=...)",
    "webhook.async_.interaction_message_response_params(...)",
    "MessageFlags._from_value(value)",
    "HTTPClient.proxy, .user_agent",
    "MultipartParameters.multipart: [{name, value, filename?, content_type?}]",
)

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


def is_our_click(data: dict[str, Any]) -> bool:
    """Whether an INTERACTION_CREATE payload is a component click on a ``dd`` button."""
    if data.get("type") != discord.InteractionType.component.value:
        return False
    inner = data.get("data") or {}
    custom_id = inner.get("custom_id")
    return isinstance(custom_id, str) and custom_id.startswith("dd")


def slim_message(message: dict[str, Any]) -> dict[str, Any]:
    """The clicked message as the handlers read it (see :data:`MESSAGE_KEYS`)."""
    slim = {key: message[key] for key in MESSAGE_KEYS if key in message}
    slim.update(content="", embeds=[], components=[])  # present, so every attribute exists
    return slim


class ClickResponse(discord.InteractionResponse[Any]):
    """discord.py's response, whose ``edit_message`` does not ask for the edited message back.

    Anything it does not handle the same way (a view discord.py would store, ``delete_after``,
    ``suppress_embeds``) goes to discord.py's own ``edit_message``.
    """

    __slots__ = ()

    async def edit_message(  # type: ignore[override]
        self,
        *,
        content: Any = MISSING,
        embed: Any = MISSING,
        embeds: Sequence[discord.Embed] = MISSING,
        attachments: Sequence[discord.Attachment | discord.File] = MISSING,
        view: discord.ui.View | None = MISSING,
        allowed_mentions: discord.AllowedMentions | None = MISSING,
        delete_after: float | None = None,
        suppress_embeds: bool = MISSING,
    ) -> None:
        parent = self._parent
        if (delete_after is not None or suppress_embeds is not MISSING
                or (view and not view.is_finished() and view.is_dispatchable())):
            await super().edit_message(
                content=content, embed=embed, embeds=embeds, attachments=attachments,
                view=view, allowed_mentions=allowed_mentions, delete_after=delete_after,
                suppress_embeds=suppress_embeds)
            return
        if self._response_type:
            raise discord.InteractionResponded(parent)
        state = parent._state
        if view is not MISSING and parent.message is not None:
            state.prevent_view_updates_for(parent.message.id)
        params = interaction_message_response_params(
            type=discord.InteractionResponseType.message_update.value,
            content=content, embed=embed, embeds=embeds, view=view, attachments=attachments,
            previous_allowed_mentions=state.allowed_mentions, allowed_mentions=allowed_mentions,
        )
        await _callback(parent, params)
        self._response_type = discord.InteractionResponseType.message_update


async def send_message(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embed: discord.Embed = MISSING,
    file: discord.File = MISSING,
    view: discord.ui.View = MISSING,
    ephemeral: bool = False,
    allowed_mentions: discord.AllowedMentions = MISSING,
) -> None:
    """``interaction.response.send_message`` without asking for the sent message back: what
    the presenter answers a start with (``/play``, ``/daily``, a board's Again or Show). A
    view discord.py would store goes to discord.py's own ``send_message``."""
    response = interaction.response
    if view and not view.is_finished():
        await response.send_message(content, embed=embed, file=file, view=view,
                                    ephemeral=ephemeral, allowed_mentions=allowed_mentions)
        return
    if response._response_type:
        raise discord.InteractionResponded(interaction)
    flags: discord.MessageFlags = MISSING
    if ephemeral:
        flags = discord.MessageFlags._from_value(0)
        flags.ephemeral = True
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.channel_message.value,
        content=content, embed=embed, file=file, view=view, flags=flags,
        previous_allowed_mentions=interaction._state.allowed_mentions,
        allowed_mentions=allowed_mentions,
    )
    await _callback(interaction, params)
    response._response_type = discord.InteractionResponseType.channel_message


async def _callback(interaction: discord.Interaction[Any], params: Any) -> None:
    """POST an interaction's callback without ``with_response`` (Discord answers 204, nothing
    to parse): on the bot's kept connections (:mod:`bot.callbacks`) when it has them and the
    callback is plain JSON, else, or when that does not come back 2xx, through discord.py's
    webhook adapter (its rate limits, retries and errors). An adapter of another kind in this
    context (a harness's, or one that answers in an HTTP response) always gets it."""
    http = interaction._state.http
    route = Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
    adapter = async_context.get()
    callbacks = getattr(interaction.client, "callbacks", None)
    if callbacks is not None and type(adapter) is AsyncWebhookAdapter and http.proxy is None:
        body: tuple[bytes, str] | None = None
        if params.payload is not None and not params.files:
            body = orjson.dumps(params.payload), JSON
        elif params.multipart:
            body = form(params.multipart)  # a table picture with its board
        if body is not None and await callbacks.post(route.url, *body, webhook_id=interaction.id):
            return
    await adapter.request(
        route, session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth,
        payload=params.payload, files=params.files, multipart=params.multipart,
    )


class ClickInteraction(discord.Interaction[Any]):
    """A ``discord.Interaction`` whose response is a :class:`ClickResponse`."""

    __slots__ = ()

    @utils.cached_slot_property("_cs_response")
    def response(self) -> ClickResponse:  # type: ignore[override]
        return ClickResponse(self)


def install(client: discord.Client) -> Callable[[dict[str, Any]], None]:
    """Put the cheap parser in front of discord.py's INTERACTION_CREATE parser; returns
    discord.py's (what every other interaction still goes through)."""
    state = client._connection
    original: Callable[[dict[str, Any]], None] = state.parsers["INTERACTION_CREATE"]

    def parse_interaction_create(data: dict[str, Any]) -> None:
        if not is_our_click(data):
            original(data)
            return
        message = data.get("message")
        if isinstance(message, dict):
            data = {**data, "message": slim_message(message)}
        interaction = ClickInteraction(data=data, state=state)  # type: ignore[arg-type]
        inner = data["data"]
        # As discord.py does: no view of ours is ever stored, but the store is its to ask.
        state._view_store.dispatch_view(inner["component_type"], inner["custom_id"],
                                        interaction)
        state.dispatch("interaction", interaction)

    state.parsers["INTERACTION_CREATE"] = parse_interaction_create
    return original


__all__ = ["MESSAGE_KEYS", "PRIVATE", "ClickInteraction", "ClickResponse", "install",
           "is_our_click", "send_message", "slim_message"]
