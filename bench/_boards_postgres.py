"""The boards bench on PostgreSQL: the built SQLite file copied in by ``copy-to``, the plans.

``bench/boards.py --postgres`` builds (or reuses) the SQLite file as usual, then copies it
into a PostgreSQL database with the operator's own command (``store.copy.copy_to_postgres``:
``COPY`` per table, read back and compared), which is both the bulk load and the timing of
``copy-to`` at that size; then ``ANALYZE``, the same calls through the core, and each
query's ``EXPLAIN``. The database is a throwaway cluster's (``tests/postgres/cluster.py``,
made under ``$TMPDIR``) unless ``--url`` names one; a database that already holds runs is
reused as it is (built once).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from bench._sharded import postgres_cpu_seconds
from store.copy import copy_to_postgres

#: A plan node that reads a whole board table.
PG_FULL_SCAN = re.compile(
    r"Seq Scan on (runs|period_points|ratings|rating_members|board_counts|period_counts"
    r"|rating_counts)\b")
#: A plan node that sorts every row it is given (an incremental sort of tie groups is not).
PG_SORT = re.compile(r"^\s*(->\s+)?Sort\s+\(")
#: SQLite's names of the indexes that PostgreSQL names otherwise.
PG_NAMES = {
    "sqlite_autoindex_period_points_1": "period_points_pkey",
    "sqlite_autoindex_board_counts_1": "board_counts_pkey",
    "sqlite_autoindex_period_counts_1": "period_counts_pkey",
    "sqlite_autoindex_rating_counts_1": "rating_counts_pkey",
    "PRIMARY KEY": "_pkey",
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
    """Print each query's ``EXPLAIN``; False if one reads a whole board table, sorts where it
    should not, or does not search its index."""
    ok = True
    with psycopg.connect(url) as conn:
        for plan in plans:
            rows = conn.execute(f"EXPLAIN {plan.query.postgresql}", plan.params).fetchall()
            lines = [row[0] for row in rows]
            faults = [line.strip() for line in lines if PG_FULL_SCAN.search(line)
                      or (not plan.sorts and PG_SORT.search(line))]
            names = [PG_NAMES.get(name, name) for name in plan.index.split("|")]
            if plan.tiny and any(line.startswith("Seq Scan") for line in lines):
                pass  # a few rows: reading them all is the right plan
            elif not any(re.search(rf"(using|on) \S*{re.escape(name)}\b", line)
                         for line in lines for name in names):
                faults.append(f"does not search {'|'.join(names)}")
            ok &= not faults
            print(f"  {plan.name}: {'ok' if not faults else 'BAD PLAN: ' + '; '.join(faults)}")
            for line in lines:
                print(f"      {line}")
    return ok
