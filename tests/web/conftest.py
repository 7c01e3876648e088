"""The web adapter under test: a real SQLite file, the real aiohttp server on 127.0.0.1
(``web.serve.start``, as the bot starts it) and the OAuth stand-in on its own port.

``table`` gives a :class:`Table`: ``table.sign_in(user_id)`` registers a Discord user at the
stand-in, signs in through ``POST /api/token`` like the client, and returns a :class:`Player`
that calls the API with its bearer token.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bench._standin.oauth import CLIENT_ID, CLIENT_SECRET, OAuthStandIn
from core import Core
from core.environment import DatabaseSettings
from tests.core.conftest import Clock
from web import serve
from web.config import WebConfig

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@dataclass
class Answer:
    status: int
    data: Any
    headers: dict[str, str]

    @property
    def error(self) -> dict[str, Any]:
        return self.data["error"]


@dataclass
class Player:
    table: Table
    user_id: int
    token: str
    guild: int | None = None

    async def call(self, method: str, path: str, body: Any = None, *, raw: bytes | None = None,
                   token: str | None = None, headers: dict[str, str] | None = None) -> Answer:
        sent = {"Authorization": f"Bearer {token or self.token}"}
        if self.guild is not None:
            sent["X-Guild-Id"] = str(self.guild)
        sent |= headers or {}
        return await self.table.request(method, path, body, raw=raw, headers=sent)

    async def get(self, path: str, **kw: Any) -> Answer:
        return await self.call("GET", path, **kw)

    async def post(self, path: str, body: Any = None, **kw: Any) -> Answer:
        return await self.call("POST", path, {} if body is None else body, **kw)


@dataclass
class Table:
    core: Core
    oauth: OAuthStandIn
    base: str
    database: Path
    clock: Clock
    http: aiohttp.ClientSession
    players: dict[int, Player] = field(default_factory=dict)

    async def request(self, method: str, path: str, body: Any = None, *,
                      raw: bytes | None = None, headers: dict[str, str] | None = None) -> Answer:
        kwargs: dict[str, Any] = {"headers": headers or {}}
        if raw is not None:
            kwargs["data"] = raw
        elif body is not None:
            kwargs["json"] = body
        async with self.http.request(method, self.base + path, **kwargs) as response:
            text = await response.text()
            try:
                import json

                data = json.loads(text)
            except ValueError:
                data = text
            return Answer(response.status, data, dict(response.headers))

    async def sign_in(self, user_id: int, username: str | None = None, *,
                      locale: str = "en-US", guilds: list[int] | None = None,
                      global_name: str | None = None) -> Player:
        self.oauth.add_user(user_id, username or f"player{user_id}", locale=locale,
                            guilds=guilds, global_name=global_name)
        answer = await self.request("POST", "/api/token",
                                    {"code": self.oauth.code(user_id)})
        assert answer.status == 200, answer.data
        player = Player(self, user_id, answer.data["access_token"])
        self.players[user_id] = player
        return player

    def count(self, table: str) -> int:
        """Rows in a table of the SQLite file, read by a connection of its own."""
        with sqlite3.connect(self.database) as db:
            return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])

    def snapshot(self) -> tuple[Any, ...]:
        """The runs and moves tables as they are (to show nothing was written)."""
        with sqlite3.connect(self.database) as db:
            runs = db.execute("SELECT id, version, status, moves, state FROM runs ORDER BY id"
                              ).fetchall()
            moves = db.execute("SELECT * FROM moves ORDER BY run_id, number").fetchall()
        return tuple(runs), tuple(moves)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    clock = Clock()
    database = tmp_path / "web.sqlite3"
    async with OAuthStandIn.serve() as oauth:
        core = await Core.open(database, clock=clock, daily_secret="web-tests")
        config = WebConfig(port=0, client_id=CLIENT_ID, client_secret=CLIENT_SECRET,
                           discord_api=oauth.api, database=DatabaseSettings(path=database))
        runner = await serve.start(core, config)
        try:
            async with aiohttp.ClientSession() as http:
                yield Table(core, oauth, f"http://127.0.0.1:{serve.port_of(runner)}",
                            database, clock, http)
        finally:
            await serve.stop(runner)
            await core.close()
