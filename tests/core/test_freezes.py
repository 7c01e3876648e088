"""Streak freezes: one earned every 7 consecutive days played, at most 2 held, used on a
missed day so the streak goes on — on day numbers, across a month's end, through the core."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from core import Core
from core.freezes import walk
from store.base import Streak
from tests.core.conftest import Clock

ALICE = 1001


def days(first: str, count: int) -> list[str]:
    start = date.fromisoformat(first)
    return [(start + timedelta(days=k)).isoformat() for k in range(count)]


def islands(*spans: tuple[str, int]) -> list[Streak]:
    return [Streak(first, days(first, n)[-1], n) for first, n in spans]


def test_seven_days_earn_a_freeze_that_bridges_one_missed_day_of_a_pair() -> None:
    # Nov 25 to Dec 1 played (7 days, over the month's end): one freeze. Dec 2 and 3 missed.
    played = islands(("2026-11-25", 7))
    on_dec_3 = walk(played, date(2026, 12, 3))  # only Dec 2 missed so far: frozen
    assert (on_dec_3.current, on_dec_3.freezes, sorted(on_dec_3.frozen)) == (7, 0, ["2026-12-02"])
    on_dec_4 = walk(played, date(2026, 12, 4))  # Dec 3 missed too, with no freeze left
    assert (on_dec_4.current, on_dec_4.longest, on_dec_4.freezes) == (0, 7, 0)
    assert sorted(on_dec_4.frozen) == ["2026-12-02"]
    again = walk([*played, *islands(("2026-12-04", 2))], date(2026, 12, 5))
    assert (again.current, again.longest) == (2, 7)  # a new streak from Dec 4


def test_two_held_freezes_bridge_a_missed_pair_and_a_third_is_not_kept() -> None:
    played = islands(("2026-11-20", 21), ("2026-12-13", 3))  # Dec 11 and 12 missed
    state = walk(played, date(2026, 12, 15))
    assert state.current == state.longest == 24
    assert sorted(state.frozen) == ["2026-12-11", "2026-12-12"]
    assert state.freezes == 0  # 3 earned, only 2 held, both used
    assert walk(islands(("2026-11-20", 21)), date(2026, 12, 11)).freezes == 2


def test_today_is_not_missed_and_a_frozen_day_restarts_the_count_to_seven() -> None:
    played = islands(("2026-12-01", 7), ("2026-12-09", 4), ("2026-12-14", 3))
    state = walk(played, date(2026, 12, 16))  # Dec 8 frozen; Dec 13 has no freeze: ends
    assert (state.current, state.longest, state.freezes) == (3, 11, 0)
    assert sorted(state.frozen) == ["2026-12-08"]
    assert walk([], date(2026, 12, 16)) == walk([], date(2026, 12, 1))


async def test_stats_show_freezes_held_and_days_frozen_across_a_month_end(
    core: Core, clock: Clock
) -> None:
    async def play(day: str) -> None:
        clock.now = datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)
        run = (await core.daily.start(ALICE, "tomb")).run
        await core.runs.resign(run.id, ALICE, run.version)  # resigned is finished

    for day in days("2026-11-27", 14):  # Nov 27 to Dec 10: two freezes
        await play(day)
    record = await core.rankings.record(ALICE, "tomb")
    assert (record.current_streak, record.freezes, record.frozen) == (14, 2, frozenset())
    for day in ("2026-12-13", "2026-12-14"):  # Dec 11 and 12 missed: both frozen
        await play(day)
    record = await core.rankings.record(ALICE, "tomb")
    assert (record.current_streak, record.longest_streak, record.freezes) == (16, 16, 0)
    assert sorted(record.frozen) == ["2026-12-11", "2026-12-12"]
    strip = dict(record.recent)
    assert strip["2026-12-11"] is None and "2026-12-11" in record.frozen  # frozen, not played
    clock.now = datetime(2026, 12, 16, 0, 30, tzinfo=UTC)  # Dec 15 missed, no freeze left
    record = await core.rankings.record(ALICE, "tomb")
    assert (record.current_streak, record.longest_streak) == (0, 16)
