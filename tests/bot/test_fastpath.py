"""The cheap path of a click on the bot's own buttons (``bot.fastpath``), through raw payloads.

A ``dd`` click reaches the router as a real ``discord.Interaction`` built from the payload with
the clicked board cut down to what the handlers read, and its board is answered without asking
Discord to send the edited message back; everything else takes discord.py's own path. The
private discord.py pieces it relies on are checked here by name and signature, so a discord.py
release that moves one fails this file rather than a player's click.
"""

from __future__ import annotations

import inspect
import io
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.state import ConnectionState
from discord.webhook.async_ import (
    AsyncWebhookAdapter,
    async_context,
    interaction_message_response_params,
)

from bot import fastpath
from bot.buttons import GARBLED, ButtonRows, PlainButton
from tests.bot.raw import EPHEMERAL, UPDATE_MESSAGE, FakeDiscord

ALICE, BOB = 1001, 1002


@pytest.fixture
async def raw(make_bot) -> AsyncIterator[tuple[FakeDiscord, Any, list[Any], list[Any]]]:
    """The bot on the raw harness; the interactions it dispatched and the callbacks' query
    parameters (``None``: none), in order."""
    fake = FakeDiscord()
    bot = make_bot()
    await fake.attach(bot)
    seen: list[discord.Interaction[Any]] = []

    async def note(interaction: discord.Interaction[Any]) -> None:
        seen.append(interaction)

    bot.add_listener(note, "on_interaction")
    adapter = async_context.get()
    queries: list[Any] = []
    request = adapter.request

    async def recording(route: Any, session: Any, **kwargs: Any) -> Any:
        if route.path.endswith("/callback"):
            queries.append(kwargs.get("params"))
        return await request(route, session, **kwargs)

    adapter.request = recording  # type: ignore[method-assign]
    yield fake, bot, seen, queries
    await fake.settle()
    await bot.http.close()


async def start(fake: FakeDiscord, bot: Any, **options: Any) -> int:
    asked = fake.command(bot, ALICE, "play", game="donsol", **options)
    await fake.settle()
    assert fake.response(asked)["type"] == 4
    return list(fake.messages)[-1]


def moves(fake: FakeDiscord, message_id: int) -> list[str]:
    return [c["custom_id"] for row in fake.messages[message_id]["components"]
            for c in row["components"] if c["custom_id"].startswith("dd.m:")]


async def test_a_move_is_answered_without_the_board_parsed_or_sent_back(raw) -> None:
    fake, bot, seen, queries = raw
    board = await start(fake, bot)
    before = fake.messages[board]["embeds"][0]["description"]
    clicked = fake.click(bot, ALICE, board, moves(fake, board)[0])
    await fake.settle()
    answer = fake.response(clicked)
    assert answer["type"] == UPDATE_MESSAGE
    assert answer["data"]["embeds"][0]["description"] != before  # the move was played
    (run,) = await bot.core.runs.unfinished(ALICE)
    assert run.version > 0
    interaction = seen[-1]
    assert isinstance(interaction, fastpath.ClickInteraction)
    assert interaction.message is not None and interaction.message.id == board
    assert interaction.message.embeds == [] and interaction.message.components == []
    # Neither /play's board nor the click's answer was asked back.
    assert queries == [None, None]
    with pytest.raises(discord.InteractionResponded):  # still one answer per interaction
        await interaction.response.edit_message(content="again")


async def test_refusals_and_private_boards_on_the_fast_path(raw) -> None:
    fake, bot, seen, _ = raw
    board = await start(fake, bot, private=True)
    assert fake.messages[board]["flags"] & EPHEMERAL
    move = moves(fake, board)[0]
    other = fake.click(bot, BOB, board, move)
    forged = fake.click(bot, ALICE, board, "dd.zz:nothing")
    await fake.settle()
    assert fake.response(other)["data"]["content"].startswith("This run belongs to <@1001>")
    assert fake.response(forged)["data"]["content"] == GARBLED
    assert all(r["data"]["flags"] & EPHEMERAL for r in (fake.response(other),
                                                        fake.response(forged)))
    assert seen[-1].message is not None and seen[-1].message.flags.ephemeral


async def test_other_interactions_take_discord_py_s_path(raw) -> None:
    fake, bot, seen, queries = raw
    board = await start(fake, bot)
    foreign = fake.click(bot, ALICE, board, "someone-else:1")
    await fake.settle()
    assert fake.responses.get(foreign) is None  # not ours: no answer from this bot
    assert [type(i) for i in seen] == [discord.Interaction, discord.Interaction]
    assert seen[-1].message is not None and seen[-1].message.embeds  # parsed in full
    assert queries == [None]  # /play's board


async def test_a_daily_s_board_is_not_asked_back_either(raw) -> None:
    fake, bot, _, queries = raw
    asked = fake.command(bot, ALICE, "daily", game="donsol")
    await fake.settle()
    answer = fake.response(asked)
    assert answer["type"] == 4 and answer["data"]["flags"] & EPHEMERAL
    board = list(fake.messages)[-1]
    assert moves(fake, board) and "Today's deal is yours" in str(fake.messages[board]["embeds"])
    assert queries == [None]


def command_interaction(bot: Any, interaction_id: int) -> discord.Interaction[Any]:
    """A ``/play`` interaction as discord.py builds it from the gateway's payload."""
    user = {"id": str(ALICE), "username": "alice", "discriminator": "0", "global_name": None,
            "avatar": None}
    data = {"id": str(interaction_id), "application_id": "1", "type": 2,
            "token": f"token-{interaction_id}", "version": 1, "attachment_size_limit": 1 << 20,
            "data": {"id": "9", "name": "play", "type": 1}, "user": user, "context": 1,
            "channel_id": "3", "channel": {"id": "3", "type": 1}, "locale": "en-US"}
    return discord.Interaction(data=data, state=bot._connection)  # type: ignore[arg-type]


def body(sent: dict[str, Any]) -> Any:
    """A callback's body as Discord reads it: the JSON, or a form's JSON part and its files'
    names and types."""
    if sent.get("payload") is not None:
        return sent["payload"]
    return [{k: v for k, v in part.items() if k != "value"} | (
        {"value": part["value"]} if isinstance(part["value"], str) else {})
        for part in sent["multipart"]]


@pytest.mark.parametrize("ephemeral", [False, True])
@pytest.mark.parametrize("picture", [False, True])
async def test_send_message_sends_what_discord_py_sends_without_asking_it_back(
    raw, ephemeral: bool, picture: bool
) -> None:
    """What a player sees of a new board is the same on either path: the same callback body
    (embed, buttons, flags, the picture's form), only the message is not asked back."""
    _, bot, _, _ = raw
    adapter = async_context.get()
    sent: list[dict[str, Any]] = []
    request = adapter.request

    async def recording(route: Any, session: Any, **kwargs: Any) -> Any:
        sent.append(kwargs)
        return await request(route, session, **kwargs)

    adapter.request = recording  # type: ignore[method-assign]
    rows = ButtonRows()
    rows.add(PlainButton("dd.m:1:0:take 3D", "3♦", discord.ButtonStyle.primary))
    rows.add(PlainButton("dd.c:1:0:hint", "Hint", row=1))
    embed = discord.Embed(title="Donsol", description="A room of four cards")

    def extra() -> dict[str, Any]:
        return {"file": discord.File(io.BytesIO(b"png"), filename="table.png")} if picture else {}

    theirs, ours = command_interaction(bot, 11), command_interaction(bot, 12)
    await theirs.response.send_message(embed=embed, view=rows, ephemeral=ephemeral, **extra())
    await fastpath.send_message(ours, embed=embed, view=rows, ephemeral=ephemeral, **extra())
    by_discord_py, by_fastpath = sent
    assert by_discord_py.get("params") == {"with_response": "1"}
    assert by_fastpath.get("params") is None
    assert body(by_fastpath) == body(by_discord_py)
    assert (by_fastpath.get("payload") is None) is picture  # a picture goes as a form
    assert [f.filename for f in by_fastpath.get("files") or []] == (
        ["table.png"] if picture else [])
    assert ours.response.is_done()
    assert ours.response.type is discord.InteractionResponseType.channel_message
    with pytest.raises(discord.InteractionResponded):  # still one answer per interaction
        await fastpath.send_message(ours, content="again")


def test_slim_message_keeps_what_the_handlers_read() -> None:
    message = {"id": "5", "channel_id": "6", "type": 20, "flags": 64, "content": "text",
               "attachments": [{"id": "7", "filename": "table.png", "size": 1, "url": "",
                                "proxy_url": ""}],
               "embeds": [{"title": "board"}], "components": [{"type": 1, "components": []}],
               "interaction_metadata": {"id": "8"}, "mentions": []}
    slim = fastpath.slim_message(message)
    assert slim["id"] == "5" and slim["flags"] == 64 and slim["attachments"]
    assert slim["embeds"] == [] and slim["components"] == [] and slim["content"] == ""
    assert "interaction_metadata" not in slim and "mentions" not in slim


# ----- the private discord.py pieces (fastpath.PRIVATE) -----------------------------------------


def params(fn: Any) -> list[str]:
    return list(inspect.signature(fn).parameters)


def test_the_discord_py_internals_it_relies_on_are_still_there(make_bot) -> None:
    assert discord.version_info[:2] == (2, 7), "re-check bot/fastpath.py against this release"
    bot = make_bot()
    state = bot._connection
    assert isinstance(state, ConnectionState)
    assert state.parsers["INTERACTION_CREATE"].__name__ == "parse_interaction_create"
    assert params(ConnectionState.parse_interaction_create) == ["self", "data"]
    assert params(state._view_store.dispatch_view) == ["component_type", "custom_id",
                                                       "interaction"]
    assert params(discord.Interaction.__init__) == ["self", "data", "state"]
    assert "_cs_response" in discord.Interaction.__slots__
    assert {"_session", "_state", "token", "id", "message"} <= set(
        discord.Interaction.__slots__) | set(dir(discord.Interaction))
    assert {"_parent", "_response_type"} <= set(discord.InteractionResponse.__slots__)
    assert params(state.prevent_view_updates_for) == ["message_id"]
    assert {"route", "session", "payload", "multipart", "proxy", "proxy_auth", "files",
            "params"} <= set(params(AsyncWebhookAdapter.request))
    assert {"type", "content", "embed", "embeds", "file", "attachments", "view", "flags",
            "allowed_mentions", "previous_allowed_mentions"} <= set(
        params(interaction_message_response_params))
    assert params(discord.MessageFlags._from_value) == ["value"]
    source = inspect.getsource(AsyncWebhookAdapter.create_interaction_response)
    assert f"'{fastpath.CALLBACK}'" in source and "'with_response': '1'" in source


def test_send_message_takes_what_the_presenter_sends() -> None:
    """The presenter's new boards (``Screen.kwargs`` with a picture, ``ephemeral``) are all
    keywords of discord.py's ``send_message`` that :func:`fastpath.send_message` takes."""
    ours = set(params(fastpath.send_message)) - {"interaction"}
    assert {"embed", "view", "file", "ephemeral"} <= ours
    assert ours <= set(params(discord.InteractionResponse.send_message))


def test_edit_message_takes_what_discord_py_s_takes() -> None:
    """A keyword discord.py adds to ``edit_message`` must be handled here too."""
    assert params(fastpath.ClickResponse.edit_message) == params(
        discord.InteractionResponse.edit_message)
