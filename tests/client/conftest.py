"""The Activity in a real browser: the built page (``make client``) served by the real web
adapter (``web.serve.start`` over ``web.app.create_app``) on 127.0.0.1, on a real core, with
the OAuth stand-in (``bench._standin.oauth``) as Discord's token and ``/users/@me`` endpoints,
driven by Playwright's async API in Debian's Chromium.

- ``browser``: one Chromium for the session; every page gets a fresh context.
- ``site``: the web adapter on a core of its own over a SQLite file in ``tmp_path``.
- ``bot_site``: the real bot driven by simcord (``simcord_env``) and the web adapter on the
  bot's own ``bot.core``: what a player does in Discord and in the Activity meets in one
  database.

A player signs in through the page: the SDK mock's ``authorize`` answers ``?mock_code=``,
which the page sends to ``POST /api/token``; the stand-in knows that code as the player's.

Every test runs in the session's event loop (the browser's); none may log an ERROR (a
traceback in the server's log fails the test that caused it). Chromium, Playwright or the
built page missing: the tests are skipped with the reason, or fail under
``REQUIRE_BROWSER=1`` (``.ci/run`` sets it), so CI cannot pass without them.
"""

from __future__ import annotations

import itertools
import logging
import os
import shutil
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bench._standin.oauth import CLIENT_ID, CLIENT_SECRET, OAuthStandIn
from core import Core
from core.environment import DatabaseSettings
from tests.core.conftest import Clock
from web import serve
from web.app import DIST
from web.auth import Auth
from web.config import WebConfig

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1000, "height": 700}
#: Noon on 5 December 2026: every game's daily #5, and #4 closed the night before.
NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
DAILY_SECRET = "browser-tests"
#: Deals are random in production; here each new run gets the next of these seeds.
FIRST_SEED = 20_261_201


def unavailable(reason: str) -> None:
    """Skip, or fail when CI requires the browser tests."""
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


def chromium() -> str:
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not found:
        unavailable("Chromium is not installed: sudo apt-get install chromium")
    assert found is not None
    return found


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    """Chromium for the session (contexts are made per page)."""
    if not (DIST / "index.html").is_file() or not (DIST / "faces").is_dir():
        unavailable("web/dist is not built: run make client")
    path = chromium()
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        unavailable("Playwright is not installed: pip install -e '.[dev]'")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path, headless=True,
                                                    args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@dataclass
class Tab:
    """One page of the Activity, in a context of its own, and what went wrong in it."""

    page: Any
    context: Any
    user_id: int
    errors: list[str] = field(default_factory=list)

    async def close(self) -> None:
        """Closes the tab, which must have thrown no error and broken no CSP rule."""
        await self.context.close()
        assert self.errors == []


@dataclass
class Site:
    """The web adapter being served, its core and database, the OAuth stand-in, and the
    browser pages opened on it (closed at the end of the test)."""

    url: str
    core: Core
    oauth: OAuthStandIn
    auth: Auth
    database: Path
    clock: Clock
    browser: Any
    tabs: list[Tab] = field(default_factory=list)

    def player(self, user_id: int, username: str | None = None, *, locale: str = "en-US",
               guilds: list[int] | None = None) -> None:
        """Registers a Discord user at the stand-in (again: their name, locale, servers)."""
        self.oauth.add_user(user_id, username or f"player{user_id}", locale=locale,
                            guilds=guilds)

    async def open(self, user_id: int, *, viewport: dict[str, int] = PHONE,
                   code: str | None = None, query: str = "") -> Tab:
        """A new page signed in as ``user_id`` (registered with :meth:`player` if unknown):
        waits until the page says it is ready (or that signing in failed)."""
        if user_id not in self.oauth.users:
            self.player(user_id)
        code = self.oauth.code(user_id) if code is None else code
        # Reduced motion: a card's fade-in is not caught half-way (by a screenshot).
        context = await self.browser.new_context(viewport=viewport, device_scale_factor=2,
                                                 reduced_motion="reduce")
        page = await context.new_page()
        tab = Tab(page, context, user_id)
        page.on("pageerror", lambda e: tab.errors.append(str(e)))
        # A Content-Security-Policy refusal is a console error too.
        page.on("console", lambda m: tab.errors.append(m.text)
                if "Content Security Policy" in m.text else None)
        self.tabs.append(tab)
        await page.goto(f"{self.url}/?mock_code={code}{query}")
        await page.wait_for_selector("#app[data-ready]", timeout=15_000)
        return tab

    def tokens(self, user_id: int) -> list[str]:
        """The access tokens Discord (the stand-in) gave the user's sign-ins, oldest first."""
        return [t for t, found in self.oauth.tokens.items() if found.user_id == user_id]

    def expire(self, user_id: int) -> None:
        """The user's tokens expire at Discord, and the server's cache of them has run out
        (it keeps a token's user an hour at most)."""
        for token in self.tokens(user_id):
            self.oauth.expire(token)
            self.auth.forget(token)

    def snapshot(self) -> tuple[Any, ...]:
        """The runs and moves tables as they are, read by a connection of their own."""
        with sqlite3.connect(self.database) as db:
            runs = db.execute("SELECT id, owner_id, version, status, moves, state FROM runs "
                              "ORDER BY id").fetchall()
            moves = db.execute("SELECT * FROM moves ORDER BY run_id, number").fetchall()
        return tuple(runs), tuple(moves)

    def actions(self, run_id: int) -> list[str]:
        """The run's stored moves, in order."""
        with sqlite3.connect(self.database) as db:
            return [row[0] for row in db.execute(
                "SELECT action FROM moves WHERE run_id = ? ORDER BY number", (run_id,))]


def web_config(oauth: OAuthStandIn, database: Path) -> WebConfig:
    return WebConfig(port=0, client_id=CLIENT_ID, client_secret=CLIENT_SECRET,
                     discord_api=oauth.api, database=DatabaseSettings(path=database))


@asynccontextmanager
async def serving(core: Core, oauth: OAuthStandIn, database: Path, clock: Clock,
                  browser: Any) -> AsyncIterator[Site]:
    """The web adapter on ``core``, served until the block ends (its pages closed first)."""
    config = web_config(oauth, database)
    auth = Auth(config.discord_api, config.client_id, config.client_secret)
    runner = await serve.start(core, config, auth=auth)
    site = Site(f"http://127.0.0.1:{serve.port_of(runner)}", core, oauth, auth, database,
                clock, browser)
    try:
        yield site
    finally:
        for tab in site.tabs:
            await tab.context.close()
        await serve.stop(runner)


@pytest_asyncio.fixture(loop_scope="session")
async def oauth() -> AsyncIterator[OAuthStandIn]:
    async with OAuthStandIn.serve() as running:
        yield running


@pytest_asyncio.fixture(loop_scope="session")
async def site(tmp_path: Path, browser: Any, oauth: OAuthStandIn,
               error_logs: list[logging.LogRecord]) -> AsyncIterator[Site]:
    """The web adapter on a core of its own (a SQLite file), at noon on 5 December 2026."""
    clock = Clock(NOON)
    database = tmp_path / "web.sqlite3"
    seeds = itertools.count(FIRST_SEED)
    core = await Core.open(database, clock=clock, daily_secret=DAILY_SECRET,
                           random_seed=lambda: next(seeds))
    try:
        async with serving(core, oauth, database, clock, browser) as running:
            yield running
    finally:
        await core.close()


# ----- the bot beside it ------------------------------------------------------------------------


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(tmp_path: Path, clock: Clock) -> Any:
    """The real bot on a SQLite file in ``tmp_path`` (its loops that only add noise off, as
    in tests/bot)."""
    from bot.client import create_bot

    seeds = itertools.count(FIRST_SEED)
    return create_bot(tmp_path / "bot.sqlite3", daily_secret=DAILY_SECRET, clock=clock,
                      pictures=False, card_emoji=False, solve_par=False, rate_days=False,
                      remind=False, random_seed=lambda: next(seeds))


@pytest_asyncio.fixture(loop_scope="session")
async def simcord_env(simcord_bot: Any) -> AsyncIterator[simcord.Env]:
    """simcord's own fixture, in the session's loop (the browser's)."""
    env = simcord.Env(simcord_bot)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        core = getattr(simcord_bot, "core", None)
        if core is not None:
            await core.close()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


@dataclass
class BotSite:
    """The web adapter on the bot's core, and simcord's world around the bot."""

    site: Site
    world: Any


@pytest_asyncio.fixture(loop_scope="session")
async def bot_site(tmp_path: Path, browser: Any, oauth: OAuthStandIn, clock: Clock,
                   simcord_env: simcord.Env, error_logs: list[logging.LogRecord]
                   ) -> AsyncIterator[BotSite]:
    from tests.bot.conftest import World

    world = World(simcord_env)
    async with serving(world.core, oauth, tmp_path / "bot.sqlite3", clock,
                       browser) as running:
        yield BotSite(running, world)
