"""A finished run against the player's earlier runs of its game and variant (the result
card's "personal best"), on SQLite and PostgreSQL alike."""

from __future__ import annotations

import random

from core import Core
from tests.core.conftest import Clock
from tests.core.test_act import play_out

ALICE, BOB = 101, 202


async def finished(core: Core, clock: Clock, owner: int, seed: int, variant: str = "normal"):
    clock.advance(minutes=1)
    run = await core.runs.start(owner, "donsol", variant, seed=seed)
    return await play_out(core, run, random.Random(seed))


async def test_a_first_run_has_nothing_to_beat(core: Core, clock: Clock) -> None:
    run = await finished(core, clock, ALICE, 1)
    best = await core.rankings.personal_best(run)
    assert (best.runs, best.previous, best.new, best.equal) == (0, None, False, False)


async def test_only_earlier_runs_of_the_same_game_and_variant_and_player_count(
    core: Core, clock: Clock
) -> None:
    runs = [await finished(core, clock, ALICE, seed) for seed in range(3)]
    # In between: another player's run, and one of another variant (easy: often won).
    await finished(core, clock, BOB, 99)
    await finished(core, clock, ALICE, 98, variant="easy")
    runs += [await finished(core, clock, ALICE, seed) for seed in range(3, 6)]
    unfinished = await core.runs.start(ALICE, "donsol", "normal", seed=97)
    assert not unfinished.over

    for i, run in enumerate(runs):
        best = await core.rankings.personal_best(run)
        earlier = runs[:i]
        assert best.runs == i
        if not earlier:
            assert best.previous is None and not best.new
            continue
        top = max(earlier, key=lambda r: r.score)
        assert best.previous == top.view["score_text"]
        assert best.new == (run.score > top.score)
        assert best.equal == (run.score == top.score)
