"""Through raw INTERACTION_CREATE payloads: simultaneous clicks, and forged custom ids.

Every write from a board (a move, undo, resign, abandon) races a move from the same board:
both clicks are delivered before either is handled, in both orders. Exactly one of them is
applied; the other is answered with the board as it now is.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.buttons import CUSTOM_ID_MAX, GARBLED, parse
from bot.cogs.play import NO_RUN, NO_SHARE
from bot.screens import RUN_OVER, STALE
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


async def start(fake: FakeDiscord, bot: Any, user: int = ALICE) -> tuple[int, int]:
    """/play donsol: the board's message id and the run id."""
    asked = fake.command(bot, user, "play", game="donsol")
    await fake.settle()
    message = fake.response(asked)
    assert message["type"] == 4
    (run,) = await bot.core.runs.unfinished(user)
    return list(fake.messages)[-1], run.id


def buttons_on(fake: FakeDiscord, message_id: int, prefix: str) -> list[str]:
    return [
        c["custom_id"] for row in fake.messages[message_id]["components"]
        for c in row["components"] if c["custom_id"].startswith(prefix)
    ]


def actions_on(fake: FakeDiscord, message_id: int) -> list[str]:
    return buttons_on(fake, message_id, "dd.m:")


def description(response: dict[str, Any]) -> str:
    return response["data"]["embeds"][0].get("description", "")


def refused(response: dict[str, Any]) -> bool:
    """Whether a click was answered with the board as it is now (stale, or the run over)."""
    return description(response).startswith((f"*{STALE}", f"*{RUN_OVER}"))


async def play_one(fake: FakeDiscord, bot: Any, message: int, user: int = ALICE) -> None:
    click = fake.click(bot, user, message, actions_on(fake, message)[0])
    await fake.settle()
    assert fake.response(click)["type"] == UPDATE_MESSAGE


async def test_two_clicks_at_once_play_one_move_and_the_other_is_stale(raw, error_logs):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    first, second = actions_on(fake, message)[:2]

    a = fake.click(bot, ALICE, message, first)
    b = fake.click(bot, ALICE, message, second)
    await fake.settle()

    log = await bot.core.runs.moves(run_id)
    assert len(log) == 1 and log[0] in (parse(first).action, parse(second).action)
    answers = [fake.response(a), fake.response(b)]
    assert [r["type"] for r in answers] == [UPDATE_MESSAGE, UPDATE_MESSAGE]
    stale = [r for r in answers if description(r).startswith(f"*{STALE}")]
    assert len(stale) == 1, [description(r) for r in answers]
    # Both answers show the board after the one move that was played (version 1).
    assert all(f"dd.m:{run_id}:1:" in str(r["data"]["components"]) for r in answers)


async def test_the_same_button_clicked_twice_at_once_plays_it_once(raw, error_logs):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    button = actions_on(fake, message)[0]

    clicks = [fake.click(bot, ALICE, message, button) for _ in range(3)]
    await fake.settle()

    assert await bot.core.runs.moves(run_id) == [parse(button).action]
    stale = [i for i in clicks if description(fake.response(i)).startswith(f"*{STALE}")]
    assert len(stale) == 2


async def race(fake: FakeDiscord, bot: Any, message: int, ids: list[str]) -> list[dict]:
    """Deliver clicks on ``message`` at once; their answers, in the same order."""
    clicks = [fake.click(bot, ALICE, message, custom_id) for custom_id in ids]
    await fake.settle()
    return [fake.response(click) for click in clicks]


@pytest.mark.parametrize("undo_first", [True, False])
async def test_undo_and_a_move_from_one_board_at_once_apply_exactly_one(
    raw, error_logs, undo_first
):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    await play_one(fake, bot, message)
    (undo,) = buttons_on(fake, message, "dd.c:undo:")
    move = actions_on(fake, message)[0]
    before = await bot.core.runs.get(run_id)

    ids = [undo, move] if undo_first else [move, undo]
    answers = await race(fake, bot, message, ids)

    after = await bot.core.runs.get(run_id)
    undone, moved = after.moves == 0, after.moves == 2
    assert undone != moved, after.moves  # exactly one of the two was applied
    assert after.version == before.version + 1
    assert len([r for r in answers if refused(r)]) == 1
    # The one that came first won; the board never showed the move the other one would
    # have taken back.
    assert undone == undo_first


@pytest.mark.parametrize("confirm_first", [True, False])
async def test_resign_and_a_move_from_one_board_at_once_apply_exactly_one(
    raw, error_logs, confirm_first
):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    move = actions_on(fake, message)[0]
    (resign,) = buttons_on(fake, message, "dd.c:resign:")
    # The confirmation is drawn from the same board (same version): copy it into a message.
    ask = fake.click(bot, ALICE, message, resign)
    await fake.settle()
    confirm_screen = fake.response(ask)
    (confirm,) = [c["custom_id"] for row in confirm_screen["data"]["components"]
                  for c in row["components"] if c["custom_id"].startswith("dd.c:confirm:")]
    assert parse(confirm).version == parse(move).version

    answers = await race(fake, bot, message, [confirm, move] if confirm_first else [move, confirm])

    run = await bot.core.runs.get(run_id)
    assert (run.status == "resigned") == confirm_first
    assert run.moves == (0 if confirm_first else 1)
    assert run.version == 1
    assert len([r for r in answers if refused(r)]) == 1


@pytest.mark.parametrize("abandon_first", [True, False])
async def test_abandon_and_a_move_from_one_board_at_once_apply_exactly_one(
    raw, error_logs, abandon_first
):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    move = actions_on(fake, message)[0]
    again = fake.command(bot, ALICE, "play", game="donsol", variant="hard")
    await fake.settle()
    offer = fake.response(again)["data"]["components"]
    (abandon,) = [c["custom_id"] for row in offer for c in row["components"]
                  if c["custom_id"].startswith("dd.c:abandon:")]

    answers = await race(fake, bot, message, [abandon, move] if abandon_first else [move, abandon])

    old = await bot.core.runs.get(run_id)
    runs = await bot.core.runs.unfinished(ALICE)
    if abandon_first:
        assert old.status == "resigned" and old.moves == 0
        assert [(r.variant, r.moves) for r in runs] == [("hard", 0)]
    else:
        assert old.status == "playing" and old.moves == 1
        assert [r.id for r in runs] == [run_id]
    assert len([r for r in answers if refused(r)]) == 1


async def test_abandon_with_a_variant_the_game_lacks_resigns_nothing(raw, error_logs):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    forged = f"dd.c:abandon:{run_id}:0:nightmare"

    click = fake.click(bot, ALICE, message, forged)
    await fake.settle()

    response = fake.response(click)
    assert response["data"]["flags"] & EPHEMERAL
    assert "no 'nightmare' variant" in response["data"]["content"]
    assert (await bot.core.runs.get(run_id)).status == "playing"
    assert len(await bot.core.runs.unfinished(ALICE)) == 1


async def test_a_board_brought_back_before_an_undo_stays_stale(raw, error_logs):
    """Undo lowers the move count; the version in the ids does not, so an older copy of a
    board never comes back to life."""
    fake, bot = raw
    message, run_id = await start(fake, bot)
    old_copy = actions_on(fake, message)  # a copy of the board at move 0, version 0
    await play_one(fake, bot, message)
    (undo,) = buttons_on(fake, message, "dd.c:undo:")
    (answer,) = await race(fake, bot, message, [undo])
    assert answer["type"] == UPDATE_MESSAGE
    run = await bot.core.runs.get(run_id)
    assert (run.moves, run.version) == (0, 2)

    (answer,) = await race(fake, bot, message, [old_copy[0]])

    assert description(answer).startswith(f"*{STALE}")
    assert await bot.core.runs.moves(run_id) == []


async def test_a_button_of_the_first_release_redraws_the_board(raw, error_logs):
    fake, bot = raw
    message, run_id = await start(fake, bot)

    (answer,) = await race(fake, bot, message, [f"dd:{run_id}:0:take 3D"])

    assert answer["type"] == UPDATE_MESSAGE
    assert description(answer).startswith(f"*{STALE}")
    assert f"dd.m:{run_id}:0:" in str(answer["data"]["components"])
    assert await bot.core.runs.moves(run_id) == []


@pytest.mark.parametrize(
    ("forged", "answer"),
    [
        ("dd.m:abc:0:take ZZ", GARBLED),
        ("dd.m:{run}:0:take ZZ", "That move is not possible: "),
        ("dd.m:{run}:0:dance", "That move is not possible: "),
        ("dd.m:987654321:0:take 7C", NO_RUN),
        ("dd.c:undo:{run}:", GARBLED),
        ("dd.c:undo:{run}:0:", "There is no move to undo yet."),
        ("dd.c:explode:{run}:0:", GARBLED),
        ("dd.c:share:{run}:0:", NO_SHARE),  # a practice run, not even finished
        ("dd.c:share:987654321:0:", NO_RUN),
        ("dd.c:stats:{run}:0::", GARBLED),
        ("dd.m:{run}:0:take 7C:and more", GARBLED),
        ("dd.m:" + "9" * (CUSTOM_ID_MAX - 5), GARBLED),
        ("dd.zz:{run}:0", GARBLED),
        ("dd", GARBLED),
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
    assert await bot.core.runs.moves(run_id) == []


@pytest.mark.parametrize(
    "verb", ["confirm", "undo", "abandon", "resign", "board", "again", "share", "stats"]
)
async def test_a_forged_control_on_someone_elses_run_is_refused(raw, error_logs, verb):
    fake, bot = raw
    message, run_id = await start(fake, bot)
    await play_one(fake, bot, message)

    click = fake.click(bot, BOB, message, f"dd.c:{verb}:{run_id}:1:")
    await fake.settle()

    assert "belongs to" in fake.response(click)["data"]["content"]
    run = await bot.core.runs.get(run_id)
    assert (run.status, run.moves, run.version) == ("playing", 1, 1)


@pytest.mark.parametrize(
    ("options", "answer"),
    [
        ({"game": "chess"}, "There is no game called 'chess': choose Donsol"),
        ({"game": "donsol", "variant": "nightmare"}, "Donsol has no 'nightmare' variant"),
        ({"game": "tomb", "variant": "hard"}, "Tomb of Four Kings has no 'hard' variant"),
        ({"game": "donsol", "day": "yesterday-ish"}, "'yesterday-ish' is not a day: write it as"),
    ],
)
async def test_an_option_no_client_offers_is_refused_in_one_sentence(
    raw, error_logs, options, answer
):
    """A modified client can send any option value: each gets a refusal, not an error id."""
    fake, bot = raw
    asked = fake.command(bot, ALICE, "play", **options)
    await fake.settle()

    response = fake.response(asked)
    assert response["data"]["flags"] & EPHEMERAL
    assert response["data"]["content"].startswith(answer)
    assert await bot.core.runs.unfinished(ALICE) == []
