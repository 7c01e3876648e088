"""The stand-in keeps the Discord rules the load tests rely on (no bot needed here)."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import orjson
from aiohttp import web
from nacl.signing import VerifyKey

from bench._standin import payloads as p
from bench._standin import server
from bench._standin.server import StandIn

BOARD = {"type": p.CHANNEL_MESSAGE, "data": {"content": "board", "components": [
    {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}]}}


async def callback(session: aiohttp.ClientSession, discord: StandIn, record, body) -> tuple:
    url = f"{discord.base_url}/api/v10/interactions/{record.id}/{record.token}/callback"
    async with session.post(url, json=body, params={"with_response": "1"}) as response:
        return response.status, await response.json(), response.headers


async def test_one_response_per_interaction_then_40060():
    async with StandIn() as discord, aiohttp.ClientSession() as session:
        record = discord.command(1, "play")
        status, body, headers = await callback(session, discord, record, BOARD)
        assert status == 200 and headers["Content-Type"] == "application/json"
        assert body["resource"]["message"]["content"] == "board"
        status, body, _ = await callback(session, discord, record, BOARD)
        assert (status, body["code"]) == (400, 40060)
        assert record.refused == [40060]
        assert record.response["data"]["content"] == "board"


async def test_without_with_response_the_answer_is_204_and_still_recorded():
    """As Discord: the callback object comes back only when asked for (the bot's click fast
    path does not ask); the answer counts all the same."""
    async with StandIn() as discord, aiohttp.ClientSession() as session:
        record = discord.command(1, "play")
        url = f"{discord.base_url}/api/v10/interactions/{record.id}/{record.token}/callback"
        async with session.post(url, json=BOARD) as response:
            assert response.status == 204 and await response.read() == b""
        assert record.answered_at is not None
        assert record.response["data"]["content"] == "board"
        status, body, _ = await callback(session, discord, record, BOARD)
        assert (status, body["code"]) == (400, 40060)


async def test_a_response_after_three_seconds_is_refused_with_10062():
    async with StandIn() as discord, aiohttp.ClientSession() as session:
        record = discord.command(1, "play")
        record.sent_at -= 3.1  # as if the bot took 3.1 s
        status, body, _ = await callback(session, discord, record, BOARD)
        assert (status, body["code"]) == (404, 10062)
        assert record.answered_at is None


async def test_a_custom_id_over_100_characters_is_refused_with_50035():
    long = {"type": p.CHANNEL_MESSAGE, "data": {"components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Go", "custom_id": "x" * 101}]}]}}
    async with StandIn() as discord, aiohttp.ClientSession() as session:
        record = discord.command(1, "play")
        status, body, _ = await callback(session, discord, record, long)
        assert (status, body["code"]) == (400, 50035)


async def test_an_injected_429_says_when_to_retry_as_discord_does():
    async with StandIn() as discord, aiohttp.ClientSession() as session:
        record = discord.command(1, "play")
        fault = discord.inject(r"/callback$", 429, retry_after=0.4)
        status, body, headers = await callback(session, discord, record, BOARD)
        assert status == 429 and body["retry_after"] == 0.4 and headers["Via"]
        status, _, _ = await callback(session, discord, record, BOARD)
        assert status == 200 and fault.hits == 1


async def test_a_click_on_a_button_not_on_the_message_carries_the_forged_id():
    async with StandIn() as discord, aiohttp.ClientSession() as session:
        record = discord.command(1, "play")
        await callback(session, discord, record, BOARD)
        sent: list = []
        discord.on_interaction(sent.append)
        click = discord.click(1, record.message_id, "forged")
        assert click.data["custom_id"] == "forged" and sent == [click]
        assert not click.delivered  # no bot connected: nobody to deliver it to


async def test_an_answer_is_timed_from_its_arrival_not_from_the_stand_in_reading_it(
        monkeypatch):
    """The latency the load bench reports is the bot's: the stand-in's own work on a body
    (decoding it, here slowed to 0.3 s) is not counted in it."""
    read = server._body

    async def slow_body(request):
        await asyncio.sleep(0.3)
        return await read(request)

    monkeypatch.setattr(server, "_body", slow_body)
    async with StandIn() as discord, aiohttp.ClientSession() as session:
        record = discord.command(1, "play")
        posted = time.perf_counter()
        status, _, _ = await callback(session, discord, record, BOARD)
        replied = time.perf_counter()
        assert status == 200
        assert replied - posted >= 0.3
        assert record.answered_at is not None and record.answered_at - posted < 0.2


async def test_a_multipart_edit_takes_its_payload_json_and_drops_the_file():
    """A picture is attached as discord.py sends it: ``payload_json`` beside a PNG part (whose
    bytes may hold anything, the boundary's dashes included)."""
    async with StandIn() as discord, aiohttp.ClientSession() as session:
        record = discord.command(1, "play")
        await callback(session, discord, record, BOARD)
        form = aiohttp.FormData()
        form.add_field("payload_json", orjson.dumps({"content": "with a picture",
                                                     "attachments": [{"id": 0}]}).decode(),
                       content_type="application/json")
        form.add_field("files[0]", b"\x89PNG\r\n\r\n--\r\n" + bytes(range(256)) * 40,
                       filename="table.png", content_type="image/png")
        url = f"{discord.base_url}/api/v10/webhooks/{p.APPLICATION_ID}/{record.token}" \
              "/messages/@original"
        async with session.patch(url, data=form) as response:
            assert response.status == 200
            assert (await response.json())["content"] == "with a picture"
        assert discord.messages[record.message_id]["content"] == "with a picture"
        assert record.followups[-1]["attachments"] == [{"id": 0}]


async def test_callbacks_with_a_file_are_counted_apart():
    """``bench.load`` reports how many answers carried a picture from these counts."""
    async with StandIn() as discord, aiohttp.ClientSession() as session:
        plain = discord.command(1, "play")
        await callback(session, discord, plain, BOARD)
        pictured = discord.command(2, "play")
        form = aiohttp.FormData()
        form.add_field("payload_json", orjson.dumps(BOARD).decode(),
                       content_type="application/json")
        form.add_field("files[0]", b"\x89PNG" + bytes(2000), filename="table.png",
                       content_type="image/png")
        url = f"{discord.base_url}/api/v10/interactions/{pictured.id}/{pictured.token}/callback"
        async with session.post(url, data=form) as response:
            assert response.status == 204
        assert (discord.callbacks, discord.callbacks_with_files) == (2, 1)
        assert pictured.answered_at is not None


def test_payload_json_without_a_boundary_or_the_part_is_empty():
    assert server.payload_json(b"--x\r\nname=\"other\"\r\n\r\n{}\r\n--x--", b"x") == {}
    assert server.payload_json(b"anything", b"") == {}


# ----- interactions delivered to an interactions endpoint (delivery="http") ---------------------


class Endpoint:
    """A bare endpoint standing in for the bot's: it checks the signature with the stand-in's
    public key and answers with what ``answer(record_id, payload)`` returns (status, body),
    after ``delay`` seconds."""

    def __init__(self, discord: StandIn, answer, delay: float = 0.0) -> None:
        self.discord, self.answer, self.delay = discord, answer, delay
        self.received: list[dict] = []
        self.runner: web.AppRunner | None = None

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        key = VerifyKey(bytes.fromhex(self.discord.public_key))
        key.verify(request.headers["X-Signature-Timestamp"].encode() + body,
                   bytes.fromhex(request.headers["X-Signature-Ed25519"]))
        payload = orjson.loads(body)
        self.received.append(payload)
        await asyncio.sleep(self.delay)
        status, answer = await self.answer(payload)
        if answer is None:
            return web.Response(status=status)
        return web.Response(status=status, body=orjson.dumps(answer),
                            content_type="application/json")

    async def __aenter__(self) -> Endpoint:
        app = web.Application()
        app.router.add_post("/interactions", self.handle)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.discord.endpoint = f"http://127.0.0.1:{self.runner.addresses[0][1]}/interactions"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.runner is not None
        await self.runner.cleanup()


async def settled(record) -> None:
    await asyncio.wait_for(record.done.wait(), 5)
    while record.posting is not None:
        await asyncio.sleep(0.01)


async def test_over_http_an_inline_answer_is_the_response_and_a_callback_after_it_40060():
    async with StandIn(delivery="http") as discord, aiohttp.ClientSession() as session:
        async def inline(payload):
            return 200, BOARD

        async with Endpoint(discord, inline) as bot:
            assert await discord.ping() == (200, BOARD)  # whatever it says, it is read
            record = discord.command(1, "play")
            await settled(record)
            assert [r["id"] for r in bot.received][-1] == str(record.id)
            assert record.http_status == 200 and record.answered_at is not None
            assert record.response["data"]["content"] == "board"
            assert discord.messages[record.message_id]["content"] == "board"
            status, body, _ = await callback(session, discord, record, BOARD)
            assert (status, body["code"]) == (400, 40060)


async def test_over_http_202_after_the_callback_counts_the_callback_once():
    async with StandIn(delivery="http") as discord, aiohttp.ClientSession() as session:
        async def by_callback(payload):
            record = discord.interactions[int(payload["id"])]
            status, _, _ = await callback(session, discord, record, BOARD)
            assert status == 200
            return 202, None

        async with Endpoint(discord, by_callback):
            record = discord.command(1, "play")
            await settled(record)
            assert record.http_status == 202 and record.refused == []
            assert record.response["data"]["content"] == "board"


async def test_over_http_an_inline_answer_after_a_callback_is_refused_40060():
    async with StandIn(delivery="http") as discord, aiohttp.ClientSession() as session:
        async def both(payload):
            record = discord.interactions[int(payload["id"])]
            await callback(session, discord, record, BOARD)
            return 200, {"type": p.CHANNEL_MESSAGE, "data": {"content": "again"}}

        async with Endpoint(discord, both):
            record = discord.command(1, "play")
            await settled(record)
            assert record.refused == [40060] and record.response["data"]["content"] == "board"


async def test_over_http_no_answer_in_three_seconds_is_a_failed_interaction(monkeypatch):
    monkeypatch.setattr(server, "DEADLINE", 0.3)
    async with StandIn(delivery="http") as discord:
        async def slow(payload):
            return 200, BOARD

        async with Endpoint(discord, slow, delay=0.6):
            record = discord.command(1, "play")
            await settled(record)
            assert record.answered_at is None and record.refused == [10062]


async def test_over_http_a_refusal_by_the_endpoint_is_recorded():
    async with StandIn(delivery="http") as discord:
        async def refuse(payload):
            return 401, None

        async with Endpoint(discord, refuse):
            record = discord.command(1, "play")
            await settled(record)
            assert record.http_status == 401 and record.answered_at is None
            assert discord.connected is False  # no gateway session: players would wait


def test_an_endpoint_status_other_than_200_or_202_is_a_problem():
    from bench._standin.checks import answer_problems
    from bench._standin.players import Outcome
    from bench._standin.server import Interaction

    refused = Interaction(1, "t", p.APPLICATION_COMMAND, 1, {}, None, delivered=True,
                          http_status=401)
    inline = Interaction(2, "t", p.APPLICATION_COMMAND, 1, {}, None, delivered=True,
                         answered_at=1.0, http_status=200,
                         response={"type": p.CHANNEL_MESSAGE, "data": {"content": "board"}})
    found = answer_problems([Outcome(refused, "click", "donsol"),
                             Outcome(inline, "click", "donsol")])
    assert found == {"no answer in 3 s": 1, "the interactions endpoint answered 401": 1}
