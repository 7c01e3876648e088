"""The bot process against the stand-in, on an event loop in a background thread, so that
synchronous tests (hypothesis's) can drive many examples through one running bot."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bench._standin.players import answered
from bench._standin.process import BotProcess
from bench._standin.server import Interaction, StandIn

T = TypeVar("T")


class LiveBot:
    """A stand-in and a bot process connected to it; ``call`` runs a coroutine on their loop."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.discord: StandIn = self.call(self._open())
        self.database = folder / "bot.sqlite3"
        self.bot = BotProcess(self.discord, self.database, folder / "bot.log")
        self.call(self.bot.start())

    async def _open(self) -> StandIn:
        return await StandIn().__aenter__()

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def send(self, make: Any, wait: float) -> Interaction:
        """Send the interaction ``make()`` builds (on the loop) and wait up to ``wait`` s."""
        async def go() -> Interaction:
            record = make()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(record.done.wait(), wait)
            return record
        return self.call(go())

    def answered(self, record: Interaction) -> bool:
        return self.call(answered(record))

    def tables(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """Every row of ``runs`` and ``moves``, exactly as stored."""
        conn = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        try:
            conn.text_factory = bytes
            runs = conn.execute("SELECT * FROM runs ORDER BY id").fetchall()
            moves = conn.execute("SELECT * FROM moves ORDER BY run_id, number").fetchall()
            return runs, moves
        finally:
            conn.close()

    def close(self) -> None:
        self.call(self.bot.stop())
        self.call(self.discord.__aexit__(None, None, None))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture(scope="module")
def live_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveBot]:
    live = LiveBot(tmp_path_factory.mktemp("live"))
    yield live
    live.close()
