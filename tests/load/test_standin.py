"""The stand-in keeps the Discord rules the load tests rely on (no bot needed here)."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import orjson

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


def test_payload_json_without_a_boundary_or_the_part_is_empty():
    assert server.payload_json(b"--x\r\nname=\"other\"\r\n\r\n{}\r\n--x--", b"x") == {}
    assert server.payload_json(b"anything", b"") == {}
