"""Fixtures for the core tests: a fresh database file per test, a hand-driven clock."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from core import Core

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


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
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
    """Read the file with a separate plain sqlite3 connection, as an outside observer."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def execute(path: Path, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Change the file behind the core's back (to corrupt or tamper with it)."""
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute(sql, params)
    finally:
        conn.close()


def snapshot(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every run row and every move row, to show that a refusal wrote nothing."""
    return (
        query(path, "SELECT * FROM runs ORDER BY id"),
        query(path, "SELECT * FROM moves ORDER BY run_id, number"),
    )
