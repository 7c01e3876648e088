"""The table picture goes out with its board, in the interaction's one response: the message
never grows when a picture arrives later, an older picture can never land on a newer board,
and a worker too slow for the answer leaves the complete text board instead (through raw
INTERACTION_CREATE payloads, where every request the bot makes is seen)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.pictures.table import FILENAME
from tests.bot.raw import UPDATE_MESSAGE, FakeDiscord

ALICE = 1001


@pytest.fixture
async def raw(make_bot) -> AsyncIterator[tuple[FakeDiscord, Any]]:
    fake = FakeDiscord()
    bot = make_bot(pictures=True)
    await fake.attach(bot)
    await bot.table_pictures.warming  # as a bot long started: the worker is up
    yield fake, bot
    await fake.settle()
    await bot.http.close()


def moves(fake: FakeDiscord, message_id: int) -> list[str]:
    return [c["custom_id"] for row in fake.messages[message_id]["components"]
            for c in row["components"] if c["custom_id"].startswith("dd.m:")
            and not c.get("disabled")]


def fields(response: dict[str, Any]) -> set[str]:
    return {f["name"] for f in response["data"]["embeds"][0].get("fields", [])}


async def test_the_board_and_its_picture_arrive_together(raw):
    fake, bot = raw
    asked = fake.command(bot, ALICE, "play", game="donsol")
    await fake.settle()
    answer = fake.response(asked)
    assert answer["data"]["embeds"][0]["image"]["url"] == f"attachment://{FILENAME}"
    board = list(fake.messages)[-1]
    assert [a["filename"] for a in fake.messages[board]["attachments"]] == [FILENAME]

    clicked = fake.click(bot, ALICE, board, moves(fake, board)[0])
    await fake.settle()
    update = fake.response(clicked)
    assert update["type"] == UPDATE_MESSAGE
    assert [a["filename"] for a in fake.messages[board]["attachments"]] == [FILENAME]
    # One request per interaction: nothing edits the message afterwards (no jump).
    assert fake.pictured_answers == [asked, clicked]
    assert fake.picture_edits == []


async def test_a_worker_too_slow_for_the_answer_leaves_the_text_board(raw):
    """Past its wait, the board goes out in full and without a picture (the old one taken
    off, so it never shows an earlier table), well within Discord's 3 seconds."""
    fake, bot = raw
    fake.command(bot, ALICE, "play", game="donsol")
    await fake.settle()
    board = list(fake.messages)[-1]
    assert fake.messages[board]["attachments"]

    tables = bot.table_pictures
    drawn = tables.png

    async def stuck(view: dict[str, Any], last_action: str | None, language: Any) -> bytes:
        await asyncio.sleep(0.5)
        return await drawn(view, last_action, language)

    tables.png = stuck
    tables.wait = 0.05
    loop = asyncio.get_running_loop()
    started = loop.time()
    clicked = fake.click(bot, ALICE, board, moves(fake, board)[0])
    while clicked not in fake.responses:
        await asyncio.sleep(0.01)
    took = loop.time() - started
    update = fake.response(clicked)
    assert took < 0.4, took
    assert {"Health", "Room", "Dungeon"} <= fields(update)  # the text board, complete
    assert "image" not in update["data"]["embeds"][0]
    assert fake.messages[board]["attachments"] == []
    await fake.settle()
    assert fake.picture_edits == []  # and no picture comes after it


async def test_until_the_picture_worker_is_up_boards_go_as_text(make_bot):
    """Right after a start, a click does not wait a second for the worker process to start:
    the board goes out complete as text, at once."""
    fake = FakeDiscord()
    bot = make_bot(pictures=True)
    await fake.attach(bot)
    try:
        assert bot.table_pictures.warming is not None and not bot.table_pictures.warming.done()
        asked = fake.command(bot, ALICE, "play", game="donsol")
        while asked not in fake.responses:
            await asyncio.sleep(0.01)
        answer = fake.response(asked)
        assert "image" not in answer["data"]["embeds"][0]
        assert {"Health", "Room"} <= fields(answer)
    finally:
        await fake.settle()
        await bot.http.close()
