"""Ratings: each closed day's global board rated once, in order, with openskill's numbers;
the rating board; a recompute from the stored boards equal to the passes' result."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from openskill.models import PlackettLuce

from core import Core
from core.daily import closes_at
from core.skill import NEW, competition_ranks, rate_day, shown
from tests.core import racer
from tests.core.conftest import Clock, query
from tests.core.test_act import play_out

ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
GUILD, OTHER_GUILD = 77, 88
DAY1, DAY2, DAY3 = "2026-12-01", "2026-12-02", "2026-12-03"


def noon(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)


async def play_day(core: Core, clock: Clock, day: str, players: dict[int, int | None],
                   game: str = "tomb") -> None:
    """Each player (id: seed of their random moves, None: resign at once) finishes ``day``'s
    daily, in GUILD (odd seeds in OTHER_GUILD)."""
    clock.now = noon(day)
    for user, seed in players.items():
        guild = OTHER_GUILD if seed is not None and seed % 2 else GUILD
        run = (await core.daily.start(user, game, guild_id=guild)).run
        if seed is None:
            await core.runs.resign(run.id, user, run.version)
        else:
            await play_out(core, run, random.Random(seed))


def test_a_day_is_rated_with_openskills_numbers() -> None:
    """The one-pass form of openskill's Plackett–Luce update gives openskill's own numbers,
    ties included (openskill compares every player with every other)."""
    model, rng = PlackettLuce(), random.Random(7)
    for _ in range(100):
        n = rng.randint(2, 30)
        players = [(rng.uniform(10, 40), rng.uniform(0.5, 8.4)) for _ in range(n)]
        ranks = sorted(rng.randint(1, max(1, n // 3)) for _ in range(n))
        ours = rate_day(players, ranks)
        theirs = model.rate([[model.rating(mu=m, sigma=s)] for m, s in players], ranks=ranks)
        for (mu, sigma), (rating,) in zip(ours, theirs, strict=True):
            assert abs(mu - rating.mu) < 1e-9 and abs(sigma - rating.sigma) < 1e-9
    assert competition_ranks(["9", "8", "8", "7"]) == [1, 2, 2, 4]
    assert shown(NEW.mu, NEW.sigma) == 1000


async def test_a_closed_day_is_rated_once_as_openskill_rates_its_board(
    core: Core, clock: Clock, db_path: Path
) -> None:
    await play_day(core, clock, DAY1, {ALICE: 1, BOB: 2, CAROL: None, DAVE: None})
    for user, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        await core.rankings.remember_name(user, name)
    assert await core.ratings.run_due(closes_at(DAY1) - timedelta(seconds=1)) == []

    rated = await core.ratings.run_due(closes_at(DAY1))
    assert [(r.game, r.variant, r.day, r.players) for r in rated] == [
        ("tomb", "standard", DAY1, 4)
    ]
    board = await core.rankings.board("tomb", day=DAY1)
    assert [line.rank for line in board.lines][2:] == [3, 3]  # the two resigned tie
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in board.lines],
                          ranks=[line.rank for line in board.lines])
    for line, (rating,) in zip(board.lines, expected, strict=True):
        (mine,) = await core.ratings.of_player(line.owner_id, "tomb")
        assert mine.rating == round(1000 + 40 * rating.ordinal()) and mine.days == 1
        assert mine.provisional

    assert await core.ratings.run_due(closes_at(DAY1) + timedelta(hours=5)) == []
    assert query(db_path, "SELECT day, players FROM rated_days") == [(DAY1, 4)]
    assert query(db_path, "SELECT count(*), min(days), max(days) FROM ratings") == [(4, 1, 1)]
    assert await core.ratings.of_player(ALICE, "donsol") == []


async def test_days_are_rated_in_order_across_restarts_and_an_empty_day_is_skipped(
    db_path: Path, clock: Clock
) -> None:
    async with await Core.open(db_path, clock=clock) as core:
        await play_day(core, clock, DAY1, {ALICE: 1, BOB: None})
        await play_day(core, clock, DAY3, {ALICE: None, BOB: 3, CAROL: 4})
        # Day 2 closed, day 3 open: only day 1 is due (nobody played day 2).
        rated = await core.ratings.run_due(closes_at(DAY2))
        assert [r.day for r in rated] == [DAY1]
    async with await Core.open(db_path, clock=clock) as core:  # a restart
        assert await core.ratings.run_due(closes_at(DAY2)) == []
        rated = await core.ratings.run_due(closes_at(DAY3))
        assert [(r.day, r.players) for r in rated] == [(DAY3, 3)]
        days = {u: (await core.ratings.of_player(u, "tomb"))[0].days for u in (ALICE, BOB, CAROL)}
        assert days == {ALICE: 2, BOB: 2, CAROL: 1}
    assert query(db_path, "SELECT day FROM rated_days ORDER BY day") == [(DAY1,), (DAY3,)]


async def test_a_recompute_from_the_stored_boards_gives_the_same_ratings(
    core: Core, clock: Clock, db_path: Path
) -> None:
    rng = random.Random(5)
    everyone = [ALICE, BOB, CAROL, DAVE]
    for k in range(4):
        day = (datetime.fromisoformat(DAY1) + timedelta(days=k)).date().isoformat()
        players = {u: rng.choice([None, rng.randint(1, 99)]) for u in everyone
                   if rng.random() < 0.85}
        await play_day(core, clock, day, players)
        await core.ratings.run_due(closes_at(day))  # each day as it closes
    table = "SELECT game, variant, owner_id, mu, sigma, rating, days, last_day FROM ratings " \
            "ORDER BY owner_id"
    members = "SELECT * FROM rating_members ORDER BY guild_id, owner_id"
    days = "SELECT game, variant, day, players FROM rated_days ORDER BY day"
    history = "SELECT * FROM rating_history ORDER BY owner_id, day"
    tables = (table, members, days, history)
    before = tuple(query(db_path, sql) for sql in tables)
    assert len(before[2]) == 4 and len(before[0]) == 4
    # One history row per player and rated day played: as many as the days' players.
    assert len(before[3]) == sum(row[3] for row in before[2])
    # Each player's last history row is their rating now.
    last = {row[2]: row for row in before[3]}
    assert [(o, d, m, s, r) for _, _, o, m, s, r, _, d in before[0]] == [
        (o, row[3], row[4], row[5], row[6]) for o, row in sorted(last.items())
    ]

    rebuilt = await core.ratings.recompute(closes_at(DAY3) + timedelta(days=2))
    assert [r.day for r in rebuilt] == [row[2] for row in before[2]]
    assert tuple(query(db_path, sql) for sql in tables) == before


async def test_a_players_trend_and_change_this_month_come_from_each_rated_day(
    core: Core, clock: Clock, db_path: Path
) -> None:
    """Alice is rated on Nov 30, Dec 1 and Dec 3: her trend holds the three ratings, her
    change this month is from Nov 30's rating; a rated day is kept once though the pass runs
    again."""
    nov30 = "2026-11-30"
    for day in (nov30, DAY1, DAY3):
        await play_day(core, clock, day, {ALICE: 1, BOB: None, CAROL: 4})
        await core.ratings.run_due(closes_at(day))
        await core.ratings.run_due(closes_at(day) + timedelta(hours=3))
    rows = query(db_path, "SELECT day, rating FROM rating_history WHERE owner_id = ? "
                 "ORDER BY day", (ALICE,))
    assert [day for day, _ in rows] == [nov30, DAY1, DAY3]
    clock.now = noon("2026-12-04")
    (mine,) = await core.ratings.of_player(ALICE, "tomb")
    assert mine.trend == tuple(rows) and mine.rating == rows[-1][1]
    assert mine.month_change == rows[-1][1] - rows[0][1]
    clock.now = noon("2027-01-02")  # nothing rated in January yet
    (mine,) = await core.ratings.of_player(ALICE, "tomb")
    assert mine.month_change is None and len(mine.trend) == 3
    clock.now = noon("2027-02-24")  # the last 84 days start on Dec 3: Nov 30, Dec 1 left
    (mine,) = await core.ratings.of_player(ALICE, "tomb")
    assert [day for day, _ in mine.trend] == [DAY3]
    # Dave's first rated day is this month: his change is from a new player's 1000.
    await play_day(core, clock, "2027-02-24", {DAVE: 2, BOB: None})
    await core.ratings.run_due(closes_at("2027-02-24"))
    clock.now = noon("2027-02-25")
    (his,) = await core.ratings.of_player(DAVE, "tomb")
    assert his.month_change == his.rating - 1000 and his.trend == (("2027-02-24", his.rating),)


async def test_the_rating_board_ranks_everyone_or_a_servers_players(
    core: Core, clock: Clock
) -> None:
    for user, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        await core.rankings.remember_name(user, name)
    # Bob and Dave play in OTHER_GUILD (odd seeds); Carol and Alice tie, resigning at once.
    await play_day(core, clock, DAY1, {ALICE: None, BOB: 1, CAROL: None, DAVE: 3})
    empty = await core.ratings.board("tomb")
    assert empty.lines == [] and empty.last_day is None
    await core.ratings.run_due(closes_at(DAY1))

    board = await core.ratings.board("tomb", viewer_id=ALICE)
    assert board.size == 4 and board.last_day == DAY1 and board.own is None
    ratings = [line.rating for line in board.lines]
    assert ratings == sorted(ratings, reverse=True)
    tied = [line for line in board.lines if line.owner_id in (ALICE, CAROL)]
    assert tied[0].rank == tied[1].rank and [t.name for t in tied] == ["alice", "carol"]
    server = await core.ratings.board("tomb", guild_id=GUILD, viewer_id=BOB)
    assert {line.owner_id for line in server.lines} == {ALICE, CAROL}
    assert server.own is None and server.size == 2  # Bob played elsewhere
    other = await core.ratings.board("tomb", guild_id=OTHER_GUILD)
    assert {line.owner_id for line in other.lines} == {BOB, DAVE}
    assert [line.rank for line in other.lines] == [1, 2] or other.lines[0].rating == \
        other.lines[1].rating
    past = await core.ratings.board("tomb", page=9)
    assert past.page == 0 and past.pages == 1


async def test_two_processes_closing_the_same_day_rate_it_once(
    db_path: Path, clock: Clock
) -> None:
    async with await Core.open(db_path, clock=clock) as core:
        await play_day(core, clock, DAY1, {ALICE: 1, BOB: 2, CAROL: None})
        await play_day(core, clock, DAY2, {ALICE: 3, BOB: None})
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(2), context.Queue()
    now = closes_at(DAY2).isoformat()
    raters = [context.Process(target=racer.rate, args=(str(db_path), now, barrier, results))
              for _ in range(2)]
    for rater in raters:
        rater.start()
    reports = [await asyncio.to_thread(results.get, True, 60) for _ in raters]
    for rater in raters:
        await asyncio.to_thread(rater.join, 60)
        assert rater.exitcode == 0
    # Between them, each day once and in order (on PostgreSQL one holds the lock).
    days = sorted(day for report in reports for day in report)
    assert days == [("tomb", "standard", DAY1), ("tomb", "standard", DAY2)]
    assert query(db_path, "SELECT day FROM rated_days ORDER BY day") == [(DAY1,), (DAY2,)]
    assert query(db_path, "SELECT owner_id, days FROM ratings ORDER BY owner_id") == [
        (ALICE, 2), (BOB, 2), (CAROL, 1)
    ]
