"""The bot process from start to stop: log in, retrying while Discord cannot be reached; serve;
stop cleanly on SIGTERM or Ctrl-C.

- **Start.** Each login attempt builds a fresh bot (so a half-done ``setup_hook`` never runs
  twice on one object). A network failure — no DNS, connection refused, a timeout, Discord
  answering 5xx — is one log line, then a wait that doubles from 1 s up to 60 s and a new
  attempt, for as long as it takes: a bot started before the network is up comes up with
  it. A rejected token is not retried (``discord.LoginFailure`` reaches the caller).
  ``sync``, a one-shot command, gives up after SYNC_ATTEMPTS attempts (:class:`Unreachable`).
- **Serve.** discord.py's ``connect`` keeps the gateway up and reconnects by itself
  (``bot.ops.logs`` puts each of its attempts on one line).
- **Stop.** On SIGTERM or SIGINT, at any moment: stop reading the gateway (no new clicks are
  taken; Discord tells their senders the interaction failed), let the clicks already being
  handled answer (up to ``drain_timeout`` seconds; a second signal skips the wait), then close
  the connection, the HTTP session and the database. ``serve`` then returns normally.
- **The Activity.** With ``WEB_PORT`` set, the web adapter (:mod:`web.serve`) is served from
  this process on the bot's own core once the bot has logged in (``DISCORD_CLIENT_ID``
  defaults to the bot's application id), and stops before the database closes.
- **The interactions endpoint.** With ``INTERACTIONS_PUBLIC_KEY`` and ``INTERACTIONS_PORT``
  set, Discord's signed interaction requests are received on that port (:mod:`bot.endpoint`)
  from the login on, before the gateway connects. A stop refuses new ones (503) at once,
  lets those in flight answer with the other clicks, then closes it.
- **Health and metrics.** With ``METRICS_PORT`` set, ``/healthz`` and ``/metrics`` are served
  on 127.0.0.1 from the start (``/healthz`` answers 503 ``connecting`` until the gateway
  session is ready, and 503 ``stopping`` once a stop began).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import os
import signal
from collections.abc import Callable, Iterable, Iterator

from aiohttp import web
from discord.http import Route

from bot import endpoint, metrics
from bot.callbacks import Callbacks
from bot.client import DungeonBot, create_bot
from bot.config import ConfigError, Settings
from bot.ops import memory
from bot.ops.logs import NETWORK_ERRORS, Redact, describe
from web import serve as web_serve
from web.config import WebConfig

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 1.0
MAX_RETRY_SECONDS = 60.0
#: A login attempt that has not finished by then counts as a network failure.
LOGIN_TIMEOUT_SECONDS = 30.0
#: How long clicks in flight get to answer once a stop began.
DRAIN_SECONDS = 5.0
#: ``sync`` is a one-shot command: it tries this many times (waiting 1 s, then 2 s), each
#: attempt bounded by SYNC_LOGIN_TIMEOUT_SECONDS, then gives up (about 3 s when refused).
SYNC_ATTEMPTS = 3
SYNC_LOGIN_TIMEOUT_SECONDS = 10.0

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Unreachable(Exception):
    """A one-shot command (``sync``) gave up on Discord; the message is one sentence."""


def retry_delays(
    first: float = FIRST_RETRY_SECONDS, cap: float = MAX_RETRY_SECONDS
) -> Iterator[float]:
    """1, 2, 4, ... seconds, then ``cap`` for ever."""
    delay = first
    while True:
        yield min(delay, cap)
        delay *= 2


class BotProcess:
    """One run of the bot process. ``bot`` is the current bot (a new one per login attempt)."""

    def __init__(
        self,
        settings: Settings,
        token: str,
        *,
        sync_only: bool = False,
        make_bot: Callable[[], DungeonBot] | None = None,
        delays: Iterable[float] | None = None,
        login_timeout: float = LOGIN_TIMEOUT_SECONDS,
        drain_timeout: float = DRAIN_SECONDS,
        redact: Redact | None = None,
    ) -> None:
        self.settings = settings
        self.sync_only = sync_only
        self.bot: DungeonBot | None = None
        self.stopping = False
        #: ``sync``: whether the commands were pushed (a stop can come first).
        self.synced = False
        self._token = token
        self._make_bot = make_bot or self._new_bot
        self._delays = iter(delays if delays is not None else retry_delays())
        self._login_timeout = min(login_timeout, SYNC_LOGIN_TIMEOUT_SECONDS) if sync_only \
            else login_timeout
        self._drain_timeout = drain_timeout
        self._redact = redact
        self._stop = asyncio.Event()
        self._hurry = asyncio.Event()
        #: The Activity's settings (``ConfigError`` now for a malformed one) and, once it is
        #: served, its runner.
        self._web_config = WebConfig.from_env()
        self._web: web.AppRunner | None = None
        #: The interactions endpoint, once served.
        self._endpoint: endpoint.Served | None = None

    # ----- what the signals, the health check and the caller use ------------------------------

    def request_stop(self, signum: int | None = None) -> None:
        """Begin a clean stop (a second request skips waiting for clicks in flight)."""
        if self._stop.is_set():
            self._hurry.set()
            return
        name = signal.Signals(signum).name if signum is not None else "request"
        if self.sync_only:
            log.info("Stopping on %s: the commands were not synced", name)
        else:
            log.info("Stopping on %s: taking no new clicks, answering those in flight", name)
        self.stopping = True
        if self._endpoint is not None:
            self._endpoint.refuse_new()
        self._stop.set()

    def health(self) -> tuple[bool, str]:
        """For ``/healthz``: (healthy, one word)."""
        bot = self.bot
        if self.stopping:
            return False, "stopping"
        if bot is None or bot.is_closed() or not bot.is_ready():
            return False, "connecting"
        if bot.ws is None or not bot.ws.open:  # discord.py is reconnecting
            return False, "connecting"
        return True, "ok"

    async def serve(self) -> None:
        """Run until the gateway closes for good or a stop is requested; then close. Raises
        ``discord.LoginFailure`` for a rejected token (and what else cannot be retried), and
        ``ConfigError`` when ``METRICS_PORT`` cannot be listened on."""
        http = await self._start_http()
        main = asyncio.create_task(self._main(), name="dungeon-deck: main")
        stop = asyncio.create_task(self._stop.wait(), name="dungeon-deck: stop")
        try:
            await asyncio.wait({main, stop}, return_when=asyncio.FIRST_COMPLETED)
            if main.done():
                main.result()  # a failure that cannot be retried, raised here
                return
            main.cancel()  # out of the login retries, or no more gateway reading
            with contextlib.suppress(asyncio.CancelledError):
                await main
            if http is not None:  # its open connections would hold up the drain
                await http.cleanup()
                http = None
            await self._drain()
        finally:
            stop.cancel()
            if not main.done():
                main.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await main
            if http is not None:
                await http.cleanup()
            if self._endpoint is not None:  # its answers in flight are written, then it closes
                await self._endpoint.close()
                self._endpoint = None
            if self._web is not None:  # before the database it reads closes
                await web_serve.stop(self._web)
                self._web = None
            await self._close()

    # ----- the steps ---------------------------------------------------------------------------

    def _new_bot(self) -> DungeonBot:
        s = self.settings
        return create_bot(
            s.database,
            daily_secret=s.daily_secret,
            dev_guild_id=s.dev_guild_id,
            sync="force" if self.sync_only else "auto",
            read_url=s.database_read_url,
            pool_size=s.database_pool_size,
            card_colours=s.card_colours,
            shard_count=s.shard_count,
            shard_ids=s.shard_ids,
            sharded=s.shard_auto,
            pictures=s.table_pictures,
            solve_par=s.par_solver,
            embedded_activity=s.activity,
        )

    async def _main(self) -> None:
        bot = await self._login()
        if self._redact is not None:
            self._redact.add(await _daily_secret(bot))
        if self.sync_only:  # the bot's setup_hook pushed the commands during the login
            self.synced = True
            return
        await self._start_web(bot)
        # The answers of the bot's own boards go out on kept connections (``bot.callbacks``).
        bot.callbacks = Callbacks(Route.BASE, bot.http.user_agent)
        await self._start_endpoint(bot)
        metrics.watch_gateway(lambda: bot.latency)
        metrics.time_store(bot.core.store)
        metrics.watch_workers(bot.core.workers)
        memory.settle()  # start-up is done: keep its objects out of every full collection
        await bot.connect(reconnect=True)

    async def _login(self) -> DungeonBot:
        for attempt in itertools.count(1):
            bot = self.bot = self._make_bot()
            try:
                await asyncio.wait_for(bot.login(self._token), self._login_timeout)
            except NETWORK_ERRORS as error:
                await bot.close()
                if self.sync_only and attempt >= SYNC_ATTEMPTS:
                    raise Unreachable(
                        f"Discord cannot be reached ({describe(error)}; {attempt} attempts): "
                        "the commands were not synced, try again later."
                    ) from None
                delay = next(self._delays)
                log.warning(
                    "Discord cannot be reached (attempt %d: %s); trying again in %g s",
                    attempt, describe(error), delay,
                )
                await asyncio.sleep(delay)
            except BaseException:
                await bot.close()
                raise
            else:
                return bot
        raise AssertionError("unreachable")

    async def _start_http(self) -> web.AppRunner | None:
        port = self.settings.metrics_port
        if port is None:
            return None
        try:
            runner = await metrics.start_http(port, self.health)
        except OSError as error:
            why = os.strerror(error.errno).lower() if error.errno else str(error)
            raise ConfigError(f"METRICS_PORT {port} cannot be used on 127.0.0.1 ({why}).") from None
        log.info("Health and metrics on http://127.0.0.1:%d/healthz and /metrics", port)
        return runner

    async def _start_web(self, bot: DungeonBot) -> None:
        """Serve the Activity on the bot's core when ``WEB_PORT`` is set."""
        config = self._web_config
        if not config.enabled or self._web is not None:
            return
        if config.client_id is None:
            config = dataclasses.replace(config, client_id=str(bot.application_id))
        try:
            self._web = await web_serve.start(bot.core, config)
        except OSError as error:
            why = os.strerror(error.errno).lower() if error.errno else str(error)
            raise ConfigError(
                f"WEB_PORT {config.port} cannot be used on {config.host} ({why}).") from None

    async def _start_endpoint(self, bot: DungeonBot) -> None:
        """Receive interactions over HTTP when ``INTERACTIONS_PUBLIC_KEY`` is set."""
        s = self.settings
        if s.interactions_public_key is None or s.interactions_port is None:
            return
        if self._endpoint is not None:
            return
        try:
            self._endpoint = await endpoint.start(bot, s.interactions_public_key,
                                                  s.interactions_host, s.interactions_port)
        except OSError as error:
            why = os.strerror(error.errno).lower() if error.errno else str(error)
            raise ConfigError(f"INTERACTIONS_PORT {s.interactions_port} cannot be used on "
                              f"{s.interactions_host} ({why}).") from None
        if self.stopping:
            self._endpoint.refuse_new()

    async def _drain(self) -> None:
        """Wait for the clicks and commands being handled (discord.py runs each in a task of
        its own, named after what it does; its background tasks are not waited for)."""
        loop = asyncio.get_running_loop()
        hurry = asyncio.create_task(self._hurry.wait())
        deadline = loop.time() + self._drain_timeout
        try:
            while pending := [t for t in asyncio.all_tasks() if _handling(t) and not t.done()]:
                remaining = deadline - loop.time()
                if remaining <= 0 or self._hurry.is_set():
                    log.warning("Stopping with %d task(s) unfinished", len(pending))
                    return
                log.debug("Waiting for %s", ", ".join(sorted(_describe(t) for t in pending)))
                await asyncio.wait(
                    [*pending, hurry], timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                )
        finally:
            hurry.cancel()

    async def _close(self) -> None:
        bot = self.bot
        if bot is not None and not bot.is_closed():
            await bot.close()  # the gateway, the HTTP session, then the database
        if self.stopping:
            log.info("Stopped cleanly")


async def _daily_secret(bot: DungeonBot) -> str:
    """The secret the bot's daily deals derive from (generated and kept on first use)."""
    return await bot.core.daily.secret()


async def serve(
    settings: Settings, token: str, *, sync_only: bool = False, redact: Redact | None = None
) -> BotProcess:
    """Run the bot process (see the module's docstring) with SIGINT and SIGTERM stopping it;
    return it, to tell whether a ``sync`` was done."""
    process = BotProcess(settings, token, sync_only=sync_only, redact=redact)
    loop = asyncio.get_running_loop()
    installed: list[int] = []
    for signum in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl-C still interrupts
            loop.add_signal_handler(signum, process.request_stop, signum)
            installed.append(signum)
    try:
        await process.serve()
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
    return process


#: The names discord.py gives the tasks that handle an event, an app command or a component.
HANDLER_TASKS = ("discord.py: ", "CommandTree-invoker", "discord-ui-")


def _handling(task: asyncio.Task[object]) -> bool:
    return task.get_name().startswith(HANDLER_TASKS)


def _describe(task: asyncio.Task[object]) -> str:
    coro = task.get_coro()
    return f"{task.get_name()} ({getattr(coro, '__qualname__', coro)})"
