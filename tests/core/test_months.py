"""The month's board in the core, on both databases: each player's ranked daily points of a
calendar month (UTC) added up as the week's, per server and for everyone; final once the
month's last day has closed; past months readable, months to come and bad months refused;
and the totals always the runs' own sums (kept by the database as the runs rank)."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core import Core
from core.errors import Refusal
from tests.core.conftest import Clock, query
from tests.core.test_act import play_out
from tests.core.test_series import daily_tomb

ALICE, BOB, CAROL = 101, 202, 303


async def names(core: Core) -> None:
    for user, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
        await core.rankings.remember_name(user, name)


async def test_the_month_board_adds_up_the_daily_points_of_its_days_only(
    core: Core, clock: Clock
) -> None:
    await names(core)
    december = {
        ALICE: [await daily_tomb(core, clock, day, ALICE, n)
                for n, day in enumerate(("2026-12-01", "2026-12-15", "2026-12-31"))],
        BOB: [await daily_tomb(core, clock, "2026-12-08", BOB, 5)],
        CAROL: [await daily_tomb(core, clock, "2026-12-20", CAROL, 2, guild_id=None)],
    }
    january = await daily_tomb(core, clock, "2027-01-01", BOB, 3)  # the 1st of the next month
    assert january > 0  # so a board that took it in would show

    clock.now = datetime(2027, 1, 1, 0, 30, tzinfo=UTC)  # December's last day not closed yet
    board = await core.rankings.month("tomb", month="2026-12", viewer_id=ALICE)
    assert (board.first, board.last) == ("2026-12-01", "2026-12-31") and not board.closed
    totals = {line.owner_id: (line.total, line.days) for line in board.lines}
    assert totals == {user: (sum(points), len(points)) for user, points in december.items()}
    shown = [line.total for line in board.lines]
    assert shown == sorted(shown, reverse=True) and board.lines[0].rank == 1
    server = await core.rankings.month("tomb", month="2026-12", guild_id=7)
    assert {line.owner_id for line in server.lines} == {ALICE, BOB}  # carol played in a DM

    clock.now = datetime(2027, 1, 1, 1, 0, tzinfo=UTC)  # 01:00 on the 1st: December closes
    final = await core.rankings.month("tomb", month="2026-12")
    assert final.closed and final.lines == board.lines
    this = await core.rankings.month("tomb")  # this month: January
    assert this.first == "2027-01-01" and not this.closed
    assert [(line.owner_id, line.total, line.days) for line in this.lines] == [
        (BOB, january, 1)]
    same = await core.rankings.period("month", "tomb", None, "2027-01-20")
    assert same.lines == this.lines


async def test_shared_totals_share_a_rank_and_pages_hold_the_viewer(
    core: Core, clock: Clock, db_path: Path
) -> None:
    clock.now = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    for user in range(1, 15):
        await core.rankings.remember_name(user, f"player {user:02d}")
        started = await core.daily.start(user, "donsol", guild_id=7)
        run = started.run
        await core.runs.resign(run.id, user, run.version)  # a resignation: its points so far
    board = await core.rankings.month("donsol", viewer_id=14)
    assert board.size == 14 and board.pages == 2 and len(board.lines) == 10
    # Everyone resigned at once on one deal: one total, one shared rank, listed by name.
    assert {line.rank for line in board.lines} == {1}
    assert [line.name for line in board.lines] == [f"player {n:02d}" for n in range(1, 11)]
    assert board.own is not None and board.own.owner_id == 14 and board.own.rank == 1
    last = await core.rankings.month("donsol", page=99)  # past the end: the last page
    assert last.page == 1 and [line.owner_id for line in last.lines] == [11, 12, 13, 14]
    # The totals are the runs' own sums, whatever wrote the runs.
    (total,) = query(db_path, "SELECT sum(points) FROM runs WHERE kind = 'daily' AND ranked = 1")[0]
    assert sum(line.total for line in board.lines + last.lines) == total


async def test_a_servers_minimum_account_age_applies_as_on_the_1st(
    core: Core, clock: Clock
) -> None:
    young = (int(datetime(2026, 11, 25, tzinfo=UTC).timestamp() * 1000) - 1_420_070_400_000) << 22
    await core.rankings.remember_name(young, "newcomer")
    await daily_tomb(core, clock, "2026-12-10", young, 1)
    await daily_tomb(core, clock, "2026-12-10", ALICE, 2)
    await core.settings.change_guild(7, min_account_age=30)
    server = await core.rankings.month("tomb", month="2026-12", guild_id=7)
    assert [line.owner_id for line in server.lines] == [ALICE]
    assert server.min_account_age == 30
    everyone = await core.rankings.month("tomb", month="2026-12")
    assert {line.owner_id for line in everyone.lines} == {young, ALICE}


@pytest.mark.parametrize(("month", "says"), [
    ("2027-02", "has not begun"),
    ("2026-11", "began in 2026-12"),
    ("2026-13", "YYYY-MM"),
    ("december", "YYYY-MM"),
    ("2026-1", "YYYY-MM"),
])
async def test_months_to_come_before_the_dailies_or_misspelt_are_refused(
    core: Core, clock: Clock, month: str, says: str
) -> None:
    clock.now = datetime(2027, 1, 10, 12, 0, tzinfo=UTC)
    with pytest.raises(Refusal, match=says):
        await core.rankings.month("tomb", month=month)


async def test_practice_and_unranked_runs_add_nothing(core: Core, clock: Clock) -> None:
    clock.now = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    practice = await core.runs.start(ALICE, "tomb", guild_id=7)
    await play_out(core, practice, random.Random(1))
    late = (await core.daily.start(BOB, "tomb", guild_id=7)).run
    clock.now = datetime(2026, 12, 6, 2, 0, tzinfo=UTC)  # after the day closed: unranked
    late = await play_out(core, late, random.Random(1))
    assert not late.ranked
    board = await core.rankings.month("tomb", month="2026-12")
    assert board.lines == [] and board.size == 0


# ----- the month's close --------------------------------------------------------------------


@pytest.mark.parametrize(("now", "month"), [
    (datetime(2027, 1, 1, 0, 59, tzinfo=UTC), None),  # December's last day not closed yet
    (datetime(2027, 1, 1, 1, 0, tzinfo=UTC), "2026-12"),
    (datetime(2027, 1, 31, 23, 0, tzinfo=UTC), "2026-12"),
    (datetime(2027, 3, 1, 1, 0, tzinfo=UTC), "2027-02"),  # only the latest: no backlog
])
def test_a_month_closes_at_01_00_on_the_1st_after_it(now: datetime, month: str | None) -> None:
    from core.seasons import closed_month
    assert closed_month(now) == month


async def test_two_processes_closing_the_same_month_close_it_once(
    core: Core, clock: Clock, db_path: Path
) -> None:
    await core.settings.change_guild(7, results_channel=70)
    await daily_tomb(core, clock, "2026-12-10", ALICE, 2)
    clock.now = datetime(2027, 1, 1, 1, 0, 30, tzinfo=UTC)
    other = await Core.open(db_path, clock=clock, daily_secret="test-secret")
    try:
        month = core.seasons.closed_month()
        assert [d.guild_id for d in await other.seasons.pending(month)] == [7]
        claims = await asyncio.gather(*(c.seasons.claim(7, month) for c in (core, other) * 3))
        assert sorted(claims) == [False] * 5 + [True]
        assert await core.seasons.pending(month) == [] == await other.seasons.pending(month)
        close = await other.seasons.compose(7, month)
        (tomb,) = [b for b in close.boards if b.game == "tomb"]
        assert [line.owner_id for line in tomb.lines] == [ALICE] and close.champions == [ALICE]
        await other.seasons.gave_role(7, month, [ALICE])
        assert (await core.seasons.compose(7, "2027-01")).previous == [ALICE]
    finally:
        await other.close()
