"""The kept counts of the boards (migration 0011: ``board_counts``, ``period_counts``) are the
boards' own counts, score by score and total by total, on both backends: as dailies rank when
they are written, as they rank later (an unranked run set ranked), as a player's week and
month totals move, and in a database that held ranked runs before the counts existed.

The boards' pages, own lines and sizes are read from these counts; tests/core/test_boards_scale.py
checks them against the board's definition.
"""

from __future__ import annotations

import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.migrate import migrate
from core import Core
from store import is_postgres_url
from store.migrations import folder
from tests.core.conftest import SECRET, Clock, execute, query
from tests.core.test_boards_scale import DAY, NOW, make_rows, store_rows
from tests.postgres.cluster import Cluster


def board_counts(db: Path | str) -> Counter[tuple[Any, ...]]:
    return Counter({tuple(row[:-1]): int(row[-1]) for row in query(
        db, "SELECT game, variant, day, guild_id, score_key, n FROM board_counts")})


def counted_runs(db: Path | str) -> Counter[tuple[Any, ...]]:
    """Each board's lines per score, counted from the runs: everyone's (0) and per server."""
    counts: Counter[tuple[Any, ...]] = Counter()
    for game, variant, day, guild, key in query(
        db, "SELECT game, variant, day, guild_id, score_key FROM runs "
            "WHERE kind = 'daily' AND ranked = 1"):
        counts[game, variant, day, 0, key] += 1
        if guild is not None:
            counts[game, variant, day, guild, key] += 1
    return counts


def period_counts(db: Path | str) -> Counter[tuple[Any, ...]]:
    return Counter({tuple(row[:-1]): int(row[-1]) for row in query(
        db, "SELECT span, first, game, variant, guild_id, total, n FROM period_counts")})


def counted_totals(db: Path | str) -> Counter[tuple[Any, ...]]:
    return Counter(tuple(row) for row in query(
        db, "SELECT span, first, game, variant, guild_id, total FROM period_points"))


def assert_counts_kept(db: Path | str) -> None:
    assert board_counts(db) == counted_runs(db)
    assert period_counts(db) == counted_totals(db)
    assert not any(n <= 0 for n in period_counts(db).values())


async def test_counts_follow_the_runs_as_they_rank(db_path: Path) -> None:
    core = await Core.open(db_path, clock=Clock(NOW), daily_secret=SECRET)
    try:
        rows, names = make_rows(random.Random(11), 400)
        store_rows(db_path, rows, names)
        assert sum(board_counts(db_path).values()) > 400  # everyone's and the servers'
        assert_counts_kept(db_path)
        # Finished after the day closed, then ranked: on the board (and in the week's and
        # month's totals, which move from one total's count to another) from then on.
        execute(db_path, "UPDATE runs SET ranked = 1 WHERE ranked = 0")
        assert_counts_kept(db_path)
        board = await core.rankings.board("donsol", "normal", DAY)
        assert board.size == sum(1 for r in rows if (r.game, r.variant, r.day)
                                 == ("donsol", "normal", DAY))
    finally:
        await core.close()


@pytest.fixture(params=("sqlite", "postgresql"))
def fresh_db(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """An empty database, not yet migrated."""
    if request.param == "sqlite":
        return tmp_path / "old.sqlite3"
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    return cluster.create_database()


async def test_a_database_of_version_10_gets_its_counts(fresh_db: Path | str,
                                                        tmp_path: Path) -> None:
    shipped = folder("postgresql" if is_postgres_url(fresh_db) else "sqlite")
    older = tmp_path / "version10"
    older.mkdir()
    for sql in sorted(shipped.glob("*.sql")):
        if int(sql.name[:4]) <= 10:
            shutil.copy(sql, older / sql.name)
    assert await migrate(fresh_db, older) == 10
    rows, names = make_rows(random.Random(5), 300)
    store_rows(fresh_db, rows, names)
    assert await migrate(fresh_db) >= 11
    assert_counts_kept(fresh_db)
    assert board_counts(fresh_db)
