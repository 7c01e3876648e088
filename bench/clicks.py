"""Click-to-answer time of the real bot: raw INTERACTION_CREATE payloads in, responses out.

The bot runs as in production (discord.py's own dispatch, the service, a durable SQLite file
with ``synchronous=FULL``), with Discord replaced by the recording transport of
``tests/bot/raw.py``. Players start runs with /play and click random move buttons read from
their boards until each run ends; for every interaction the time from delivery to the bot's
one response is recorded. Discord allows 3 seconds. Run: ``.venv/bin/python -m bench.clicks``
(``--quick``: 2 runs per game, to check that it runs).

Start-up's objects are frozen out of the garbage collector, as ``python -m bot`` does.

It plays the same clicks twice, with table pictures off and on: a picture is drawn in the
worker and goes out in the answer itself, so what it adds to a click is the preference read
and the drawing (or the cache's copy); the bench reports both and the ratio of their p99s.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.buttons import MOVE, parse
from bot.client import create_bot
from bot.ops import memory
from rules import GAMES
from tests.bot.raw import FakeDiscord


class TimedDiscord(FakeDiscord):
    """The recording transport, noting when each interaction was answered."""

    def __init__(self) -> None:
        super().__init__()
        self.answered: dict[int, float] = {}

    def _callback(self, interaction_id: int, payload: dict[str, Any],
                  files: list[Any] | None = None) -> dict[str, Any]:
        self.answered.setdefault(interaction_id, time.perf_counter())
        return super()._callback(interaction_id, payload, files)


async def run(runs_per_game: int, seed: int, folder: Path, *, pictures: bool,
              ) -> tuple[list[float], list[float]]:
    """Play the runs; the seconds each /play and each click took to be answered."""
    rng = random.Random(seed)
    fake = TimedDiscord()
    started = time.perf_counter()
    # No par or rating loop (they never end, and the harness waits for every task between
    # clicks) and no emoji upload: none is what this measures.
    bot = create_bot(folder / f"bench-{pictures}.sqlite3", daily_secret="bench", sync="never",
                     pictures=pictures, card_emoji=False, solve_par=False,
                     rate_days=False, remind=False)
    await fake.attach(bot)
    if bot.table_pictures.warming is not None:
        await bot.table_pictures.warming  # the picture worker up, as in a bot long started
    memory.settle()  # as `python -m bot` does once started (bot.ops.lifecycle)
    setup = (time.perf_counter() - started) * 1000
    plays: list[float] = []
    clicks: list[float] = []
    user = 1000
    for key in GAMES:
        for _ in range(runs_per_game):
            user += 1
            t0 = time.perf_counter()
            asked = fake.command(bot, user, "play", game=key)
            await fake.settle()
            plays.append(fake.answered[asked] - t0)
            message = max(fake.messages)  # the board /play just posted
            while ids := _moves(fake, message):
                t0 = time.perf_counter()
                clicked = fake.click(bot, user, message, rng.choice(ids))
                await fake.settle()
                clicks.append(fake.answered[clicked] - t0)
    await bot.table_pictures.close()
    await bot.close()
    gc.unfreeze()
    print(f"table pictures {'on' if pictures else 'off':<3}: setup {setup:5.1f} ms, "
          f"{len(fake.pictured_answers)} answers with their picture, "
          f"{len(fake.picture_edits)} pictures attached after the answer")
    return plays, clicks


def _moves(fake: FakeDiscord, message_id: int) -> list[str]:
    return [
        c["custom_id"]
        for row in fake.messages[message_id]["components"]
        for c in row["components"]
        if parse(c["custom_id"]).kind == MOVE and not c.get("disabled")
    ]


def _report(name: str, seconds: list[float]) -> float:
    if len(seconds) < 2:  # quantiles need two points; a tiny run may have fewer
        raise SystemExit(f"{name}: only {len(seconds)} answered, too few to report on")
    ms = sorted(s * 1000 for s in seconds)
    p = statistics.quantiles(ms, n=100, method="inclusive")
    print(f"{name:<6} {len(ms):>5} answered   p50 {p[49]:.2f} ms   p95 {p[94]:.2f} ms   "
          f"p99 {p[98]:.2f} ms   max {ms[-1]:.2f} ms   (Discord allows 3000 ms)")
    return p[98]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs played per game (20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds, each playing the runs with pictures off then on, so a "
                        "change in the machine's load hits both alike (3)")
    parser.add_argument("--quick", action="store_true",
                        help="2 runs per game, one round: checks that the bench runs")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.rounds = 2, 1
    played: dict[bool, tuple[list[float], list[float]]] = {False: ([], []), True: ([], [])}
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            for pictures in (False, True):
                plays, clicks = asyncio.run(run(args.runs, args.seed + round_,
                                                Path(folder) / f"{round_}", pictures=pictures))
                played[pictures][0].extend(plays)
                played[pictures][1].extend(clicks)
    p99 = {}
    for pictures in (False, True):
        print(f"table pictures {'on' if pictures else 'off'}, {args.rounds} round(s):")
        _report("/play", played[pictures][0])
        p99[pictures] = _report("click", played[pictures][1])
    on, off = p99[True], p99[False]
    print(f"click p99 with pictures on / off: {on / off:.2f}x ({on - off:+.2f} ms)")


if __name__ == "__main__":
    main()
