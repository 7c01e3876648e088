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


#: Names that sort otherwise than the ids (some shared, some unnamed: listed as '').
NAMES = {user: f"{'Zed' if k % 3 else 'amy'}{(7 * k) % 4}" for k, user in enumerate(PLAYERS)
         if k % 7}


def listed(names: dict[int, str], rows: list[tuple[int, int, int]]
           ) -> list[tuple[int, int, int, int]]:
    """The board a page at a time should show: by rating, equal ratings by name (lower
    case), then id, each with its rank."""
    ordered = sorted(rows, key=lambda r: (-r[1], names.get(r[0], "").lower(), r[0]))
    return [(1 + sum(1 for o in ordered if o[1] > r[1]), *r) for r in ordered]


async def test_boards_from_the_counts_are_the_boards_from_the_rows(
    core: Core, clock: Clock, db_path: Path
) -> None:
    for user, name in NAMES.items():
        await core.rankings.remember_name(user, name)
    for n, day in enumerate(DAYS):
        await play_day(core, clock, day, {u: None if s is None else s + 2 * n
                                          for u, s in PLAYERS.items()})
        clock.advance(days=1)
    await core.ratings.run_due()
    # After the rating: a player renamed, one named for the first time, one hidden from
    # everyone's boards (listed there as '').
    named, renamed, hiding, *_ = PLAYERS
    names = {**NAMES, renamed: "Aardvark", named: "mo"}
    await core.rankings.remember_name(renamed, "Aardvark")
    await core.rankings.remember_name(named, "mo")
    await core.settings.set_player(hiding, "global-board", "off")
    rows = query(db_path, "SELECT owner_id, rating, days FROM ratings WHERE game = 'tomb'")
    expected = listed({**names, hiding: ""}, rows)
    viewer = expected[-1][1]  # on the last page

    pages = await every_page(core, None, viewer)
    assert len(pages) == 3 and pages[0].size == len(PLAYERS)
    assert [line for page in pages for line in shown(page)] == expected
    assert pages[0].own is not None and (pages[0].own.rank, pages[0].own.owner_id) == (
        expected[-1][0], viewer)
    assert len({line[0] for line in expected}) < len(expected)  # ties share a rank
    tied = [line for line in expected if line[0] == expected[-1][0]]
    assert len({names.get(line[1], "") for line in tied}) > 2  # a tie listed by name

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
        members = query(db_path, "SELECT m.owner_id, m.rating, r.days FROM rating_members AS m"
                        " JOIN ratings AS r ON r.game = m.game AND r.variant = m.variant"
                        " AND r.owner_id = m.owner_id WHERE m.guild_id = ?", (guild,))
        assert [line for page in counted for line in shown(page)] == listed(names, members)
