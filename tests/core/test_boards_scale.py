"""Board pages read without walking the lines above them (``store.boards.BoardStatements``, which
PostgreSQL runs too) rank and order exactly as the board's definition says, on every page, at
every page size, on both backends.

A day's board is filled with hundreds of ranked dailies whose scores fall in a few values (tie
groups far longer than a page, so page edges cut through them), players whose names differ only
in case or are missing, runs in three servers and in DMs, accounts of every age, and rows that
must stay off the board (unranked, another day, another variant, another game). The expected
board is computed here in Python from the rows themselves: scores higher first, equal scores
sharing ``1 + the number of higher scores`` and listed by name (case-insensitively), then id.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from core import Core
from core.rankings import DISCORD_EPOCH_MS, PAGE_SIZE, max_owner_id
from store import is_postgres_url
from store.base import BoardFilter, BoardLine
from store.runs import score_key
from tests.core.conftest import SECRET, Clock

DAY = "2026-12-03"
NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
GUILDS = (501, 502, 503)
STRICT_GUILD, STRICT_DAYS = 502, 7
NAMES = ("ann", "Ann", "bob", "Bob", "carol", "dave", "Eve", "eve", "zed", "")
#: Few distinct scores, so that tie groups run far past a page.
SCORES = ([54, 7], [40, 3], [40, 3], [40, 1], [12, 0], [12, 0], [12, 0], [5, 0], [0, 0])


@dataclass(frozen=True)
class Row:
    owner_id: int
    guild_id: int | None
    game: str
    variant: str
    day: str
    score: list[int]
    ranked: bool
    status: str


def account(days_old: float, low: int) -> int:
    created = NOW - timedelta(days=days_old)
    return ((int(created.timestamp() * 1000) - DISCORD_EPOCH_MS) << 22) | low


def make_rows(rng: random.Random, count: int) -> tuple[list[Row], dict[int, str]]:
    rows, names = [], {}
    for k in range(count):
        owner = account(rng.choice((1, 3, 6.9, 7.1, 30, 900)), k)
        if rng.random() < 0.9:  # the rest have no name on record: listed as ""
            names[owner] = rng.choice(NAMES)
        board = rng.random()
        game, variant, day = "donsol", "normal", DAY
        if board < 0.05:
            variant = "easy"
        elif board < 0.1:
            day = "2026-12-02"
        elif board < 0.15:
            game = "tomb"
        rows.append(Row(
            owner_id=owner, guild_id=rng.choice((*GUILDS, None)), game=game, variant=variant,
            day=day, score=rng.choice(SCORES), ranked=rng.random() > 0.1,
            status=rng.choice(("over", "over", "resigned")),
        ))
    return rows, names


def store_rows(path: Path | str, rows: list[Row], names: dict[int, str]) -> None:
    """Write the rows behind the core's back, on either backend."""
    runs = [
        (r.owner_id, r.guild_id, r.game, r.variant, r.day, r.status, json.dumps(r.score),
         score_key(r.score), f"{r.score[0]} cards", r.score[0], int(r.ranked), f"{r.game}/1",
         "2026-12-03T10:00:00.000+00:00", "2026-12-03T10:05:00.000+00:00",
         "2026-12-03T10:05:00.000+00:00")
        for r in rows
    ]
    statements = [
        ("INSERT INTO runs (owner_id, guild_id, game, variant, seed, kind, day, status, outcome,"
         " score, score_key, score_text, points, state, moves, version, ranked, rules,"
         " created_at, updated_at, finished_at) VALUES (?, ?, ?, ?, '1', 'daily', ?, ?, 'lost',"
         " ?, ?, ?, ?, '{}', 3, 3, ?, ?, ?, ?, ?)", runs),
        ("INSERT INTO players (user_id, name, updated_at) VALUES (?, ?, '2026-12-01')",
         list(names.items())),
        ("INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)",
         [(STRICT_GUILD, "min-account-age", str(STRICT_DAYS))]),
    ]
    if is_postgres_url(path):
        with psycopg.connect(str(path)) as pg, pg.cursor() as cursor:
            for sql, params in statements:
                cursor.executemany(sql.replace("?", "%s"), params)
        return
    conn = sqlite3.connect(path)
    try:
        with conn:
            for sql, params in statements:
                conn.executemany(sql, params)
    finally:
        conn.close()


def expected(rows: list[Row], names: dict[int, str], guild_id: int | None) -> list[tuple]:
    """The whole board by its definition, as (rank, owner, name, score, status) lines."""
    age = STRICT_DAYS if guild_id == STRICT_GUILD else 0
    bound = max_owner_id(DAY, age)
    on = [r for r in rows if r.ranked and (r.game, r.variant, r.day) == ("donsol", "normal", DAY)
          and (guild_id is None or r.guild_id == guild_id)
          and (bound is None or r.owner_id <= bound)]
    on.sort(key=lambda r: (tuple(-part for part in r.score),
                           names.get(r.owner_id, "").lower(), r.owner_id))
    return [(1 + sum(o.score > r.score for o in on), r.owner_id, names.get(r.owner_id, ""),
             r.score, r.status) for r in on]


def seen(line: BoardLine) -> tuple:
    return (line.rank, line.owner_id, line.name, line.score, line.status)


@pytest.fixture
async def filled(db_path: Path) -> AsyncIterator[tuple[Core, list[Row], dict[int, str]]]:
    core = await Core.open(db_path, clock=Clock(NOW), daily_secret=SECRET)
    rows, names = make_rows(random.Random(7), 700)
    store_rows(db_path, rows, names)
    yield core, rows, names
    await core.close()


@pytest.mark.parametrize("guild_id", [None, *GUILDS])
async def test_every_page_is_the_board_as_defined(filled, guild_id: int | None) -> None:
    core, rows, names = filled
    board = expected(rows, names, guild_id)
    assert len(board) > 3 * PAGE_SIZE  # several pages, with tie groups across their edges
    first = await core.rankings.board("donsol", "normal", DAY, guild_id=guild_id)
    assert first.size == len(board) and first.pages == -(-len(board) // PAGE_SIZE)
    shown = []
    for page in range(first.pages):
        got = await core.rankings.board("donsol", "normal", DAY, guild_id=guild_id, page=page)
        assert got.page == page
        shown += [seen(line) for line in got.lines]
    assert shown == board


@pytest.mark.parametrize("guild_id", [None, STRICT_GUILD])
async def test_any_window_of_the_board_matches_at_any_page_size(filled, guild_id) -> None:
    core, rows, names = filled
    board = expected(rows, names, guild_id)
    bound = max_owner_id(DAY, STRICT_DAYS) if guild_id == STRICT_GUILD else None
    where = BoardFilter("donsol", "normal", DAY, guild_id, bound)
    for limit in (1, 3, 7, 25, len(board) + 5):
        for offset in range(0, len(board) + 2, max(1, limit // 2)):
            lines = await core.store.read(lambda tx, o=offset, n=limit: tx.board(where, n, o))
            assert [seen(line) for line in lines] == board[offset:offset + limit], (limit, offset)


async def test_own_lines_and_standings_match_the_board(filled) -> None:
    core, rows, names = filled
    world = {line[1]: line for line in expected(rows, names, None)}
    strict = {line[1]: line for line in expected(rows, names, STRICT_GUILD)}
    playing_here = {r.owner_id for r in rows if r.guild_id == STRICT_GUILD}
    for owner in sorted(world)[::7]:
        page = await core.rankings.board("donsol", "normal", DAY, page=3, viewer_id=owner)
        own = page.own if page.own is not None else next(
            line for line in page.lines if line.owner_id == owner)
        assert seen(own) == world[owner]
        standing = await core.rankings.standing(owner, "donsol", "normal", DAY, STRICT_GUILD)
        assert standing.world is not None and seen(standing.world) == world[owner]
        assert standing.world_size == len(world) and standing.server_size == len(strict)
        if owner in strict:
            assert standing.server is not None and seen(standing.server) == strict[owner]
        else:  # played elsewhere, or too young an account for this server
            assert standing.server is None
            assert owner not in playing_here or owner > max_owner_id(DAY, STRICT_DAYS)
