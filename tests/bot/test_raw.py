"""Through raw INTERACTION_CREATE payloads: simultaneous clicks, and forged custom ids."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.buttons import CUSTOM_ID_MAX
from bot.cogs.play import GARBLED, NO_RUN
from bot.screens import STALE
from tests.bot.raw import EPHEMERAL, UPDATE_MESSAGE, FakeDiscord

ALICE, BOB = 1001, 1002


@pytest.fixture
async def raw(make_bot) -> AsyncIterator[tuple[FakeDiscord, Any]]:
    fake = FakeDiscord()
    bot = make_bot()
    await fake.attach(bot)
    yield fake, bot
    await fake.settle()
    await bot.http.close()


async def start(fake: FakeDiscord, bot: Any) -> tuple[int, int]:
    """/play donsol as Alice: the board's message id and the run id."""
    asked = fake.command(bot, ALICE, "play", game="donsol")
    await fake.settle()
    message = fake.response(asked)
    assert message["type"] == 4
    (run,) = await bot.service.unfinished_runs(ALICE)
    return int(next(iter(fake.messages))), run.id


def actions_on(fake: FakeDiscord, message_id: int) -> list[str]:
    return [
        c["custom_id"] for row in fake.messages[message_id]["components"]
        for c in row["components"] if c["custom_id"].startswith("dd:")
    ]


def description(response: dict[str, Any]) -> str:
    return response["data"]["embeds"][0].get("description", "")


async def test_two_clicks_at_once_play_one_move_and_the_other_is_stale(raw, error_logs):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    first, second = actions_on(fake, message)[:2]

    a = fake.click(bot, ALICE, message, first)
    b = fake.click(bot, ALICE, message, second)
    await fake.settle()

    log = await bot.service.moves(run_id)
    assert len(log) == 1 and log[0] in (first.split(":", 3)[3], second.split(":", 3)[3])
    answers = [fake.response(a), fake.response(b)]
    assert [r["type"] for r in answers] == [UPDATE_MESSAGE, UPDATE_MESSAGE]
    stale = [r for r in answers if description(r).startswith(f"*{STALE}")]
    assert len(stale) == 1, [description(r) for r in answers]
    # Both answers show the board after the one move that was played.
    assert all(f"dd:{run_id}:1:" in str(r["data"]["components"]) for r in answers)


async def test_the_same_button_clicked_twice_at_once_plays_it_once(raw, error_logs):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    button = actions_on(fake, message)[0]

    clicks = [fake.click(bot, ALICE, message, button) for _ in range(3)]
    await fake.settle()

    assert await bot.service.moves(run_id) == [button.split(":", 3)[3]]
    stale = [i for i in clicks if description(fake.response(i)).startswith(f"*{STALE}")]
    assert len(stale) == 2


@pytest.mark.parametrize(
    ("forged", "answer"),
    [
        ("dd:abc:1:take ZZ", GARBLED),
        ("dd:{run}:0:take ZZ", "That move is not possible: "),
        ("dd:{run}:0:dance", "That move is not possible: "),
        ("dd:987654321:0:take 7C", NO_RUN),
        ("ddc:undo:{run}:", GARBLED),
        ("ddc:explode:{run}:0", GARBLED),
        ("dd:{run}:0:take 7C:and more", GARBLED),
        ("dd:" + "9" * (CUSTOM_ID_MAX - 3), GARBLED),
    ],
)
async def test_a_forged_custom_id_is_refused_and_changes_nothing(raw, error_logs, forged, answer):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    board_before = dict(fake.messages[message])

    click = fake.click(bot, ALICE, message, forged.format(run=run_id))
    await fake.settle()

    response = fake.response(click)
    assert response["type"] == 4 and response["data"]["flags"] & EPHEMERAL
    assert response["data"]["content"].startswith(answer)
    assert fake.messages[message] == board_before
    assert await bot.service.moves(run_id) == []


async def test_a_forged_click_on_someone_elses_run_is_refused(raw, error_logs):
    fake, bot = raw
    message, run_id = await start(fake, bot)

    click = fake.click(bot, BOB, message, f"ddc:confirm:{run_id}:0")
    await fake.settle()

    assert "belongs to" in fake.response(click)["data"]["content"]
    assert (await bot.service.get_run(run_id)).status == "playing"
