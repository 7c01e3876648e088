"""When Discord answers 429 or 5xx, the bot follows discord.py's handling and the player's
click is not lost: through the stand-in, with the real bot process."""

from __future__ import annotations

import asyncio
import re

import pytest

from bench._standin import payloads as p
from bench._standin.checks import check_database
from bench._standin.ids import parse_move
from bench._standin.players import Outcome, answered, command_options, moves_on
from bench._standin.process import BotProcess
from bench._standin.server import StandIn

CALLBACK = r"/interactions/[0-9]+/[^/]+/callback"
USER = 4242


async def start_run(discord: StandIn) -> int:
    started = discord.command(USER, "play", command_options(discord.commands["play"], "donsol"))
    assert await answered(started)
    assert started.message_id is not None and not started.ephemeral
    return started.message_id


def version(message: dict) -> int | None:
    """The version a board shows; None for a finished board (a first move can end a game:
    Donsol's joker fought bare-handed)."""
    shown = [m.version for b in p.buttons(message) if (m := parse_move(b["custom_id"]))]
    return shown[0] if shown else None


@pytest.fixture
async def live(tmp_path):
    async with StandIn() as discord:
        bot = BotProcess(discord, tmp_path / "bot.sqlite3", tmp_path / "bot.log")
        yield discord, bot
        await bot.stop()


async def click_through(discord: StandIn, tmp_path, status: int, retry_after: float) -> float:
    """Start a run, make the next callback answer ``status``, click a move; check the move
    was played and stored; return how long the click took to be answered."""
    board = await start_run(discord)
    move = moves_on(discord.messages[board], lambda i: parse_move(i) is not None)[0]
    fault = discord.inject(CALLBACK, status, retry_after=retry_after)

    click = discord.click(USER, board, move)

    assert await answered(click)
    assert fault.hits == 1
    assert click.refused == []
    assert click.response["type"] == p.UPDATE_MESSAGE
    assert version(discord.messages[board]) in (None, parse_move(move).version + 1)
    check = check_database(tmp_path / "bot.sqlite3", [
        Outcome(click, "click", "donsol", promised=parse_move(move))])
    assert check.ok, check.problems
    return click.latency


async def test_429_at_start_up_and_on_a_click_are_waited_out(live, tmp_path):
    discord, bot = live
    # Command sync at start-up meets a 429, then a 502: discord.py waits and retries.
    discord.inject(r"/applications/[0-9]+/commands", 429, retry_after=0.2)
    discord.inject(r"/applications/[0-9]+/commands", 502)
    await bot.start()
    assert "play" in discord.commands

    latency = await click_through(discord, tmp_path, 429, retry_after=0.3)

    assert latency >= 0.3  # discord.py waited retry_after, then answered
    log = bot.log_text()
    # The sync reads the commands (to keep an Activity's Entry Point) before it puts them:
    # the 429 meets whichever comes first.
    assert re.search(r"We are being rate limited\. (GET|PUT) \S+/commands", log), log
    assert re.search(r"Webhook ID [0-9]+ is rate limited. Retrying in 0.30 seconds", log)
    assert "Traceback" not in log


async def test_a_click_answered_with_a_5xx_is_retried_and_played(live, tmp_path):
    discord, bot = live
    await bot.start()

    latency = await click_through(discord, tmp_path, 503, retry_after=0)

    assert latency >= 1.0  # discord.py's back-off before its first retry
    assert "Traceback" not in bot.log_text()


async def test_a_move_whose_answer_discord_never_takes_is_kept_and_shown_next(live, tmp_path):
    discord, bot = live
    await bot.start()
    board = await start_run(discord)
    before = discord.messages[board]
    move = moves_on(before, lambda i: parse_move(i) is not None)[0]
    # Retries fail until Discord's 3 s are over (the kept connection's try; 1 s later
    # discord.py's adapter, which retries after 1 s, then 3 s more): the answer is lost for
    # good.
    discord.inject(CALLBACK, 502, count=3)

    lost = discord.click(USER, board, move)
    await asyncio.sleep(5.5)

    assert lost.answered_at is None
    assert 10062 in lost.refused  # discord.py's last retry came after the deadline
    # The player clicks again on the board they still see: the move was kept, and the board
    # comes back up to date instead of the click being applied twice.
    again = discord.click(USER, board, move, message=before)
    assert await answered(again)
    assert version(discord.messages[board]) in (None, parse_move(move).version + 1)
    check = check_database(tmp_path / "bot.sqlite3", [
        Outcome(lost, "click", "donsol", promised=parse_move(move))])
    assert check.ok, check.problems
    assert check.moves == 1
    # The bot said what happened, with the run and the user, in one line: a warning, since
    # nothing was wrong but the time (no traceback, no follow-up that would fail too).
    late = [line for line in bot.log_text().splitlines() if "answered too late" in line]
    assert late and all(re.search(r"user 4242", line) and re.search(r"run [0-9]+", line)
                        and "WARNING" in line for line in late)
