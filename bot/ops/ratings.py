"""``python -m bot ratings [--recompute]``: rate the closed days not rated yet, or rebuild
every rating from the stored daily boards (``core.ratings``), and say what was done.

Safe with the bot running: a rebuild waits for a pass in progress (the same lock) and
replaces the ratings in one transaction, so players see the old ratings or the new ones.
"""

from __future__ import annotations

import asyncio
import sys
import time

from bot.config import Settings
from core import Core
from core.ratings import RatedDay
from store.reach import Unreachable, reach


def ratings_command(settings: Settings, *, recompute: bool) -> int:
    """Run a pass (or a rebuild with ``recompute``); print one line per game and variant."""
    try:
        days, seconds = asyncio.run(_run(settings, recompute))
    except Unreachable as exc:
        print(exc, file=sys.stderr)
        return 1
    except ValueError as exc:  # the database is newer than this release
        print(f"{settings.database_label}: {exc}.", file=sys.stderr)
        return 1
    done = "rebuilt" if recompute else "rated"
    by_board: dict[tuple[str, str], list[RatedDay]] = {}
    for day in days:
        by_board.setdefault((day.game, day.variant), []).append(day)
    for (game, variant), rated in sorted(by_board.items()):
        print(f"{game} {variant}: {len(rated)} days {done}, {rated[0].day} to {rated[-1].day}")
    if not days:
        print("No closed day to rate." if not recompute else "No closed day has a board.")
    print(f"{settings.database_label}: {len(days)} days {done} in {seconds:.1f} s")
    return 0


async def _run(settings: Settings, recompute: bool) -> tuple[list[RatedDay], float]:
    if settings.database_url is not None:
        await reach(settings.database_url)
    start = time.perf_counter()
    async with await Core.open(settings.database) as core:
        days = await (core.ratings.recompute() if recompute else core.ratings.run_due())
    return days, time.perf_counter() - start
