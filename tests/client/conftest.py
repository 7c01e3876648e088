"""The browser table's tests: the built page (``make client``) served by the stand-in server
(``tests/client/fixture.py``) on 127.0.0.1, driven by Playwright in Debian's Chromium.

Skipped, with the reason, when Chromium or Playwright is missing; a page that was not built
fails instead (``make test`` builds it first).
"""

from __future__ import annotations

import asyncio
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from tests.client import fixture

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def _chromium() -> str:
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not found:
        pytest.skip("Chromium is not installed: sudo apt-get install chromium")
    return found


class Site:
    """A stand-in server running on its own thread and event loop."""

    def __init__(self, words: dict[str, str] | None = None) -> None:
        self.application = fixture.app(words)
        self.loop = asyncio.new_event_loop()
        self.runner = web.AppRunner(self.application, access_log=None)
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)
        port = self.runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}"

    async def _start(self) -> None:
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", 0).start()

    @property
    def fixture(self) -> fixture.Fixture:
        return self.application[fixture.FIXTURE]

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    if not (fixture.DIST / "index.html").exists() or not (fixture.DIST / "faces").is_dir():
        pytest.fail("web/dist is not built: run `make client`")
    running = Site()
    yield running
    running.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = _chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=FLAGS)
        yield launched
        launched.close()
