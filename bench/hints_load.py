"""Hints at 200 players: practice runs played through the core, each player asking a hint now
and then, the hints through ``core.hints.Hints`` and the real ``interactive`` worker.

Each round plays every game in turn (the order rotated round after round, so no game always
runs first or last): a phase of ``--seconds`` in which ``--players`` players each play
practice runs of that game through the core (``core.runs.act`` on a durable SQLite file, a
new run when one ends), a move about every ``--move-every`` seconds, and ask a hint at random
times, on average one every ``--hint-every`` seconds of play (exponential gaps: 45 s by
default, a player who asks now and then rather than at every move; 200 players then ask
about 4.4 hints a second in all). A player waits for the hint's answer, then plays the
hinted move, as a player following it would.

Reported per game (the median over the rounds, with the range), and over every round:
hint latency p50/p95/max (wall-clock, from the call to ``Hints.suggest`` to its answer:
the worker hop, the queue behind other players' hints and the write that marks the run
hinted included) and the worker's CPU seconds per hint (``time.process_time`` around the
hint in the worker). Target: p95 under 1 s. The worker's start-up is left out (one
untimed hint per game first).

Run: ``.venv/bin/python -m bench.hints_load`` (3 rounds of 4 games × 30 s: about 7 minutes),
``--quick`` for seconds (20 players, 2 s phases, one round, a hint every 2 s).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bench._in_worker import timed_hint
from core import Core
from core.errors import Refusal
from core.hints import HINT_BUDGET, HINT_SAMPLES, Hints, compute_hint
from core.workers import Workers
from rules import GAMES
from rules.hints import HINT_NATIVE_SCALE

T = TypeVar("T")
TARGET = 1.0  # seconds, p95


class TimedWorkers(Workers):
    """The real worker lanes; a hint runs as ``timed_hint`` (the same ``compute_hint``, with
    the worker's CPU seconds for it), recorded in :attr:`cpu`, and answers as usual."""

    def __init__(self) -> None:
        super().__init__()
        self.cpu: list[float] = []
        self.hop: list[float] = []  # wall seconds of each hint's worker call

    async def run(self, lane: str, fn: Callable[..., T], *args: Any) -> T:
        if fn is not compute_hint:
            return await super().run(lane, fn, *args)
        start = time.perf_counter()
        found, seconds = await super().run(lane, timed_hint, *args)
        self.hop.append(time.perf_counter() - start)
        self.cpu.append(seconds)
        return found  # type: ignore[no-any-return]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


async def player(
    core: Core, hints: Hints, user: int, game: str, until: float, args: argparse.Namespace,
    waits: list[float], errors: list[str],
) -> None:
    """One player's practice runs of ``game`` until ``until`` (``time.monotonic``)."""
    rng = random.Random(f"{args.seed}:{user}:{game}")
    engine = GAMES[game]
    await asyncio.sleep(rng.uniform(0, args.move_every))  # players do not start in step
    run = await core.runs.start(user, game)
    next_hint = time.monotonic() + rng.expovariate(1 / args.hint_every)
    while time.monotonic() < until:
        if run.over:
            run = await core.runs.start(user, game)
        action = None
        if time.monotonic() >= next_hint:
            start = time.perf_counter()
            try:
                run, found = await hints.suggest(run.id, user, run.version)
            except Refusal as refusal:  # not expected: the bench's own mistake
                errors.append(f"{game} hint refused: {refusal}")
                return
            waits.append(time.perf_counter() - start)
            action = found.action
            next_hint = time.monotonic() + rng.expovariate(1 / args.hint_every)
        if action is None:
            action = rng.choice(engine.actions(run.state))
        run = await core.runs.act(run.id, user, run.version, action)
        await asyncio.sleep(rng.uniform(0.5, 1.5) * args.move_every)


async def main_async(args: argparse.Namespace) -> int:
    keys = args.games or list(GAMES)
    print(f"{args.players} players, {args.rounds} round(s) of {len(keys)} games × "
          f"{args.seconds:g} s; a move every ~{args.move_every:g} s, a hint every "
          f"~{args.hint_every:g} s a player ({args.players / args.hint_every:.1f} hints/s); "
          f"hints {HINT_BUDGET:,} nodes, {HINT_SAMPLES} samples, native scale "
          f"{HINT_NATIVE_SCALE}")
    per_game: dict[str, list[dict[str, float]]] = {key: [] for key in keys}
    every_wait: list[float] = []
    errors: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        core = await Core.open(Path(tmp) / "bench.sqlite3")
        workers = TimedWorkers()
        hints = Hints(core.runs, workers)
        try:
            for key in keys:  # the worker started and warmed up, untimed
                run = await core.runs.start(10**9, key)
                await hints.suggest(run.id, 10**9, run.version)
            user = 0
            for n in range(args.rounds):
                order = keys[n % len(keys):] + keys[:n % len(keys)]
                for key in order:
                    waits: list[float] = []
                    workers.cpu.clear()
                    workers.hop.clear()
                    own = time.process_time()
                    wall = time.monotonic()
                    until = time.monotonic() + args.seconds
                    players = []
                    for _ in range(args.players):
                        user += 1  # new players every phase: fresh runs
                        players.append(player(core, hints, user, key, until, args, waits,
                                              errors))
                    await asyncio.gather(*players)
                    # The bench's own process (the event loop, SQLite's writer thread): near a
                    # whole core, its players wait on it rather than on the hint.
                    busy = (time.process_time() - own) / (time.monotonic() - wall)
                    if not waits:
                        errors.append(f"{key}: no hint asked in round {n + 1}")
                        continue
                    figures = {"p50": statistics.median(waits), "p95": percentile(waits, 0.95),
                               "max": max(waits), "cpu": statistics.median(workers.cpu),
                               "cpu95": percentile(workers.cpu, 0.95), "hints": len(waits),
                               "hop95": percentile(workers.hop, 0.95), "busy": busy}
                    per_game[key].append(figures)
                    every_wait += waits
                    print(f"  round {n + 1} {key:<9} {len(waits):>4} hints  wall p50 "
                          f"{figures['p50']:.3f} s · p95 {figures['p95']:.3f} s · max "
                          f"{figures['max']:.3f} s  CPU per hint p50 {figures['cpu']:.3f} s · "
                          f"p95 {figures['cpu95']:.3f} s; worker call p95 "
                          f"{figures['hop95']:.3f} s; bench process {busy:.0%} of a core",
                          flush=True)
        finally:
            workers.close()
            await core.close()

    def spread(rounds: list[dict[str, float]], name: str) -> str:
        values = [r[name] for r in rounds]
        return f"{statistics.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"

    print("\nper game, median over the rounds (min–max):")
    for key, rounds in per_game.items():
        if rounds:
            print(f"  {key:<9} wall p50 {spread(rounds, 'p50')} · p95 {spread(rounds, 'p95')} · "
                  f"max {spread(rounds, 'max')} s; CPU per hint p50 {spread(rounds, 'cpu')} · "
                  f"p95 {spread(rounds, 'cpu95')} s; worker call p95 {spread(rounds, 'hop95')} s")
    if every_wait:
        p95 = percentile(every_wait, 0.95)
        print(f"every hint ({len(every_wait)}): wall p50 {statistics.median(every_wait):.3f} s · "
              f"p95 {p95:.3f} s · max {max(every_wait):.3f} s  (target p95 under "
              f"{TARGET:.0f} s: {'met' if p95 < TARGET else 'missed'})")
    for error in errors:
        print(f"error: {error}")
    return 1 if errors else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200, help="players at once (200)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every game (3)")
    parser.add_argument("--seconds", type=float, default=30, help="seconds a game a round (30)")
    parser.add_argument("--move-every", type=float, default=1.0,
                        help="seconds between a player's moves, on average (1)")
    parser.add_argument("--hint-every", type=float, default=45.0,
                        help="seconds of play between a player's hints, on average (45)")
    parser.add_argument("--games", nargs="*", choices=list(GAMES), default=None,
                        help="the games played (every game)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the players' choices")
    parser.add_argument("--quick", action="store_true", help="a few seconds in all")
    args = parser.parse_args()
    if args.quick:
        args.players, args.rounds, args.seconds, args.hint_every = 20, 1, 2.0, 2.0
    raise SystemExit(asyncio.run(main_async(args)))


if __name__ == "__main__":
    main()
