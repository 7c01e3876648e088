"""The daily post for 1,000 servers: how long it takes, and that it stays in Discord's limits.

The real bot (discord.py's own HTTP client, the core on a durable SQLite file) posts through
a stand-in for Discord's REST API on 127.0.0.1 that answers like Discord: every message
route has its per-channel bucket (5 messages per 5 s, with the ``X-RateLimit-*`` headers
discord.py reads), and the global limit of 50 requests a second is enforced with a global
429. The servers reach the bot's cache as GUILD_CREATE payloads, as the gateway would send
them. A few servers are broken on purpose, as in real life: one in a hundred has a results
channel Discord no longer knows (404 Unknown Channel), one in a hundred removed the bot.

Before the pass, a day of finished dailies is played (random legal moves, through the core)
so the posts carry real top threes. Then one pass of ``DailyPoster.run_due`` at 01:00:30
UTC sends every post; a second pass must send nothing (the per-minute cost once all are
done). Printed: the time the pass took, posts per second, the busiest second seen by the
stand-in against Discord's 50, 429s (none expected), and every post checked against the
database. Run: ``.venv/bin/python -m bench.posts`` (``--quick``: 20 servers).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
from aiohttp import web

from bench._standin import payloads as p
from bot.client import DungeonBot, create_bot
from core import Core
from rules import GAMES

TOKEN = "bench.posts.token"
GLOBAL_PER_SECOND = 50  # Discord's global limit for a bot
CHANNEL_BUCKET = (5, 5.0)  # messages per channel per 5 s
DAY_PLAYED = datetime(2026, 12, 14, 12, 0, tzinfo=UTC)
POST_TIME = datetime(2026, 12, 15, 1, 0, 30, tzinfo=UTC)
NEXT = "2026-12-15"
FIRST_GUILD = 1_300_000_000_000_000_000
FIRST_PLAYER = 1_200_000_000_000_000_000


class Discord:
    """Discord's REST API as the daily post uses it, with its rate limits."""

    def __init__(self, unknown_channels: set[int]) -> None:
        self.unknown_channels = unknown_channels
        self.sent: list[tuple[float, int]] = []  # (time, channel id) of accepted messages
        self.requests: list[float] = []  # every request's arrival
        self.limited = 0  # 429s answered
        self.unexpected: list[str] = []
        self._per_channel: dict[int, list[float]] = defaultdict(list)
        self._ids = iter(range(1_400_000_000_000_000_000, 1 << 62))
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def __aenter__(self) -> Discord:
        app = web.Application()
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _rest(self, request: web.Request) -> web.Response:
        now = time.perf_counter()
        self.requests.append(now)
        path = "/" + request.match_info["tail"]
        recent = len(self.requests) - bisect.bisect_left(self.requests, now - 1.0)
        if recent > GLOBAL_PER_SECOND:
            self.limited += 1
            return _json({"message": "You are being rate limited.", "retry_after": 1.0,
                          "global": True}, 429,
                         {"Retry-After": "1", "X-RateLimit-Global": "true",
                          "X-RateLimit-Scope": "global", "Via": "1.1 google"})
        if request.headers.get("Authorization") != f"Bot {TOKEN}":
            return _json({"code": 0, "message": "401: Unauthorized"}, 401)
        if path == "/users/@me":
            return _json(p.BOT_USER)
        if path == "/oauth2/applications/@me":
            return _json(p.application())
        parts = path.strip("/").split("/")
        if request.method == "POST" and len(parts) == 3 and parts[0] == "channels" \
                and parts[2] == "messages":
            return await self._message(int(parts[1]), await request.json(), now)
        self.unexpected.append(f"{request.method} {path}")
        return _json({"code": 0, "message": "404: Not Found"}, 404)

    async def _message(self, channel_id: int, body: dict[str, Any], now: float) -> web.Response:
        if channel_id in self.unknown_channels:
            return _json({"code": 10003, "message": "Unknown Channel"}, 404)
        limit, per = CHANNEL_BUCKET
        window = [t for t in self._per_channel[channel_id] if t > now - per]
        self._per_channel[channel_id] = window
        headers = {"X-RateLimit-Limit": str(limit), "X-RateLimit-Bucket": f"c{channel_id}",
                   "X-RateLimit-Reset-After": f"{per:.3f}"}
        if len(window) >= limit:
            self.limited += 1
            return _json({"message": "You are being rate limited.", "retry_after": per,
                          "global": False}, 429,
                         headers | {"X-RateLimit-Remaining": "0", "Retry-After": "5",
                                    "X-RateLimit-Scope": "user", "Via": "1.1 google"})
        window.append(now)
        self.sent.append((now, channel_id))
        message = p.message(next(self._ids), body) | {"channel_id": str(channel_id)}
        return _json(message, 200, headers | {"X-RateLimit-Remaining": str(limit - len(window))})

    def busiest_second(self) -> int:
        """The most requests that arrived within any one second."""
        times, best, start = self.requests, 0, 0
        for end, moment in enumerate(times):
            while times[start] <= moment - 1.0:
                start += 1
            best = max(best, end - start + 1)
        return best


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"} | (headers or {}))


def guild_payload(guild_id: int, channel_id: int) -> dict[str, Any]:
    """A server with one text channel, as GUILD_CREATE sends it (the bot is a member)."""
    data = p.guild()
    data["id"], data["name"] = str(guild_id), f"Server {guild_id - FIRST_GUILD}"
    data["roles"] = [dict(data["roles"][0], id=str(guild_id))]
    data["channels"] = [dict(p.channel(), id=str(channel_id), guild_id=str(guild_id),
                             name="results")]
    data["unavailable"] = False
    return data


async def play_day(database: Path, servers: list[int], runs: int, rng: random.Random) -> None:
    """Settings for every server and ``runs`` finished dailies, spread over the servers."""
    clock = DAY_PLAYED
    core = await Core.open(database, clock=lambda: clock, daily_secret="bench",
                           synchronous="OFF")
    try:
        for guild_id in servers:
            await core.settings.change_guild(guild_id, results_channel=guild_id + 1)
        games = list(GAMES)
        for k in range(runs):
            user, guild_id = FIRST_PLAYER + k, servers[k % max(1, len(servers) // 10)]
            await core.rankings.remember_name(user, f"player{k}")
            run = (await core.daily.start(user, games[k % len(games)], guild_id=guild_id)).run
            while not run.over:
                run = await core.runs.act(run.id, user, run.version, rng.choice(run.actions))
    finally:
        await core.close()


async def bench(servers_count: int, runs: int, seed: int, folder: Path) -> bool:
    rng = random.Random(seed)
    database = folder / "posts.sqlite3"
    servers = [FIRST_GUILD + 10 * k for k in range(servers_count)]
    gone = set(servers[50::100]) or {servers[-1]}  # removed the bot
    unknown = {g + 1 for g in servers[25::100]} or {servers[0] + 1}  # channel deleted
    t0 = time.perf_counter()
    await play_day(database, servers, runs, rng)
    print(f"{servers_count} servers, {runs} finished dailies played in "
          f"{time.perf_counter() - t0:.1f} s")

    async with Discord(unknown) as stand_in:
        discord.http.Route.BASE = f"http://127.0.0.1:{stand_in.port}/api/v10"
        # No card emoji: their upload at start-up is not what this measures.
        bot: DungeonBot = create_bot(database, daily_secret="bench", sync="never",
                                     clock=lambda: POST_TIME, card_emoji=False)
        try:
            await bot.login(TOKEN)
            for guild_id in servers:
                if guild_id not in gone:
                    bot._connection.parsers["GUILD_CREATE"](guild_payload(guild_id, guild_id + 1))
            poster = bot.get_cog("DailyPosts").poster  # type: ignore[union-attr]
            t0 = time.perf_counter()
            pending = await poster.posts.pending(NEXT)
            scan = time.perf_counter() - t0
            t0 = time.perf_counter()
            results = await poster.run_due(POST_TIME)
            elapsed = time.perf_counter() - t0
            t0 = time.perf_counter()
            again = await poster.run_due(POST_TIME)
            idle = time.perf_counter() - t0
            statuses = {g: await poster.posts.status(g, NEXT) for g in servers}
        finally:
            await bot.close()

    posted = [r for r in results if r.status == "posted"]
    skipped = [r for r in results if r.status == "skipped"]
    expect_skipped = gone | {c - 1 for c in unknown}
    sent_channels = sorted(c for _, c in stand_in.sent)
    busiest = stand_in.busiest_second()
    span = stand_in.sent[-1][0] - stand_in.sent[0][0] if len(stand_in.sent) > 1 else 0.0
    print(f"servers due: {len(pending)} (found in {scan * 1000:.1f} ms)")
    print(f"pass: {elapsed:.2f} s for {len(posted)} posts and {len(skipped)} skipped "
          f"({len(posted) / elapsed:.1f} posts/s; pacing {poster.pacer.rate:g}/s after a "
          f"burst of {poster.pacer.burst})")
    print(f"first to last post: {span:.2f} s")
    print(f"busiest second at the stand-in: {busiest} requests (Discord's global limit: "
          f"{GLOBAL_PER_SECOND}); 429s answered: {stand_in.limited} (target 0)")
    print(f"second pass: {len(again)} posts, {idle * 1000:.1f} ms (the cost of each minute "
          "once every post is recorded)")
    checks = {
        "every due server handled once": len(results) == len(servers) == len(pending),
        "posts where the channel exists": {r.guild_id for r in posted}
        == set(servers) - expect_skipped,
        "one message per posting server": sent_channels
        == sorted(r.guild_id + 1 for r in posted),
        "skipped where the bot or channel is gone": {r.guild_id for r in skipped}
        == expect_skipped,
        "database agrees": all(
            statuses[r.guild_id] == r.status for r in results
        ),
        "second pass sends nothing": again == [],
        "within the global limit": busiest <= GLOBAL_PER_SECOND and stand_in.limited == 0,
        "no unexpected route": not stand_in.unexpected,
    }
    for name, ok in checks.items():
        print(f"  {'ok ' if ok else 'FAIL'} {name}")
    return all(checks.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=150, help="finished dailies to play first")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="20 servers, 10 runs: seconds")
    args = parser.parse_args(argv)
    if args.quick:
        args.servers, args.runs = 20, 10
    with tempfile.TemporaryDirectory() as folder:
        ok = asyncio.run(bench(args.servers, args.runs, args.seed, Path(folder)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
