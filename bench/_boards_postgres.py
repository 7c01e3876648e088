"""The boards bench on PostgreSQL: the built SQLite file copied in by ``copy-to``, the plans.

``bench/boards.py --postgres`` builds (or reuses) the SQLite file as usual, then copies it
into a PostgreSQL database with the operator's own command (``store.copy.copy_to_postgres``:
``COPY`` per table, read back and compared), which is both the bulk load and the timing of
``copy-to`` at that size; then ``ANALYZE``, the same calls through the core, and each
query's ``EXPLAIN``: its plan for the bench's values, and the generic plan of the statement as
the store prepares it, which PostgreSQL may keep after five runs. The database is a throwaway
cluster's (``tests/postgres/cluster.py``, made under ``$TMPDIR``) unless ``--url`` names one;
a database that already holds runs is reused as it is (built once).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from bench._sharded import postgres_cpu_seconds
from store.copy import copy_to_postgres
from store.postgres import Session

#: A plan node that reads a whole board table.
PG_FULL_SCAN = re.compile(
    r"Seq Scan on (runs|period_points|ratings|rating_members|board_counts|period_counts"
    r"|rating_counts)\b")
#: A plan node that sorts every row it is given (an incremental sort of tie groups is not).
PG_SORT = re.compile(r"^\s*(->\s+)?Sort\s+\(")
#: The board indexes, each with the column its board is ordered by. A scan of one that does
#: not bound that column, with no Limit above it to stop it, reads a whole board (of a day, a
#: period, a server): what a line's lookup becomes when its plan picks the board's index.
PG_BOARDS = {"runs_board": "score_key", "runs_guild_board": "score_key",
             "period_points_board": "total", "ratings_board": "rating",
             "rating_members_board": "rating"}
#: The columns named by an index condition (PostgreSQL puts the index's column first).
PG_COND_COLUMN = re.compile(r"\(\(?(\w+)\)?(?:::[\w ]+)? (?:=|<>|<|>|<=|>=) ")
#: Plan nodes that read all their input before giving a row: a Limit above one does not stop
#: what is below it.
PG_READS_ALL = {"Sort", "Aggregate", "Hash", "Materialize", "SetOp"}
#: SQLite's names of the indexes that PostgreSQL names otherwise.
PG_NAMES = {
    "sqlite_autoindex_period_points_1": "period_points_pkey",
    "sqlite_autoindex_board_counts_1": "board_counts_pkey",
    "sqlite_autoindex_period_counts_1": "period_counts_pkey",
    "sqlite_autoindex_rating_counts_1": "rating_counts_pkey",
    "PRIMARY KEY": "_pkey",
    "INTEGER PRIMARY KEY": "_pkey",
}


@dataclass
class Loaded:
    """What loading the PostgreSQL database took (zeros when it was reused)."""

    runs: int
    copy_seconds: float = 0.0
    copy_cpu: float = 0.0  # this process's CPU (reading SQLite, sending, hashing)
    server_cpu: float | None = None  # the PostgreSQL server's, when it is our cluster's
    analyze_seconds: float = 0.0
    size: int = 0  # pg_database_size after ANALYZE


def runs_in(url: str) -> int:
    """How many runs the database holds (0 when it has no schema yet)."""
    with psycopg.connect(url) as conn:
        exists = conn.execute("SELECT to_regclass('runs') IS NOT NULL").fetchone()
        if not exists or not exists[0]:
            return 0
        row = conn.execute("SELECT count(*) FROM runs").fetchone()
        return int(row[0]) if row else 0


async def load(source: Path, url: str, data: Path | None) -> Loaded:
    """Copy the SQLite file into the database with ``copy-to`` unless it holds runs already,
    then ``ANALYZE`` it (the planner knows nothing of rows that ``COPY`` brought)."""
    held = runs_in(url)
    if held:
        print(f"reusing the PostgreSQL database's {held:,} runs")
        return Loaded(held, size=database_size(url))
    server = postgres_cpu_seconds(data) if data else None
    start, cpu = time.perf_counter(), time.process_time()
    report = await copy_to_postgres(source, url)
    loaded = Loaded(
        runs=next(t.rows for t in report.tables if t.name == "runs"),
        copy_seconds=time.perf_counter() - start, copy_cpu=time.process_time() - cpu,
        server_cpu=None if data is None or server is None
        else postgres_cpu_seconds(data) - server,
    )
    with psycopg.connect(url, autocommit=True) as conn:
        start = time.perf_counter()
        conn.execute("ANALYZE")
        loaded.analyze_seconds = time.perf_counter() - start
    loaded.size = database_size(url)
    return loaded


def database_size(url: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        return int(row[0]) if row else 0


def query_plans(url: str, plans: list[Any]) -> bool:
    """Print each query's ``EXPLAIN``, for the bench's values and as a generic plan; False if
    either reads a whole board table, walks a whole board in its index where the plan has no
    reason to (``Plan.whole``), sorts where it should not, or does not search its index."""
    ok = True
    with psycopg.connect(url) as conn:
        for plan in plans:
            rows = conn.execute(f"EXPLAIN {plan.query.postgresql}", plan.params).fetchall()
            lines = [row[0] for row in rows]
            tree = conn.execute(f"EXPLAIN (FORMAT JSON) {plan.query.postgresql}",
                                plan.params).fetchone()
            assert tree is not None
            generic, generic_tree = generic_plan(url, plan)
            faults = plan_faults(plan, lines, tree[0][0]["Plan"])
            faults += [f"generic plan: {fault}"
                       for fault in plan_faults(plan, generic, generic_tree)]
            ok &= not faults
            print(f"  {plan.name}: {'ok' if not faults else 'BAD PLAN: ' + '; '.join(faults)}")
            for line in lines:
                print(f"      {line}")
            print("    generic plan (the store's prepared statement, plan_cache_mode = "
                  "force_generic_plan):")
            for line in generic:
                print(f"      {line}")
    return ok


def plan_faults(plan: Any, lines: list[str], tree: dict[str, Any]) -> list[str]:
    """What is wrong with one plan (its ``EXPLAIN`` lines and its JSON tree)."""
    faults = [line.strip() for line in lines if PG_FULL_SCAN.search(line)
              or (not plan.sorts and PG_SORT.search(line))]
    names = [PG_NAMES.get(name, name) for name in plan.index.split("|")]
    if plan.tiny and any(line.startswith("Seq Scan") for line in lines):
        pass  # a few rows: reading them all is the right plan
    elif not any(re.search(rf"(using|on) \S*{re.escape(name)}\b", line)
                 for line in lines for name in names):
        faults.append(f"does not search {'|'.join(names)}")
    if not plan.whole:
        faults += [f"walks a whole board: {walk}" for walk in board_walks(tree)]
    return faults


def board_walks(node: dict[str, Any], limited: bool = False) -> Iterator[str]:
    """The scans of a board index (``PG_BOARDS``) in the plan ``node`` that do not bound the
    board's order column and have no Limit above them in their (sub)plan: each reads every
    entry of a board to find a few (a key lookup read from the board index: the index holds
    the key, but after the order column)."""
    index = node.get("Index Name")
    if index in PG_BOARDS and not limited:
        cond = node.get("Index Cond", "")
        if PG_BOARDS[index] not in PG_COND_COLUMN.findall(cond):
            yield f"{node['Node Type']} using {index} ({cond or 'no condition'})"
    if node["Node Type"] == "Limit":
        limited = True
    elif node["Node Type"] in PG_READS_ALL:
        limited = False
    for child in node.get("Plans", []):
        # A subplan (a scalar subquery, a CTE) runs on its own: a Limit outside it is not its.
        inner = child.get("Parent Relationship") in ("SubPlan", "InitPlan")
        yield from board_walks(child, limited and not inner)


def generic_plan(url: str, plan: Any) -> tuple[list[str], dict[str, Any]]:
    """The generic plan of ``plan``'s statement as the store prepares it (on a connection of
    the store's own: ``store.postgres.Session`` prepares it at its first run, its parameters
    typed as psycopg types the values): the plan made without the values, which PostgreSQL
    may keep for the statement after its first five runs. ``force_generic_plan`` asks for it
    at once; ``EXPLAIN EXECUTE`` with NULLs (no value reaches a generic plan) shows it. Its
    ``EXPLAIN`` lines and its JSON tree."""
    session = Session(url, 30.0)
    try:
        conn = session.connection()
        session.execute(plan.query.postgresql, plan.params, True)
        row = conn.execute("SELECT name, cardinality(parameter_types) AS n "
                           "FROM pg_prepared_statements").fetchone()
        assert row is not None, "the store's session prepared nothing"
        args = f"({', '.join(['NULL'] * row['n'])})" if row["n"] else ""
        conn.execute("SET plan_cache_mode = force_generic_plan")
        execute = f"EXECUTE {row['name']}{args}"
        lines = [r["QUERY PLAN"] for r in conn.execute(f"EXPLAIN {execute}")]
        tree = conn.execute(f"EXPLAIN (FORMAT JSON) {execute}").fetchone()
        assert tree is not None
        return lines, tree["QUERY PLAN"][0]["Plan"]
    finally:
        session.close()
