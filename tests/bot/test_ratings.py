"""Ratings and streak freezes as players see them: ``/leaderboard day:rating`` (server and
everyone, with pages), ``/stats`` (the rating, freezes held, ❄️ in the strip), and the
operator's ``python -m bot ratings [--recompute]``."""

from __future__ import annotations

import random
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core import Core
from core.daily import closes_at
from tests.bot.conftest import World
from tests.bot.test_main import run_bot
from tests.core.conftest import START, Clock
from tests.core.test_act import play_out

DAY = START.date().isoformat()


@pytest.fixture
def clock() -> Clock:
    return Clock(START)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


async def play(world: World, user_id: int, seed: int | None, guild: int | None) -> None:
    run = (await world.core.daily.start(user_id, "tomb", guild_id=guild)).run
    if seed is None:
        await world.core.runs.resign(run.id, user_id, run.version)
    else:
        await play_out(world.core, run, random.Random(seed))


async def test_the_rating_board_and_stats_after_a_closed_day(world, clock, error_logs):
    clock.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    for user in range(1, 12):
        await world.core.rankings.remember_name(user, f"player {user:02d}")
        await play(world, user, user, world.guild.id)
    await play(world, world.alice.id, 99, world.guild.id)
    await play(world, world.bob.id, None, None)  # in a DM: on no server's rating board
    empty = (await world.slash(world.alice, "leaderboard", game="tomb", day="rating")).response
    assert "Nobody is rated yet" in world.description(empty)

    clock.now = closes_at(DAY)
    loop = world.env.bot.get_cog("RatingLoop")
    rated = await loop.run_due(clock())
    assert [(r.day, r.players) for r in rated] == [(DAY, 13)]
    here = (await world.slash(world.alice, "leaderboard", game="tomb", day="rating")).response
    footer = here.embeds[0].footer.text
    assert "12 rated" in footer and "page 1/2" in footer and f"rated to {DAY}" in footer
    ratings = [int(r) for r in re.findall(r"— (\d+) \(1 day provisional\)",
                                          world.description(here))]
    assert len(ratings) >= 10 and ratings == sorted(ratings, reverse=True)
    (nxt,) = [b for b in world.buttons(here) if b.get("label") == "Next"]
    second = (await world.click(world.bob, here, nxt["custom_id"])).response
    assert "page 2/2" in second.embeds[0].footer.text
    everyone = (await world.slash(world.bob, "leaderboard", game="tomb", day="rating",
                                  scope="global")).response
    assert "13 rated" in everyone.embeds[0].footer.text

    (mine,) = await world.core.ratings.of_player(world.alice.id, "tomb")
    stats = (await world.slash(world.alice, "stats", game="tomb")).response
    (field,) = stats.embeds[0].fields
    assert mine.rating != 1000  # a first rated day, this month: its change from 1000
    change = f"{'▲' if mine.rating > 1000 else '▼'} {abs(mine.rating - 1000)} this month"
    assert (f"Rating: **{mine.rating}** {change} (standard, provisional, 1 of 10 days)"
            in field.value)
    assert "Freezes held: **0** of 2 · days frozen: 0" in field.value


async def test_stats_show_a_frozen_day_in_the_strip(world, clock, error_logs):
    start = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    for k in (*range(7), 8):  # Dec 1 to 7, then Dec 9: Dec 8 is frozen
        clock.now = start + timedelta(days=k)
        await play(world, world.alice.id, None, world.guild.id)
    stats = (await world.slash(world.alice, "stats", game="tomb")).response
    (field,) = stats.embeds[0].fields
    assert "Daily streak: **8** (longest 8)" in field.value
    assert "Freezes held: **0** of 2 · days frozen: 1" in field.value
    # From the first daily on (Dec 1), a week a row: the frozen Dec 8 keeps its ❄️.
    lines = field.value.splitlines()
    at = lines.index("Since the first daily (9 days):")
    assert lines[at + 1:at + 3] == ["⬜" * 7, "❄️" + "⬜"]
    assert "❄️ frozen" in stats.embeds[0].footer.text


async def test_the_operator_rates_and_recomputes_from_the_command_line(tmp_path: Path):
    path = tmp_path / "data" / "dungeon-deck.sqlite3"
    day = (datetime.now(UTC) - timedelta(days=3)).replace(hour=12)
    async with await Core.open(path, clock=lambda: day) as core:
        for user in (1, 2, 3):
            run = (await core.daily.start(user, "clear")).run
            await play_out(core, run, random.Random(user))
    rated = run_bot(tmp_path, "ratings")
    assert rated.returncode == 0, rated.stderr
    iso = day.date().isoformat()
    assert f"clear standard: 1 days rated, {iso} to {iso}" in rated.stdout
    tables = ("SELECT * FROM ratings ORDER BY owner_id",
              "SELECT * FROM rating_history ORDER BY owner_id, day")
    with sqlite3.connect(path) as conn:
        before = [conn.execute(sql).fetchall() for sql in tables]
    assert len(before[0]) == 3
    assert [row[2:4] for row in before[1]] == [(user, iso) for user in (1, 2, 3)]
    rebuilt = run_bot(tmp_path, "ratings", "--recompute")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert f"clear standard: 1 days rebuilt, {iso} to {iso}" in rebuilt.stdout
    with sqlite3.connect(path) as conn:
        assert [conn.execute(sql).fetchall() for sql in tables] == before
    assert "No closed day to rate." in run_bot(tmp_path, "ratings").stdout
