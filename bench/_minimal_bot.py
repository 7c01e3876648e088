"""The yardstick for ``bench.load``: a minimal discord.py bot, a two-button game with one
durable SQLite write per click.

``/play`` posts a board with two buttons (Heads, Tails); each click by the board's owner is
written to SQLite (WAL, ``synchronous=FULL``, one transaction on the database thread: insert
the click, bump the run's count if it still matches the board) and answered with the updated
board, until the run has ``CLICKS`` clicks. Stale boards and other users' clicks get an
ephemeral note. It is about as thin as a discord.py game bot gets, so the project's latency
is measured against it.

With ``--pictures`` every board carries a picture of the run (its clicks as a row of coins,
drawn with Pillow in a worker process reached over a socket pair, the project's own
:class:`core.quick_worker.QuickWorker`), attached through discord.py's usual path: what a
minimal bot pays to send a picture with every board, beside the same bot without
(``bench.load --minimal-pictures``). With ``--pictures constant`` the worker sends back one
picture drawn once, every time: what the picture's way to Discord costs without its drawing
(``bench.load --minimal-pictures constant``).

Run by ``bench.load`` as ``python -m bench._minimal_bot`` with the stand-in's settings:
``DISCORD_TOKEN``, ``DISCORD_API_BASE`` (the stand-in) and ``DATABASE_PATH``.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import io
import logging
import os
import re
import signal
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import discord
import yarl
from discord import app_commands
from PIL import Image, ImageDraw, ImageFont

from core.quick_worker import QuickWorker

T = TypeVar("T")
CLICKS = 30  # clicks in a run, about a Donsol run's length
SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL,
                                 clicks INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS clicks (run_id INTEGER NOT NULL, number INTEGER NOT NULL,
                                   side TEXT NOT NULL, PRIMARY KEY (run_id, number));
"""


class Coin(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mini:(?P<rest>.*)"):
    """Both buttons: ``mini:<run>:<clicks>:<h|t>``; any other ``mini:`` id is refused."""

    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str], /) -> Coin:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: MinimalBot = interaction.client  # type: ignore[assignment]
        parsed = re.fullmatch(r"mini:([0-9]{1,18}):([0-9]{1,6}):([ht])", self.item.custom_id or "")
        if parsed is None:
            await interaction.response.send_message("Unknown button.", ephemeral=True)
            return
        run_id, seen, side = int(parsed[1]), int(parsed[2]), parsed[3]
        owner, clicks = await bot.write(click, interaction.user.id, run_id, seen, side)
        if owner != interaction.user.id:
            await interaction.response.send_message("Not your game.", ephemeral=True)
            return
        await interaction.response.edit_message(
            content=board_text(run_id, clicks), view=board(run_id, clicks),
            **await bot.pictured(run_id, clicks, edit=True))


def click(db: sqlite3.Connection, user: int, run_id: int, seen: int, side: str,
          ) -> tuple[int | None, int]:
    """One durable transaction: the owner's click is recorded if the board it came from is
    current. Returns the run's owner (None: no such run) and its click count afterwards."""
    with db:
        row = db.execute("SELECT owner_id, clicks FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return None, 0
        owner, clicks = row
        if owner == user and clicks == seen < CLICKS:
            clicks += 1
            db.execute("INSERT INTO clicks VALUES (?, ?, ?)", (run_id, clicks, side))
            db.execute("UPDATE runs SET clicks = ? WHERE id = ?", (clicks, run_id))
        return owner, clicks


def start(db: sqlite3.Connection, owner: int) -> int:
    with db:
        return db.execute("INSERT INTO runs (owner_id) VALUES (?)", (owner,)).lastrowid or 0


def board_text(run_id: int, clicks: int) -> str:
    return f"Coin game · run #{run_id} · {clicks}/{CLICKS} clicks"


def board(run_id: int, clicks: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if clicks < CLICKS:
        for side, label in (("h", "Heads"), ("t", "Tails")):
            view.add_item(Coin(discord.ui.Button(
                label=label, custom_id=f"mini:{run_id}:{clicks}:{side}")))
    return view


#: Pillow's default font, loaded once (by default each text would load it again).
_font = functools.cache(ImageFont.load_default)


def picture(run_id: int, clicks: int) -> bytes:
    """The run as a PNG: a row of coins, the clicked ones filled (in the worker process)."""
    font = _font()
    image = Image.new("L", (640, 160), 40)  # grey: a third of RGB's bytes to encode
    draw = ImageDraw.Draw(image)
    draw.text((16, 12), board_text(run_id, clicks), fill=230, font=font)
    for i in range(CLICKS):
        x, y = 16 + (i % 15) * 40, 48 + (i // 15) * 52
        fill = 180 if i < clicks else None
        draw.ellipse((x, y, x + 32, y + 32), fill=fill, outline=200, width=2)
        draw.text((x + 10, y + 10), str(i + 1), fill=20 if fill else 150, font=font)
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)  # 5 KB in 1.7 ms, about a table's drawing
    return out.getvalue()


def constant_picture(run_id: int, clicks: int) -> bytes:
    """One picture, drawn at the first call in the worker process, and sent back every time
    (whatever the board)."""
    return _drawn_once()


@functools.cache
def _drawn_once() -> bytes:
    return picture(0, 0)


class MinimalBot(discord.Client):
    def __init__(self, database: str, pictures: str | None = None) -> None:
        """``pictures``: None (no picture), ``drawn`` (each board's own) or ``constant``."""
        super().__init__(intents=discord.Intents(guilds=True))
        # Niced as the project's picture worker is (core.workers.NICENESS).
        self.pictures = QuickWorker(os.nice, (10,)) if pictures else None
        self.draw = constant_picture if pictures == "constant" else picture
        self.tree = app_commands.CommandTree(self)
        # One connection on one thread: each click is one job there, the loop never blocks.
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="sqlite")
        self.db = sqlite3.connect(database, check_same_thread=False, isolation_level=None)
        self.db.executescript(SCHEMA)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.isolation_level = ""  # `with db:` commits each transaction

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(
            self.executor, fn, self.db, *args)

    async def pictured(self, run_id: int, clicks: int, *, edit: bool) -> dict[str, Any]:
        """The board's picture as discord.py's keyword (none without ``--pictures``)."""
        if self.pictures is None:
            return {}
        png = await self.pictures.run(self.draw, run_id, clicks)
        file = discord.File(io.BytesIO(png), filename="coins.png")
        return {"attachments": [file]} if edit else {"file": file}

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Coin)
        if self.pictures is not None:  # started and drawn once before the first board
            await self.pictures.run(self.draw, 0, 0)

        @self.tree.command(name="play", description="Start a coin game.")
        async def play(interaction: discord.Interaction[Any], game: str) -> None:
            run_id = await self.write(start, interaction.user.id)
            await interaction.response.send_message(board_text(run_id, 0), view=board(run_id, 0),
                                                    **await self.pictured(run_id, 0, edit=False))

        await self.tree.sync()

    async def close(self) -> None:
        await super().close()
        if self.pictures is not None:
            self.pictures.close()
        self.executor.shutdown()
        self.db.close()


async def serve() -> None:
    base = os.environ["DISCORD_API_BASE"].rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws{base[4:]}/")
    parser = argparse.ArgumentParser(prog="python -m bench._minimal_bot")
    parser.add_argument("--pictures", nargs="?", const="drawn", choices=("drawn", "constant"),
                        help="a picture on every board: each board's own (drawn), or one "
                             "drawn once (constant)")
    bot = MinimalBot(os.environ["DATABASE_PATH"], parser.parse_args().pictures)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
    async with bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    discord.utils.setup_logging(level=logging.WARNING, root=True)
    asyncio.run(serve())
