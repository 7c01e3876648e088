"""The interactions endpoint (``bot.endpoint``): the real bot answering signed HTTP requests.

The bot is on the raw harness (``tests/bot/raw.py``: its REST calls and callbacks go to a fake
Discord in this process) and its endpoint is served by aiohttp on 127.0.0.1; the requests are
signed with a test Ed25519 key as Discord signs them. What Discord does with an inline answer
(it is the interaction's response: the board is updated) is applied to the fake Discord as
the answer arrives, so ``fake.response`` holds every answer however it came, and Discord's
one-response rule (40060) holds across both routes.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import orjson
import pytest
from aiohttp.test_utils import TestServer
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from nacl.signing import SigningKey

from bot import endpoint, fastpath
from bot.buttons import control_id
from bot.endpoint import ACCEPTED, Endpoint, EndpointAdapter, Exchange, Replays
from tests.bot.raw import UPDATE_MESSAGE, FakeDiscord

ALICE, BOB = 1001, 1002
CHANNEL_MESSAGE, DEFERRED_UPDATE = 4, 6


class Http:
    """The bot behind its endpoint, and Discord's side of it: signed requests, and each inline
    answer applied to the fake Discord as Discord would (before any later request of the bot
    about that interaction is served)."""

    def __init__(self, fake: FakeDiscord, bot: Any, served: Endpoint, server: TestServer,
                 key: SigningKey, session: aiohttp.ClientSession) -> None:
        self.fake, self.bot, self.endpoint = fake, bot, served
        self.server, self.key, self.session = server, key, session
        self.url = str(server.make_url(endpoint.PATH))
        self.inline: dict[int, dict[str, Any]] = {}  # interaction id -> its inline answer
        self.statuses: dict[int, int] = {}  # interaction id -> the HTTP status
        self._in_flight: dict[str, asyncio.Event] = {}  # token -> answered over HTTP
        self.seen: list[discord.Interaction[Any]] = []  # dispatched to the bot

    def sign(self, body: bytes, timestamp: str | None = None,
             key: SigningKey | None = None) -> dict[str, str]:
        timestamp = timestamp or str(int(time.time()))
        signed = (key or self.key).sign(timestamp.encode() + body)
        return {"X-Signature-Ed25519": signed.signature.hex(),
                "X-Signature-Timestamp": timestamp, "Content-Type": "application/json"}

    async def post(self, body: bytes, headers: dict[str, str]
                   ) -> tuple[int, bytes, aiohttp.typedefs.LooseHeaders]:
        async with self.session.post(self.url, data=body, headers=headers) as response:
            return response.status, await response.read(), response.headers

    async def send(self, payload: dict[str, Any]) -> int:
        """Deliver ``payload`` signed, as Discord does; returns the HTTP status."""
        iid = int(payload["id"])
        body = orjson.dumps(payload)
        token = payload.get("token", "")
        self._in_flight[token] = asyncio.Event()
        try:
            status, answer, headers = await self.post(body, self.sign(body))
            self.statuses[iid] = status
            if status == 200 and payload["type"] != 1:
                assert headers["Content-Type"] == "application/json"
                self.inline[iid] = orjson.loads(answer)
                self.fake._callback(iid, self.inline[iid])  # Discord takes it as the response
            elif status == 202:
                assert answer == b""
        finally:
            self._in_flight.pop(token).set()
        return status

    async def wait_for(self, token: str | None) -> None:
        event = self._in_flight.get(token or "")
        if event is not None:
            await asyncio.wait_for(event.wait(), 5)

    def moves(self, message_id: int) -> list[str]:
        return [c["custom_id"] for row in self.fake.messages[message_id]["components"]
                for c in row["components"] if c["custom_id"].startswith("dd.m:")]

    async def start(self, user: int = ALICE) -> int:
        """/play donsol over HTTP; the board's message id."""
        assert await self.send(self.fake.command_payload(user, "play", game="donsol")) == 200
        return list(self.fake.messages)[-1]


@pytest.fixture
async def http(make_bot, db_path: Path) -> AsyncIterator[Http]:
    fake = FakeDiscord()
    bot = make_bot()
    await fake.attach(bot)
    adapter = async_context.get()  # the fake Discord's: what the endpoint forwards to
    key = SigningKey.generate()
    served = Endpoint(bot, bytes(key.verify_key), answer_within=1.0)
    server = TestServer(served.app(), host="127.0.0.1")
    await server.start_server()
    # A connection per request: a kept-alive one would hold a server task open, which
    # ``fake.settle`` would wait out.
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True))
    h = Http(fake, bot, served, server, key, session)
    request = adapter.request

    async def in_order(route: Any, session: Any, **kwargs: Any) -> Any:
        if route.path.startswith("/webhooks/"):  # a follow-up or an edit of the answer:
            await h.wait_for(route.webhook_token)  # Discord has the inline answer first
        return await request(route, session, **kwargs)

    adapter.request = in_order  # type: ignore[method-assign]

    async def note(interaction: discord.Interaction[Any]) -> None:
        h.seen.append(interaction)

    bot.add_listener(note, "on_interaction")
    yield h
    await session.close()
    await server.close()
    await fake.settle()
    await bot.http.close()


def stored_moves(db_path: Path) -> int:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM moves").fetchone()[0])
    finally:
        conn.close()


# ----- what Discord sends ------------------------------------------------------------------


async def test_a_ping_is_answered_pong_and_dispatches_nothing(http) -> None:
    body = orjson.dumps({"id": "77", "application_id": "1", "type": 1, "token": "t",
                         "version": 1})
    status, answer, headers = await http.post(body, http.sign(body))
    assert (status, orjson.loads(answer)) == (200, {"type": 1})
    assert headers["Content-Type"] == "application/json"
    assert http.seen == [] and http.endpoint.dispatched == 0


async def test_a_click_is_answered_inline_with_its_board_and_the_move_stored(
        http, db_path, error_logs) -> None:
    board = await http.start()
    play_id = int(list(http.fake.responses)[-1])
    assert http.inline[play_id]["type"] == CHANNEL_MESSAGE  # /play's board, inline too
    before = http.fake.messages[board]["embeds"][0]["description"]
    move = http.moves(board)[0]
    click = http.fake.click_payload(ALICE, board, move)
    assert await http.send(click) == 200
    iid = int(click["id"])
    answer = http.inline[iid]
    assert answer["type"] == UPDATE_MESSAGE
    assert answer["data"]["embeds"][0]["description"] != before  # the move was played
    assert http.fake.response(iid) == answer  # one response, and no callback besides it
    (run,) = await http.bot.core.runs.unfinished(ALICE)
    assert run.version == 1 and stored_moves(db_path) == 1
    # The board it answered carries the next version: its moves play on.
    assert all(m.startswith(f"dd.m:{run.id}:1:") for m in http.moves(board))
    assert isinstance(http.seen[-1], fastpath.ClickInteraction)  # the gateway's fast path


async def test_a_board_in_a_server_channel_is_answered_inline_too(http, error_logs) -> None:
    guild = 4_000_000_000_000_000_004
    payload = http.fake.command_payload(ALICE, "play", game="clear", guild_id=guild)
    assert await http.send(payload) == 200
    assert http.inline[int(payload["id"])]["type"] == CHANNEL_MESSAGE


# ----- what is refused: nothing dispatched, nothing written --------------------------------


async def refused(http: Http, db_path: Path, body: bytes, headers: dict[str, str],
                  status: int) -> None:
    answers, moves = dict(http.fake.responses), stored_moves(db_path)
    seen, dispatched = len(http.seen), http.endpoint.dispatched
    got, answer, _ = await http.post(body, headers)
    await http.fake.settle()
    assert (got, answer) == (status, b"")
    assert len(http.seen) == seen and http.endpoint.dispatched == dispatched  # no dispatch
    assert http.fake.responses == answers  # no answer to anyone
    assert stored_moves(db_path) == moves


@pytest.fixture
async def click(http) -> tuple[bytes, dict[str, Any]]:
    """A real move on a live board, not yet sent: accepted, it would be stored."""
    board = await http.start()
    payload = http.fake.click_payload(ALICE, board, http.moves(board)[0])
    return orjson.dumps(payload), payload


async def test_a_forged_signature_is_refused(http, click, db_path) -> None:
    body, _ = click
    headers = http.sign(body) | {"X-Signature-Ed25519": "ab" * 64}
    await refused(http, db_path, body, headers, 401)
    assert http.endpoint.refused["bad signature"] == 1


async def test_a_signature_by_another_key_is_refused(http, click, db_path) -> None:
    body, _ = click
    await refused(http, db_path, body, http.sign(body, key=SigningKey.generate()), 401)


async def test_a_body_changed_after_signing_is_refused(http, click, db_path) -> None:
    body, payload = click
    headers = http.sign(body)
    changed = orjson.dumps(payload | {"member": {"user": {"id": str(BOB)}}, "user": {
        "id": str(BOB), "username": "bob", "discriminator": "0", "avatar": None}})
    await refused(http, db_path, changed, headers, 401)
    # The timestamp is signed too: the same signature with another time is refused.
    later = headers | {"X-Signature-Timestamp": str(int(headers["X-Signature-Timestamp"]) + 1)}
    await refused(http, db_path, body, later, 401)


@pytest.mark.parametrize("missing", ["X-Signature-Ed25519", "X-Signature-Timestamp", "both"])
async def test_missing_headers_are_refused(http, click, db_path, missing) -> None:
    body, _ = click
    headers = http.sign(body)
    for name in ("X-Signature-Ed25519", "X-Signature-Timestamp"):
        if missing in (name, "both"):
            del headers[name]
    await refused(http, db_path, body, headers, 401)
    assert http.endpoint.refused["unsigned"] == 1


async def test_garbled_signature_headers_are_refused(http, click, db_path) -> None:
    body, _ = click
    for bad in ({"X-Signature-Ed25519": "not hex"}, {"X-Signature-Ed25519": "abcd"},
                {"X-Signature-Timestamp": "soon"}):
        await refused(http, db_path, body, http.sign(body) | bad, 401)


async def test_a_stale_or_future_timestamp_is_refused_though_signed(http, click, db_path,
                                                                    caplog) -> None:
    body, _ = click
    now = int(time.time())
    for when in (now - int(endpoint.WINDOW) - 5, now + int(endpoint.WINDOW) + 5):
        await refused(http, db_path, body, http.sign(body, str(when)), 401)
    assert http.endpoint.refused["stale"] == 2
    assert "off this machine's clock" in caplog.text  # an operator is told (once a minute)


async def test_a_replayed_request_is_refused(http, click, db_path, error_logs) -> None:
    body, payload = click
    headers = http.sign(body)
    status, answer, _ = await http.post(body, headers)
    assert status == 200
    http.fake._callback(int(payload["id"]), orjson.loads(answer))
    await http.fake.settle()
    assert stored_moves(db_path) == 1
    await refused(http, db_path, body, headers, 401)  # the very same request again
    # Signed anew (by Discord's key, a new timestamp), the same interaction is refused too.
    await refused(http, db_path, body, http.sign(body, str(int(time.time()) - 2)), 401)
    assert http.endpoint.refused["replayed"] == 2
    assert len(http.fake.responses[int(payload["id"])]) == 1


async def test_a_body_over_the_cap_is_refused_unread(http, click, db_path) -> None:
    _body, payload = click
    big = orjson.dumps(payload | {"padding": "x" * endpoint.MAX_BODY})
    await refused(http, db_path, big, http.sign(big), 413)


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'{"type": "3"}',
                                  b'{"type": 3, "id": "12"}', b'{"type": 1}'])
async def test_a_signed_body_that_is_no_interaction_is_refused(http, db_path, body) -> None:
    await refused(http, db_path, body, http.sign(body), 400)


async def test_the_replay_memory_forgets_only_what_its_window_refuses() -> None:
    replays = Replays(window=60, limit=3)
    assert replays.check("1", 1000, 1000) is None
    assert replays.check("1", 1000, 1059) == "replayed"
    assert replays.check("2", 1010, 1010) is None and replays.check("3", 1020, 1020) is None
    assert replays.check("4", 1030, 1030) == "full"  # nothing unexpired is forgotten
    assert replays.check("4", 1061, 1061) is None  # "1" expired (its timestamp is refused)
    assert len(replays) == 3 and replays.check("2", 1010, 1061) == "replayed"


# ----- answers that need the callback, and the deadline ------------------------------------


async def test_a_refusal_is_answered_inline_and_discord_py_s_general_path_posted_then_202(
        http, error_logs) -> None:
    """Another player's click is refused through the fast path's ``send_message``: inline.
    ``/games`` answers with discord.py's ``send_message``, which asks for the callback object
    back: it is POSTed to Discord as on the gateway, and the request is answered 202 once
    Discord took it."""
    board = await http.start()
    payload = http.fake.click_payload(BOB, board, http.moves(board)[0])
    assert await http.send(payload) == 200
    refused = http.inline[int(payload["id"])]
    assert refused["type"] == CHANNEL_MESSAGE
    assert refused["data"]["content"].startswith("This run belongs to <@1001>")
    payload = http.fake.command_payload(ALICE, "games")
    assert await http.send(payload) == 202
    iid = int(payload["id"])
    assert iid not in http.inline
    answer = http.fake.response(iid)  # the callback, received once
    assert answer["type"] == CHANNEL_MESSAGE
    assert "unfinished runs" in answer["data"]["content"]


async def test_a_deferral_is_answered_inline_and_the_answer_edited_in_after(
        http, db_path, error_logs) -> None:
    """A practice board's Hint: the bot defers before the search (discord.py asks the
    deferral's callback object back; it is made here), then edits the board in."""
    http.bot.core.hints.budget = 3_000
    board = await http.start()
    (run,) = await http.bot.core.runs.unfinished(ALICE)
    payload = http.fake.click_payload(ALICE, board, control_id("hint", run.id, run.version))
    assert await http.send(payload) == 200
    iid = int(payload["id"])
    assert http.inline[iid] == {"type": DEFERRED_UPDATE}
    await http.fake.settle(timeout=30)
    assert http.fake.response(iid) == {"type": DEFERRED_UPDATE}
    assert http.fake.messages[board]["embeds"][0]["description"].startswith("*💡 Hint: **")
    assert (await http.bot.core.runs.get(run.id)).hinted


async def test_no_answer_in_time_is_202_and_the_late_answer_goes_by_callback(
        http, db_path, error_logs) -> None:
    """The database is held by another writer past the endpoint's wait: the request is
    answered 202 when the wait is up, and the board, once the move is written, by callback;
    one answer in all."""
    board = await http.start()
    payload = http.fake.click_payload(ALICE, board, http.moves(board)[0])
    blocker = sqlite3.connect(db_path, timeout=5, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        began = time.perf_counter()
        status = await http.send(payload)
        waited = time.perf_counter() - began
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert status == 202
    assert http.endpoint.answer_within <= waited < http.endpoint.answer_within + 0.5
    await http.fake.settle()
    iid = int(payload["id"])
    assert iid not in http.inline
    assert http.fake.response(iid)["type"] == UPDATE_MESSAGE  # by callback, once
    assert stored_moves(db_path) == 1


async def test_a_board_with_a_picture_goes_by_callback_then_202(http, error_logs) -> None:
    """A file cannot be an inline answer: the form is POSTed as on the gateway."""
    fake, bot = http.fake, http.bot
    payload = fake.command_payload(ALICE, "play", game="donsol")
    interaction = discord.Interaction(data=payload, state=bot._connection)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    exchange = Exchange(interaction.id, interaction.token, 2, loop)
    adapter = EndpointAdapter(exchange, async_context.get())
    token = async_context.set(adapter)
    try:
        await fastpath.send_message(interaction, content="board",
                                    file=discord.File(io.BytesIO(b"png"), "table.png"))
    finally:
        async_context.reset(token)
    assert exchange.answer.done() and exchange.answer.result() is ACCEPTED
    assert fake.response(interaction.id)["data"]["content"] == "board"
    assert fake.pictured_answers == [interaction.id]


async def test_each_answer_after_the_first_goes_to_discord(http) -> None:
    """After the inline answer every request goes to Discord, a second answer included
    (Discord refuses it, as it would on the gateway)."""
    fake, bot = http.fake, http.bot
    payload = fake.command_payload(ALICE, "play", game="donsol")
    interaction = discord.Interaction(data=payload, state=bot._connection)  # type: ignore[arg-type]
    exchange = Exchange(interaction.id, interaction.token, 2, asyncio.get_running_loop())
    adapter = EndpointAdapter(exchange, async_context.get())
    route = Route("POST", fastpath.CALLBACK, webhook_id=interaction.id,
                  webhook_token=interaction.token)
    first = {"type": CHANNEL_MESSAGE, "data": {"content": "one"}}
    assert await adapter.request(route, None, payload=first) is None
    assert orjson.loads(exchange.answer.result()) == first and fake.responses == {}
    fake._callback(interaction.id, first)  # what Discord does with it
    exchange.written()
    with pytest.raises(discord.HTTPException, match="already been acknowledged"):
        await adapter.request(route, None, payload={"type": CHANNEL_MESSAGE,
                                                   "data": {"content": "two"}})
    assert [a["data"]["content"] for a in fake.responses[interaction.id]] == ["one", "two"]


async def test_what_follows_an_inline_answer_waits_until_it_is_written_out(http) -> None:
    """An edit or follow-up right after an inline answer (a table picture drawn late, a
    whispered hint) leaves only once the answer is written out, so Discord has it first."""
    fake, bot = http.fake, http.bot
    payload = fake.command_payload(ALICE, "play", game="donsol")
    interaction = discord.Interaction(data=payload, state=bot._connection)  # type: ignore[arg-type]
    exchange = Exchange(interaction.id, interaction.token, 2, asyncio.get_running_loop())
    adapter = EndpointAdapter(exchange, async_context.get())
    route = Route("POST", fastpath.CALLBACK, webhook_id=interaction.id,
                  webhook_token=interaction.token)
    await adapter.request(route, None, payload={"type": CHANNEL_MESSAGE,
                                                "data": {"content": "board"}})
    edit = Route("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                 webhook_id=1, webhook_token=interaction.token)
    later = asyncio.create_task(adapter.request(edit, None, payload={"content": "pictured"}))
    await asyncio.sleep(0.1)
    assert not later.done()  # held back: the answer is not written out yet
    fake._callback(interaction.id, orjson.loads(exchange.answer.result()))
    exchange.written()
    await asyncio.wait_for(later, 1)
    assert fake.messages[fake._answered[interaction.id]]["content"] == "pictured"


# ----- the private discord.py pieces (endpoint.PRIVATE) ----------------------------------------


def params(fn: Any) -> list[str]:
    return list(inspect.signature(fn).parameters)


def test_the_discord_py_internals_it_relies_on_are_still_there(make_bot) -> None:
    assert discord.version_info[:2] == (2, 7), "re-check bot/endpoint.py against this release"
    bot = make_bot()
    assert bot._connection.parsers["INTERACTION_CREATE"].__name__ == "parse_interaction_create"
    assert async_context.name == "async_webhook_context"
    assert isinstance(async_context.get(), AsyncWebhookAdapter)
    assert params(AsyncWebhookAdapter.__init__) == ["self"]
    assert set(vars(AsyncWebhookAdapter())) == {"_locks"}  # all EndpointAdapter takes over
    assert {"route", "session", "payload", "multipart", "files", "params"} <= set(
        params(AsyncWebhookAdapter.request))
    assert set(params(EndpointAdapter.request)) - {"kwargs"} <= set(
        params(AsyncWebhookAdapter.request))
    source = inspect.getsource(AsyncWebhookAdapter.create_interaction_response)
    assert f"'{fastpath.CALLBACK}'" in source and "request_params = {'with_response': '1'}" \
        in source
    # Every answer, follow-up and edit of an interaction goes through ``self.request``.
    for name in ("create_interaction_response", "execute_webhook",
                 "edit_original_interaction_response", "get_original_interaction_response",
                 "delete_original_interaction_response"):
        assert "self.request(" in inspect.getsource(getattr(AsyncWebhookAdapter, name)), name
    route = Route("POST", fastpath.CALLBACK, webhook_id=1, webhook_token="t")
    assert (route.method, route.path, route.webhook_id, route.webhook_token) == (
        "POST", fastpath.CALLBACK, 1, "t")
    update = inspect.getsource(discord.interactions.InteractionCallbackResponse._update)
    assert "data['interaction']" in update and "data.get('resource')" in update
    # The handlers' tasks are created while the parser runs, so they copy its context.
    dispatch = inspect.getsource(discord.Client._schedule_event)
    assert "create_task" in dispatch


async def test_the_answer_of_a_dispatch_goes_through_its_own_adapter(http, error_logs) -> None:
    """The context the parser runs in reaches the handler's task (discord.py copies it into
    the tasks it creates): the answer was given through the endpoint's adapter, not the
    adapter the bot had before."""
    board = await http.start()
    payload = http.fake.click_payload(ALICE, board, http.moves(board)[0])
    assert await http.send(payload) == 200
    assert isinstance(async_context.get(), AsyncWebhookAdapter)
    assert not isinstance(async_context.get(), EndpointAdapter)  # this context is untouched
