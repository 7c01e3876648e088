"""Streak reminders end to end (simcord): a player who asked gets one direct message in the
last hour of the day's deal when a streak is at risk, naming the game, the streak, when the
deal ends and how to stop; nothing before that hour or for a streak not at risk; once a day
across two bot processes on one database; a player who takes no DMs is skipped with one log
line; reminders:off stops the next one even after the list was made."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from core.reminders import SENT, SKIPPED
from tests.bot.conftest import World
from tests.bot.test_months import tomb_daily
from tests.core.conftest import Clock

YESTERDAY, TODAY = "2026-12-14", "2026-12-15"
BEFORE_THE_HOUR = datetime(2026, 12, 15, 22, 59, tzinfo=UTC)
IN_THE_HOUR = datetime(2026, 12, 15, 23, 0, 30, tzinfo=UTC)
MIDNIGHT = int(datetime(2026, 12, 16, 0, 0, tzinfo=UTC).timestamp())


@pytest.fixture
def clock() -> Clock:
    return Clock(BEFORE_THE_HOUR)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


def loop(world: World):
    return world.env.bot.get_cog("ReminderLoop")


def dms(world: World, user) -> list[str]:
    return [m.content for m in user.dm_channel.history()
            if m.author.id == world.env.bot.user.id]


async def reminders_on(world: World, user) -> None:
    answer = await world.slash(user, "preferences", reminders="on")
    assert "- `reminders`: `on`" in answer.response.content


async def test_a_streak_at_risk_gets_one_dm_in_the_last_hour(world, clock, error_logs):
    carol = world.guild.add_member(world.env.create_user("carol"))
    for user in (world.alice, world.bob, carol):
        await tomb_daily(world, clock, YESTERDAY, user, 3)
    await tomb_daily(world, clock, TODAY, world.bob, 4)  # bob played today: not at risk
    await reminders_on(world, world.alice)
    await reminders_on(world, world.bob)  # carol never asked
    clock.now = BEFORE_THE_HOUR
    assert await loop(world).run_due(clock.now) == []

    clock.now = IN_THE_HOUR
    (result,) = await loop(world).run_due(clock.now)
    assert (result.user_id, result.status) == (world.alice.id, SENT)
    (text,) = dms(world, world.alice.user)
    assert "🔥 Your **Tomb of Four Kings** streak of 1 day is at risk" in text
    assert f"Today's deal ends <t:{MIDNIGHT}:t> (<t:{MIDNIGHT}:R>)" in text
    assert "`/preferences reminders:off` stops them" in text
    assert dms(world, world.bob.user) == [] and dms(world, carol.user) == []

    clock.advance(minutes=20)  # the next passes of the hour send nothing more
    assert await loop(world).run_due(clock.now) == []
    assert len(dms(world, world.alice.user)) == 1


async def test_two_processes_send_a_reminder_once(world, make_bot, clock, error_logs):
    await tomb_daily(world, clock, YESTERDAY, world.alice, 3)
    await reminders_on(world, world.alice)
    clock.now = IN_THE_HOUR
    first = loop(world)
    due = await first.reminders.due(clock.now)
    await world.env.restart_bot(make_bot(clock=clock))  # another process, same database
    second = loop(world)
    assert [r.status for r in await second.run_due(clock.now)] == [SENT]
    # The first process made its list before the second sent: its claim now fails.
    assert [await first.reminders.claim(r.user_id, r.day) for r in due] == [False]
    assert await second.run_due(clock.now) == []
    assert len(dms(world, world.alice.user)) == 1


async def test_a_player_who_takes_no_dms_is_skipped_with_one_log_line(
    world, clock, caplog, error_logs
):
    robot = world.guild.add_member(world.env.create_user("robot", bot=True))
    await tomb_daily(world, clock, YESTERDAY, robot, 3)
    await world.core.settings.set_player(robot.id, "reminders", "on")
    clock.now = IN_THE_HOUR
    caplog.set_level(logging.INFO)
    (result,) = await loop(world).run_due(clock.now)
    assert (result.status, result.note) == (SKIPPED, "cannot be messaged")
    lines = [r.getMessage() for r in caplog.records if "streak reminder" in r.getMessage()]
    assert lines == [f"streak reminder to user {robot.id} skipped: they cannot be messaged"]
    assert await loop(world).run_due(clock.now) == []  # not tried again


async def test_reminders_off_stops_one_already_listed(world, clock, error_logs):
    await tomb_daily(world, clock, YESTERDAY, world.alice, 3)
    await reminders_on(world, world.alice)
    clock.now = IN_THE_HOUR
    (listed,) = await loop(world).reminders.due(clock.now)
    await world.slash(world.alice, "preferences", reminders="off")
    result = await loop(world)._remind(listed)
    assert result is not None and (result.status, result.note) == (
        SKIPPED, "reminders turned off")
    assert dms(world, world.alice.user) == []
    await world.slash(world.alice, "preferences", reminders="on")  # on again: not today
    assert await loop(world).run_due(clock.now) == []
