"""Fixtures for the core tests: a fresh database per test, a hand-driven clock.

Every test that takes ``db_path`` (or ``core``) runs twice: on a SQLite file (``db_path`` is
its path) and on a fresh PostgreSQL database of the session's throwaway cluster (``db_path``
is then its URL; skipped, and said so in the summary, where PostgreSQL is not installed).
``query``, ``execute`` and ``snapshot`` read and change either, as an outside observer.
Tests marked ``sqlite_only`` (or in a module listed in ``SQLITE_ONLY_MODULES``) use SQL only
SQLite speaks, and run on SQLite alone.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from core import Core
from store import is_postgres_url
from store.runs import RunsSql

SECRET = "test-secret"
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


class Clock:
    """A clock that moves only when told to."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


class Seeds:
    """Hands out the seeds a test chose, as ``random_seed``."""

    def __init__(self, *seeds: int) -> None:
        self.seeds = list(seeds)

    def __call__(self) -> int:
        return self.seeds.pop(0)


BACKENDS = ("sqlite", "postgresql")
#: Modules about SQLite itself (its migration runner, PRAGMAs, sqlite_master).
SQLITE_ONLY_MODULES = {"test_migrations.py"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None or callspec.params.get("db_path") != "postgresql":
            continue
        if item.get_closest_marker("sqlite_only") or item.path.name in SQLITE_ONLY_MODULES:
            item.add_marker(pytest.mark.skip(reason="SQLite only: uses SQLite's own SQL"))


@pytest.fixture(params=BACKENDS)
def db_path(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The database: a SQLite file's path, or a fresh PostgreSQL database's URL (a ``str``)."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return tmp_path / "dungeon.sqlite3"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def core(db_path: Path, clock: Clock) -> AsyncIterator[Core]:
    svc = await Core.open(db_path, clock=clock, daily_secret=SECRET)
    yield svc
    await svc.close()


def query(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Read the database with a separate plain connection, as an outside observer."""
    if is_postgres_url(path):
        with psycopg.connect(str(path)) as conn:
            return [tuple(row) for row in conn.execute(_postgres(sql), params).fetchall()]
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def execute(path: Path, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Change the database behind the core's back (to corrupt or tamper with it)."""
    if is_postgres_url(path):
        try:
            with psycopg.connect(str(path)) as conn:
                conn.execute(_postgres(sql), params)
        except psycopg.errors.UniqueViolation as exc:
            # Worded as SQLite words it, so one assertion fits both.
            raise sqlite3.IntegrityError(f"UNIQUE constraint failed ({exc})") from exc
        return
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute(sql, params)
    finally:
        conn.close()


def count_row_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the run rows read whole (``Tx.run``), by any core, from now on."""
    reads: list[int] = []
    whole = RunsSql.run

    def counted(self: RunsSql, run_id: int) -> Any:
        reads.append(run_id)
        return whole(self, run_id)

    monkeypatch.setattr(RunsSql, "run", counted)
    return reads


def snapshot(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every run row and every move row, to show that a refusal wrote nothing."""
    return (
        query(path, "SELECT * FROM runs ORDER BY id"),
        query(path, "SELECT * FROM moves ORDER BY run_id, number"),
    )


_JSON_SET = re.compile(r"json_set\((\w+), '\$\.(\w+)', ([^)]+)\)")
_JSON_EXTRACT = re.compile(r"json_extract\((\w+), '\$\.(\w+)'\)")


def _postgres(sql: str) -> Any:
    """The test's SQLite SQL in PostgreSQL's words: ``?`` parameters, and the two JSON
    functions the tests use on the text columns."""
    sql = _JSON_SET.sub(_jsonb_set, sql)
    sql = _JSON_EXTRACT.sub(r"(\1::jsonb ->> '\2')", sql)
    return sql.replace("?", "%s")


def _jsonb_set(match: re.Match[str]) -> str:
    column, key, value = match.groups()
    if not value.strip().isdigit():  # a string literal or a parameter: text
        value = f"({value})::text"
    return f"(jsonb_set({column}::jsonb, '{{{key}}}', to_jsonb({value})))::text"
