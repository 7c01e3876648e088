"""Tomb series in the core (points added up, a death and a resignation count 0, the next run
only after the one before, the best total in stats) and the week's board of daily Tomb
points (Monday to Sunday UTC, with an injected clock)."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core import Core, NotYourRun, RunKind
from core.errors import Refusal
from tests.core.conftest import SECRET, Clock, Seeds
from tests.core.test_act import play_out

ALICE, BOB, CAROL = 101, 202, 303


@pytest.fixture
async def seeded(db_path: Path, clock: Clock):
    # Tomb deals that random play (the rng seeds below) ends as: escaped with 27 points,
    # dead, (a deal /series makes and drops when a series is going), escaped with 19 points.
    core = await Core.open(db_path, clock=clock, daily_secret=SECRET,
                           random_seed=Seeds(3, 1, 4, 3, 5, 6, 7, 8, 9))
    yield core
    await core.close()


async def test_a_series_of_three_adds_up_its_points_and_a_death_counts_zero(seeded: Core):
    core = seeded
    started = await core.series.start(ALICE, 3)
    assert started.created and started.run.kind is RunKind.SERIES and started.run.game == "tomb"
    first = await play_out(core, started.run, random.Random(1))
    assert first.outcome == "escaped" and first.score == [1, 27, 1]

    with pytest.raises(Refusal, match="older board"):
        await core.series.next(started.series.id, ALICE, 2)
    with pytest.raises(NotYourRun):
        await core.series.next(started.series.id, BOB, 1)
    series, second, dealt = await core.series.next(started.series.id, ALICE, 1)
    assert dealt and second.seed != first.seed  # a new deal
    again, same, dealt = await core.series.next(started.series.id, ALICE, 1)  # a double click
    assert not dealt and same.id == second.id and len(again.entries) == 2
    with pytest.raises(Refusal, match="Finish this run first"):
        await core.series.next(started.series.id, ALICE, 2)
    back = await core.series.start(ALICE, 5)  # one series at a time: this one comes back
    assert not back.created and back.run.id == second.id and back.series.length == 3

    dead = await play_out(core, second, random.Random(1))
    assert dead.outcome == "dead"
    series, third, _ = await core.series.next(started.series.id, ALICE, 2)
    assert series.total == 27 and not series.finished
    last = await play_out(core, third, random.Random(2))
    assert last.score == [1, 19, 1]
    done = await core.series.of_run(third.id)
    assert done is not None and done.finished and done.total == 27 + 0 + 19
    assert [e.number for e in done.entries] == [1, 2, 3]
    with pytest.raises(Refusal, match="all 3 runs"):
        await core.series.next(started.series.id, ALICE, 3)

    contests = await core.rankings.contests(ALICE, "tomb")
    assert [(b.length, b.best, b.played) for b in contests.series_best] == [(3, 46, 1)]
    record = await core.rankings.record(ALICE, "tomb")
    assert record.stats.dailies == 0 and record.longest_streak == 0


async def test_a_resigned_run_counts_zero_and_the_best_total_is_kept(seeded: Core):
    core = seeded
    started = await core.series.start(ALICE, 3)
    first = await play_out(core, started.run, random.Random(1))  # 27 points
    _, second, _ = await core.series.next(started.series.id, ALICE, 1)
    await core.runs.resign(second.id, ALICE, second.version)
    _, third, _ = await core.series.next(started.series.id, ALICE, 2)
    third = await play_out(core, third, random.Random(0))
    done = await core.series.get(started.series.id)
    expected = first.score[1] + (third.score[1] if third.status.value == "over" else 0)
    assert done.finished and done.total == expected
    contests = await core.rankings.contests(ALICE, "tomb")
    assert contests.series_best[0].best == expected
    with pytest.raises(Refusal, match="3, 5 or 10"):
        await core.series.start(ALICE, 4)
    fresh = await core.series.start(ALICE, 5)  # the last one is over: a new series
    assert fresh.created and fresh.series.length == 5


# ----- the week's board ---------------------------------------------------------------------


async def daily_tomb(core: Core, clock: Clock, day: str, user: int, rng: int,
                     guild_id: int | None = 7) -> int:
    clock.now = datetime.fromisoformat(f"{day}T12:00:00+00:00")
    started = await core.daily.start(user, "tomb", guild_id=guild_id)
    run = await play_out(core, started.run, random.Random(rng))
    assert run.ranked
    return run.score[1] if run.outcome in ("won", "escaped") else 0


async def test_the_week_board_adds_up_the_daily_points_of_monday_to_sunday(
    core: Core, clock: Clock
) -> None:
    await core.rankings.remember_name(ALICE, "alice")
    await core.rankings.remember_name(BOB, "bob")
    await core.rankings.remember_name(CAROL, "carol")
    before = await daily_tomb(core, clock, "2026-12-06", ALICE, 1)  # the Sunday before
    week = {
        ALICE: [await daily_tomb(core, clock, day, ALICE, n)
                for n, day in enumerate(("2026-12-07", "2026-12-09", "2026-12-13"))],
        BOB: [await daily_tomb(core, clock, "2026-12-08", BOB, 5)],
        CAROL: [await daily_tomb(core, clock, "2026-12-10", CAROL, 2, guild_id=None)],
    }
    after = await daily_tomb(core, clock, "2026-12-14", BOB, 3)  # the Monday after
    # The days either side of the week score points, so a board that took them in would show.
    assert before > 0 and after > 0

    clock.now = datetime(2026, 12, 11, 9, 0, tzinfo=UTC)  # a Friday of that week
    board = await core.rankings.week("tomb", viewer_id=ALICE)
    assert (board.first, board.last) == ("2026-12-07", "2026-12-13")
    totals = {line.owner_id: (line.total, line.days) for line in board.lines}
    assert totals == {user: (sum(points), len(points)) for user, points in week.items()}
    ranks = [line.rank for line in board.lines]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert [line.total for line in board.lines] == sorted(
        (line.total for line in board.lines), reverse=True)
    server = await core.rankings.week("tomb", guild_id=7)
    assert {line.owner_id for line in server.lines} == {ALICE, BOB}  # carol played in a DM
    last_week = await core.rankings.week("tomb", day="2026-12-06")  # a Sunday ends its week
    assert (last_week.first, last_week.last) == ("2026-11-30", "2026-12-06")
    assert [(line.owner_id, line.total, line.days) for line in last_week.lines] == [
        (ALICE, before, 1)]
    next_week = await core.rankings.week("tomb", day="2026-12-14")
    assert [(line.owner_id, line.total, line.days) for line in next_week.lines] == [
        (BOB, after, 1)]
