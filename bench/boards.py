"""Leaderboards, stats and streaks at scale: 1,000,000 finished dailies, 30 days, 1,000 servers.

1. **Build.** A SQLite file gets the real schema (``Core.open`` applies the migrations), then
   ``--runs`` finished daily runs are bulk-inserted with plain ``sqlite3`` in one transaction.
   The rows look like real play: scores, outcomes, score texts and move counts come from a pool
   of deals actually played out by the engines (random and greedy players mixed), ``score_key``
   is ``store.sqlite.score_key`` of the score, seeds are the days' real daily seeds, players
   are Discord-like ids (some accounts younger than a server's ``min-account-age``) with names
   (some shared, for the name tie-break), come back on consecutive days (streaks) and belong
   to servers of very unequal sizes; some runs are resigned, some unranked (finished after
   the day closed), some played in DMs. Prints the build time and the size per 100,000 runs,
   before and after ``ANALYZE``, and the size per 100,000 runs of rows with a real state dump
   and move log (measured on a sample).
2. **Queries.** Through the core API (``core.rankings``), on the last day's clock: a day's
   global board and a server's, the week's and the month's global boards (each page 1 and
   its last page, with the viewer's own line), a server's month, a player's record (stats,
   streaks, the last 14 days) and a player's standing. Each is timed ``--calls`` times on a
   warm cache (wall p50 / p95 / p99 and this process's CPU p50 / p99; target p99 < 20 ms up
   to 1,000,000 runs, < 50 ms at 10,000,000) and once cold (a fresh connection, the file
   dropped from the OS page cache), first without the planner's statistics, then after
   ``ANALYZE``. With ``--postgres`` the same file is copied into PostgreSQL by ``copy-to``
   (timed) and the calls are made there instead (``bench/_boards_postgres.py``), with the
   server's CPU per call beside the client's.
   Then the rating board (``core.ratings``): everyone's page 1 and a server's, after
   ``core.ratings.run_due`` rated every closed day of the file (timed: wall-clock and CPU,
   and the largest day), and the rating of one synthetic day of ``--rate-players`` players
   (100,000) alone, CPU on one core (``core.skill.rate_day``, target under a minute).
3. **Plans.** ``EXPLAIN QUERY PLAN`` (PostgreSQL: ``EXPLAIN``) of each board and stats
   query: each must search an index (no scan of ``runs``, of the kept totals or counts, no
   sort of a whole board). A bad plan exits non-zero.

Ends with a Markdown table of the figures. Run: ``.venv/bin/python -m bench.boards``
(``--help`` for the options; ``--quick``: 20,000 runs, to check that it runs;
``--db PATH`` keeps the built file and reuses it on the next run; ``--postgres`` times
PostgreSQL: ``TMPDIR=/big/disk python -m bench.boards --db PATH --postgres``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from bench import _boards_postgres as pg
from bench._sharded import postgres_cpu_seconds
from core import Core
from core.clock import timestamp
from core.daily import closes_at
from core.rankings import DISCORD_EPOCH_MS, PAGE_SIZE, max_owner_id, month_of, week_of
from core.ratings import _apply_tx as apply_day
from core.ratings import members_of, rate_results
from core.settings import MIN_ACCOUNT_AGE
from core.skill import competition_ranks, rate_day
from rules import GAMES, Game
from rules.deal import daily_seed
from store.base import BoardFilter, DayResult, PeriodFilter
from store.boards import board_params, board_statements, period_params, period_statements
from store.dialect import Query
from store.ratings import RATING_STATEMENTS
from store.records import (
    SELECT_BEST,
    SELECT_DAILY_MARKS,
    SELECT_GAME_STATS,
    SELECT_PRIOR_BEST,
    SELECT_PRIOR_RUNS,
    SELECT_STREAKS,
)
from store.runs import score_key
from store.settings import SELECT_GUILD_SETTINGS
from tests.postgres.cluster import DURABLE, Cluster, Unavailable

#: The p99 target by the size of the database: 20 ms up to 1,000,000 runs, 50 ms at 10,000,000.
P99_TARGETS_MS = ((1_000_000, 20.0), (10_000_000, 50.0))


def p99_target(runs: int) -> float:
    """The p99 target of a database of ``runs`` (the next size up's)."""
    return next((ms for size, ms in P99_TARGETS_MS if runs <= size), P99_TARGETS_MS[-1][1])


SECRET = "bench-boards-secret"
FIRST_DAY = date(2026, 12, 1)
#: How the day's plays spread over the boards (game, variant): Donsol normal leads.
BOARD_SHARES: dict[tuple[str, str], float] = {
    ("donsol", "normal"): 0.34, ("donsol", "easy"): 0.10, ("donsol", "hard"): 0.08,
    ("tomb", "standard"): 0.26, ("clear", "standard"): 0.22,
}
RESIGNED_SHARE = 0.05
UNRANKED_SHARE = 0.03  # finished after the day closed
DM_SHARE = 0.06  # played in a DM: on the global board only
AWAY_SHARE = 0.04  # played in another server than the player's own
YOUNG_SHARE = 0.02  # accounts a few days old
STRICT_SERVERS = 0.15  # servers with a min-account-age
SYLLABLES = ("ka", "ra", "mo", "zu", "el", "dri", "an", "to", "vi", "sha", "ne", "lor", "bi",
             "gu", "fen", "ix", "o", "ta", "wyn", "cel")
RUN_COLUMNS = (
    "owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day, status, outcome, "
    "score, score_key, score_text, points, state, moves, version, ranked, rules, hinted, "
    "created_at, updated_at, finished_at"
)


# ----- the pool of played deals ---------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How one played deal ended (or stood when resigned), as a run row stores it."""

    score: list[int]
    score_json: str  # as the store writes it
    score_key: str
    score_text: str
    points: int
    outcome: str | None
    moves: int
    dump: str  # the engine's state dump and the moves, for the full-row size
    actions: tuple[str, ...]


@dataclass
class Pool:
    """Played deals per board: finished ones, and positions players resigned in."""

    over: dict[tuple[str, str], list[Outcome]] = field(default_factory=dict)
    resigned: dict[tuple[str, str], list[Outcome]] = field(default_factory=dict)


def choose(game: Game[Any], state: Any, skill: float, rng: random.Random) -> str:
    """A move: with probability ``skill`` one that raises the score most, else any."""
    actions = game.actions(state)
    if rng.random() >= skill:
        return rng.choice(actions)
    best: list[int] | None = None
    bests: list[str] = []
    for action in actions:
        score = game.score(game.apply(state, action))
        if best is None or score > best:
            best, bests = score, [action]
        elif score == best:
            bests.append(action)
    return rng.choice(bests)


def outcome_of(game: Game[Any], state: Any, actions: list[str], resigned: bool) -> Outcome:
    view = game.view(state)
    score = [int(part) for part in view["score"]]
    index, _ = game.stat
    return Outcome(
        score=score, score_json=json.dumps(score, separators=(",", ":")),
        score_key=score_key(score), score_text=view["score_text"],
        points=score[index] if index < len(score) else 0,
        outcome="lost" if resigned else view["outcome"], moves=len(actions),
        dump=json.dumps(game.dump(state), separators=(",", ":"), ensure_ascii=False),
        actions=tuple(actions),
    )


def play_pool(per_board: int, rng: random.Random) -> Pool:
    """Play ``per_board`` deals of each board by players of mixed skill."""
    pool = Pool()
    for key, variant in BOARD_SHARES:
        game = GAMES[key]
        over, resigned = [], []
        for _ in range(per_board):
            state = game.new(rng.getrandbits(64), variant)
            skill = rng.random()
            actions: list[str] = []
            quit_at = rng.randrange(1, 40)
            while not game.view(state)["over"]:
                if len(actions) == quit_at and len(resigned) < per_board // 4:
                    resigned.append(outcome_of(game, state, actions, True))
                action = choose(game, state, skill, rng)
                state = game.apply(state, action)
                actions.append(action)
            over.append(outcome_of(game, state, actions, False))
        pool.over[key, variant] = over
        pool.resigned[key, variant] = resigned or over[:1]
    return pool


# ----- the population -------------------------------------------------------------------------


def snowflake(moment: datetime, low: int) -> int:
    """A Discord id created at ``moment`` (``low``: the low 22 bits, to keep ids apart)."""
    ms = int(moment.timestamp() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (low & ((1 << 22) - 1))


def player_name(rng: random.Random) -> str:
    """A display name; short ones repeat across players, as real ones do."""
    word = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 2, 3))))
    style = rng.random()
    if style < 0.3:
        return word.capitalize()
    if style < 0.6:
        return f"{word}{rng.randrange(100)}"
    if style < 0.8:
        return f"{word.capitalize()} {rng.choice(SYLLABLES).capitalize()}"
    return f"{word}_{rng.randrange(10_000)}"


@dataclass(frozen=True)
class World:
    days: list[str]
    players: list[int]
    names: dict[int, str]
    guilds: list[int]
    home: dict[int, int]  # player -> server
    strict: dict[int, int]  # server -> min-account-age


def make_world(args: argparse.Namespace, rng: random.Random) -> World:
    days = [(FIRST_DAY + timedelta(days=k)).isoformat() for k in range(args.days)]
    opened = datetime.combine(FIRST_DAY, datetime.min.time(), UTC)
    guilds = [snowflake(opened - timedelta(days=rng.uniform(30, 3000)), k)
              for k in range(args.servers)]
    # Server sizes follow a power law: a few big servers, many small ones.
    weights = [1 / (rank + 1) ** 0.9 for rank in range(len(guilds))]
    players, names, home = [], {}, {}
    homes = rng.choices(guilds, weights, k=args.players)
    for k in range(args.players):
        if rng.random() < YOUNG_SHARE:
            created = opened + timedelta(days=rng.uniform(-10, args.days))
        else:
            created = opened - timedelta(days=rng.uniform(30, 3500))
        user = snowflake(created, k)
        players.append(user)
        names[user] = player_name(rng)
        home[user] = homes[k]
    strict = {g: rng.choice((3, 7, 30)) for g in guilds if rng.random() < STRICT_SERVERS}
    return World(days, players, names, guilds, home, strict)


def play_days(activity: float, days: int, rng: random.Random) -> list[int]:
    """The days a player plays: likely again the day after a played day (streaks)."""
    stay = activity + (1 - activity) * 0.6
    come = activity * 0.4
    played, today = [], rng.random() < activity
    for day in range(days):
        if today:
            played.append(day)
        today = rng.random() < (stay if today else come)
    return played


def plan_runs(world: World, target: int, rng: random.Random) -> list[list[tuple[int, str, str]]]:
    """``target`` (player, game, variant) plays, grouped by day."""
    boards = list(BOARD_SHARES)
    shares = list(BOARD_SHARES.values())
    per_player = target / len(world.players)
    by_day: list[list[tuple[int, str, str]]] = [[] for _ in world.days]
    planned = 0
    seen: set[tuple[int, int, str, str]] = set()  # one daily per player, board and day
    # A player plays one to three boards; how often they come back is heavy-tailed.
    mean_boards = 1.5
    mean_activity = min(0.95, per_player / mean_boards / len(world.days))
    order = list(world.players)
    rng.shuffle(order)
    while planned < target:
        for player in order:
            favourites = set()
            while len(favourites) < rng.choices((1, 2, 3), (0.6, 0.3, 0.1))[0]:
                favourites.add(rng.choices(boards, shares)[0])
            activity = min(0.97, rng.betavariate(0.6, 0.6 / mean_activity - 0.6))
            for day in play_days(activity, len(world.days), rng):
                for game, variant in favourites:
                    if (day, player, game, variant) not in seen:
                        seen.add((day, player, game, variant))
                        by_day[day].append((player, game, variant))
                        planned += 1
            if planned >= target:
                break
        # Chance fell short: another pass over the players adds days and boards.
    excess = planned - target
    while excess > 0:  # trim the surplus from the busiest days
        busiest = max(range(len(by_day)), key=lambda d: len(by_day[d]))
        cut = min(excess, max(1, len(by_day[busiest]) // 100))
        del by_day[busiest][-cut:]
        excess -= cut
    for day in by_day:
        rng.shuffle(day)  # ids grow with time within a day, not by player
    return by_day


DAY_MS = 86_400_000


def stamp(days: list[str], day: int, ms: int) -> str:
    """``core.clock.timestamp`` of ``ms`` milliseconds after ``days[day]`` opened (written out
    by hand: a million datetimes would take most of the build)."""
    extra, ms = divmod(ms, DAY_MS)
    seconds, ms = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{days[day + extra]}T{hours:02d}:{minutes:02d}:{seconds:02d}.{ms:03d}+00:00"


def run_rows(world: World, pool: Pool, plan: list[list[tuple[int, str, str]]],
             rng: random.Random) -> Iterator[tuple[Any, ...]]:
    """The run rows, day by day, as ``RUN_COLUMNS``."""
    rules = {key: game.rules_tag for key, game in GAMES.items()}
    last = date.fromisoformat(world.days[-1])
    days = [*world.days, *((last + timedelta(days=k)).isoformat() for k in (1, 2))]
    chance, pick = rng.random, rng.choice
    for d, (day, plays) in enumerate(zip(world.days, plan, strict=True)):
        opened = datetime.fromisoformat(day).replace(tzinfo=UTC)
        closed = int((closes_at(day) - opened).total_seconds() * 1000)
        seeds = {board: str(daily_seed(SECRET, board[0], board[1], day)) for board in BOARD_SHARES}
        for player, game, variant in plays:
            where = chance()
            if where < DM_SHARE:
                guild = None
            elif where < DM_SHARE + AWAY_SHARE:
                guild = pick(world.guilds)
            else:
                guild = world.home[player]
            resigned = chance() < RESIGNED_SHARE
            played = pick((pool.resigned if resigned else pool.over)[game, variant])
            started = int(chance() * (DAY_MS - 400_000))
            ranked = chance() >= UNRANKED_SHARE
            if not ranked:  # finished after the day's boards closed
                finished = closed + 60_000 + int(chance() * 7_140_000)
            else:
                finished = started + 30_000 + int(4000 * played.moves * (1 + 7 * chance()))
                if finished >= closed:
                    finished = closed - 1000 - int(chance() * 3_000_000)
            at = stamp(days, d, finished)
            yield (
                player, guild, None if guild is None else guild + 1, game, variant,
                seeds[game, variant], None, "daily", day,
                "resigned" if resigned else "over", played.outcome, played.score_json,
                played.score_key, played.score_text, played.points, '{"bench":1}',
                played.moves, played.moves + int(resigned), int(ranked), rules[game], 0,
                stamp(days, d, started), at, at,
            )


# ----- building -------------------------------------------------------------------------------


@dataclass
class Built:
    runs: int
    seconds: float
    size: int  # bytes, before ANALYZE
    rows_seconds: float = 0.0  # making and inserting the rows
    index_seconds: float = 0.0  # making the indexes again
    size_analyzed: int = 0
    analyze_seconds: float = 0.0


def file_size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def secondary_indexes(conn: sqlite3.Connection, table: str = "runs") -> list[tuple[str, str]]:
    """A table's own indexes, with the SQL that made them."""
    return conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
        "AND sql IS NOT NULL ORDER BY name", (table,)
    ).fetchall()


async def build(path: Path, world: World, pool: Pool, plan: list[list[tuple[int, str, str]]],
                rng: random.Random) -> Built:
    """The schema through the core's migrations, then every row in one transaction."""
    start = time.perf_counter()
    await (await Core.open(path, daily_secret=SECRET)).close()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        # A bulk load: no journal, no fsync, a big page cache; WAL is back on at the end, as
        # the bot runs it. Indexes are dropped and made again from their own SQL: sorting once
        # is faster than updating six B-trees row by row.
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -1000000")
        conn.execute("BEGIN")
        indexes = secondary_indexes(conn)
        for name, _ in indexes:
            conn.execute(f"DROP INDEX {name}")
        marks = ",".join("?" * len(RUN_COLUMNS.split(",")))
        conn.executemany(f"INSERT INTO runs ({RUN_COLUMNS}) VALUES ({marks})",
                         run_rows(world, pool, plan, rng))
        inserted = time.perf_counter()
        for _, sql in indexes:
            conn.execute(sql)
        indexed = time.perf_counter()
        now = timestamp(datetime.combine(FIRST_DAY, datetime.min.time(), UTC))
        conn.executemany("INSERT INTO players (user_id, name, updated_at) VALUES (?, ?, ?)",
                         ((user, name, now) for user, name in world.names.items()))
        conn.executemany(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)",
            ((guild, MIN_ACCOUNT_AGE, str(age)) for guild, age in world.strict.items()),
        )
        conn.execute("COMMIT")
        runs = conn.execute("SELECT count(*) FROM runs").fetchone()[0]
        conn.execute("PRAGMA journal_mode = WAL")
    finally:
        conn.close()
    return Built(runs, time.perf_counter() - start, file_size(path), rows_seconds=inserted - start,
                 index_seconds=indexed - inserted)


#: The kept totals and counts added up from the runs (as migrations 0008, 0011, 0017 and 0018 do).
_WEEK = "date(day, '-' || ((CAST(strftime('%w', day) AS INTEGER) + 6) % 7) || ' days')"
KEPT_AGAIN = (
    "DELETE FROM period_points",
    "DELETE FROM board_counts",
    "DELETE FROM period_counts",
    "DELETE FROM finished_runs",
    """INSERT INTO finished_runs (owner_id, game, variant, runs)
       SELECT owner_id, game, variant, count(*) FROM runs WHERE status <> 'playing'
       GROUP BY owner_id, game, variant""",
    "DELETE FROM player_totals",
    """INSERT INTO player_totals (owner_id, game, variant, outcome, runs, best_key, points,
                                  dailies, hinted)
       SELECT owner_id, game, variant, coalesce(outcome, ''), count(*), max(score_key),
              sum(points), sum(CASE WHEN kind = 'daily' THEN 1 ELSE 0 END), sum(hinted)
       FROM runs WHERE status <> 'playing'
       GROUP BY owner_id, game, variant, coalesce(outcome, '')""",
    *(f"""INSERT INTO period_points (span, first, game, variant, guild_id, owner_id, total, days)
          SELECT '{span}', {first}, game, variant, {guild}, owner_id, sum(points), count(*)
          FROM runs WHERE kind = 'daily' AND ranked = 1 {where}
          GROUP BY 2, game, variant{group}, owner_id"""
      for span, first in (("week", _WEEK), ("month", "substr(day, 1, 8) || '01'"))
      for guild, where, group in (("0", "", ""),
                                  ("guild_id", "AND guild_id IS NOT NULL", ", guild_id"))),
    *(f"""INSERT INTO board_counts (game, variant, day, guild_id, score_key, n)
          SELECT game, variant, day, {guild}, score_key, count(*) FROM runs
          WHERE kind = 'daily' AND ranked = 1 {where}
          GROUP BY game, variant, day{group}, score_key"""
      for guild, where, group in (("0", "", ""),
                                  ("guild_id", "AND guild_id IS NOT NULL", ", guild_id"))),
    """INSERT INTO period_counts (span, first, game, variant, guild_id, total, n)
       SELECT span, first, game, variant, guild_id, total, count(*) FROM period_points
       GROUP BY span, first, game, variant, guild_id, total""",
)
#: A Discord id's low bits, which the bench's players are told apart by (``snowflake``).
LOW_BITS = (1 << 22) - 1


def multiply(path: Path, copies: int) -> float:
    """Make the built file's world ``copies`` times as populous: every run played again by a
    new player of the same account age and name (the id's low bits moved up), in the same
    server, on the same day, so every board holds ``copies`` times its lines and the kept
    totals and counts follow through the runs' triggers. Done in SQL, in one transaction,
    with the runs' indexes made again after (the Python rows would take hours at 10,000,000).
    The new players' ratings are their originals' (``copy_ratings``), not rated again.
    Returns the seconds it took."""
    start = time.perf_counter()
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -1000000")
        stride = 1 + conn.execute(f"SELECT max(user_id & {LOW_BITS}) FROM players").fetchone()[0]
        if stride * copies > LOW_BITS:
            raise SystemExit(f"--copies {copies}: too many for {stride:,} players' ids")
        top = conn.execute("SELECT max(id) FROM runs").fetchone()[0]
        conn.execute("BEGIN")
        # The triggers would keep the totals and counts row by row (a dozen B-tree writes a
        # run): they are off, and the kept tables are added up again once at the end.
        indexes = [*secondary_indexes(conn), *secondary_indexes(conn, "period_points")]
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
                                "AND tbl_name IN ('runs', 'period_points')").fetchall()
        for name, _ in indexes:
            conn.execute(f"DROP INDEX {name}")
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        others = RUN_COLUMNS.split(",", 1)[1]
        for copy in range(1, copies):
            shift = copy * stride
            conn.execute(f"INSERT INTO runs ({RUN_COLUMNS}) SELECT owner_id + {shift},{others} "
                         f"FROM runs WHERE id <= {top} ORDER BY id")
            conn.execute(f"INSERT INTO players (user_id, name, updated_at) SELECT "
                         f"user_id + {shift}, name, updated_at FROM players "
                         f"WHERE (user_id & {LOW_BITS}) < {stride}")
        for statement in KEPT_AGAIN:
            conn.execute(statement)
        copy_ratings(conn, copies, stride)
        for _, sql in [*indexes, *triggers]:
            conn.execute(sql)
        conn.execute("COMMIT")
        conn.execute("PRAGMA journal_mode = WAL")
    finally:
        conn.close()
    return time.perf_counter() - start


#: The rating tables, whose rows a new player takes over from the player it copies.
RATING_TABLES = ("ratings", "rating_members", "rating_history")


def copy_ratings(conn: sqlite3.Connection, copies: int, stride: int) -> int:
    """Give each of ``multiply``'s new players the rating rows of the player whose runs it
    plays again (the same days, servers and scores), so the rating boards hold ``copies``
    times their lines as the day boards do. Copies made before are made again (a file
    multiplied before this step gets them once). Returns the rows added."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    added = 0
    for table in RATING_TABLES:
        if table not in tables:
            continue  # rating_history: from migration 0012 on
        columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
        shifted = ", ".join("owner_id + ?" if c == "owner_id" else c for c in columns)
        conn.execute(f"DELETE FROM {table} WHERE (owner_id & {LOW_BITS}) >= ?", (stride,))
        for copy in range(1, copies):
            added += conn.execute(
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {shifted} FROM {table} "
                f"WHERE (owner_id & {LOW_BITS}) < ?", (copy * stride, stride)).rowcount
    return added


def analyze(path: Path, built: Built) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        start = time.perf_counter()
        conn.execute("ANALYZE")
        built.analyze_seconds = time.perf_counter() - start
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    built.size_analyzed = file_size(path)


def analyzed(path: Path) -> bool:
    conn = sqlite3.connect(path)
    try:
        return bool(conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone()[0])
    finally:
        conn.close()


async def full_row_size(pool: Pool, folder: Path) -> float:
    """Bytes per run of rows as the bot stores them (the engine's state dump and one row per
    move), measured on the pool's deals in a database of their own."""
    path = folder / "full-rows.sqlite3"
    await (await Core.open(path, daily_secret=SECRET)).close()
    base = file_size(path)
    conn = sqlite3.connect(path, isolation_level=None)
    runs = 0
    try:
        conn.execute("BEGIN")
        for (key, variant), outcomes in pool.over.items():
            game = GAMES[key]
            for k, played in enumerate(outcomes):
                run_id = conn.execute(
                    f"INSERT INTO runs ({RUN_COLUMNS}) VALUES "
                    "(?, 1, 2, ?, ?, '1', NULL, 'daily', ?, 'over', ?, ?, ?, ?, ?, ?, ?, ?, 1, ?,"
                    " 0, ?, ?, ?)",
                    (k + 1, key, variant, "2026-12-01", played.outcome, played.score_json,
                     played.score_key, played.score_text, played.points, played.dump, played.moves,
                     played.moves, game.rules_tag, "2026-12-01T12:00:00.000+00:00",
                     "2026-12-01T12:10:00.000+00:00", "2026-12-01T12:10:00.000+00:00"),
                ).lastrowid
                conn.executemany(
                    "INSERT INTO moves (run_id, number, action, at) VALUES (?, ?, ?, ?)",
                    ((run_id, n, action, "2026-12-01T12:00:00.000+00:00")
                     for n, action in enumerate(played.actions, 1)),
                )
                runs += 1
        conn.execute("COMMIT")
        conn.execute("VACUUM")
    finally:
        conn.close()
    return (file_size(path) - base) / runs


# ----- timing through the core ----------------------------------------------------------------


@dataclass
class Timing:
    """Wall-clock milliseconds per call, and the process's CPU milliseconds per call: the
    second is what a call costs whatever else the machine is running."""

    name: str
    cold_ms: float
    samples_ms: list[float]
    cpu_ms: list[float]
    server_cpu_ms: float | None = None  # PostgreSQL's own CPU per call, the mean of the calls

    def p(self, q: int) -> float:
        return quantile(self.samples_ms, q)

    def cpu(self, q: int) -> float:
        return quantile(self.cpu_ms, q)


def quantile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


@dataclass(frozen=True)
class Case:
    """One kind of call: ``call(core, rng)`` makes one, on an argument drawn at random."""

    name: str
    call: Callable[[Core, random.Random], Awaitable[Any]]


def drop_from_os_cache(path: Path) -> None:
    """Evict the database file's pages from the OS page cache (this file only)."""
    for file in (path, Path(f"{path}-wal")):
        if file.exists() and hasattr(os, "posix_fadvise"):
            fd = os.open(file, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


@dataclass(frozen=True)
class Samples:
    """What the calls are made on: boards, servers and players drawn from the database."""

    today: str
    days: list[str]
    big_board: tuple[str, str]
    sizes: dict[str, int]  # the big board's size per day
    guilds: list[int]  # weighted by how much they play: one entry per run
    players: list[tuple[int, str]]  # (player, game), one entry per run: busy players weigh more
    runs: list[tuple[int, str, str, str, int | None]]  # owner, game, variant, day, guild
    #: The big board's week and month sizes by their first day (the last page's number).
    period_sizes: dict[tuple[str, str], int] = field(default_factory=dict)
    #: The servers' day board sizes of the sampled runs (servers without an age bound).
    server_sizes: dict[tuple[int, str, str, str], int] = field(default_factory=dict)
    #: Their month board sizes, by (server, game, variant), of the last day's month.
    server_months: dict[tuple[int, str, str], int] = field(default_factory=dict)
    rating_size: int = 0  # the big board's rated players
    rating_server: tuple[int, int] = (0, 0)  # the big board's largest server: (id, members)


def samples(path: Path, rng: random.Random, count: int) -> Samples:
    conn = sqlite3.connect(path)
    try:
        days = [row[0] for row in conn.execute("SELECT DISTINCT day FROM runs ORDER BY day")]
        big = conn.execute(
            "SELECT game, variant FROM runs GROUP BY game, variant ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()
        sizes = dict(conn.execute(
            "SELECT day, count(*) FROM runs WHERE kind = 'daily' AND ranked = 1 AND game = ? "
            "AND variant = ? GROUP BY day", tuple(big)).fetchall())
        top = conn.execute("SELECT max(id) FROM runs").fetchone()[0]
        picked = [rng.randrange(1, top + 1) for _ in range(count * 4)]
        rows = [conn.execute("SELECT owner_id, game, variant, day, guild_id FROM runs "
                             "WHERE id = ?", (k,)).fetchone() for k in picked]
        rows = [row for row in rows if row is not None]
        # Read from the kept counts (migration 0011), as the boards read their sizes.
        periods = {(span, first): int(n) for span, first, n in conn.execute(
            "SELECT span, first, sum(n) FROM period_counts WHERE game = ? AND variant = ? "
            "AND guild_id = 0 GROUP BY span, first", tuple(big))}
        strict = {g for (g,) in conn.execute(
            "SELECT guild_id FROM guild_settings WHERE key = ?", (MIN_ACCOUNT_AGE,))}
        servers, months = {}, {}
        for _, game, variant, day, guild in rows:
            if guild is not None and guild not in strict:
                servers[guild, game, variant, day] = int(conn.execute(
                    "SELECT coalesce(sum(n), 0) FROM board_counts WHERE game = ? AND "
                    "variant = ? AND day = ? AND guild_id = ?", (game, variant, day, guild)
                ).fetchone()[0])
                months[guild, game, variant] = int(conn.execute(
                    "SELECT coalesce(sum(n), 0) FROM period_counts WHERE span = 'month' AND "
                    "first = ? AND game = ? AND variant = ? AND guild_id = ?",
                    (month_of(days[-1])[0], game, variant, guild)).fetchone()[0])
        # What the rating boards' last-page buttons ask for: their sizes.
        rating_size = conn.execute("SELECT count(*) FROM ratings WHERE game = ? AND variant = ?",
                                   tuple(big)).fetchone()[0]
        server = conn.execute(
            "SELECT guild_id, count(*) FROM rating_members WHERE game = ? AND variant = ? "
            "GROUP BY guild_id ORDER BY count(*) DESC LIMIT 1", tuple(big)).fetchone()
    finally:
        conn.close()
    return Samples(
        today=days[-1], days=days, big_board=(big[0], big[1]), sizes=sizes,
        guilds=[row[4] for row in rows if row[4] is not None],
        players=[(row[0], row[1]) for row in rows],
        runs=[tuple(row) for row in rows], period_sizes=periods, server_sizes=servers,
        server_months=months,
        rating_size=int(rating_size),
        rating_server=(int(server[0]), int(server[1])) if server else (0, 0),
    )


def last_page(size: int) -> int:
    """The last page's number, as the board's last-page button asks for it."""
    return max(0, size - 1) // PAGE_SIZE


def cases(s: Samples) -> list[Case]:
    game, variant = s.big_board

    async def first_page(core: Core, rng: random.Random) -> Any:
        owner = rng.choice(s.runs)[0]
        return await core.rankings.board(game, variant, rng.choice(s.days), viewer_id=owner)

    async def last(core: Core, rng: random.Random) -> Any:
        owner, day = rng.choice(s.runs)[0], rng.choice(s.days)
        return await core.rankings.board(game, variant, day, page=last_page(s.sizes.get(day, 0)),
                                         viewer_id=owner)

    async def server_last(core: Core, rng: random.Random) -> Any:
        (guild, game_, variant_, day), size = rng.choice(list(s.server_sizes.items()))
        owner = rng.choice(s.runs)[0]
        return await core.rankings.board(game_, variant_, day, guild_id=guild,
                                         page=last_page(size), viewer_id=owner)

    async def week_last(core: Core, rng: random.Random) -> Any:
        day = rng.choice(s.days)
        size = s.period_sizes.get(("week", week_of(day)[0]), 0)
        return await core.rankings.week(game, variant, day, page=last_page(size),
                                        viewer_id=rng.choice(s.runs)[0])

    async def month_last(core: Core, rng: random.Random) -> Any:
        size = s.period_sizes.get(("month", month_of(s.today)[0]), 0)
        return await core.rankings.month(game, variant, s.today[:7], page=last_page(size),
                                         viewer_id=rng.choice(s.runs)[0])

    async def server(core: Core, rng: random.Random) -> Any:
        # A run played in a server: that server's board of the run's day, as its player sees it.
        owner, game_, variant_, day, guild = rng.choice([r for r in s.runs if r[4] is not None])
        return await core.rankings.board(game_, variant_, day, guild_id=guild, viewer_id=owner)

    async def week(core: Core, rng: random.Random) -> Any:
        owner = rng.choice(s.runs)[0]
        return await core.rankings.week(game, variant, rng.choice(s.days), viewer_id=owner)

    async def month(core: Core, rng: random.Random) -> Any:
        owner = rng.choice(s.runs)[0]
        return await core.rankings.month(game, variant, s.today[:7], viewer_id=owner)

    async def month_server(core: Core, rng: random.Random) -> Any:
        owner, game_, variant_, _, guild = rng.choice([r for r in s.runs if r[4] is not None])
        return await core.rankings.month(game_, variant_, s.today[:7], guild_id=guild,
                                         viewer_id=owner)

    async def month_server_last(core: Core, rng: random.Random) -> Any:
        (guild, game_, variant_), size = rng.choice(list(s.server_months.items()))
        return await core.rankings.month(game_, variant_, s.today[:7], guild_id=guild,
                                         page=last_page(size), viewer_id=rng.choice(s.runs)[0])

    async def ratings_global(core: Core, rng: random.Random) -> Any:
        return await core.ratings.board(game, variant, viewer_id=rng.choice(s.runs)[0])

    async def ratings_global_last(core: Core, rng: random.Random) -> Any:
        return await core.ratings.board(game, variant, page=last_page(s.rating_size),
                                        viewer_id=rng.choice(s.runs)[0])

    async def ratings_server_last(core: Core, rng: random.Random) -> Any:
        guild, size = s.rating_server
        return await core.ratings.board(game, variant, guild_id=guild, page=last_page(size),
                                        viewer_id=rng.choice(s.runs)[0])

    async def ratings_server(core: Core, rng: random.Random) -> Any:
        owner, game_, variant_, _, guild = rng.choice([r for r in s.runs if r[4] is not None])
        return await core.ratings.board(game_, variant_, guild_id=guild, viewer_id=owner)

    async def record(core: Core, rng: random.Random) -> Any:
        owner, game_ = rng.choice(s.players)
        return await core.rankings.record(owner, game_)

    async def standing(core: Core, rng: random.Random) -> Any:
        owner, game_, variant_, day, guild = rng.choice(s.runs)
        return await core.rankings.standing(owner, game_, variant_, day, guild)

    return [
        Case(f"global board, page 1 ({game} {variant})", first_page),
        Case(f"global board, last page ({game} {variant})", last),
        Case("server board (any game)", server),
        Case("server board, last page (any game)", server_last),
        Case(f"global week board, page 1 ({game} {variant})", week),
        Case(f"global week board, last page ({game} {variant})", week_last),
        Case(f"global month board, page 1 ({game} {variant})", month),
        Case(f"global month board, last page ({game} {variant})", month_last),
        Case("server month board (any game)", month_server),
        Case("server month board, last page (any game)", month_server_last),
        Case(f"global rating board, page 1 ({game} {variant})", ratings_global),
        Case(f"global rating board, last page ({game} {variant})", ratings_global_last),
        Case("server rating board (any game)", ratings_server),
        Case(f"largest server's rating board, last page ({game} {variant}, "
             f"{s.rating_server[1]:,} players)", ratings_server_last),
        Case("player record: stats, streaks, 14 days", record),
        Case("player standing: server + global line", standing),
    ]


def clock_for(today: str) -> Callable[[], datetime]:
    moment = datetime.fromisoformat(today).replace(hour=12, tzinfo=UTC)
    return lambda: moment


async def time_cases(
    database: Path | str, s: Samples, calls: int, budget: float, rng: random.Random,
    data: Path | None = None,
) -> list[Timing]:
    """Each case: one cold call, then ``calls`` warm ones (fewer if they take over ``budget``
    seconds in all, so that a slow query still gets a figure). A SQLite file is dropped from
    the OS page cache before the cold call; on PostgreSQL (a URL) the cold call is the first
    on a fresh pool, and with the cluster's ``data`` folder the server's CPU is read too."""
    timings = []
    for case in cases(s):
        if isinstance(database, Path):
            drop_from_os_cache(database)
        core = await Core.open(database, clock=clock_for(s.today), daily_secret=SECRET)
        server: float | None = None
        try:
            start = time.perf_counter()
            await case.call(core, rng)
            cold = (time.perf_counter() - start) * 1e3
            deadline = time.perf_counter() + budget
            for _ in range(min(20, calls)):  # warm the cache
                if time.perf_counter() > deadline:
                    break
                await case.call(core, rng)
            samples_ms, cpu_ms = [], []
            server_before = postgres_cpu_seconds(data) if data else 0.0
            deadline = time.perf_counter() + budget
            while len(samples_ms) < calls and (not samples_ms or time.perf_counter() < deadline):
                start, cpu = time.perf_counter(), time.process_time()
                await case.call(core, rng)
                samples_ms.append((time.perf_counter() - start) * 1e3)
                cpu_ms.append((time.process_time() - cpu) * 1e3)
            if data:  # the server's clock ticks are too coarse for one call: the mean
                server = (postgres_cpu_seconds(data) - server_before) * 1e3 / len(samples_ms)
        finally:
            await core.close()
        timings.append(Timing(case.name, cold, samples_ms, cpu_ms, server))
    return timings


def print_timings(title: str, timings: list[Timing], target: float) -> bool:
    print(f"\n{title}; load average {load_average()}")
    print(f"  {'call':44} {'cold':>8} {'p50':>8} {'p95':>8} {'p99':>8} {'cpu p50':>8}"
          f" {'cpu p99':>8} {'server':>8} {'calls':>6}   target p99 < {target:.0f} ms")
    ok = True
    for t in timings:
        verdict = "ok" if t.p(99) < target else "OVER TARGET"
        ok &= t.p(99) < target
        server = "-" if t.server_cpu_ms is None else f"{t.server_cpu_ms:.2f}"
        print(f"  {t.name:44} {t.cold_ms:8.2f} {t.p(50):8.2f} {t.p(95):8.2f} {t.p(99):8.2f}"
              f" {t.cpu(50):8.2f} {t.cpu(99):8.2f} {server:>8} {len(t.samples_ms):6}   "
              f"{verdict}")
    return ok


def load_average() -> str:
    """The machine's 1-minute load average: other jobs slow the wall-clock figures."""
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"


# ----- query plans ----------------------------------------------------------------------------

#: A plan line that reads the whole runs table (or the whole of one of its indexes).
FULL_SCAN = re.compile(r"^SCAN (runs|r|b|c|t)\b")
#: A plan line that sorts every row the query found (not just within equal leading keys).
SORT = re.compile(r"USE TEMP B-TREE FOR (ORDER BY|GROUP BY|DISTINCT)")


@dataclass(frozen=True)
class Plan:
    name: str
    query: Query
    params: dict[str, Any]
    index: str  # the index the query must search (``a|b``: either; SQLite's names)
    sorts: bool = False  # a sort is expected, and bounded (one player's runs, a page's band)
    #: A table of a few rows per server, which PostgreSQL may rather read whole while it is
    #: small (the bench's servers set few settings).
    tiny: bool = False
    #: Reads a whole board by design (a count with an account-age bound: no kept counts), so
    #: PostgreSQL's check does not take a walk of a board index for a fault.
    whole: bool = False


def plans(s: Samples) -> list[Plan]:
    game, variant = s.big_board
    owner, _, _, day, guild = s.runs[0]
    guild = guild if guild is not None else s.guilds[0]
    found = []
    # The week board's indexes (runs_week, runs_guild_week) hold the same rows, by owner
    # instead of score: SQLite may pick one for a count, or for a server's board with an
    # account-age bound (then it sorts that server's day, a few hundred runs at the most).
    # Unbound boards read their counts per score (board_counts, migration 0011) for their
    # size, a line's rank and a page's edges, and their runs only for the page's band.
    counted = "sqlite_autoindex_board_counts_1"
    for scope, where, index, bounded in (
        ("global", BoardFilter(game, variant, day), "runs_board|runs_week", False),
        ("server", BoardFilter(game, variant, day, guild), "runs_guild_board|runs_guild_week",
         False),
        ("server, min age", BoardFilter(game, variant, day, guild, max_owner_id(day, 7)),
         "runs_guild_board|runs_guild_week", True),
    ):
        q = board_statements(where)
        params = {**board_params(where), "limit": PAGE_SIZE, "offset": 0, "key": "000010",
                  "above": 0, "top": "000020", "bottom": "000010", "skip": 0, "owner_id": owner}
        # Sorted by name within the scores at the page's edges: the page and its ties.
        found.append(Plan(f"board page band ({scope})", q.band, params, index, sorts=True))
        if q.counts is not None:
            found += [
                Plan(f"board counts per score ({scope})", q.counts, params, counted),
                Plan(f"board size ({scope})", q.size, params, counted),
                Plan(f"board line ({scope})", q.line, params, f"{counted}|runs_one_daily"),
                Plan(f"board reached a score ({scope})", q.reached, params, counted),
            ]
        else:
            found += [
                Plan(f"board page keys ({scope})", q.keys, params, index, sorts=bounded),
                Plan(f"board runs above a key ({scope})", q.above, params, index),
                Plan(f"board size ({scope})", q.size, params, index, whole=True),
                Plan(f"board line ({scope})", q.line, params, index),
                Plan(f"board reached a score ({scope})", q.reached, params, index),
            ]
    # The week's and the month's boards read each player's total (period_points), kept by
    # the runs' triggers: walked by total like a day board, never summed per call; unbound,
    # their counts per total (period_counts).
    counted = "sqlite_autoindex_period_counts_1"
    for span, of in (("week", week_of), ("month", month_of)):
        for scope, guild_id, bound in (("global", None, None), ("server", guild, None),
                                       ("server, min age", guild, max_owner_id(day, 7))):
            where = PeriodFilter(span, game, variant, of(day)[0], guild_id, bound)
            q = period_statements(where)
            params = {**period_params(where), "limit": PAGE_SIZE, "offset": 0, "key": 10,
                      "above": 0, "top": 20, "bottom": 10, "skip": 0, "owner_id": owner}
            found.append(Plan(f"{span} board page band ({scope})", q.band, params,
                              "period_points_board", sorts=True))
            if q.counts is not None:
                found += [
                    Plan(f"{span} board counts per total ({scope})", q.counts, params,
                         counted),
                    Plan(f"{span} board size ({scope})", q.size, params, counted),
                    Plan(f"{span} board line ({scope})", q.line, params,
                         f"{counted}|sqlite_autoindex_period_points_1"),
                ]
            else:
                found += [
                    Plan(f"{span} board page keys ({scope})", q.keys, params,
                         "period_points_board"),
                    Plan(f"{span} board above a total ({scope})", q.above, params,
                         "period_points_board"),
                    Plan(f"{span} board size ({scope})", q.size, params,
                         "period_points_board|sqlite_autoindex_period_points_1", whole=True),
                    Plan(f"{span} board line ({scope})", q.line, params,
                         "period_points_board|sqlite_autoindex_period_points_1"),
                ]
    # The rating boards: everyone's walks ratings_board, a server's rating_members_board (its
    # members carry their rating, migration 0010), never all of a server's members sorted.
    # A server's board: the largest (a walk of its board is what a plan must not do).
    rated_guild = s.rating_server[0] or guild
    for scope, guild_id, bound, index in (
        ("global", None, None, "ratings_board"),
        ("server", rated_guild, None, "rating_members_board"),
        ("server, min age", rated_guild, max_owner_id(day, 7), "rating_members_board"),
    ):
        rq = RATING_STATEMENTS[guild_id is not None, bound is not None]
        params = {"game": game, "variant": variant, "guild_id": guild_id,
                  "max_owner_id": bound, "limit": PAGE_SIZE, "offset": 0, "top": 1100,
                  "bottom": 1000, "above": 0, "skip": 0, "owner_id": owner}
        # Unbound, the page is a walk of the board index, tie groups in name order (migration
        # 0014): nothing sorted. A bound board's band sorts its tie groups by name.
        found.append(Plan(f"rating board page band ({scope})", rq.band, params, index,
                          sorts=bound is not None))
        # The viewer's line: a server's finds the member by the player's key first (the
        # player's memberships), never in the server's board index.
        member = "rating_members_player|rating_members_owner" if guild_id is not None else None
        if rq.counts is not None:  # unbound: the kept counts per rating (migration 0013)
            rated = "sqlite_autoindex_rating_counts_1"
            found += [
                # A board's distinct ratings are a handful (six on everyone's Donsol board
                # at 10,000,000 runs): PostgreSQL sorts them rather than walk the key.
                Plan(f"rating board counts per rating ({scope})", rq.counts, params, rated,
                     sorts=True),
                Plan(f"rating board size ({scope})", rq.size, params, rated),
                Plan(f"rating board line ({scope})", rq.line, params, member or rated),
            ]
            continue
        found += [
            Plan(f"rating board page keys ({scope})", rq.keys, params, index),
            Plan(f"rating board above a rating ({scope})", rq.above, params, index),
            # A count with an account-age bound may range the key (guild, game, variant, owner).
            Plan(f"rating board size ({scope})", rq.size, params, f"{index}|PRIMARY KEY",
                 whole=True),
            # Its rank counts the members above the line in the board index.
            Plan(f"rating board line ({scope})", rq.line, params, member or index),
        ]
    player = {"owner_id": owner, "game": game}
    return [
        *found,
        Plan("server settings", SELECT_GUILD_SETTINGS, {"guild_id": guild},
             "PRIMARY KEY", tiny=True),
        # Grouped by outcome: the player's kept totals of one game (migration 0018), a line
        # per variant and outcome.
        Plan("game stats", SELECT_GAME_STATS, player, "PRIMARY KEY", sorts=True),
        # The variants holding the best (their kept totals), then each one's runs at that
        # score, best first.
        Plan("best score", SELECT_BEST, {**player, "key": "000000"}, "runs_player_best",
             sorts=True),
        # A result card: the runs before it kept on its row, their best first in its index.
        Plan("runs before a finished run", SELECT_PRIOR_RUNS, {"run_id": 1},
             "INTEGER PRIMARY KEY", tiny=True),
        Plan("best before a finished run", SELECT_PRIOR_BEST,
             {**player, "variant": variant, "run_id": 1, "finished_at": "9999"},
             "runs_player_best"),
        Plan("streaks", SELECT_STREAKS, player, "runs_player_days", sorts=True),
        Plan("last 14 days", SELECT_DAILY_MARKS, {**player, "since": s.days[-14]},
             "runs_player_days", sorts=True),
    ]


def query_plans(path: Path, s: Samples) -> bool:
    """Print each board and stats query's plan; False if one does not search its index, scans
    ``runs`` or sorts where it should not."""
    conn = sqlite3.connect(path)
    ok = True
    try:
        for plan in plans(s):
            explained = conn.execute(f"EXPLAIN QUERY PLAN {plan.query.sqlite}", plan.params)
            lines = [row[3] for row in explained]
            faults = [line for line in lines if FULL_SCAN.search(line)
                      or (not plan.sorts and SORT.search(line))]
            if not any(f"USING {index}" in line or f"INDEX {index} " in line
                       for line in lines for index in plan.index.split("|")):
                faults.append(f"does not search {plan.index}")
            ok &= not faults
            print(f"  {plan.name}: {'ok' if not faults else 'BAD PLAN: ' + '; '.join(faults)}")
            for line in lines:
                print(f"      {line}")
    finally:
        conn.close()
    return ok


# ----- main -----------------------------------------------------------------------------------


def mb_per_100k(size: int, runs: int) -> float:
    return size / runs * 100_000 / 1e6


async def main(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(args.db) if args.db else Path(folder) / "boards.sqlite3"
        print(f"database {path}; {os.cpu_count()} cores; SQLite {sqlite3.sqlite_version}")
        pool_start = time.perf_counter()
        pool = play_pool(args.pool, rng)
        print(f"pool: {args.pool} deals per board played by the engines in "
              f"{time.perf_counter() - pool_start:.1f} s")
        built: Built | None = None
        if path.exists():
            print("reusing the database built before (delete it to build anew)")
        else:
            world = make_world(args, rng)
            plan = plan_runs(world, args.runs // args.copies, rng)
            built = await build(path, world, pool, plan, rng)
            if args.copies > 1:
                seconds = multiply(path, args.copies)
                print(f"  played {args.copies} times over by as many players in {seconds:.1f} s")
                built = Built(count_runs(path), built.seconds + seconds, file_size(path),
                              built.rows_seconds, built.index_seconds)
            print(f"\nbuilt {built.runs:,} runs ({args.days} days, {args.servers:,} servers, "
                  f"{args.players:,} players) in {built.seconds:.1f} s "
                  f"({built.runs / built.seconds:,.0f} runs/s: rows made and inserted in "
                  f"{built.rows_seconds:.1f} s, indexes in {built.index_seconds:.1f} s)")
            print(f"  size {built.size / 1e6:.1f} MB: "
                  f"{mb_per_100k(built.size, built.runs):.1f} MB per 100,000 runs")
        full = await full_row_size(pool, Path(folder))
        print(f"  rows as the bot stores them (state dump + move log, measured on the pool): "
              f"{full * 100_000 / 1e6:.1f} MB per 100,000 runs")

        rating = await rate_all(path)
        synthetic = rate_synthetic(args.rate_players, rng)
        made = await rate_made_day(args.rate_players, Path(folder), rng)
        print(f"\nratings: {rating.days} board-days rated in {rating.seconds:.1f} s "
              f"({rating.cpu:.1f} s CPU in this process), the largest "
              f"{rating.largest:,} players; a synthetic day of {args.rate_players:,} players "
              f"rated in {synthetic:.2f} s CPU (core.skill.rate_day, one core); a made day "
              f"through core.ratings: {made.rate_cpu:.2f} s CPU rating it, its write "
              f"{made.write_cpu:.2f} s CPU ({made.write_seconds:.2f} s)")
        s = samples(path, rng, args.calls)
        target = p99_target(count_runs(path))
        if args.postgres:
            return await on_postgres(args, path, s, rng, target)
        ok = True
        before: list[Timing] | None = None
        if not analyzed(path):
            before = await time_cases(path, s, args.calls, args.budget, rng)
            ok &= print_timings("through the core, no planner statistics (ms)", before, target)
            print("\nquery plans, no planner statistics:")
            ok &= query_plans(path, s)
            if built is None:
                built = Built(0, 0.0, file_size(path))
            analyze(path, built)
            print(f"\nANALYZE: {built.analyze_seconds:.1f} s; size after it "
                  f"{built.size_analyzed / 1e6:.1f} MB")
        after = await time_cases(path, s, args.calls, args.budget, rng)
        ok &= print_timings("through the core, after ANALYZE (ms)", after, target)
        print("\nquery plans, after ANALYZE:")
        plans_ok = query_plans(path, s)

        print("\n### Leaderboards at scale\n")
        runs = count_runs(path)
        if built and built.runs:
            print(f"{built.runs:,} finished dailies over {args.days} days, {args.servers:,} "
                  f"servers, {args.players:,} players; {os.cpu_count()} cores, "
                  f"SQLite {sqlite3.sqlite_version}.\n")
            print("| measure | figure |\n|---|---|")
            print(f"| build (bulk insert, one transaction) | {built.seconds:.1f} s |")
            print(f"| size per 100,000 runs | {mb_per_100k(built.size, built.runs):.1f} MB "
                  f"({mb_per_100k(built.size_analyzed, built.runs):.1f} MB after ANALYZE) |")
            print(f"| size per 100,000 runs with state and move log | "
                  f"{full * 100_000 / 1e6:.1f} MB |")
            print(f"| ANALYZE | {built.analyze_seconds:.1f} s |")
        if rating.days:
            print(f"| rating every closed day ({rating.days} board-days, largest "
                  f"{rating.largest:,} players) | {rating.seconds:.1f} s "
                  f"({rating.cpu:.1f} s CPU) |")
        print(f"| rating a day of {args.rate_players:,} players (CPU, one core) | "
              f"{synthetic:.2f} s |")
        print(f"| the same through core.ratings (rate_results + the day's write: ratings, "
              f"history, memberships) | {made.rate_cpu:.2f} s + {made.write_cpu:.2f} s CPU "
              f"({made.write_seconds:.2f} s wall) |\n")
        print(f"| call ({runs:,} runs; load average {load_average()} on {os.cpu_count()} cores)"
              " | cold | p50 | p95 | p99 | CPU p50 | CPU p99 | p99 before ANALYZE |")
        print("|---|---|---|---|---|---|---|---|")
        for k, t in enumerate(after):
            was = f"{before[k].p(99):.1f} ms" if before else "-"
            print(f"| {t.name} | {t.cold_ms:.1f} ms | {t.p(50):.1f} ms | {t.p(95):.1f} ms | "
                  f"{t.p(99):.1f} ms | {t.cpu(50):.2f} ms | {t.cpu(99):.2f} ms | {was} |")
        if not plans_ok:
            print("\na query plan misses its index, scans runs or sorts a whole board",
                  file=sys.stderr)
            return 1
        if not ok and not args.quick:
            print(f"\na p99 is over the {target:.0f} ms target", file=sys.stderr)
    return 0


async def on_postgres(args: argparse.Namespace, path: Path, s: Samples, rng: random.Random,
                      target: float) -> int:
    """The SQLite file copied into PostgreSQL by ``copy-to`` (or the ``--url`` database as it
    is, when it holds runs), then the same calls and each query's plan there."""
    with contextlib.ExitStack() as stack:
        url, data = args.url, Path(args.pg_data) if args.pg_data else None
        if url is None:
            try:
                cluster = stack.enter_context(Cluster(DURABLE))
            except Unavailable as exc:
                print(f"skipped: {exc}", file=sys.stderr)
                return 1
            url, data = cluster.create_database("boards"), cluster.data
        loaded = await pg.load(path, url, data)
        runs = loaded.runs
        print(f"\nPostgreSQL: {runs:,} runs, {loaded.size / 1e6:.1f} MB "
              f"({loaded.size / runs:.0f} MB per 1,000,000 runs)")
        if loaded.copy_seconds:
            server = ("" if loaded.server_cpu is None
                      else f", the server {loaded.server_cpu:.1f} s CPU")
            print(f"  copy-to of {file_size(path) / 1e6:.0f} MB of SQLite: "
                  f"{loaded.copy_seconds:.1f} s "
                  f"({loaded.copy_cpu:.1f} s CPU in this process{server}); "
                  f"ANALYZE {loaded.analyze_seconds:.1f} s")
        timings = await time_cases(url, s, args.calls, args.budget, rng, data)
        ok = print_timings("PostgreSQL, through the core (ms; server: its CPU per call)",
                           timings, target)
        print("\nquery plans, PostgreSQL:")
        plans_ok = pg.query_plans(url, plans(s))
        print(f"\n| call ({runs:,} runs, PostgreSQL; load average {load_average()} on "
              f"{os.cpu_count()} cores) | first | p50 | p99 | CPU p50 | CPU p99 | server CPU |")
        print("|---|---|---|---|---|---|---|")
        for t in timings:
            server = "-" if t.server_cpu_ms is None else f"{t.server_cpu_ms:.2f} ms"
            print(f"| {t.name} | {t.cold_ms:.1f} ms | {t.p(50):.1f} ms | {t.p(99):.1f} ms | "
                  f"{t.cpu(50):.2f} ms | {t.cpu(99):.2f} ms | {server} |")
        if not plans_ok:
            print("\na query plan misses its index, scans a board table or sorts a whole board",
                  file=sys.stderr)
            return 1
        if not ok and not args.quick:
            print(f"\na p99 is over the {target:.0f} ms target", file=sys.stderr)
    return 0


@dataclass(frozen=True)
class Rated:
    """The rating pass over the built file."""

    days: int
    largest: int
    seconds: float
    cpu: float


async def rate_all(path: Path) -> Rated:
    """Rate every closed day of the file (the bot's pass, through the core), timed."""
    conn = sqlite3.connect(path)
    try:
        last = conn.execute("SELECT max(day) FROM runs").fetchone()[0]
    finally:
        conn.close()
    after = datetime.fromisoformat(last).replace(tzinfo=UTC) + timedelta(days=2)
    async with await Core.open(path, clock=lambda: after, daily_secret=SECRET) as core:
        start, cpu = time.perf_counter(), time.process_time()
        rated = await core.ratings.run_due(after)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return Rated(len(rated), max((r.players for r in rated), default=0), seconds, cpu)


def rate_synthetic(players: int, rng: random.Random) -> float:
    """CPU seconds to rate one day of ``players`` (random ratings before it, ties on the
    board as often as real scores tie)."""
    before = [(rng.uniform(15, 35), rng.uniform(1, 25 / 3)) for _ in range(players)]
    ranks = competition_ranks(sorted((f"{rng.randrange(players // 4):08d}"
                                      for _ in range(players)), reverse=True))
    start = time.process_time()
    rate_day(before, ranks)
    return time.process_time() - start


@dataclass(frozen=True)
class MadeDay:
    """CPU seconds of rating a made day through ``core.ratings``: the new ratings
    (``rate_results``, what the pass runs off the event loop) and the day's write (the
    pass's own transaction: the claim, the ratings, their history, the memberships)."""

    players: int
    rate_cpu: float
    write_cpu: float
    write_seconds: float


async def rate_made_day(players: int, folder: Path, rng: random.Random) -> MadeDay:
    """A day of ``players`` ranked dailies (half of them rated before, with random ratings;
    ties as often as real scores tie; most played in one of 1,000 servers), on a new file."""
    results = sorted(
        (DayResult(owner_id=10_000_000 + k, score_key=f"{rng.randrange(players // 4):08d}",
                   guild_id=rng.randrange(1, 1_001) if rng.random() > DM_SHARE else None,
                   mu=rng.uniform(15, 35) if k % 2 else None,
                   sigma=rng.uniform(1, 25 / 3) if k % 2 else None, days=5 if k % 2 else 0)
         for k in range(players)),
        key=lambda r: (r.score_key, -r.owner_id), reverse=True,
    )
    day = FIRST_DAY.isoformat()
    start = time.process_time()
    rows = rate_results("donsol", "normal", day, results)
    rate_cpu = time.process_time() - start
    async with await Core.open(folder / "made-day.sqlite3", daily_secret=SECRET) as core:
        start, cpu = time.perf_counter(), time.process_time()
        await core.store.write(apply_day, "donsol", "normal", day, None, rows,
                               members_of(results), timestamp(datetime.now(UTC)))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return MadeDay(players, rate_cpu, cpu, seconds)


def count_runs(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(*) FROM runs").fetchone()[0])
    finally:
        conn.close()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000, help="daily runs (1,000,000)")
    parser.add_argument("--days", type=int, default=30, help="days of dailies (30)")
    parser.add_argument("--servers", type=int, default=1_000, help="servers (1,000)")
    parser.add_argument("--players", type=int, default=100_000, help="players (100,000)")
    parser.add_argument("--calls", type=int, default=500, help="timed calls of each kind (500)")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="at most this many seconds of warm calls of each kind (60)")
    parser.add_argument("--pool", type=int, default=300,
                        help="deals played per board for the scores (300)")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the data (1)")
    parser.add_argument("--rate-players", type=int, default=100_000,
                        help="players of the synthetic day rated alone (100,000)")
    parser.add_argument("--db", default=None,
                        help="build the database at this path and keep it; reused if it exists")
    parser.add_argument("--dir", default=None, help="where to create the temporary files")
    parser.add_argument("--copies", type=int, default=1,
                        help="build --runs / COPIES runs, then have each played again by "
                             "COPIES - 1 more players (in SQL: how 10,000,000 are built; the "
                             "players, servers and days are those of the smaller world)")
    parser.add_argument("--postgres", action="store_true",
                        help="time PostgreSQL instead: the SQLite file is copied by copy-to "
                             "into a throwaway cluster (made under $TMPDIR) or --url")
    parser.add_argument("--url", default=None,
                        help="with --postgres: this database (filled by copy-to when it has no "
                             "runs, reused as it is when it has)")
    parser.add_argument("--pg-data", default=None,
                        help="with --url: that cluster's data directory, to read the server's "
                             "CPU per call from /proc (a cluster of this machine's)")
    parser.add_argument("--quick", action="store_true",
                        help="20,000 runs, 2,000 players, 50 servers, 50 calls: checks that "
                             "the bench runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.players, args.servers, args.calls, args.pool = 20_000, 2_000, 50, 50, 20
        args.rate_players = 2_000
    if min(args.runs, args.days, args.servers, args.players, args.calls, args.pool,
           args.copies) < 1:
        parser.error("every size must be at least 1")
    if args.days < 14:
        parser.error("--days must be at least 14 (the record shows the last 14 days)")
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))
