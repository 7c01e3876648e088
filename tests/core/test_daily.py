"""The daily as a product: one deal a day for everyone, boards, the day's window, reveals,
streaks and stats — through the core, with an injected clock and real database files."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core import AlreadyPlayed, BadRequest, Core, Run
from core.daily import closes_at, day_number, day_of_number
from core.rankings import DISCORD_EPOCH_MS, max_owner_id
from rules import GAMES, replay
from rules.deal import commitment
from tests.core.conftest import Clock
from tests.core.test_act import play_out

ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
GUILD, OTHER_GUILD = 77, 88


def new_account(days_old: float, at: datetime) -> int:
    """A Discord user id of an account created ``days_old`` days before ``at``."""
    created = at - timedelta(days=days_old)
    return (int(created.timestamp() * 1000) - DISCORD_EPOCH_MS) << 22


async def finish(core: Core, owner: int, game: str = "donsol", *, seed: int = 1,
                 guild: int | None = GUILD, variant: str | None = None) -> Run:
    """Start (or resume) today's daily and play it out with random legal moves."""
    started = await core.daily.start(owner, game, variant, guild_id=guild)
    return await play_out(core, started.run, random.Random(seed))


def test_day_numbers_count_from_the_first_of_december() -> None:
    assert day_number("2026-12-01") == 1
    assert day_number("2026-12-12") == 12
    assert day_number("2027-01-01") == 32
    assert day_of_number(12) == "2026-12-12"
    assert closes_at("2026-12-01") == datetime(2026, 12, 2, 1, 0, tzinfo=UTC)


async def test_daily_twice_brings_back_the_same_run(core: Core) -> None:
    first = await core.daily.start(ALICE, "donsol", guild_id=GUILD)
    assert first.created and first.run.kind == "daily" and first.run.day == "2026-12-01"
    run = await core.runs.act(first.run.id, ALICE, 0, first.run.actions[0])
    again = await core.daily.start(ALICE, "donsol", guild_id=OTHER_GUILD)
    assert not again.created and again.run == run  # never dealt again, wherever asked
    with pytest.raises(AlreadyPlayed):
        await core.daily.start_new(ALICE, "donsol")


async def test_two_players_get_the_same_deal_and_share_ranks_on_ties(core: Core) -> None:
    for user, name in ((ALICE, "alice"), (BOB, "Bob"), (CAROL, "carol"), (DAVE, "dave")):
        await core.rankings.remember_name(user, name)
    # Alice and Carol play the same moves (a tie); Bob and Dave play otherwise.
    runs = {user: await finish(core, user, seed=seed)
            for user, seed in ((ALICE, 3), (BOB, 4), (CAROL, 3), (DAVE, 5))}
    assert len({run.seed for run in runs.values()}) == 1
    assert runs[ALICE].score == runs[CAROL].score
    assert all(run.ranked for run in runs.values())

    board = await core.rankings.board("donsol")
    order = sorted(runs.values(), key=lambda r: r.score, reverse=True)
    assert [line.score for line in board.lines] == [run.score for run in order]
    by_owner = {line.owner_id: line for line in board.lines}
    assert by_owner[ALICE].rank == by_owner[CAROL].rank  # shared rank
    assert 1 + sum(r.score > runs[ALICE].score for r in runs.values()) == by_owner[ALICE].rank
    names = [line.name for line in board.lines if line.score == runs[ALICE].score]
    assert names == ["alice", "carol"]  # equal scores by name, never by time
    ranks = [line.rank for line in board.lines]
    assert ranks == [1 + sum(s > line.score for s in (r.score for r in runs.values()))
                     for line in board.lines]  # 1, 2, 2, 4 style
    assert board.size == 4 and board.number == 1 and not board.closed and board.seed is None
    assert board.commitment == commitment(runs[ALICE].seed)


async def test_server_and_global_boards_differ(core: Core) -> None:
    await finish(core, ALICE, guild=GUILD)
    await finish(core, BOB, seed=2, guild=OTHER_GUILD)
    await finish(core, CAROL, seed=3, guild=None)  # in a DM
    world = await core.rankings.board("donsol")
    here = await core.rankings.board("donsol", guild_id=GUILD)
    there = await core.rankings.board("donsol", guild_id=OTHER_GUILD)
    assert {line.owner_id for line in world.lines} == {ALICE, BOB, CAROL}
    assert [line.owner_id for line in here.lines] == [ALICE]
    assert [line.owner_id for line in there.lines] == [BOB]
    assert (here.scope, world.scope) == ("server", "global")


async def test_young_accounts_play_but_do_not_rank_on_a_server_that_says_so(
    core: Core, clock: Clock
) -> None:
    young = new_account(2, clock.now)
    old = new_account(30, clock.now)
    await core.settings.change_guild(GUILD, min_account_age=7)
    young_run = await finish(core, young)
    await finish(core, old, seed=2)
    assert young_run.over and young_run.ranked
    here = await core.rankings.board("donsol", guild_id=GUILD)
    assert [line.owner_id for line in here.lines] == [old] and here.min_account_age == 7
    world = await core.rankings.board("donsol")
    assert {line.owner_id for line in world.lines} == {young, old}  # the global board keeps both
    standing = await core.rankings.standing(young, "donsol", "normal", "2026-12-01", GUILD)
    assert standing.server is None and standing.world is not None
    assert max_owner_id("2026-12-01", 0) is None


async def test_a_run_started_before_midnight_ranks_if_finished_by_one(
    core: Core, clock: Clock
) -> None:
    clock.now = datetime(2026, 12, 1, 23, 50, tzinfo=UTC)
    late = (await core.daily.start(ALICE, "donsol", guild_id=GUILD)).run
    later = (await core.daily.start(BOB, "donsol", guild_id=GUILD)).run
    clock.now = datetime(2026, 12, 2, 0, 59, 59, tzinfo=UTC)
    late = await play_out(core, late, random.Random(1))
    assert late.ranked and late.day == "2026-12-01"
    clock.now = datetime(2026, 12, 2, 1, 0, tzinfo=UTC)
    later = await play_out(core, later, random.Random(2))
    assert later.over and not later.ranked  # finished, but after the boards closed
    board = await core.rankings.board("donsol", day="2026-12-01")
    assert [line.owner_id for line in board.lines] == [ALICE]
    # A new /daily after midnight is the new day's deal.
    today = (await core.daily.start(ALICE, "donsol")).run
    assert today.day == "2026-12-02" and today.seed != late.seed


async def test_a_resigned_daily_counts_and_shows_as_resigned(core: Core) -> None:
    run = (await core.daily.start(ALICE, "donsol", guild_id=GUILD)).run
    run = await core.runs.act(run.id, ALICE, run.version, run.actions[0])
    resigned = await core.runs.resign(run.id, ALICE, run.version)
    assert resigned.ranked
    (line,) = (await core.rankings.board("donsol", guild_id=GUILD)).lines
    assert (line.status, line.outcome, line.score) == ("resigned", "lost", resigned.score)


async def test_a_closed_day_reveals_its_seed_and_ranked_runs_replay(
    core: Core, clock: Clock
) -> None:
    run = await finish(core, ALICE)
    with pytest.raises(BadRequest, match="revealed when its boards close"):
        await core.daily.revealed_seed("donsol", None, "2026-12-01")
    clock.now = datetime(2026, 12, 2, 1, 0, tzinfo=UTC)
    seed = await core.daily.revealed_seed("donsol", None, "2026-12-01")
    assert seed == run.seed and commitment(seed) == await core.daily.commitment(
        "donsol", None, "2026-12-01"
    )
    board = await core.rankings.board("donsol", day="yesterday")
    assert board.closed and board.seed == seed
    (line,) = board.lines
    moves = await core.runs.moves(line.run_id)
    replayed = GAMES["donsol"].view(replay("donsol", "normal", seed, moves))
    assert replayed["score"] == line.score and replayed["score_text"] == line.score_text


async def test_streaks_reset_on_a_missed_day_and_survive_a_month_end(
    core: Core, clock: Clock
) -> None:
    async def play_day(day: str) -> None:
        clock.now = datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)
        await finish(core, ALICE, "tomb")

    for day in ("2026-12-01", "2026-12-02", "2026-12-04", "2026-12-30", "2026-12-31",
                "2027-01-01", "2027-01-02"):
        await play_day(day)
    record = await core.rankings.record(ALICE, "tomb")
    assert (record.current_streak, record.longest_streak) == (4, 4)  # Dec 30 to Jan 2
    clock.now = datetime(2027, 1, 3, 23, 0, tzinfo=UTC)  # today not played yet: still current
    assert (await core.rankings.record(ALICE, "tomb")).current_streak == 4
    clock.now = datetime(2027, 1, 4, 0, 30, tzinfo=UTC)  # a whole day missed
    record = await core.rankings.record(ALICE, "tomb")
    assert (record.current_streak, record.longest_streak) == (0, 4)
    assert [day for day, mark in record.recent if mark] == [
        "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"
    ]
    assert len(record.recent) == 14 and record.recent[-1][0] == "2027-01-04"
    # An unfinished daily does not count.
    await core.daily.start(ALICE, "tomb")
    assert (await core.rankings.record(ALICE, "tomb")).current_streak == 0


async def test_stats_count_runs_wins_best_and_average(core: Core) -> None:
    runs = [await finish(core, ALICE, "clear", seed=1)]
    for seed in (2, 3):
        practice = await core.runs.start(ALICE, "clear", seed=seed)
        runs.append(await play_out(core, practice, random.Random(seed)))
    await core.runs.start(ALICE, "clear", seed=9)  # unfinished: not counted
    record = await core.rankings.record(ALICE, "clear")
    stats = record.stats
    assert stats.finished == 3 and stats.dailies == 1
    assert stats.wins == sum(run.outcome == "won" for run in runs)
    best = max(runs, key=lambda r: r.score)
    assert stats.best_score == best.score and stats.best_text == best.view["score_text"]
    assert stats.average_points == pytest.approx(sum(r.score[0] for r in runs) / 3)
    assert record.current_streak == 1


async def test_rules_pinned_for_the_day_refuse_a_mid_day_change(
    core: Core, monkeypatch: pytest.MonkeyPatch
) -> None:
    await core.daily.start(ALICE, "donsol")
    monkeypatch.setattr(type(GAMES["donsol"]), "rules_version", 2)
    with pytest.raises(BadRequest, match="played under rules donsol/1"):
        await core.daily.start(BOB, "donsol")


async def test_a_page_past_the_end_shows_the_last_page(core: Core, db_path: Path) -> None:
    await finish(core, ALICE)
    board = await core.rankings.board("donsol", page=40)
    assert board.page == 0 and board.pages == 1 and len(board.lines) == 1


async def test_boards_and_stats_read_from_the_replica_standing_from_the_primary(
    core: Core, monkeypatch: pytest.MonkeyPatch
) -> None:
    await finish(core, ALICE)
    asked: list[bool] = []
    original = core.store.read

    async def read(fn, *args, replica=False):
        asked.append(replica)
        return await original(fn, *args, replica=replica)

    monkeypatch.setattr(core.store, "read", read)
    await core.rankings.board("donsol", guild_id=GUILD)
    await core.rankings.record(ALICE, "donsol")
    assert asked and all(asked)
    asked.clear()
    await core.rankings.standing(ALICE, "donsol", "normal", "2026-12-01", GUILD)
    assert asked == [False]  # right after a run ends: it must see that run


@pytest.mark.parametrize(("game", "expected"), [("donsol", [1, 0]), ("tomb", [0, 0, 0]),
                                                 ("clear", None)])
async def test_resigning_never_ranks_above_playing_on(core: Core, game: str, expected) -> None:
    """A resigned daily is on the board with the score the game gives a run given up: Tomb's
    treasure counts only out of the tomb, Donsol's HP only alive, Clear's spare cards only
    for a player who played on."""
    run = (await core.daily.start(ALICE, game, guild_id=GUILD)).run
    run = await core.runs.act(run.id, ALICE, run.version, run.actions[0])
    resigned = await core.runs.resign(run.id, ALICE, run.version)
    score, text = GAMES[game].resigned(run.state)
    assert resigned.score == score and score <= GAMES[game].score(run.state)
    if expected is not None:
        assert score == expected
    (line,) = (await core.rankings.board(game, guild_id=GUILD)).lines
    assert (line.score, line.score_text, line.status) == (score, text, "resigned")
    assert "resigned" in text
