"""The totals kept as runs end (``finished_runs``, ``player_totals``: migrations 0017 and 0018)
are, at every moment, what adding up the ended runs themselves gives, whichever way each run
ended, on SQLite and PostgreSQL alike; and a player's record read from them says what the
runs say."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

from core import Core
from rules import GAMES
from store.texts import said
from tests.core.conftest import Clock, query
from tests.core.test_act import play_out
from tests.core.test_personal_best import store_ended

ALICE, BOB = 101, 202

KEPT = ("SELECT owner_id, game, variant, outcome, runs, best_key, points, dailies, hinted "
        "FROM player_totals")
ADDED_UP = """
    SELECT owner_id, game, variant, coalesce(outcome, ''), count(*), max(score_key),
           sum(points), sum(CASE WHEN kind = 'daily' THEN 1 ELSE 0 END), sum(hinted)
    FROM runs WHERE status <> 'playing' GROUP BY owner_id, game, variant, coalesce(outcome, '')
"""
COUNTED = "SELECT owner_id, game, variant, runs FROM finished_runs"
COUNTED_UP = ("SELECT owner_id, game, variant, count(*) FROM runs WHERE status <> 'playing' "
              "GROUP BY owner_id, game, variant")


def rows(db_path: Path, sql: str) -> list[tuple]:
    """The rows, sorted; PostgreSQL's sums (numeric) as the integers they are."""
    return sorted(tuple(int(v) if isinstance(v, Decimal) else v for v in row)
                  for row in query(db_path, sql))


def assert_kept(db_path: Path) -> None:
    assert rows(db_path, KEPT) == rows(db_path, ADDED_UP)
    assert rows(db_path, COUNTED) == rows(db_path, COUNTED_UP)


async def test_every_way_a_run_ends_is_kept_once(core: Core, clock: Clock, db_path) -> None:
    rng = random.Random(3)
    for game in GAMES:  # played out, each game
        clock.advance(minutes=1)
        await play_out(core, await core.runs.start(ALICE, game), rng)
        assert_kept(db_path)
    clock.advance(minutes=1)
    resigned = await core.runs.start(ALICE, "donsol", "easy", seed=4)
    await core.runs.resign(resigned.id, ALICE, resigned.version)
    assert_kept(db_path)
    hinted = await core.runs.start(ALICE, "donsol", seed=5)
    hinted = await core.runs.mark_hinted(hinted.id, ALICE, hinted.version)
    fresh = await core.runs.abandon(hinted.id, ALICE, hinted.version)  # resigned: hinted
    assert_kept(db_path)
    await play_out(core, fresh, rng)
    daily = (await core.daily.start(ALICE, "donsol")).run
    await play_out(core, daily, rng)
    await play_out(core, (await core.daily.start(BOB, "donsol")).run, rng)
    assert_kept(db_path)
    kinds = query(db_path, "SELECT kind, hinted, status FROM runs WHERE owner_id = ?", (ALICE,))
    assert {"practice", "daily"} <= {kind for kind, _, _ in kinds}
    assert (1, "resigned") in {(hinted, status) for _, hinted, status in kinds}
    assert query(db_path, "SELECT count(*) FROM runs WHERE status = 'playing'") == [(0,)]


async def test_a_players_record_is_what_their_runs_say(core: Core, clock: Clock,
                                                       db_path) -> None:
    rng = random.Random(8)
    for seed in range(12):
        clock.advance(minutes=1)
        run = await core.runs.start(ALICE, "donsol", ("normal", "easy")[seed % 2], seed=seed)
        if seed % 3 == 0:
            run = await core.runs.mark_hinted(run.id, ALICE, run.version)
        if seed % 4 == 1:
            await core.runs.resign(run.id, ALICE, run.version)
        else:
            await play_out(core, run, rng)
    await play_out(core, (await core.daily.start(ALICE, "donsol")).run, rng)
    await play_out(core, await core.runs.start(BOB, "donsol", seed=99), rng)

    ended = query(db_path, "SELECT outcome, score, score_key, score_text, points, kind, hinted,"
                  " finished_at, id FROM runs WHERE owner_id = ? AND game = 'donsol'"
                  " AND status <> 'playing'", (ALICE,))
    wins = {word for word, kind in GAMES["donsol"].outcomes.items() if kind == "win"}
    stats = (await core.rankings.record(ALICE, "donsol")).stats
    assert stats.finished == len(ended) == 13
    top = max(r[2] for r in ended)  # score keys order as text
    best = min((r for r in ended if r[2] == top), key=lambda r: (r[7], r[8]))  # the first
    assert stats.best_score == json.loads(best[1])
    assert stats.average_points == sum(r[4] for r in ended) / len(ended)
    assert stats.dailies == 1
    assert stats.hinted == sum(r[6] for r in ended) == 4
    assert stats.best_text == said(best[3])
    assert stats.wins == sum(r[0] in wins for r in ended)


async def test_runs_stored_ended_are_kept_too(core: Core, db_path) -> None:
    """Runs written ended by an insert (a bulk load, a deal with no move to make) count too."""
    store_ended(db_path, ALICE, [5, 40, 40, 7])
    assert_kept(db_path)
    stats = (await core.rankings.record(ALICE, "donsol")).stats
    assert (stats.finished, stats.best_score, stats.best_text) == (4, [40, 0], "40 points")
