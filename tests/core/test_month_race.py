"""Two OS processes closing the same month at 01:00 on the 1st, on both databases: each
server's champions are posted once (one claim wins, the other process does nothing for it)
and every closed day is rated once, in order (advisory locks on PostgreSQL)."""

from __future__ import annotations

import asyncio
import multiprocessing
from datetime import UTC, datetime
from pathlib import Path

from core import Core
from tests.core import month_racer
from tests.core.conftest import Clock, query
from tests.core.test_ratings import play_day

GUILD, OTHER_GUILD = 7, 8  # play_day's servers
CHANNELS = {GUILD: 70, OTHER_GUILD: 80}
DAYS = ("2026-12-29", "2026-12-30", "2026-12-31")
CLOSE = datetime(2027, 1, 1, 1, 0, 5, tzinfo=UTC)


async def test_two_processes_closing_a_month_post_and_rate_once(
    db_path: Path, clock: Clock
) -> None:
    async with await Core.open(db_path, clock=clock) as core:
        for guild_id, channel_id in CHANNELS.items():
            await core.settings.change_guild(guild_id, results_channel=channel_id)
        for n, day in enumerate(DAYS):
            await play_day(core, clock, day, {101: 2 + n, 202: 3 + n, 303: 4 + 2 * n})
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(2), context.Queue()
    closers = [context.Process(target=month_racer.close_month,
                               args=(str(db_path), CLOSE.isoformat(), barrier, results))
               for _ in range(2)]
    for closer in closers:
        closer.start()
    reports = [await asyncio.to_thread(results.get, True, 90) for _ in closers]
    for closer in closers:
        await asyncio.to_thread(closer.join, 60)
        assert closer.exitcode == 0

    posted = sorted(guild for report in reports for guild in report["posted"])
    assert posted == [GUILD, OTHER_GUILD]  # each server once, between the two processes
    rows = query(db_path, "SELECT guild_id, month, status, channel_id, message_id "
                          "FROM month_closes ORDER BY guild_id")
    pids = {report["pid"] for report in reports}
    assert [row[:4] for row in rows] == [
        (GUILD, "2026-12", "posted", 70), (OTHER_GUILD, "2026-12", "posted", 80)]
    assert {row[4] for row in rows} <= pids
    rated = sorted(day for report in reports for day in report["rated"])
    assert rated == [("tomb", "standard", day) for day in DAYS]
    assert query(db_path, "SELECT day FROM rated_days ORDER BY day") == [(d,) for d in DAYS]
    assert query(db_path, "SELECT owner_id, days FROM ratings ORDER BY owner_id") == [
        (101, 3), (202, 3), (303, 3)]
