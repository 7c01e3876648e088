"""A finished run against the player's earlier runs of its game and variant (the result
card's "personal best"), on SQLite and PostgreSQL alike."""

from __future__ import annotations

import random
import sqlite3

import psycopg

from core import Core
from store import is_postgres_url
from store.dialect import Query
from store.records import SELECT_PRIOR_BEST
from store.runs import score_key
from tests.core.conftest import SECRET, Clock, execute, query
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


def ended(db_path, owner: int, game: str = "donsol", variant: str = "normal") -> list[tuple]:
    """The player's ended runs of a game and variant in the order they ended, with what each
    kept of the runs before it."""
    return query(db_path, "SELECT id, prior_runs FROM runs WHERE owner_id = ? AND game = ? AND "
                 "variant = ? AND status <> 'playing' ORDER BY finished_at, id",
                 (owner, game, variant))


async def test_each_run_keeps_how_many_of_the_players_runs_ended_before_it(
    core: Core, clock: Clock, db_path
) -> None:
    """However a run ends (played out, resigned, given up for a new one), it is counted once,
    for its player, game and variant, and keeps the count as it stood."""
    await finished(core, clock, ALICE, 1)
    clock.advance(minutes=1)
    resigned = await core.runs.start(ALICE, "donsol", "normal", seed=2)
    await core.runs.resign(resigned.id, ALICE, resigned.version)
    await finished(core, clock, BOB, 3)
    await finished(core, clock, ALICE, 4, variant="easy")
    clock.advance(minutes=1)
    given_up = await core.runs.start(ALICE, "donsol", "normal", seed=5)
    fresh = await core.runs.abandon(given_up.id, ALICE, given_up.version)
    await play_out(core, fresh, random.Random(6))
    last = await finished(core, clock, ALICE, 7)

    assert [prior for _, prior in ended(db_path, ALICE)] == [0, 1, 2, 3, 4]
    assert [prior for _, prior in ended(db_path, ALICE, variant="easy")] == [0]
    assert [prior for _, prior in ended(db_path, BOB)] == [0]
    assert sorted(query(db_path, "SELECT owner_id, game, variant, runs FROM finished_runs")) == [
        (ALICE, "donsol", "easy", 1), (ALICE, "donsol", "normal", 5),
        (BOB, "donsol", "normal", 1),
    ]
    assert (await core.rankings.personal_best(last)).runs == 4


async def test_the_count_a_run_kept_is_the_one_its_card_says(
    core: Core, clock: Clock, db_path
) -> None:
    """The card reads the count the run kept; a run that ended before the count was kept
    (prior_runs NULL: an older database) is counted from the runs themselves, the same."""
    runs = [await finished(core, clock, ALICE, seed) for seed in range(4)]
    later = runs[-1]
    # Drawn by another process than the one whose write ended the runs: read from the store.
    other = await Core.open(db_path, clock=clock, daily_secret=SECRET)
    try:
        execute(db_path, "UPDATE runs SET prior_runs = 41 WHERE id = ?", (later.id,))
        assert (await other.rankings.personal_best(later)).runs == 41
        execute(db_path, "UPDATE runs SET prior_runs = NULL")
        for i, run in enumerate(runs):
            assert (await other.rankings.personal_best(run)).runs == i
    finally:
        await other.close()


async def test_a_player_with_thousands_of_runs_is_compared_on_an_index(
    core: Core, clock: Clock, db_path
) -> None:
    """3,000 ended runs of one player: the card of the next one has them all counted and
    their best found, the best by the index of the player's runs by score, best first."""
    scores = [(n * 37) % 101 for n in range(3000)]
    store_ended(db_path, ALICE, scores)
    run = await finished(core, clock, ALICE, 1)
    best = await core.rankings.personal_best(run)
    top = max(scores)
    assert best.runs == 3000
    assert best.previous == f"{top} points"
    assert best.new == (run.score[0] > top)

    plan = explain(db_path, SELECT_PRIOR_BEST, {
        "owner_id": ALICE, "game": "donsol", "variant": "normal", "run_id": run.id,
        "finished_at": run.finished_at})
    assert "runs_player_best" in plan, plan


def store_ended(db_path, owner: int, scores: list[int]) -> None:
    """Ended runs stored as an older bot or a bulk load would (the triggers count them)."""
    rows = [
        (owner, "donsol", "normal", str(k), "practice", "over", "lost", f"[{score}, 0]",
         score_key([score, 0]), f"{score} points", score, "{}", "donsol/1",
         f"2026-11-01T00:00:{k:06d}", f"2026-11-01T00:00:{k:06d}", f"2026-11-01T00:00:{k:06d}")
        for k, score in enumerate(scores)
    ]
    sql = ("INSERT INTO runs (owner_id, game, variant, seed, kind, status, outcome, score,"
           " score_key, score_text, points, state, rules, created_at, updated_at, finished_at)"
           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
    if is_postgres_url(db_path):
        with psycopg.connect(str(db_path)) as pg, pg.cursor() as cursor:
            cursor.executemany(sql.replace("?", "%s"), rows)
            cursor.execute("ANALYZE runs")
        return
    conn = sqlite3.connect(db_path)
    try:
        with conn:
            conn.executemany(sql, rows)
        conn.execute("ANALYZE")
    finally:
        conn.close()


def explain(db_path, statement: Query, params: dict) -> str:
    """The plan the database would run ``statement`` by, as text."""
    if is_postgres_url(db_path):
        with psycopg.connect(str(db_path)) as pg:
            return "\n".join(row[0] for row in pg.execute(
                "EXPLAIN " + statement.postgresql, params))
    conn = sqlite3.connect(db_path)
    try:
        return "\n".join(str(row) for row in conn.execute(
            "EXPLAIN QUERY PLAN " + statement.sqlite, params))
    finally:
        conn.close()
