"""The stand-in for Discord with shards, bot processes on a few of them, and the checks of a
PostgreSQL database after a load: what ``bench/shards.py`` builds on.

:class:`ShardedStandIn` extends the load benchmark's stand-in (``bench/_standin``) the way
Discord shards a bot: one gateway connection per shard (the IDENTIFY names it), one guild per
shard (a guild's shard is ``(guild_id >> 22) % shard_count``, as Discord computes it), and
every interaction delivered only on the connection of its guild's shard. A player belongs to
one guild (``user_id % shard_count``), so the players of a shard whose process is down see
their clicks fail, and everyone else plays on.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import secrets
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import psycopg
from aiohttp import WSMsgType, web

from bench._standin import payloads as p
from bench._standin.checks import log_problems
from bench._standin.ids import parse_move
from bench._standin.players import Outcome
from bench._standin.process import PROJECT_BOT, ROOT, BotProcess
from bench._standin.server import HEARTBEAT_MS, Interaction, StandIn

#: The shard of the player whose task is running (players wait for their own shard only).
PLAYER_SHARD: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "player_shard", default=None
)
_GUILD_BASE = 1_700_000_000_000  # a multiple of 1, 2, 4 and 8: guild s is on shard s


def guild_of(shard: int) -> int:
    """The id of the one guild on ``shard`` (for up to 8 shards)."""
    return (_GUILD_BASE + shard) << 22


def shard_of_guild(guild_id: int, shard_count: int) -> int:
    """Discord's formula."""
    return (guild_id >> 22) % shard_count


class ShardedStandIn(StandIn):
    """The stand-in with ``shard_count`` shards, one gateway connection each."""

    def __init__(self, shard_count: int, token: str | None = None) -> None:
        super().__init__(token)
        assert 1 <= shard_count <= 8
        self.shard_count = shard_count
        self.shards: dict[int, web.WebSocketResponse] = {}
        self.identifies: Counter[int] = Counter()  # IDENTIFYs per shard
        self._shard_seq: dict[int, int] = {}
        self._routing: int | None = None

    def shard_of_user(self, user_id: int) -> int:
        return user_id % self.shard_count

    def shard_connected(self, shard: int) -> bool:
        ws = self.shards.get(shard)
        return ws is not None and not ws.closed

    @property
    def connected(self) -> bool:
        """While an interaction is sent: its shard is connected; else: every shard is."""
        if self._routing is not None:
            return self.shard_connected(self._routing)
        return all(self.shard_connected(s) for s in range(self.shard_count))

    async def wait_connected(self) -> None:
        """Wait until the current player's shard (or every shard) has a live connection."""
        shard = PLAYER_SHARD.get()
        wanted = range(self.shard_count) if shard is None else (shard,)
        while not all(self.shard_connected(s) for s in wanted):
            await asyncio.sleep(0.01)

    async def __aexit__(self, *exc: object) -> None:
        for ws in list(self.shards.values()):
            await ws.close()
        await super().__aexit__(*exc)

    # ----- the gateway, per shard ----------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}}))
        shard: int | None = None
        try:
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                op = message.get("op")
                if op == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    data = message.get("d") or {}
                    if data.get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    shard, count = data.get("shard") or [0, 1]
                    if count != self.shard_count:
                        await ws.close(code=4010, message=b"Invalid shard.")
                        break
                    previous = self.shards.get(shard)
                    self.shards[shard] = ws
                    if previous is not None and not previous.closed:
                        await previous.close()
                    await self._identify_shard(ws, shard)
                elif op == 6:  # no resuming here: a new session each time
                    await ws.send_str(json.dumps({"op": 9, "d": False}))
        finally:
            if shard is not None and self.shards.get(shard) is ws:
                del self.shards[shard]
        return ws

    async def _identify_shard(self, ws: web.WebSocketResponse, shard: int) -> None:
        self.sessions += 1
        self.identifies[shard] += 1
        self._shard_seq[shard] = 0
        guild = guild_of(shard)
        ready = p.ready(secrets.token_hex(16), f"ws://127.0.0.1:{self.port}")
        ready["guilds"] = [{"id": str(guild), "unavailable": True}]
        ready["shard"] = [shard, self.shard_count]
        for name, data in (("READY", ready), ("GUILD_CREATE", _guild(guild))):
            self._shard_seq[shard] += 1
            await ws.send_str(json.dumps({"op": 0, "t": name, "s": self._shard_seq[shard],
                                          "d": data}))
        self.identified.set()

    # ----- interactions go to their guild's shard ----------------------------------------

    def _send(self, kind: int, user_id: int, data: dict[str, Any],
              message: dict[str, Any] | None) -> Interaction:
        # The stand-in's own _send, pointed at the shard's connection: the frame is moved to
        # the player's guild on its way out (see _Routed).
        shard = self.shard_of_user(user_id % (1 << 40))  # "someone else" keeps the guild
        ws = self.shards.get(shard)
        self._routing = shard
        self._ws = None if ws is None else _Routed(ws, guild_of(shard))  # type: ignore[assignment]
        self._seq = self._shard_seq.get(shard, 0)
        try:
            return super()._send(kind, user_id, data, message)
        finally:
            self._shard_seq[shard] = self._seq
            self._routing = None
            self._ws = None


class _Routed:
    """A shard's connection that moves each interaction to the shard's guild and channel."""

    def __init__(self, ws: web.WebSocketResponse, guild: int) -> None:
        self.ws = ws
        self.guild = guild

    @property
    def closed(self) -> bool:
        return self.ws.closed

    async def send_frame(self, frame: bytes, opcode: WSMsgType) -> None:
        message = orjson.loads(frame)
        channel = _channel(self.guild)
        message["d"] |= {
            "guild_id": str(self.guild), "channel_id": channel["id"], "channel": channel,
            "guild": {"id": str(self.guild), "locale": "en-US", "features": []},
            "authorizing_integration_owners": {"0": str(self.guild)},
        }
        await self.ws.send_frame(orjson.dumps(message), opcode)

    async def close(self) -> None:
        await self.ws.close()


def _channel(guild: int) -> dict[str, Any]:
    return p.channel() | {"id": str(guild + 1), "guild_id": str(guild)}


def _guild(guild: int) -> dict[str, Any]:
    data = p.guild()
    data["id"] = str(guild)
    data["name"] = f"Shard guild {guild_of_index(guild)}"
    data["roles"][0]["id"] = str(guild)
    data["channels"] = [_channel(guild)]
    return data


def guild_of_index(guild: int) -> int:
    return (guild >> 22) - _GUILD_BASE


class ShardProcess(BotProcess):
    """``python -m bot`` on some shards of a :class:`ShardedStandIn`, on PostgreSQL."""

    def __init__(self, discord: ShardedStandIn, url: str, shard_ids: tuple[int, ...], log: Path,
                 pool_size: int = 4) -> None:
        super().__init__(discord, Path("unused.sqlite3"), log, PROJECT_BOT, "INFO", ROOT)
        self.sharded = discord
        self.url = url
        self.shard_ids = shard_ids
        self.pool_size = pool_size

    def environment(self) -> dict[str, str]:
        env = super().environment()
        env |= {"DATABASE_URL": self.url, "DATABASE_POOL_SIZE": str(self.pool_size),
                "SHARD_COUNT": str(self.sharded.shard_count),
                "SHARD_IDS": ",".join(map(str, self.shard_ids))}
        return env

    async def start(self, timeout: float = 60.0) -> None:
        """Start the process and wait until every one of its shards has identified."""
        before = {s: self.sharded.identifies[s] for s in self.shard_ids}
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                *self.command, cwd=self.root, env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
        self.starts += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not all(self.sharded.identifies[s] > before[s] and self.sharded.shard_connected(s)
                      for s in self.shard_ids):
            if self.proc.returncode is not None:
                raise RuntimeError(f"the bot exited with {self.proc.returncode}:\n"
                                   + "\n".join(self.log_text().splitlines()[-15:]))
            if loop.time() > deadline:
                raise TimeoutError(f"the bot did not connect in {timeout} s:\n"
                                   + "\n".join(self.log_text().splitlines()[-15:]))
            await asyncio.sleep(0.02)


def split_shards(shard_count: int, processes: int) -> list[tuple[int, ...]]:
    """Shards 0..n-1 dealt round-robin to ``processes`` processes."""
    return [tuple(range(i, shard_count, processes)) for i in range(processes)]


def postgres_cpu_seconds(data_dir: Path) -> float:
    """User + system CPU time of the PostgreSQL server and its backends so far (those alive)."""
    import os

    ticks = os.sysconf("SC_CLK_TCK")
    postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry.name), int(fields[1])
        if pid == postmaster or ppid == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


@dataclass
class PostgresCheck:
    """What must hold of the database after a load or a crash (as ``_standin.checks`` does for
    a SQLite file)."""

    runs: int = 0
    moves: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_postgres(url: str, outcomes: Iterable[Outcome],
                   sent: Iterable[Interaction]) -> PostgresCheck:
    """Every run's moves numbered 1..n and replaying to its stored state; every promised move
    (of ``outcomes``) stored; no run with more moves than clicks were ``sent`` to it."""
    outcomes = list(outcomes)
    report = PostgresCheck()
    with psycopg.connect(url) as conn:
        logs: dict[int, list[tuple[int, str]]] = {}
        for run_id, number, action in conn.execute(
                "SELECT run_id, number, action FROM moves ORDER BY run_id, number"):
            logs.setdefault(run_id, []).append((number, action))
        rows = conn.execute(
            "SELECT id, game, variant, seed, deck, moves, state FROM runs").fetchall()
    report.runs = len(rows)
    report.moves = sum(len(v) for v in logs.values())
    clicks = Counter(m.run_id for record in sent
                     if (m := parse_move(record.data.get("custom_id", ""))))
    report.problems += log_problems(rows, logs, outcomes, clicks)
    return report

