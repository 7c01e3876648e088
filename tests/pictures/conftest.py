"""Fixtures for the picture tests: a plain discord.py client for simcord's virtual Discord,
and a key-value store on a real SQLite file, shaped like the database's meta table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiosqlite
import discord
import pytest


class SqliteMeta:
    """``get``/``set`` on a ``meta(key, value)`` table of a SQLite file."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    @classmethod
    async def open(cls, path: Path) -> SqliteMeta:
        conn = await aiosqlite.connect(path)
        await conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        await conn.commit()
        return cls(conn)

    async def get(self, key: str) -> str | None:
        async with self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        return None if row is None else row[0]

    async def set(self, key: str, value: str) -> None:
        await self.conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value)
        )
        await self.conn.commit()


@pytest.fixture
def simcord_bot() -> discord.Client:
    return discord.Client(intents=discord.Intents.default())


@pytest.fixture
async def meta(tmp_path: Path) -> AsyncIterator[SqliteMeta]:
    store = await SqliteMeta.open(tmp_path / "meta.sqlite3")
    yield store
    await store.conn.close()
