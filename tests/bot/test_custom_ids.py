"""Forged custom ids of every kind the bot sends: one strict parser reads them all, and a bad
one gets the calm "damaged button" answer with nothing changed (no error id).

Through raw INTERACTION_CREATE payloads (a modified client sends what it likes), and the
parser on its own with hypothesis.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import challenge_screens, custom_ids, replay_screens, standings
from bot.buttons import GARBLED, control_id, make_id, move_id, parse
from bot.cogs import info
from tests.bot.raw import EPHEMERAL, UPDATE_MESSAGE, FakeDiscord
from tests.core.test_act import play_out

ALICE, BOB = 1001, 1002
OTHER_GUILD = 777_000_000_000_000_001
NINETEEN = "9" * 19  # more than a 64-bit signed integer holds


@pytest.fixture
async def raw(make_bot) -> AsyncIterator[tuple[FakeDiscord, Any]]:
    fake = FakeDiscord()
    bot = make_bot()
    await fake.attach(bot)
    yield fake, bot
    await fake.settle()
    await bot.http.close()


async def board(fake: FakeDiscord, bot: Any) -> int:
    """/play donsol in a DM: the message a forged id is put on."""
    fake.command(bot, ALICE, "play", game="donsol")
    await fake.settle()
    return list(fake.messages)[-1]


FORGED = [
    "dd.ch:acc:" + NINETEEN,
    "dd.ch:close:" + NINETEEN,
    "dd.ch:acc:²",
    "dd.ch:acc:0",
    "dd.ch:acc:-1",
    "dd.ch:acc:1:2",
    "dd.se:next:" + NINETEEN + ":1",
    "dd.se:next:1:" + NINETEEN,
    "dd.se:next:²:1",
    "dd.se:new:³",
    "dd.se:new:١٠",  # Arabic-Indic digits: str.isdigit() says yes
    "dd.se:stop:1",
    "dd.rp:" + NINETEEN + ":0:o",
    "dd.rp:²:0:o",
    "dd.rp:1:²:f",
    "dd.rp:1:0:x",
    "dd.lb:donsol:normal:2026-01-01:s:²:0",
    "dd.lb:donsol:normal:2026-01-01:g:0:²",
    "dd.lb:donsol:normal:2026-01-01:g:" + NINETEEN + ":0",
    "dd.lb:donsol:normal:2026-01-01:x:0:0",
    "dd.lb:donsol:normal:today:g:0:0",
    "dd.m:" + NINETEEN + ":0:escape",
    "dd.m:9223372036854775808:0:escape",  # 2**63
    "dd.m:1:９:escape",  # a fullwidth nine
    "dd.c:undo:" + NINETEEN + ":0:",
    "dd.c:show:²:0:p",
    "dd.dy:donsol",
    "dd.hp:everything",
    "dd.dy:Donsol:normal",
    "dd.dy:donsol:normal:0",
    "dd:" + NINETEEN + ":0:escape",  # the first release's format
    "ddc:undo:" + NINETEEN + ":0",
]


@pytest.mark.parametrize("forged", FORGED)
async def test_a_forged_id_of_any_kind_gets_the_damaged_button_answer(raw, error_logs, forged):
    fake, bot = raw
    message = await board(fake, bot)
    before = dict(fake.messages[message])
    (run,) = await bot.core.runs.unfinished(ALICE)

    click = fake.click(bot, ALICE, message, forged)
    await fake.settle()

    response = fake.response(click)
    assert response["type"] == 4 and response["data"]["flags"] & EPHEMERAL
    assert response["data"]["content"] == GARBLED
    assert fake.messages[message] == before
    assert await bot.core.runs.get(run.id) == run


async def test_a_server_board_page_is_the_clicking_servers_never_the_one_in_the_id(
    raw, error_logs
):
    fake, bot = raw
    core = bot.core
    started = await core.daily.start(BOB, "donsol", guild_id=OTHER_GUILD)
    await play_out(core, started.run, random.Random(1))
    mine = await core.daily.start(ALICE, "donsol")  # in a DM: on everyone's board only
    await play_out(core, mine.run, random.Random(2))
    message = await board(fake, bot)
    run = started.run
    forged = f"dd.lb:donsol:{run.variant}:{run.day}:s:{OTHER_GUILD}:0"

    click = fake.click(bot, ALICE, message, forged)  # clicked in a DM
    await fake.settle()

    response = fake.response(click)
    assert response["type"] == UPDATE_MESSAGE
    embed = response["data"]["embeds"][0]
    assert embed["title"].endswith("· everyone"), embed["title"]
    assert "2 ranked" in embed["footer"]["text"]


@pytest.mark.parametrize(("forged", "said"), [
    ("dd.dy:chess:normal", "chess"), ("dd.dy:tomb:nightmare", "nightmare")])
async def test_a_well_formed_play_button_of_no_game_is_refused_calmly(raw, error_logs, forged,
                                                                      said):
    fake, bot = raw
    message = await board(fake, bot)
    click = fake.click(bot, BOB, message, forged)
    await fake.settle()
    response = fake.response(click)
    assert response["type"] == 4 and response["data"]["flags"] & EPHEMERAL
    assert said in response["data"]["content"] and "error" not in response["data"]["content"]
    assert await bot.core.runs.unfinished(BOB) == []


async def test_a_settings_topic_is_refused_where_settings_cannot_be_used(raw, error_logs):
    fake, bot = raw
    message = await board(fake, bot)  # in a DM: /settings is for servers only
    click = fake.click(bot, BOB, message, "dd.hp:settings")
    await fake.settle()
    response = fake.response(click)
    assert response["type"] == 4 and response["data"]["flags"] & EPHEMERAL
    assert response["data"]["content"] == info.NOT_YOURS


# ----- the parser on its own ------------------------------------------------------------------


def test_every_kind_the_bot_sends_is_read_back_with_its_values():
    big = 2**63 - 1
    cases = {
        move_id(big, 999_999_999, "take 10H"): (big, 999_999_999, "take 10H"),
        control_id("abandon", 12, 7, "hard"): ("abandon", 12, 7, "hard"),
        control_id("undo", 12, 7): ("undo", 12, 7, ""),
        make_id(standings.BOARD_PAGE, "tomb", "normal", "w2026-11-30", "s", big, 3):
            ("tomb", "normal", "w2026-11-30", "s", big, 3),
        replay_screens.replay_id(5, 40, replay_screens.LAST): (5, 40, "l"),
        standings.replay_open_id(5): (5, 0, "o"),
        challenge_screens.accept_id(8): ("acc", 8),
        challenge_screens.close_id(8): ("close", 8),
        challenge_screens.new_series_id(5): ("new", 5),
        make_id(challenge_screens.SERIES, "next", 3, 2): ("next", 3, 2),
        standings.play_daily_id("tomb", "normal"): ("tomb", "normal"),
    }
    for custom_id, fields in cases.items():
        click = parse(custom_id)
        assert click.kind != custom_ids.GARBLED, custom_id
        assert click.fields == fields, custom_id


def test_the_kinds_and_tags_the_screens_send_are_the_ones_the_parser_reads():
    assert standings.BOARD_PAGE == custom_ids.BOARD_PAGE
    assert standings.REPLAY == custom_ids.REPLAY
    assert challenge_screens.CHALLENGE == custom_ids.CHALLENGE
    assert challenge_screens.SERIES == custom_ids.SERIES
    assert standings.PLAY_DAILY == custom_ids.DAILY
    assert info.HELP == custom_ids.HELP
    assert set(custom_ids.HELP_TOPICS) == {"intro", *info.TOPICS}
    assert replay_screens.TAGS == custom_ids.REPLAY_TAGS


TEMPLATES = [
    "dd.m:{n}:0:escape", "dd.m:1:{n}:escape", "dd.c:undo:{n}:0:", "dd.c:show:1:{n}:p",
    "dd.lb:donsol:normal:2026-01-01:s:{n}:0", "dd.lb:donsol:normal:2026-01-01:g:0:{n}",
    "dd.rp:{n}:0:o", "dd.rp:1:{n}:f", "dd.ch:acc:{n}", "dd.ch:close:{n}",
    "dd.se:next:{n}:1", "dd.se:next:1:{n}", "dd.se:new:{n}", "dd:{n}:0:escape",
]
#: Characters Python calls digits that are not ASCII 0-9.
OTHER_DIGITS = st.characters(categories=("Nd", "No")).filter(lambda c: c not in "0123456789")


@given(template=st.sampled_from(TEMPLATES), digits=st.text(OTHER_DIGITS, min_size=1, max_size=4),
       before=st.text("0123456789", max_size=3))
def test_any_digit_that_is_not_ascii_makes_an_id_garbled(template, digits, before):
    assert parse(template.format(n=before + digits)).kind == custom_ids.GARBLED


@given(template=st.sampled_from(TEMPLATES),
       n=st.integers(2**63, 10**30) | st.integers(-(10**20), -1))
def test_a_number_out_of_its_fields_range_makes_an_id_garbled(template, n):
    assert parse(template.format(n=n)).kind == custom_ids.GARBLED


@given(template=st.sampled_from(TEMPLATES), n=st.integers(1, 999))
def test_a_number_in_range_is_read(template, n):
    click = parse(template.format(n=n))
    assert click.kind != custom_ids.GARBLED
    assert n in click.fields
