"""Par: each closed day's deals solved once in a worker process, stored, and compared with
the players' scores on the boards and in stats."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from core import Core, Run
from core.daily import closes_at
from rules import GAMES, replay
from rules.solver import solve
from tests.core.conftest import START, Clock, execute, query
from tests.core.test_act import play_out

DAY = START.date().isoformat()  # 2026-12-01, Donsol #1
ALICE, BOB, CAROL = 1001, 2002, 3003
BUDGET = 3_000  # nodes per deal: a lower bound in a blink, the same code path as the bot's


@pytest.fixture
def small(core: Core) -> Core:
    core.par.budget_nodes = BUDGET
    core.par.days = 1
    return core


async def play_line(core: Core, user_id: int, actions: list[str]) -> Run:
    run = (await core.daily.start(user_id, "donsol")).run
    for action in actions:
        run = await core.runs.act(run.id, user_id, run.version, action)
    assert run.over and run.ranked
    return run


async def test_a_closed_day_is_solved_once_for_every_game_and_variant(
    small: Core, clock: Clock, db_path: Path
) -> None:
    clock.now = closes_at(DAY) - timedelta(seconds=1)
    assert small.par.due_days(clock()) == [(START - timedelta(days=1)).date().isoformat()]
    clock.now = closes_at(DAY)
    assert small.par.due_days(clock()) == [DAY]

    stored = await small.par.run_due(clock())
    expected = {(key, variant) for key, game in GAMES.items() for variant in game.variants}
    assert {(p.game, p.variant) for p in stored} == expected and {p.day for p in stored} == {DAY}
    for par in stored:
        seed = await small.daily.seed(par.game, par.variant, DAY)
        final = replay(par.game, par.variant, seed, par.actions)
        assert GAMES[par.game].score(final) == par.score  # the line reaches the par
        again = solve(par.game, seed, par.variant, budget_nodes=BUDGET)
        assert (again.score, again.text, again.exact) == (par.score, par.score_text, par.exact)
        assert await small.par.get(par.game, par.variant, DAY) == par

    assert await small.par.run_due(clock()) == []  # solved once
    rows = query(db_path, "SELECT count(*) FROM pars WHERE day = ?", (DAY,))
    assert rows == [(len(expected),)]


async def test_a_day_played_under_other_rules_is_left_without_a_par(
    small: Core, clock: Clock, db_path: Path
) -> None:
    execute(db_path, "INSERT INTO meta (key, value) VALUES (?, ?)",
            (f"rules:donsol:{DAY}", "donsol/0"))
    clock.now = closes_at(DAY)
    stored = await small.par.run_due(clock())
    assert {p.game for p in stored} == set(GAMES) - {"donsol"}
    assert await small.par.get("donsol", None, DAY) is None


async def test_players_who_reached_par_are_counted_on_boards_and_in_stats(
    small: Core, clock: Clock
) -> None:
    seed = await small.daily.seed("donsol", "normal", DAY)
    line = solve("donsol", seed, "normal", budget_nodes=BUDGET)  # what the par pass will find
    scores = {ALICE: (await play_line(small, ALICE, line.actions)).score}
    for user, rng in ((BOB, 1), (CAROL, 2)):
        run = (await small.daily.start(user, "donsol")).run
        scores[user] = (await play_out(small, run, random.Random(rng))).score
    assert await small.par.of_day("donsol", None, DAY) is None  # the day is still open

    clock.now = closes_at(DAY) + timedelta(minutes=3)
    await small.par.run_due(clock())
    standing = await small.par.of_day("donsol", None, DAY)
    assert standing is not None and standing.par.score == line.score
    reached = [u for u, score in scores.items() if score >= line.score]
    assert ALICE in reached
    assert (standing.reached, standing.ranked) == (len(reached), 3)
    assert standing.text == f"Par: {line.text}" + (" (exact)" if line.exact else "")

    board = await small.rankings.board("donsol", day=DAY)
    assert (await small.par.on_board(board)) == standing
    alice = await small.par.record(ALICE, "donsol")
    assert (alice.played, alice.reached) == (1, 1)
    bob = await small.par.record(BOB, "donsol")
    assert (bob.played, bob.reached) == (1, int(BOB in reached))
    assert (await small.par.record(ALICE, "tomb")).played == 0


async def test_a_pass_after_an_outage_catches_up_on_the_latest_days_only(
    small: Core, clock: Clock, db_path: Path
) -> None:
    small.par.days = 3
    clock.now = closes_at(DAY)
    first = await small.par.run_due(clock())
    assert {p.day for p in first} == {"2026-11-29", "2026-11-30", DAY}
    clock.now = closes_at(DAY) + timedelta(days=5)  # the bot was down for five days
    later = await small.par.run_due(clock())
    assert sorted({p.day for p in later}) == ["2026-12-04", "2026-12-05", "2026-12-06"]
    days = [row[0] for row in query(db_path, "SELECT DISTINCT day FROM pars ORDER BY day")]
    assert days == ["2026-11-29", "2026-11-30", DAY, "2026-12-04", "2026-12-05", "2026-12-06"]
