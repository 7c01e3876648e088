"""A server's rating board reads its members' own copy of their rating (migration 0010):
after every rated day, and after a recompute, each membership holds the rating itself, and
the server's board lists its members by it, as everyone's board lists them."""

from __future__ import annotations

from pathlib import Path

from core import Core
from tests.core.conftest import Clock, query
from tests.core.test_ratings import GUILD, OTHER_GUILD, play_day

DAYS = ("2026-12-01", "2026-12-02", "2026-12-03")
PLAYERS = (101, 202, 303, 404, 505)


async def test_a_servers_rating_board_follows_every_rated_day(
    core: Core, clock: Clock, db_path: Path
) -> None:
    for n, day in enumerate(DAYS):
        # Seeds change with the day, so ratings move and members change order.
        await play_day(core, clock, day, {u: (u + 3 * n) % 7 or None for u in PLAYERS})
        clock.advance(days=1)
        await core.ratings.run_due()
        stale = query(db_path, """
            SELECT m.guild_id, m.owner_id FROM rating_members AS m JOIN ratings AS r
              ON r.game = m.game AND r.variant = m.variant AND r.owner_id = m.owner_id
            WHERE m.rating <> r.rating""")
        assert stale == [], day
        everyone = {line.owner_id: (line.rating, line.days)
                    for line in (await core.ratings.board("tomb")).lines}
        for guild in (GUILD, OTHER_GUILD):
            board = await core.ratings.board("tomb", guild_id=guild)
            shown = [(line.owner_id, line.rating, line.days) for line in board.lines]
            assert shown and all(everyone[o] == (r, d) for o, r, d in shown), (day, guild)
            assert [r for _, r, _ in shown] == sorted((r for _, r, _ in shown), reverse=True)
            assert board.size == len(shown)
    before = query(db_path, "SELECT * FROM rating_members ORDER BY 1, 2, 3, 4")
    await core.ratings.recompute()
    assert query(db_path, "SELECT * FROM rating_members ORDER BY 1, 2, 3, 4") == before
