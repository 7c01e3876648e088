"""Par through discord.py (simcord): a closed day solved by the par loop's pass, shown on
/verify and the day's board with how many reached it, and in /stats."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.daily import closes_at
from rules import GAMES
from rules.solver import solve
from tests.bot.test_daily import NOON, play_daily_through_core
from tests.core.conftest import Clock

DAY = NOON.date().isoformat()  # Donsol #5
BUDGET = 3_000  # nodes per deal, as in tests/core/test_par.py


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


async def test_a_closed_days_par_on_verify_the_board_and_stats(world, clock, error_logs):
    core = world.core
    seed = await core.daily.seed("donsol", "normal", DAY)
    line = solve("donsol", seed, "normal", budget_nodes=BUDGET)
    run = (await core.daily.start(world.alice.id, "donsol", guild_id=world.guild.id)).run
    for action in line.actions:  # alice plays the line the solver will find: she reaches par
        run = await core.runs.act(run.id, world.alice.id, run.version, action)
    bob = await play_daily_through_core(world, world.bob.id, 1)
    reached = 1 + (bob.score >= line.score)

    verify = await world.slash(world.alice, "verify", game="donsol")
    assert "Par" not in world.description(verify.response)  # an open day has none

    clock.now = closes_at(DAY) + timedelta(minutes=1)
    loop = world.env.bot.get_cog("ParLoop")
    core.par.budget_nodes, core.par.days = BUDGET, 1
    solved = await loop.run_due(clock())
    variants = sum(len(engine.variants) for engine in GAMES.values())
    assert len(solved) == variants and await loop.run_due(clock()) == []  # each, once

    exact = " (exact)" if line.exact else ""
    expected = (f"Par: {line.text}{exact}\nReached by **{reached}** of 2 ranked players.")
    verify = await world.slash(world.alice, "verify", game="donsol", day="yesterday")
    text = world.description(verify.response)
    assert expected in text
    assert f"python -m rules solve donsol --variant normal --seed {seed}" in text

    board = (await world.slash(world.bob, "leaderboard", game="donsol",
                               day="yesterday")).response
    fields = {f.name: f.value for f in board.embeds[0].fields}
    assert fields["Par"] == expected

    stats = await world.slash(world.alice, "stats", game="donsol")
    (field,) = stats.response.embeds[0].fields
    assert "Par reached: **1** of 1 solved dailies" in field.value
    bobs = await world.slash(world.bob, "stats", game="donsol")
    assert f"Par reached: **{reached - 1}** of 1" in bobs.response.embeds[0].fields[0].value


async def test_a_day_not_yet_solved_says_so(world, clock, error_logs):
    await play_daily_through_core(world, world.alice.id, 2)
    clock.now = closes_at(DAY)
    verify = await world.slash(world.alice, "verify", game="donsol", day="yesterday")
    assert "Par (the best score this deal allows): not solved." in world.description(
        verify.response)
    board = (await world.slash(world.bob, "leaderboard", game="donsol",
                               day="yesterday")).response
    assert "Par" not in {f.name for f in board.embeds[0].fields}


@pytest.mark.parametrize("game", list(GAMES))
async def test_every_games_closed_day_shows_its_par_on_the_board(world, clock, game, error_logs):
    """A game added through the registry gets its par like the others: the pass solves its
    deal once the day has closed, and the day's board says it."""
    await play_daily_through_core(world, world.alice.id, 3, game)
    clock.now = closes_at(DAY) + timedelta(minutes=1)
    world.core.par.budget_nodes, world.core.par.days = BUDGET, 1
    solved = await world.env.bot.get_cog("ParLoop").run_due(clock())
    assert game in {p.game for p in solved}
    board = (await world.slash(world.bob, "leaderboard", game=game, day="yesterday")).response
    fields = {f.name: f.value for f in board.embeds[0].fields}
    assert fields["Par"].startswith("Par: ")
