"""Clear the Dungeon's two-step move end to end: the first click (a card) writes nothing and
offers only its targets with Back; the second plays through the usual version-checked write;
a stale or forged first step changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.buttons import GARBLED, parse
from bot.cogs.play import NOT_A_CHOICE
from bot.screens import STALE
from rules.cards import display
from tests.bot.raw import EPHEMERAL, UPDATE_MESSAGE, FakeDiscord
from tests.core.conftest import count_row_reads

ALICE, BOB = 1001, 1002


def picks(message) -> list[dict[str, Any]]:
    return [b for row in message.components for b in row["components"]
            if b["custom_id"].startswith("dd.c:pick:")]


async def test_a_card_then_its_target_plays_one_move(world, error_logs):
    board = await world.play(world.alice, "clear")
    (run,) = await world.core.runs.unfinished(world.alice.id)
    first = picks(board)
    assert [b["label"] for b in first] == [display(c) for c in run.view["hand"]]
    assert len(first) == 3 and not any(b.get("disabled") for b in world.buttons(board))
    assert [b["custom_id"] for b in first] == [
        f"dd.c:pick:{run.id}:0:{card}" for card in run.view["hand"]]
    # At most the cards and the controls: two rows (was four, 17 buttons).
    assert len(board.components) == 2

    card = run.view["hand"][1]
    chosen = await world.click(world.alice, board, first[1]["custom_id"])
    assert not chosen.ephemeral and chosen.response.id == board.id
    step = world.message(board)
    after = await world.core.runs.get(run.id)
    assert (after.version, after.moves) == (0, 0), "the first step writes nothing"
    moves = world.moves(step)
    assert sorted(parse(b["custom_id"]).action for b in moves) == sorted(
        a for a in run.actions if a.split(" ")[1] == card)
    assert all(b["custom_id"].startswith(f"dd.m:{run.id}:0:") for b in moves)
    assert world.description(step).endswith(f"**Where does {display(card)} go?**")
    assert not any(b.get("disabled") for b in world.buttons(step))
    assert "Back" in [b["label"] for b in world.buttons(step)]

    # Back redraws the first step; choosing again and playing writes one move.
    back = await world.click(world.alice, step, world.control(step, "board")["custom_id"])
    assert len(picks(back.response)) == 3
    step = (await world.click(world.alice, back.response, first[1]["custom_id"])).response
    target = world.moves(step)[0]["custom_id"]
    played = await world.click(world.alice, step, target)
    assert not played.ephemeral
    after = await world.core.runs.get(run.id)
    assert (after.version, after.moves) == (1, 1)
    assert await world.core.runs.moves(run.id) == [parse(target).action]


async def test_a_first_step_on_the_board_this_bot_drew_reads_no_run(world, monkeypatch):
    """The first step redraws from the run the bot committed at the board's version
    (``Runs.shown``): no row is read for it; the move clicked next reads only the version."""
    board = await world.play(world.alice, "clear")
    (run,) = await world.core.runs.unfinished(world.alice.id)
    reads = count_row_reads(monkeypatch)
    step = (await world.click(world.alice, board, picks(board)[0]["custom_id"])).response
    played = await world.click(world.alice, step, world.moves(step)[0]["custom_id"])
    assert not played.ephemeral and reads == []
    after = await world.core.runs.get(run.id)  # a read is counted
    assert reads == [run.id] and (after.version, after.moves) == (1, 1)


@pytest.fixture
async def raw(make_bot) -> AsyncIterator[tuple[FakeDiscord, Any]]:
    fake = FakeDiscord()
    bot = make_bot()
    await fake.attach(bot)
    yield fake, bot
    await fake.settle()
    await bot.http.close()


async def start_clear(fake: FakeDiscord, bot: Any) -> tuple[int, Any]:
    fake.command(bot, ALICE, "play", game="clear")
    await fake.settle()
    (run,) = await bot.core.runs.unfinished(ALICE)
    return list(fake.messages)[-1], run


@pytest.mark.parametrize(
    ("forged", "answer"),
    [
        ("dd.c:pick:{run}:0:ZZ", GARBLED),  # not a card
        ("dd.c:pick:{run}:0:put 5D 1", GARBLED),
        ("dd.c:pick:{run}:0:{absent}", NOT_A_CHOICE),  # a card, not one to play now
        ("dd.c:pick:{run}:0:", GARBLED),
    ],
)
async def test_a_forged_first_step_is_refused_and_changes_nothing(raw, error_logs, forged,
                                                                  answer):
    fake, bot = raw
    message, run = await start_clear(fake, bot)
    before = dict(fake.messages[message])
    absent = next(c for c in ("2S", "3S", "4S", "5S", "6S") if c not in run.view["hand"])

    click = fake.click(bot, ALICE, message, forged.format(run=run.id, absent=absent))
    await fake.settle()

    response = fake.response(click)
    assert response["type"] == 4 and response["data"]["flags"] & EPHEMERAL
    assert response["data"]["content"] == answer
    assert fake.messages[message] == before
    assert (await bot.core.runs.get(run.id)).version == 0


async def test_a_stale_first_step_redraws_the_board_and_someone_elses_is_refused(
    raw, error_logs
):
    fake, bot = raw
    message, run = await start_clear(fake, bot)
    card = run.view["hand"][0]
    played = fake.click(bot, ALICE, message, f"dd.m:{run.id}:0:reserve {card}")
    await fake.settle()
    assert fake.response(played)["type"] == UPDATE_MESSAGE

    old = fake.click(bot, ALICE, message, f"dd.c:pick:{run.id}:0:{run.view['hand'][1]}")
    await fake.settle()
    response = fake.response(old)
    assert response["type"] == UPDATE_MESSAGE
    assert response["data"]["embeds"][0]["description"].startswith(f"*{STALE}")

    other = fake.click(bot, BOB, message, f"dd.c:pick:{run.id}:1:{run.view['hand'][1]}")
    await fake.settle()
    assert "belongs to" in fake.response(other)["data"]["content"]
    assert (await bot.core.runs.get(run.id)).version == 1
