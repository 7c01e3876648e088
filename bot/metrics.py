"""Prometheus metrics of the bot, and the HTTP endpoint that serves them with ``/healthz``.

The functions below are what the rest of the bot calls; they are cheap (a lock and an add)
and safe to call whether or not ``METRICS_PORT`` is set:

    metrics.click(outcome, seconds)     # a click answered: its outcome and its latency
    with metrics.click_timer() as t:    # the same, timed; set t.outcome ("error" if it raises)
    metrics.timed_click(handler)        # a click handler, each call inside a click_timer
    metrics.click_outcome("stale")      # what the click being answered came to, from within
    metrics.run_started(game, kind)     # a run started (kind: "practice" or "daily")
    metrics.run_finished(game, kind)    # a run ended (won, lost or resigned)
    metrics.db_time(seconds)            # one database job (a transaction) took this long
    metrics.time_store(store)           # ... or: every read/write transaction of a store

Click outcomes are a small fixed set (``OUTCOMES``) so that the series stay few. The gateway
latency is read from the bot when scraped (:func:`watch_gateway`). ``start_http`` serves, on
127.0.0.1 only, ``/metrics`` (Prometheus text format) and ``/healthz`` (200 ``ok`` while the
bot is connected to Discord, 503 with a word saying why not otherwise) from the bot's own event
loop, so a blocked loop shows as a failing health check.

Nothing here imports the rest of the project: ``core``/``store`` code that wants to report
time gets a callable such as :func:`db_time` handed to it, the arrows stay one way.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Awaitable, Callable
from contextvars import ContextVar, Token
from typing import Any, ParamSpec, TypeVar

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import choose_encoder
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

from core.workers import LANES, Workers

#: What a click can come to: done as asked (a move, undo, resign... the board edited), a
#: board brought up to date (a click on an old copy, or on a finished run), a refusal shown to
#: the player (not their run, an illegal move, a damaged id), or an unexpected error (answered
#: with an error id).
OUTCOMES = ("ok", "stale", "refused", "error")

#: Seconds; a click is answered in about a millisecond here, and Discord allows 3 s.
CLICK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
DB_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0)

P = ParamSpec("P")
R = TypeVar("R")

#: What ``/healthz`` reports: (healthy, one word).
Health = Callable[[], tuple[bool, str]]


class Metrics:
    """The bot's metrics, on their own registry (with the process, platform and GC ones)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        r = self.registry
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        GCCollector(registry=r)
        self.clicks = Counter(
            "dungeon_deck_clicks", "Button clicks answered, by outcome", ["outcome"], registry=r
        )
        # Every outcome shows from the start, at 0; each click counts on its child directly
        # (``labels()`` looks it up under a lock each time).
        self._click_counters = {outcome: self.clicks.labels(outcome) for outcome in OUTCOMES}
        self.click_seconds = Histogram(
            "dungeon_deck_click_seconds", "Time from receiving a click to answering it",
            buckets=CLICK_BUCKETS, registry=r,
        )
        self.runs_started = Counter(
            "dungeon_deck_runs_started", "Runs started, by game and kind", ["game", "kind"],
            registry=r,
        )
        self.runs_finished = Counter(
            "dungeon_deck_runs_finished", "Runs ended (won, lost or resigned), by game and kind",
            ["game", "kind"], registry=r,
        )
        self.pictures = Counter(
            "dungeon_deck_pictures", "Table pictures: attached to a board, or left out because "
            "the picture worker was behind", ["outcome"], registry=r,
        )
        for outcome in ("attached", "skipped"):
            self.pictures.labels(outcome)
        self.worker_deaths = Counter(
            "dungeon_deck_worker_deaths", "Worker processes found dead (a new one is started), "
            "by lane", ["lane"], registry=r,
        )
        for lane in LANES:
            self.worker_deaths.labels(lane)
        self.db_seconds = Histogram(
            "dungeon_deck_db_seconds", "Time of one database job (a transaction)",
            buckets=DB_BUCKETS, registry=r,
        )
        self.gateway_latency = Gauge(
            "dungeon_deck_gateway_latency_seconds",
            "Time between a gateway heartbeat and its acknowledgement (NaN when not connected)",
            registry=r,
        )
        self.gateway_latency.set(math.nan)

    def click(self, outcome: str, seconds: float) -> None:
        counter = self._click_counters.get(outcome)
        if counter is None:  # not one of OUTCOMES: prometheus_client checks it
            counter = self.clicks.labels(outcome)
        counter.inc()
        self.click_seconds.observe(seconds)

    def run_started(self, game: str, kind: str) -> None:
        self.runs_started.labels(game, kind).inc()

    def run_finished(self, game: str, kind: str) -> None:
        self.runs_finished.labels(game, kind).inc()

    def db_time(self, seconds: float) -> None:
        self.db_seconds.observe(seconds)

    def picture(self, outcome: str) -> None:
        self.pictures.labels(outcome).inc()

    def worker_died(self, lane: str) -> None:
        self.worker_deaths.labels(lane).inc()

    def watch_workers(self, workers: Workers) -> None:
        """Count the deaths of ``workers``' processes, by lane."""
        workers.on_death = self.worker_died

    def watch_gateway(self, latency: Callable[[], float]) -> None:
        """Read the gateway latency (seconds) from ``latency`` at each scrape; a value that is
        not finite (discord.py's before the first heartbeat) is reported as NaN."""

        def read() -> float:
            value = latency()
            return value if math.isfinite(value) else math.nan

        self.gateway_latency.set_function(read)

    def exposition(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)


#: The process's metrics; the functions below record into it.
METRICS = Metrics()


def click(outcome: str, seconds: float) -> None:
    """A click was answered: ``outcome`` (one of ``OUTCOMES``) after ``seconds``."""
    METRICS.click(outcome, seconds)


class ClickTimer:
    """Times one click and records it on leaving the ``with`` block: the outcome is
    ``outcome`` (``ok`` unless changed, see :func:`click_outcome`), or ``error`` if an
    exception leaves the block."""

    def __init__(self, metrics: Metrics) -> None:
        self.outcome = "ok"
        self._metrics = metrics
        self._start = 0.0
        self._token: Token[ClickTimer | None] | None = None

    def __enter__(self) -> ClickTimer:
        self._start = time.perf_counter()
        self._token = _CLICK.set(self)
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if self._token is not None:
            _CLICK.reset(self._token)
        outcome = "error" if kind is not None and issubclass(kind, Exception) else self.outcome
        self._metrics.click(outcome, time.perf_counter() - self._start)


#: The click being answered in this task (each interaction runs in a task of its own).
_CLICK: ContextVar[ClickTimer | None] = ContextVar("dungeon_deck_click", default=None)


def click_timer(metrics: Metrics | None = None) -> ClickTimer:
    """``with metrics.click_timer() as timer:`` around the answer to a click; set
    ``timer.outcome`` (or call :func:`click_outcome`) when it came to something else than a
    move."""
    return ClickTimer(metrics if metrics is not None else METRICS)


def click_outcome(outcome: str) -> None:
    """Say what the click being answered came to (``stale``, ``refused``); nothing happens
    outside a click (a refused slash command, say)."""
    timer = _CLICK.get()
    if timer is not None:
        timer.outcome = outcome


def timed_click(handler: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """``handler`` answering each click inside a :func:`click_timer`."""

    @functools.wraps(handler)
    async def timed(*args: P.args, **kwargs: P.kwargs) -> R:
        with click_timer():
            return await handler(*args, **kwargs)

    return timed


def run_started(game: str, kind: str) -> None:
    """A run of ``game`` (``rules.GAMES`` key) and ``kind`` ("practice", "daily") started."""
    METRICS.run_started(game, kind)


def run_finished(game: str, kind: str) -> None:
    """A run of ``game`` and ``kind`` ended: won, lost or resigned."""
    METRICS.run_finished(game, kind)


def picture(outcome: str) -> None:
    """A table picture was ``attached`` to a board, or ``skipped`` (the worker was behind)."""
    METRICS.picture(outcome)


def db_time(seconds: float) -> None:
    """One database job (a transaction, on the connection's thread) took ``seconds``."""
    METRICS.db_time(seconds)


def watch_workers(workers: Workers) -> None:
    """Count the deaths of ``workers``' processes; see :meth:`Metrics.watch_workers`."""
    METRICS.watch_workers(workers)


def time_store(store: Any, metrics: Metrics | None = None) -> None:
    """Record the time of each of ``store``'s transactions as database time.

    Every database access of the core is one ``read`` or ``write`` transaction of the store
    interface (``store.base.Store``), whatever the backend; this wraps those two methods of
    the given store object, measuring from the call to the result: queueing for the
    connection included, as a click sees it.
    """
    into = metrics if metrics is not None else METRICS
    for name in ("read", "write"):
        original = getattr(store, name)

        async def timed(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return await _original(*args, **kwargs)
            finally:
                into.db_time(time.perf_counter() - start)

        setattr(store, name, timed)


def watch_gateway(latency: Callable[[], float]) -> None:
    """Report ``latency()`` (seconds) as the gateway latency; see :meth:`Metrics.watch_gateway`."""
    METRICS.watch_gateway(latency)


async def start_http(
    port: int, health: Health, metrics: Metrics = METRICS, host: str = "127.0.0.1"
) -> web.AppRunner:
    """Serve ``/metrics`` and ``/healthz`` on ``host:port`` (0: any free port); the runner's
    ``cleanup()`` stops it. ``OSError`` when the port is taken."""

    async def healthz(request: web.Request) -> web.Response:
        healthy, word = health()
        return web.Response(status=200 if healthy else 503, text=word + "\n")

    async def scrape(request: web.Request) -> web.Response:
        # The format the scraper asks for (Prometheus text or OpenMetrics), as the client's
        # own server chooses it.
        encode, content_type = choose_encoder(request.headers.get("Accept", ""))
        response = web.Response(body=encode(metrics.registry))
        response.headers["Content-Type"] = content_type
        return response

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/metrics", scrape)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


def bound_port(runner: web.AppRunner) -> int:
    """The port a started runner listens on (useful with port 0)."""
    return int(runner.addresses[0][1])
