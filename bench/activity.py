"""Activity: a move through the Activity's API against a click through the bot, in the same run,
and what the first load of the browser table costs.

Two processes serve one durable SQLite file: the bot (``python -m bot``, against the
stand-in Discord's gateway and REST, exactly as ``bench/load.py`` runs it) and the web
adapter (``python -m web``, its own process so its CPU is its own, signing players in
through the same stand-in's OAuth2 endpoints). Each has its own 200 players, who play
practice runs of every game:

- web players each sign in with their own code (``POST /api/token``, the real exchange),
  start or resume a practice run (``POST /api/runs``) and send moves
  (``POST /api/runs/{id}/move``) chosen from the last payload's ``actions``, with that
  payload's version; a finished run is followed by the next game's;
- bot players start runs with ``/play`` and click move buttons read off their boards
  (``bench._standin.players``, no stale or forged clicks: both sides send good moves only).
  A Clear move whose card has several moves is two clicks on the bot (which card, then
  which pile) and one request on the web; each click counts as one.

Every round, each side plays a paced phase (a move about every second each) and a
back-to-back phase (each move as soon as the last one is answered), every player sending
the same number of moves on both sides; the order of the sides alternates round after
round, so a change in the machine's background load hits both alike. Each figure is the
median over the rounds with its range: p50 and p99 latency (web: from the request written
to its whole answer read; bot: from the interaction's frame going onto the socket to its
answer arriving) and the serving process's CPU per move (user + system time from
``/proc/<pid>/stat`` over the phase, the run starts included, divided by the moves).

Then the first load of the page: Chromium (``/usr/bin/chromium``, driven by Playwright when
it is installed) opens the table with the SDK's mock and a real code, and every response is
counted until the page is ready and then until the first practice table is drawn (its
faces included). Without a browser the page is fetched as one would: ``index.html``, what it
links, the API calls of the sign-in, and the faces of the cards in the first run's view.

Afterwards every web run's moves and every bot run's moves replay, every move promised by
an answer is stored, ``PRAGMA integrity_check`` is ok, and neither process logged an error.

    .venv/bin/python -m bench.activity          # 200 players, 5 rounds
    .venv/bin/python -m bench.activity --quick  # 10 players, seconds: checks that it all runs
    .venv/bin/python -m bench.activity --json   # the figures as JSON on stdout (the table: stderr)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import shutil
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urljoin, urlsplit

import aiohttp
import orjson

from bench._standin.checks import answer_problems, log_problems, read_database
from bench._standin.ids import Move, is_step, parse_move
from bench._standin.oauth import CLIENT_ID, CLIENT_SECRET
from bench._standin.players import Load, Outcome, play
from bench._standin.process import ROOT, BotProcess, Child, cpu_of
from bench._standin.server import StandIn
from bench.load import quiet_collector
from rules import GAMES

DIST = ROOT / "web" / "dist"
CHROMIUM = "/usr/bin/chromium"
BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}
SIDES = ("web", "bot")
MODES = ("paced", "back-to-back")
WEB_USERS = 20_000_000
BOT_USERS = 30_000_000
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CARD = re.compile(r"(?:10|[2-9AJQK])[CDHS]|RJ|BJ")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def log_errors(text: str) -> list[str]:
    return [line for line in _ANSI.sub("", text).splitlines()
            if " ERROR " in line or " CRITICAL " in line or "Traceback" in line]


class Bot(BotProcess):
    """The bot, with the Activity off in its process (the web adapter has its own)."""

    def environment(self) -> dict[str, str]:
        return super().environment() | {"WEB_PORT": ""}


class WebProcess(Child):
    """``python -m web`` on the bot's database, signing players in through the stand-in."""

    def __init__(self, discord: StandIn, bot: BotProcess, log: Path) -> None:
        self.discord = discord
        self.bot = bot
        self.log = log
        self.port = free_port()
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def environment(self) -> dict[str, str]:
        # The bot's settings (the same file, the same daily secret), and the Activity's.
        return self.bot.environment() | {
            "WEB_PORT": str(self.port), "WEB_HOST": "127.0.0.1",
            "DISCORD_CLIENT_ID": CLIENT_ID, "DISCORD_CLIENT_SECRET": CLIENT_SECRET}

    async def start(self, http: aiohttp.ClientSession, timeout: float = 30.0) -> None:
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "web", cwd=ROOT, env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.returncode is not None:
                raise RuntimeError(f"python -m web exited with {self.proc.returncode}; its "
                                   f"log ends:\n{self.log_text()[-2000:]}")
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(self.base_url + "/api/health") as r:
                    if r.status == 200:
                        return
            if time.monotonic() > deadline:
                raise TimeoutError(f"python -m web did not listen in {timeout} s")
            await asyncio.sleep(0.05)



# ----- the players ------------------------------------------------------------------------------


@dataclass
class Promise:
    """A move a 200 answer promised, for ``log_problems`` (read as an outcome's promise)."""

    promised: Move


@dataclass
class WebPlayer:
    user_id: int
    token: str = ""
    turn: int = 0
    payload: dict[str, Any] | None = None  # the table the player's tab shows


@dataclass
class Phase:
    """One side's phase of one round."""

    side: str
    mode: str
    round: int
    seconds: float = 0.0
    moves: list[float] = field(default_factory=list)  # latencies (ms) of answered moves
    starts: list[float] = field(default_factory=list)  # latencies (ms) of run starts
    steps: int = 0  # bot clicks that only chose a card (Clear's first step of two)
    cpu: float = 0.0  # the serving process's CPU seconds
    driver_cpu: float = 0.0  # this process's (players and stand-in)
    problems: Counter[str] = field(default_factory=Counter)

    @property
    def cpu_per_move(self) -> float:
        """ms of CPU per move the engine applied (a bot's card-choice click is not one)."""
        return self.cpu * 1000 / max(len(self.moves) - self.steps, 1)

    @property
    def cpu_per_click(self) -> float:
        """ms of CPU per answered request or click."""
        return self.cpu * 1000 / max(len(self.moves), 1)

    @property
    def rate(self) -> float:
        return len(self.moves) / self.seconds if self.seconds else 0.0

    def pct(self, q: int) -> float:
        return percentile(self.moves, q)


def percentile(values: list[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class Web:
    """The web side: its process, its players, and what they were promised."""

    def __init__(self, process: WebProcess, http: aiohttp.ClientSession,
                 players: int) -> None:
        self.stop = asyncio.Event()  # the phase's deadline passed
        self.process = process
        self.http = http
        self.count = players
        self.players: list[WebPlayer] = []
        self.next_user = WEB_USERS
        self.promises: list[Promise] = []
        self.sent: Counter[int] = Counter()  # moves sent, by run id

    async def call(self, method: str, path: str, token: str,
                   body: dict[str, Any] | None = None) -> tuple[int, Any, float]:
        """Status, decoded answer and latency (ms: request written to the answer read)."""
        data = orjson.dumps(body) if body is not None else None
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        started = time.perf_counter()
        async with self.http.request(method, self.process.base_url + path, data=data,
                                     headers=headers) as r:
            raw = await r.read()
            ms = (time.perf_counter() - started) * 1000
            status = r.status
        return status, orjson.loads(raw) if raw else None, ms

    async def sign_in(self, discord: StandIn) -> list[float]:
        """A new set of players, each signed in with a code of their own, then reading
        ``/api/me``, as the page does; the sign-in latencies (ms)."""
        self.players = [WebPlayer(self.next_user + i) for i in range(self.count)]
        self.next_user += self.count

        async def one(player: WebPlayer) -> float:
            discord.oauth.add_user(player.user_id, f"webplayer{player.user_id}")
            status, answer, ms = await self.call(
                "POST", "/api/token", "", {"code": discord.oauth.code(player.user_id)})
            if status != 200:
                raise RuntimeError(f"sign-in answered {status}: {answer}")
            player.token = answer["access_token"]
            status, answer, _ = await self.call("GET", "/api/me", player.token)
            if status != 200:
                raise RuntimeError(f"/api/me answered {status}: {answer}")
            return ms

        return list(await asyncio.gather(*(one(p) for p in self.players)))

    async def phase(self, phase: Phase, games: tuple[str, ...], quota: int,
                    pace: float | None, seed: int) -> Phase:
        pid = self.process.pid
        with quiet_collector():
            cpu, driver = cpu_of(pid), time.process_time()
            started = time.perf_counter()
            self.stop.clear()
            async with deadline(self.stop, quota, pace, phase):
                await asyncio.gather(*(
                    self.play(p, phase, games, quota, pace,
                              random.Random(seed * 1_000_003 + i))
                    for i, p in enumerate(self.players)))
            phase.seconds = time.perf_counter() - started
            phase.cpu, phase.driver_cpu = cpu_of(pid) - cpu, time.process_time() - driver
        return phase

    async def play(self, player: WebPlayer, phase: Phase, games: tuple[str, ...], quota: int,
                   pace: float | None, rng: random.Random) -> None:
        if pace:
            await asyncio.sleep(rng.uniform(0, pace))
        made = 0
        while made < quota and not self.stop.is_set():
            payload = player.payload
            if payload is None or payload["run"]["status"] != "playing" or not payload["actions"]:
                game = games[player.turn % len(games)]
                player.turn += 1
                status, answer, ms = await self.call(
                    "POST", "/api/runs", player.token, {"game": game, "kind": "practice"})
                phase.starts.append(ms)
                if status != 200:
                    phase.problems[f"a run start answered {status} "
                                   f"{_code(answer)}"] += 1
                    player.payload = None
                    await asyncio.sleep(pace or 0.05)
                else:
                    player.payload = answer
                continue
            if pace:
                await asyncio.sleep(rng.uniform(0.5 * pace, 1.5 * pace))
            run = payload["run"]
            action = rng.choice(payload["actions"])["action"]
            self.sent[run["id"]] += 1
            status, answer, ms = await self.call(
                "POST", f"/api/runs/{run['id']}/move", player.token,
                {"version": run["version"], "action": action})
            made += 1
            if status == 200:
                phase.moves.append(ms)
                self.promises.append(Promise(Move(run["id"], run["moves"], action)))
                player.payload = answer
            else:
                phase.problems[f"a move answered {status} {_code(answer)}"] += 1
                error = (answer or {}).get("error") if isinstance(answer, dict) else None
                player.payload = (error or {}).get("run")


@contextlib.asynccontextmanager
async def deadline(stop: asyncio.Event, quota: int, pace: float | None,
                   phase: Phase) -> AsyncIterator[None]:
    """Set ``stop`` (and count a problem) if the phase outlasts a generous deadline: players
    whose every start fails would otherwise never reach their quota."""
    seconds = 60 + 3 * quota * (pace or 0.5)

    async def watch() -> None:
        await asyncio.sleep(seconds)
        phase.problems[f"the phase outlasted its deadline ({seconds:.0f} s)"] += 1
        stop.set()

    watcher = asyncio.create_task(watch())
    try:
        yield
    finally:
        watcher.cancel()


def _code(answer: Any) -> str:
    if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
        return str(answer["error"].get("code"))
    return "(not a JSON error)"


class BotSide:
    """The bot side: its process and players (``bench._standin.players``), practice only."""

    def __init__(self, discord: StandIn, bot: BotProcess, players: int) -> None:
        self.discord = discord
        self.bot = bot
        self.count = players
        self.next_user = BOT_USERS
        self.outcomes: list[Outcome] = []

    async def phase(self, phase: Phase, games: tuple[str, ...], quota: int,
                    pace: float | None, seed: int) -> Phase:
        load = Load(self.discord, games, bad_rate=0.0, commands=("play",))
        # New players every phase, as bench/load.py has: /play on a game with an
        # unfinished run asks "resume or abandon?" instead of dealing.
        users = range(self.next_user, self.next_user + self.count)
        self.next_user += self.count
        with quiet_collector():
            cpu, driver = self.bot.cpu_seconds(), time.process_time()
            started = time.perf_counter()
            async with deadline(load.stop, quota, pace, phase):
                await asyncio.gather(*(play(load, user, seed * 1_000_003 + i, pace, quota)
                                       for i, user in enumerate(users)))
            phase.seconds = time.perf_counter() - started
            phase.cpu = self.bot.cpu_seconds() - cpu
            phase.driver_cpu = time.process_time() - driver
        self.outcomes += load.outcomes
        for o in load.outcomes:
            if o.record.latency is None:
                continue
            if o.kind == "click":
                phase.moves.append(o.record.latency * 1000)
                phase.steps += is_step(o.record.data.get("custom_id", ""))
            elif o.kind == "start":
                phase.starts.append(o.record.latency * 1000)
        phase.problems += answer_problems(load.outcomes)
        return phase


# ----- the first load of the page ---------------------------------------------------------------


def _kind(url: str) -> str:
    path = urlsplit(url).path.removeprefix("/.proxy")
    if path.startswith("/api/"):
        return "api"
    if path.startswith("/faces/"):
        return "faces"
    if path.startswith("/assets/"):
        return {".js": "script", ".css": "style"}.get(Path(path).suffix, "asset")
    if path in ("/", "/index.html"):
        return "document"
    return "other"


def _tally(entries: list[tuple[str, int, int]]) -> dict[str, Any]:
    """(url, body bytes, bytes on the wire with headers) -> requests and bytes by kind."""
    kinds: dict[str, dict[str, int]] = {}
    for url, body, wire in entries:
        k = kinds.setdefault(_kind(url), {"requests": 0, "bytes": 0, "wire": 0})
        k["requests"] += 1
        k["bytes"] += body
        k["wire"] += wire
    return {"requests": len(entries), "bytes": sum(e[1] for e in entries),
            "wire": sum(e[2] for e in entries), "kinds": kinds}


async def first_load(web: Web, discord: StandIn, method: str) -> dict[str, Any]:
    """The first load of the page by a new player (nothing cached): until the page is ready,
    then until the first practice table is drawn."""
    if not (DIST / "index.html").is_file():
        return {"skipped": "web/dist is not built (make client builds it)"}
    user = web.next_user  # a new player: nothing cached
    web.next_user += 1
    discord.oauth.add_user(user, "firstload")
    chromium = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if method != "parse" and chromium:
        try:
            from playwright.async_api import async_playwright
        except ImportError:
            pass
        else:
            return await _browser_load(web, discord, user, chromium, async_playwright)
    if method == "browser":
        return {"skipped": "Chromium or Playwright is missing (--page browser)",
                "failed": True}
    return await _parsed_load(web, discord, user)


async def _browser_load(web: Web, discord: StandIn, user: int, chromium: str,
                        async_playwright: Any) -> dict[str, Any]:
    responses: list[Any] = []
    errors: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=BROWSER_FLAGS)
        try:
            context = await browser.new_context(viewport=PHONE)
            page = await context.new_page()

            def on_response(response: Any) -> None:
                responses.append(response)

            def on_error(error: Any) -> None:
                errors.append(f"page error: {error}")

            def on_console(message: Any) -> None:
                if message.type == "error":
                    errors.append(f"console: {message.text}")

            page.on("response", on_response)
            page.on("pageerror", on_error)
            page.on("console", on_console)
            started = time.perf_counter()
            await page.goto(f"{web.process.base_url}/?mock_code={discord.oauth.code(user)}")
            await page.wait_for_selector('[data-testid="start-practice"]', timeout=30_000)
            await page.wait_for_load_state("networkidle")
            ready_ms = (time.perf_counter() - started) * 1000
            ready = len(responses)
            started = time.perf_counter()
            await page.click('[data-testid="start-practice"]')
            await page.wait_for_selector('[data-testid="table"]', timeout=30_000)
            await page.wait_for_load_state("networkidle")
            table_ms = (time.perf_counter() - started) * 1000
            entries, game = [], None
            for response in responses:
                body = len(await response.body()) if response.status != 204 else 0
                sizes = await response.request.sizes()
                entries.append((response.url, body, body + max(sizes["responseHeadersSize"], 0)))
                if _kind(response.url) == "api" and urlsplit(response.url).path.endswith(
                        "/api/runs") and response.request.method == "POST":
                    game = (await response.json())["run"]["game"]
            await context.close()
        finally:
            await browser.close()
    return {"method": "Chromium (Playwright), 360 px, nothing cached", "game": game,
            "page": _tally(entries[:ready]), "table": _tally(entries[ready:]),
            "total": _tally(entries), "ready_ms": ready_ms, "table_ms": table_ms,
            "errors": errors}


async def _parsed_load(web: Web, discord: StandIn, user: int) -> dict[str, Any]:
    """Without a browser: index.html, what it links (stylesheets, scripts, icons), the
    sign-in's API calls, and the faces of the cards in the first practice run's view (and
    the back): an estimate of what the page fetches."""
    base = web.process.base_url + "/"
    entries: list[tuple[str, int, int]] = []

    async def get(url: str, method: str = "GET", token: str = "",
                  body: dict[str, Any] | None = None) -> bytes:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with web.http.request(method, url, headers=headers,
                                    data=orjson.dumps(body) if body else None) as r:
            raw = await r.read()
            wire = len(raw) + sum(len(k) + len(v) + 4 for k, v in r.raw_headers)
            entries.append((url, len(raw), wire))
            return raw

    html = (await get(base)).decode()
    for link in re.findall(r'(?:src|href)="([^"]+)"', html):
        await get(urljoin(base, link))
    await get(base + "api/config")
    token = orjson.loads(await get(base + "api/token", "POST",
                                   body={"code": discord.oauth.code(user)}))["access_token"]
    await get(base + "api/me", token=token)
    ready = len(entries)
    game = next(iter(GAMES))
    payload = orjson.loads(await get(base + "api/runs", "POST", token,
                                     {"game": game, "kind": "practice"}))
    cards = [*sorted(set(_CARD.findall(json.dumps(payload["view"])))), "back"]
    for code in cards:
        await get(f"{base}faces/{code}.png")
    return {"method": "fetched as the page would (no browser): index.html, its links, the "
                      "sign-in's calls, the faces of the first view's cards and the back",
            "game": game, "page": _tally(entries[:ready]), "table": _tally(entries[ready:]),
            "total": _tally(entries), "errors": []}


# ----- the run ----------------------------------------------------------------------------------


@dataclass
class Results:
    phases: list[Phase] = field(default_factory=list)
    warmups: list[Phase] = field(default_factory=list)
    sign_in: list[float] = field(default_factory=list)
    page: dict[str, Any] = field(default_factory=dict)
    database: list[str] = field(default_factory=list)
    problems: Counter[str] = field(default_factory=Counter)
    log_errors: list[str] = field(default_factory=list)


async def measure(folder: Path, args: argparse.Namespace) -> Results:
    results = Results()
    database = folder / "dd.sqlite3"
    games = tuple(GAMES)
    connector = aiohttp.TCPConnector(limit=0)  # a connection a player, as each browser has
    async with contextlib.AsyncExitStack() as stack:
        discord = await stack.enter_async_context(StandIn())
        http = await stack.enter_async_context(aiohttp.ClientSession(connector=connector))
        bot = Bot(discord, database, folder / "bot.log", log_level="WARNING")
        stack.push_async_callback(bot.stop)
        await bot.start()  # first: it makes the database
        process = WebProcess(discord, bot, folder / "web.log")
        stack.push_async_callback(process.stop)
        await process.start(http)
        web, bot_side = Web(process, http, args.players), BotSide(discord, bot, args.players)
        sides = {"web": web, "bot": bot_side}
        # Not reported: each process's first requests (imports, caches, the first deals).
        for side in SIDES:
            warm = Phase(side, "warm-up", -1)
            if side == "web":
                results.sign_in += await web.sign_in(discord)
            await sides[side].phase(warm, games, args.warmup, None, args.seed - 1)
            results.warmups.append(warm)
        for round_ in range(args.rounds):
            order = SIDES if round_ % 2 == 0 else SIDES[::-1]
            for mode in MODES:
                quota, pace = ((args.paced, args.pace) if mode == "paced"
                               else (args.burst, None))
                for side in order:
                    phase = Phase(side, mode, round_)
                    if side == "web":  # new players on both sides, signed in beforehand
                        results.sign_in += await web.sign_in(discord)
                    await sides[side].phase(phase, games, quota, pace,
                                            args.seed + round_ * 7 + MODES.index(mode))
                    results.phases.append(phase)
                    print(f"round {round_ + 1}/{args.rounds} {mode:<12} {side}: "
                          f"{len(phase.moves)} moves, p99 {phase.pct(99):.1f} ms",
                          file=sys.stderr if args.json else sys.stdout, flush=True)
        if args.page != "off":
            try:
                results.page = await first_load(web, discord, args.page)
            except Exception as exc:  # a page that never draws its table is a finding
                results.page = {"skipped": f"failed: {type(exc).__name__}: "
                                           f"{str(exc).splitlines()[0] if str(exc) else ''}",
                                "failed": True}
        await process.stop()
        await bot.stop()
        results.problems = sum((p.problems for p in results.phases + results.warmups),
                               Counter())
        if discord.unexpected:
            results.problems["REST routes the stand-in does not serve"] += len(
                discord.unexpected)
        check(results, database, web, bot_side)
        results.log_errors = log_errors(bot.log_text()) + log_errors(process.log_text())
        if results.log_errors:
            results.problems["errors in the processes' logs"] += len(results.log_errors)
        if results.page.get("errors") or results.page.get("failed"):
            results.problems["the page's first load failed or logged errors"] += 1
    return results


def check(results: Results, database: Path, web: Web, bot: BotSide) -> None:
    """Every run in the file replays; every promised move (web and bot) is stored; no run
    has more moves than were sent to it."""
    integrity, rows, logs = read_database(database)
    sent = Counter(web.sent)
    sent.update(m.run_id for o in bot.outcomes if o.kind == "click"
                and (m := parse_move(o.record.data.get("custom_id", ""))))
    promised: list[Any] = [*web.promises, *bot.outcomes]
    problems = log_problems(rows, logs, promised, sent)
    results.database = [f"integrity_check: {integrity}; {len(rows)} runs, "
                        f"{sum(len(v) for v in logs.values())} moves replayed",
                        *problems[:20]]
    if integrity != "ok" or problems:
        results.problems["database check failed"] += len(problems) or 1


# ----- the report -------------------------------------------------------------------------------


def _spread(values: list[float]) -> dict[str, float]:
    values = [v for v in values if v == v]  # no NaN
    if not values:
        return {"median": float("nan"), "min": float("nan"), "max": float("nan")}
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summary(results: Results, args: argparse.Namespace) -> dict[str, Any]:
    by: dict[tuple[str, str], list[Phase]] = {}
    for phase in results.phases:
        by.setdefault((phase.side, phase.mode), []).append(phase)
    figures: dict[str, Any] = {}
    for (side, mode), phases in by.items():
        figures.setdefault(mode, {})[side] = {
            "moves": sum(len(p.moves) for p in phases),
            "card_choices": sum(p.steps for p in phases),
            "starts": sum(len(p.starts) for p in phases),
            "p50_ms": _spread([p.pct(50) for p in phases]),
            "p99_ms": _spread([p.pct(99) for p in phases]),
            "cpu_per_move_ms": _spread([p.cpu_per_move for p in phases]),
            "cpu_per_click_ms": _spread([p.cpu_per_click for p in phases]),
            "moves_per_s": _spread([p.rate for p in phases]),
            "driver_cpu_percent": _spread([100 * p.driver_cpu / p.seconds for p in phases
                                           if p.seconds]),
            "start_p50_ms": percentile([x for p in phases for x in p.starts], 50),
        }
    ratios: dict[str, Any] = {}
    for mode in MODES:
        web_phases, bot_phases = by.get(("web", mode), []), by.get(("bot", mode), [])
        pairs = list(zip(web_phases, bot_phases, strict=False))
        ratios[mode] = {
            "p50": _spread([w.pct(50) / b.pct(50) for w, b in pairs]),
            "p99": _spread([w.pct(99) / b.pct(99) for w, b in pairs]),
            "cpu_per_move": _spread([w.cpu_per_move / b.cpu_per_move for w, b in pairs
                                     if b.cpu_per_move]),
        }
    return {
        "machine": {"cores": os.cpu_count(), "cpu": platform.processor() or platform.machine(),
                    "python": platform.python_version(), "load_before": args.load_before},
        "settings": {"players": args.players, "rounds": args.rounds,
                     "paced_moves_per_player": args.paced, "pace_s": args.pace,
                     "back_to_back_moves_per_player": args.burst,
                     "table_pictures": args.pictures, "games": list(GAMES)},
        "sign_in_p50_ms": percentile(results.sign_in, 50),
        "sign_in_p99_ms": percentile(results.sign_in, 99),
        "figures": figures, "web_over_bot": ratios, "page": results.page,
        "database": results.database, "log_errors": results.log_errors[:10],
        "problems": dict(results.problems), "ok": not results.problems,
    }


def _fmt(s: dict[str, float], digits: int = 1) -> str:
    return f"{s['median']:.{digits}f} [{s['min']:.{digits}f}–{s['max']:.{digits}f}]"


def print_table(data: dict[str, Any], out: TextIO) -> None:
    m, s = data["machine"], data["settings"]
    print(f"machine: {m['cores']} cores, {m['cpu']}, Python {m['python']}; load average "
          f"before: {m['load_before']}; {s['players']} players a side, {s['rounds']} rounds, "
          f"table pictures {s['table_pictures']}", file=out)
    print(f"each figure: the median over the rounds [their range]; web: a request to "
          f"/api/runs/{{id}}/move, bot: a click; CPU is the serving process's over the phase "
          f"(run starts included) per move applied and per click; "
          f"{s['paced_moves_per_player']} paced clicks a player a round "
          f"(one every ~{s['pace_s']} s), {s['back_to_back_moves_per_player']} back to back",
          file=out)
    print(f"{'mode':<13} {'side':<4} {'clicks':>6} {'per s':>15} {'p50 ms':>17} "
          f"{'p99 ms':>19} {'CPU/move ms':>19} {'CPU/click ms':>19} {'driver CPU %':>14}",
          file=out)
    for mode in MODES:
        for side in SIDES:
            f = data["figures"].get(mode, {}).get(side)
            if not f:
                continue
            print(f"{mode:<13} {side:<4} {f['moves']:>6} {_fmt(f['moves_per_s'], 0):>15} "
                  f"{_fmt(f['p50_ms']):>17} {_fmt(f['p99_ms']):>19} "
                  f"{_fmt(f['cpu_per_move_ms'], 2):>19} {_fmt(f['cpu_per_click_ms'], 2):>19} "
                  f"{_fmt(f['driver_cpu_percent'], 0):>14}",
                  file=out)
        r = data["web_over_bot"][mode]
        print(f"{mode:<13} web/bot  p50 {_fmt(r['p50'], 2)}, p99 {_fmt(r['p99'], 2)}, "
              f"CPU/move {_fmt(r['cpu_per_move'], 2)}", file=out)
    choices = sum(data["figures"].get(mode, {}).get("bot", {}).get("card_choices", 0)
                  for mode in MODES)
    print(f"of the bot's clicks, {choices} only chose a card (Clear's first step of two: a "
          f"redraw, no write): counted in its latency and CPU/click, not as moves in "
          f"CPU/move; the web has no such step", file=out)
    print(f"sign-in, {s['players']} players at once before each web phase (POST /api/token, "
          f"the code exchanged at the stand-in): p50 {data['sign_in_p50_ms']:.1f} ms, "
          f"p99 {data['sign_in_p99_ms']:.1f} ms", file=out)
    page = data["page"]
    if page.get("skipped"):
        print(f"first load of the page: skipped: {page['skipped']}", file=out)
    elif page:
        print(f"first load of the page ({page['method']}; first table: {page['game']}):",
              file=out)
        for part, label in (("page", "until ready to play"), ("table", "the first table"),
                            ("total", "in all")):
            t = page[part]
            kinds = ", ".join(f"{k} {v['requests']} / {v['bytes'] / 1000:.1f} kB"
                              for k, v in sorted(t["kinds"].items()))
            print(f"  {label:<20} {t['requests']:>3} requests, {t['bytes'] / 1000:7.1f} kB "
                  f"({t['wire'] / 1000:.1f} kB with headers): {kinds}", file=out)
        if "ready_ms" in page:
            print(f"  wall-clock: ready {page['ready_ms']:.0f} ms, first table "
                  f"{page['table_ms']:.0f} ms", file=out)
        for line in page.get("errors", [])[:5]:
            print(f"  {line}", file=out)
    for line in data["database"]:
        print(f"database: {line}", file=out)
    for line in data["log_errors"][:5]:
        print(f"log: {line}", file=out)
    if data["problems"]:
        for problem, n in sorted(data["problems"].items(), key=lambda x: -x[1]):
            print(f"ERROR {n} × {problem}", file=out)
    else:
        print("every move and click answered, every promised move stored, no error", file=out)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    args.load_before = " ".join(f"{x:.1f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory(prefix="dd-web-") as tmp:
        results = await measure(Path(tmp), args)
        if args.keep:
            shutil.copytree(tmp, args.keep, dirs_exist_ok=True)
    return summary(results, args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.activity",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="10 players, 2 short rounds: checks that everything runs")
    parser.add_argument("--players", type=int, default=200, help="players a side (200)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="rounds, the sides' order alternating (5)")
    parser.add_argument("--paced", type=int, default=8,
                        help="paced moves a player a round (8)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds between a paced player's moves, on average (1)")
    parser.add_argument("--burst", type=int, default=10,
                        help="back-to-back moves a player a round (10)")
    parser.add_argument("--warmup", type=int, default=3,
                        help="back-to-back moves a player in an unreported first phase (3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--pictures", choices=("on", "off"), default="on",
                        help="the bot's table pictures (TABLE_PICTURES; default on, as served)")
    parser.add_argument("--page", choices=("auto", "browser", "parse", "off"), default="auto",
                        help="the page's first load: Chromium when there is one (auto), "
                             "only Chromium, fetched without a browser, or not at all")
    parser.add_argument("--json", action="store_true",
                        help="print the figures as JSON on stdout (the table on stderr)")
    parser.add_argument("--keep", type=Path, help="copy the database and logs here")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.rounds = min(args.players, 10), 2
        args.paced, args.pace, args.burst, args.warmup = 3, 0.2, 5, 1
    os.environ["TABLE_PICTURES"] = args.pictures  # the processes inherit it
    data = asyncio.run(main_async(args))
    print_table(data, sys.stderr if args.json else sys.stdout)
    if args.json:
        print(json.dumps(_nan_to_none(data), indent=2, allow_nan=False))
    return 0 if data["ok"] else 1


def _nan_to_none(value: Any) -> Any:
    """JSON has no NaN: a figure with no sample is null."""
    if isinstance(value, float) and (value != value or value in (float("inf"), -float("inf"))):
        return None
    if isinstance(value, dict):
        return {k: _nan_to_none(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nan_to_none(v) for v in value]
    return value


if __name__ == "__main__":
    sys.exit(main())
