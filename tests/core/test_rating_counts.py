"""The rating boards' kept counts (migration 0013): after every rated day and after a
recompute, each board's count per rating is what its rows add up to, and the boards read
from those counts (pages, ranks, size, the viewer's line) are the boards read from the rows
themselves (a server with a minimum account age that every player passes reads its rows)."""

from __future__ import annotations

from pathlib import Path

from core import Core
from core.rankings import PAGE_SIZE
from core.ratings import RatingBoard
from tests.core.conftest import Clock, query
from tests.core.test_ratings import GUILD, OTHER_GUILD, play_day

DAYS = ("2026-12-01", "2026-12-02")
#: More than two pages of players, with ties (resigned at once: the same last place).
PLAYERS = {1000 + k: (None if k % 5 == 0 else k) for k in range(2 * PAGE_SIZE + 7)}

COUNTED = "SELECT game, variant, guild_id, rating, n FROM rating_counts ORDER BY 1, 2, 3, 4"
ADDED_UP = """
    SELECT game, variant, 0, rating, count(*) FROM ratings GROUP BY game, variant, rating
    UNION ALL
    SELECT game, variant, guild_id, rating, count(*) FROM rating_members
    GROUP BY game, variant, guild_id, rating
    ORDER BY 1, 2, 3, 4"""


def shown(board: RatingBoard) -> list[tuple[int, int, int, int]]:
    return [(line.rank, line.owner_id, line.rating, line.days) for line in board.lines]


async def every_page(core: Core, guild: int | None, viewer: int) -> list[RatingBoard]:
    first = await core.ratings.board("tomb", guild_id=guild, viewer_id=viewer)
    return [first, *[await core.ratings.board("tomb", guild_id=guild, page=page,
                                              viewer_id=viewer)
                     for page in range(1, first.pages)]]


async def test_the_kept_counts_follow_every_rated_day_and_a_recompute(
    core: Core, clock: Clock, db_path: Path
) -> None:
    for n, day in enumerate(DAYS):
        await play_day(core, clock, day, {u: None if s is None else s + n
                                          for u, s in PLAYERS.items()})
        clock.advance(days=1)
        await core.ratings.run_due()
        counted = query(db_path, COUNTED)
        assert counted == query(db_path, ADDED_UP), day
        assert all(row[4] > 0 for row in counted)
    assert {row[2] for row in query(db_path, COUNTED)} == {0, GUILD, OTHER_GUILD}
    before = query(db_path, COUNTED)
    await core.ratings.recompute()  # every rating forgotten, then written again
    assert query(db_path, COUNTED) == before


async def test_boards_from_the_counts_are_the_boards_from_the_rows(
    core: Core, clock: Clock, db_path: Path
) -> None:
    for n, day in enumerate(DAYS):
        await play_day(core, clock, day, {u: None if s is None else s + 2 * n
                                          for u, s in PLAYERS.items()})
        clock.advance(days=1)
    await core.ratings.run_due()
    rows = query(db_path, "SELECT owner_id, rating, days FROM ratings WHERE game = 'tomb'")
    ratings = sorted(rows, key=lambda r: (-r[1], r[0]))  # no names: listed by id in a tie
    expected = [(1 + sum(1 for o in ratings if o[1] > r[1]), *r) for r in ratings]
    viewer = ratings[-1][0]  # on the last page

    pages = await every_page(core, None, viewer)
    assert len(pages) == 3 and pages[0].size == len(PLAYERS)
    assert [line for page in pages for line in shown(page)] == expected
    assert pages[0].own is not None and (pages[0].own.rank, pages[0].own.owner_id) == (
        expected[-1][0], viewer)
    assert len({line[0] for line in expected}) < len(expected)  # ties share a rank

    # A server's board, counted, against the same board read from its members' rows (a
    # minimum account age that these old accounts all pass).
    for guild in (GUILD, OTHER_GUILD):
        member = query(db_path, "SELECT owner_id FROM rating_members WHERE guild_id = ?",
                       (guild,))[0][0]
        counted = await every_page(core, guild, member)
        await core.settings.change_guild(guild, min_account_age=1)
        from_rows = await every_page(core, guild, member)
        await core.settings.change_guild(guild, min_account_age=0)
        assert [shown(page) for page in counted] == [shown(page) for page in from_rows]
        assert counted[0].size == from_rows[0].size > 0
        assert counted[0].own == from_rows[0].own
        assert counted[0].min_account_age == 0 and from_rows[0].min_account_age == 1
