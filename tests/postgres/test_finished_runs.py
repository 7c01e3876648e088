"""Two processes ending runs of one player, game and variant at the same moment on
PostgreSQL: the second waits at the player's count for the first to commit and counts on from
it, so each run keeps its own number of runs before it (migration 0017's ``runs_finished``)."""

from __future__ import annotations

import threading

import psycopg

from core import Core
from tests.core.conftest import SECRET

ALICE = 101
END = "UPDATE runs SET status = 'resigned', outcome = 'lost', finished_at = now()::text " \
      "WHERE id = %s"


async def test_two_runs_ended_at_once_keep_different_counts(pg_url: str) -> None:
    core = await Core.open(pg_url, daily_secret=SECRET)
    try:
        first = await core.runs.start(ALICE, "donsol", "normal", seed=1)
        second = await core.runs.start(ALICE, "donsol", "normal", seed=2)
    finally:
        await core.close()
    ended = threading.Event()
    with psycopg.connect(pg_url) as one, psycopg.connect(pg_url) as two:
        one.execute(END, (first.id,))  # not committed: holds the player's count

        def end_second() -> None:
            with two.transaction():
                two.execute(END, (second.id,))
            ended.set()

        waiting = threading.Thread(target=end_second)
        waiting.start()
        assert not ended.wait(0.5), "the second ending did not wait for the first"
        one.commit()
        waiting.join(10)
        assert ended.is_set()
        kept = one.execute("SELECT id, prior_runs FROM runs ORDER BY id").fetchall()
        counted = one.execute("SELECT runs FROM finished_runs WHERE owner_id = %s",
                              (ALICE,)).fetchall()
    assert kept == [(first.id, 0), (second.id, 1)]
    assert counted == [(2,)]
