"""The bot process's life in-process (``bot.ops.lifecycle.BotProcess``), with the real bot
talking over HTTP and a websocket to the local stand-in for Discord: a stop requested while a
click is being handled answers that click, takes no new one, and closes everything."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import sqlite3
from pathlib import Path

import discord
import pytest
import yarl

from bench._standin.server import StandIn
from bot.buttons import MOVE, parse
from bot.config import Settings
from bot.ops.lifecycle import BotProcess, retry_delays

TOKEN = "MTIzNDU2Nzg5.in-process.token"


def test_retries_wait_1_s_doubling_up_to_a_minute():
    assert list(itertools.islice(retry_delays(), 9)) == [1, 2, 4, 8, 16, 32, 60, 60, 60]


@pytest.fixture
async def discord_standin(monkeypatch) -> StandIn:
    async with StandIn(token=TOKEN) as standin:
        # What DISCORD_API_BASE does in `python -m bot`, undone after the test.
        monkeypatch.setattr(discord.http.Route, "BASE", f"{standin.base_url}/api/v10")
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                            yarl.URL(f"ws://127.0.0.1:{standin.port}/"))
        yield standin


def board_moves(standin: StandIn, message_id: int) -> list[str]:
    return [b["custom_id"] for row in standin.messages[message_id]["components"]
            for b in row["components"] if parse(b.get("custom_id", "")).kind == MOVE]


async def test_a_stop_answers_the_click_in_flight_then_takes_no_more(
    discord_standin, tmp_path: Path
):
    standin = discord_standin
    database = tmp_path / "deck.sqlite3"
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(database),
                                  "DAILY_SECRET": "in-process secret"})
    process = BotProcess(settings, TOKEN, drain_timeout=5)
    gc.unfreeze()
    serving = asyncio.create_task(process.serve())
    await asyncio.wait_for(standin.identified.wait(), 30)
    for _ in range(100):
        if process.health() == (True, "ok"):
            break
        await asyncio.sleep(0.02)
    assert process.health() == (True, "ok")
    # Start-up's objects were frozen out of the garbage collector's full collections.
    frozen = gc.get_freeze_count()
    gc.unfreeze()  # this is the test process: give its objects back
    assert frozen > 10_000

    played = standin.command(7, "play", [{"name": "game", "type": 3, "value": "donsol"}])
    await asyncio.wait_for(played.done.wait(), 10)
    board = played.message_id
    assert board is not None, played.text
    bot = process.bot
    assert bot is not None
    runs = bot.core.runs
    real_act = runs.act
    acting = asyncio.Event()

    async def slow_act(*args, **kwargs):
        acting.set()
        await asyncio.sleep(0.5)  # a click that takes a while, caught by the stop
        return await real_act(*args, **kwargs)

    runs.act = slow_act  # type: ignore[method-assign]
    in_flight = standin.click(7, board, board_moves(standin, board)[0])
    await asyncio.wait_for(acting.wait(), 10)

    # While discord.py reconnects (the stand-in dropped the connection), it is not healthy.
    assert bot.ws is not None
    await bot.ws.socket.close()
    assert process.health() == (False, "connecting")

    process.request_stop()
    assert process.health() == (False, "stopping")
    late = standin.click(7, board, board_moves(standin, board)[1])
    await asyncio.wait_for(serving, 10)

    assert in_flight.answered_at is not None and not in_flight.refused
    assert not in_flight.ephemeral, in_flight.text
    # The move was played: the board it was answered with is not the dealt one.
    assert in_flight.text != played.text and "▸ You" in in_flight.text
    assert late.answered_at is None, "a click sent once the stop began is not taken"
    assert bot.is_closed()
    assert not Path(f"{database}-wal").exists(), "the database was closed"
    with contextlib.closing(sqlite3.connect(database)) as db:
        assert db.execute("SELECT COUNT(*) FROM moves").fetchone() == (1,)


async def test_a_stop_during_the_retries_ends_them(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")  # closed
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN,
                                  "DATABASE_PATH": str(tmp_path / "deck.sqlite3")})
    made = []

    def make_bot():
        bot = process._new_bot()
        made.append(bot)
        return bot

    process = BotProcess(settings, TOKEN, make_bot=make_bot, delays=itertools.repeat(0.05))
    serving = asyncio.create_task(process.serve())
    while len(made) < 3:
        await asyncio.sleep(0.01)
    assert process.health() == (False, "connecting")

    process.request_stop()
    await asyncio.wait_for(serving, 5)

    assert all(bot.is_closed() for bot in made), "each attempt's bot is closed"


@pytest.mark.parametrize("setting, solves", [("on", True), ("off", False)])
async def test_par_solver_setting_reaches_the_bot(tmp_path: Path, setting: str, solves: bool):
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "PAR_SOLVER": setting,
                                  "DATABASE_PATH": str(tmp_path / "deck.sqlite3")})
    bot = BotProcess(settings, TOKEN)._new_bot()
    try:
        assert bot.solve_par is solves
    finally:
        await bot.close()
