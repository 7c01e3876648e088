"""Series through discord.py (simcord): /series deals Tomb runs back to back, each board
shows which run it is and the running total, "Next run" between runs, the total with each
run's score after the last; /stats shows the best total."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from tests.bot.conftest import World
from tests.core.conftest import Clock
from tests.core.test_act import play_out

FRIDAY = datetime(2026, 12, 11, 12, 0, tzinfo=UTC)  # in the week of Monday 2026-12-07


@pytest.fixture
def clock() -> Clock:
    return Clock(FRIDAY)


@pytest.fixture
def simcord_bot(make_bot, clock):
    # Tomb deals that random play (the rng seeds below) ends as: escaped with 27 points,
    # dead, (a deal /series makes and drops while a series is going), escaped with 19 points.
    seeds = iter([3, 1, 4, 3, 11, 12])
    return make_bot(random_seed=lambda: next(seeds), clock=clock)


def fields(message) -> dict[str, str]:
    return {f.name: f.value for f in message.embeds[0].fields}


def button_id(world: World, message, label: str) -> str:
    (found,) = [b["custom_id"] for b in world.buttons(message) if b.get("label") == label]
    return found


async def test_a_series_of_three_adds_up_its_points_and_shows_the_best_in_stats(
    world, error_logs
):
    result = await world.slash(world.alice, "series", length=3)
    board = result.response
    assert not result.ephemeral
    assert "Series · run 1 of 3" in fields(board)
    assert "A series of 3" in world.description(board)

    board = await world.play_to_the_end(world.alice, board, random.Random(1))
    assert "Total so far: **27** points" in fields(board)["Series · run 1 of 3"]
    labels = [b.get("label") for b in world.buttons(board)]
    assert "Next run" in labels and "Play again" not in labels
    nxt = button_id(world, board, "Next run")
    refused = await world.click(world.bob, board, nxt)
    assert refused.ephemeral and "belongs to" in refused.response.content

    board = (await world.click(world.alice, board, nxt)).response
    assert "Series · run 2 of 3" in fields(board)
    again = await world.slash(world.alice, "series", length=5)  # the series going comes back
    assert "still going" in world.description(again.response)
    assert "Series · run 2 of 3" in fields(again.response)

    board = await world.play_to_the_end(world.alice, board, random.Random(1))
    assert "dead" in world.description(board)
    assert "Total so far: **27** points (1: 27 · 2: 0)" in fields(board)["Series · run 2 of 3"]
    board = (await world.click(world.alice, board, button_id(world, board, "Next run"))).response
    board = await world.play_to_the_end(world.alice, board, random.Random(2))
    summary = fields(board)["Series of 3 over · total 46 points"]
    assert "Run 1: 1 King, 27 points → **27**" in summary
    assert "Run 2: dead — 0 → **0**" in summary
    assert "Run 3: 1 King, 19 points → **19**" in summary
    assert [b.get("label") for b in world.buttons(board)][-1] == "New series of 3"

    stats = (await world.slash(world.alice, "stats", game="tomb")).response
    text = stats.embeds[0].fields[0].value
    assert "Best series: 3 runs **46**" in text


async def test_the_week_board_adds_up_the_daily_tomb_points_of_this_week(
    world, clock, error_logs
):
    core = world.core
    points: dict[int, int] = {}
    plays = [("2026-12-06", world.alice, 1), ("2026-12-07", world.alice, 2),
             ("2026-12-09", world.alice, 3), ("2026-12-10", world.bob, 4),
             ("2026-12-11", world.bob, 1)]
    for day, user, rng in plays:
        clock.now = datetime.fromisoformat(f"{day}T09:00:00+00:00")
        await core.rankings.remember_name(user.id, user.name)
        started = await core.daily.start(user.id, "tomb", guild_id=world.guild.id)
        run = await play_out(core, started.run, random.Random(rng))
        if day >= "2026-12-07":  # the Sunday before is another week
            points[user.id] = points.get(user.id, 0) + (
                run.score[1] if run.outcome in ("won", "escaped") else 0)
    clock.now = FRIDAY
    result = await world.slash(world.alice, "leaderboard", game="tomb", day="week")
    board = result.response
    assert "week of 2026-12-07 to 2026-12-13" in board.embeds[0].title
    text = world.description(board)
    assert f"**alice** — {points[world.alice.id]} points (2 days)" in text
    assert f"**bob** — {points[world.bob.id]} points (2 days)" in text
    assert "← you" not in text  # a public board marks nobody
    (own,) = result.followups
    assert own.ephemeral
    assert own.content.startswith("You: **#") and f"{points[world.alice.id]} points" in own.content


async def test_the_week_board_pages_survive_a_restart(world, make_bot, clock, error_logs):
    clock.now = datetime(2026, 12, 8, 9, 0, tzinfo=UTC)  # the Tuesday
    for user in range(1, 13):
        await world.core.rankings.remember_name(user, f"player {user:02d}")
        started = await world.core.daily.start(user, "tomb", guild_id=world.guild.id)
        await play_out(world.core, started.run, random.Random(user))
    clock.now = FRIDAY
    page = (await world.slash(world.bob, "leaderboard", game="tomb", day="week")).response
    assert "12 players · page 1/2" in page.embeds[0].footer.text
    nxt = button_id(world, page, "Next")
    await world.env.restart_bot(make_bot(clock=clock))
    clock.now = datetime(2026, 12, 14, 9, 0, tzinfo=UTC)  # next week: the page keeps its week
    second = (await world.click(world.bob, page, nxt)).response
    assert "page 2/2" in second.embeds[0].footer.text
    assert "week of 2026-12-07 to 2026-12-13" in second.embeds[0].title
    assert len([ln for ln in world.description(second).splitlines() if ln.startswith("`#")]) == 2
