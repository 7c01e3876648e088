"""The crash test, shared by ``tests/load`` (short) and ``bench/crashes.py`` (long).

The bot process plays under load and is killed with SIGKILL at random moments, then
restarted on the same database file, again and again. A click answered with a new board
promised its move; afterwards every promised move must be in the database, no run may hold
more moves than clicks were sent to it, every run must replay to its stored state,
``integrity_check`` must pass, and boards posted before the first kill must still play.
Interactions sent to a process that was then killed before answering may go unanswered, as
they would on Discord ("This interaction failed"); every other one must be answered once.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench._standin import payloads as p
from bench._standin.checks import DatabaseCheck, answer_problems, check_database
from bench._standin.ids import parse_move
from bench._standin.players import (
    Load,
    Outcome,
    answered,
    command_options,
    moves_on,
    play,
    playable_on,
)
from bench._standin.process import ROOT, BotProcess
from bench._standin.server import DEADLINE, StandIn
from rules import GAMES

KEEPER = 900_000  # user ids of the players whose boards are kept from before the kills


@dataclass
class CrashReport:
    kills: int = 0
    outcomes: list[Outcome] = field(default_factory=list)
    promised: int = 0
    database: DatabaseCheck = field(default_factory=DatabaseCheck)
    problems: Counter[str] = field(default_factory=Counter)
    old_boards: list[str] = field(default_factory=list)  # what each kept board did at the end
    cut_off: int = 0  # interactions a kill left unanswered (sent to a bot that then died)
    log_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.database.ok and not self.problems


async def crash_test(folder: Path, *, players: int, kills: int, seed: int = 1,
                     up: tuple[float, float] = (0.3, 1.2), root: Path = ROOT) -> CrashReport:
    """Run the crash test in ``folder`` (database and bot log go there)."""
    rng = random.Random(seed)
    report = CrashReport()
    kill_times: list[float] = []
    async with StandIn() as discord:
        bot = BotProcess(discord, folder / "crash.sqlite3", folder / "crash.log", root=root)
        await bot.start()
        kept = [await _keep_board(discord, KEEPER + i, game, report)
                for i, game in enumerate(GAMES)]
        load = Load(discord, tuple(GAMES), bad_rate=0.0)
        tasks = [asyncio.create_task(play(load, 10_000 + i, seed * 7919 + i, None))
                 for i in range(players)]
        try:
            for _ in range(kills):
                await asyncio.sleep(rng.uniform(*up))
                kill_times.append(time.perf_counter())
                await bot.kill()
                report.kills += 1
                await bot.start()
            await asyncio.sleep(rng.uniform(*up))
            load.stop.set()
            await asyncio.gather(*tasks)
            for board in kept:
                report.old_boards.append(await _play_kept(discord, board, report))
        finally:
            load.stop.set()
            await bot.stop()
        report.outcomes += load.outcomes
        report.problems = _unexplained(report.outcomes, kill_times)
        report.cut_off = sum(o.record.delivered and o.record.answered_at is None
                             for o in report.outcomes)
        for outcome in report.outcomes:
            report.promised += outcome.promised is not None
    report.database = check_database(folder / "crash.sqlite3", report.outcomes)
    log = bot.log_text()
    report.log_errors = [line for line in log.splitlines() if "Traceback" in line]
    return report


async def _keep_board(discord: StandIn, user: int, game: str, report: CrashReport) -> int:
    """A run started and played one move before the kills; its board is clicked after.
    (A first move can end a run, Donsol's joker fought bare-handed: then another run.)"""
    for _ in range(10):
        options = command_options(discord.commands["play"], game) or []
        started = discord.command(user, "play", options)
        report.outcomes.append(Outcome(started, "start", game))
        assert await answered(started) and started.message_id, "/play was not answered"
        board = started.message_id
        chosen = (await _moves(discord, user, board, report, game))[0]
        clicked = discord.click(user, board, chosen)
        report.outcomes.append(Outcome(clicked, "click", game, promised=parse_move(chosen)))
        assert await answered(clicked), "the first click was not answered"
        if playable_on(discord.messages[board], _is_move):
            return board
    raise AssertionError(f"ten {game} runs in a row ended on their first move")


async def _moves(discord: StandIn, user: int, board: int, report: CrashReport,
                 game: str) -> list[str]:
    """The board's moves; on a two-step board's first step (Clear's "which card?") the first
    card is chosen first (a click that only redraws)."""
    message = discord.messages[board]
    if not moves_on(message, _is_move) and (steps := playable_on(message, _is_move)):
        record = discord.click(user, board, steps[0])
        report.outcomes.append(Outcome(record, "click", game))
        if not await answered(record):
            return []
    return moves_on(discord.messages[board], _is_move)


async def _play_kept(discord: StandIn, board: int, report: CrashReport) -> str:
    message = discord.messages[board]
    user = int(message["interaction_metadata"]["user"]["id"])
    if not playable_on(message, _is_move):
        return "over"
    moves = await _moves(discord, user, board, report, "kept")
    if not moves:
        return "refused: the card's choice was not answered"
    record = discord.click(user, board, moves[0])
    ok = await answered(record)
    outcome = Outcome(record, "click", "kept")
    report.outcomes.append(outcome)
    if ok and (record.response or {}).get("type") == p.UPDATE_MESSAGE:
        outcome.promised = parse_move(moves[0])
        return "played"
    return "refused: " + record.text[:80]


def _is_move(custom_id: str) -> bool:
    return parse_move(custom_id) is not None


def _unexplained(outcomes: list[Outcome], kills: list[float]) -> Counter[str]:
    """Answer problems, leaving out interactions the bot may have died holding."""
    def doomed(outcome: Outcome) -> bool:
        sent = outcome.record.sent_at
        return outcome.record.answered_at is None and any(
            sent - 0.2 <= k and k - sent <= DEADLINE + 0.5 for k in kills)

    return answer_problems(o for o in outcomes if not doomed(o))
