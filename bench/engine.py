"""Engine throughput: random legal play from a fresh deal, against a plain reference.

For each game in ``rules.GAMES`` (or the ones named), plays complete random games — ``new``
(the deal included, as a daily's replay and every hint's sampling pay it), then ``actions()``
and ``apply`` until the end — and prints actions per second, games per second and the mean
time to replay a finished game from its transcript. Beside them, the speed against the game's
plain deep-copying reference (``tests/rules/reference/``), measured in one process in
alternating windows (engine, reference, engine, …) on the very same games and choices: the
median ratio and its spread. Every time is the process's CPU time (a busy machine's other
work does not count against a window). One target for every game: at least ``TARGET`` times the
reference. Run: ``.venv/bin/python -m bench.engine`` (``--quick``: a few tiny windows, to
check that it runs; it reports and never judges, as a noisy machine would fail it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rules import GAMES, replay
from tests.rules.reference import reference

TARGET = 4.0  # every engine at least this many times its plain reference, dealing included

Job = tuple[int, str]  # (seed, variant) of one game


def play(new: Callable, actions: Callable, apply: Callable, jobs: list[Job],
         picks: list[float]) -> int:
    """Play each job to its end, choosing with ``picks`` in turn; the actions applied.

    The loop does nothing but play, so that what is timed is the engine, not the bench.
    """
    k = 0
    mask = len(picks) - 1  # a power of two
    for seed, variant in jobs:
        state = new(seed, variant)
        legal = actions(state)
        while legal:
            state = apply(state, legal[int(picks[k & mask] * len(legal))])
            k += 1
            legal = actions(state)
    return k


def transcripts(game: Any, jobs: list[Job], picks: list[float]) -> list[list[str]]:
    """The actions :func:`play` chooses in each job, untimed: for the replay figure."""
    k = 0
    mask = len(picks) - 1
    found = []
    for seed, variant in jobs:
        state = game.new(seed, variant)
        moves = []
        legal = game.actions(state)
        while legal:
            moves.append(legal[int(picks[k & mask] * len(legal))])
            state = game.apply(state, moves[-1])
            k += 1
            legal = game.actions(state)
        found.append(moves)
    return found


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """``(CPU seconds, result)`` of ``fn()``: the process's CPU time, not the wall clock, so
    that a window in which other work on a shared machine preempted this one costs it nothing."""
    t0 = time.process_time()
    result = fn()
    return time.process_time() - t0, result


def measure(key: str, window: float, windows: int, rng: random.Random) -> dict[str, Any]:
    """Engine windows alternating with reference windows on the same games."""
    game = GAMES[key]
    ref = reference(key)
    picks = [rng.random() for _ in range(4096)]

    def jobs(n: int) -> list[Job]:
        return [(rng.getrandbits(64), rng.choice(game.variants)) for _ in range(n)]

    engine = (game.new, game.actions, game.apply)
    plain = (ref.new, ref.actions, ref.apply) if ref is not None else engine
    # Calibrate: how many games fill one engine window.
    size, elapsed = 8, 0.0
    while True:
        batch = jobs(size)
        elapsed, _ = timed(lambda b=batch: play(*engine, b, picks))
        if elapsed >= window / 4 or size > 1_000_000:
            break
        size *= 2
    size = max(1, round(size * window / max(elapsed, 1e-9)))
    rates, game_rates, ratios = [], [], []
    for _ in range(windows):
        batch = jobs(size)
        t_engine, count = timed(lambda b=batch: play(*engine, b, picks))
        rates.append(count / t_engine)
        game_rates.append(len(batch) / t_engine)
        if ref is not None:
            t_ref, ref_count = timed(lambda b=batch: play(*plain, b, picks))
            assert ref_count == count, f"{key}: the reference played other games"
            ratios.append(t_ref / t_engine)
    sample = jobs(200)
    played = transcripts(game, sample, picks)
    replays = []
    for (seed, variant), moves in zip(sample, played, strict=True):
        t, _ = timed(lambda s=seed, v=variant, m=moves: replay(key, v, s, m))
        replays.append(t)
    return {
        "actions/s": statistics.median(rates),
        "games/s": statistics.median(game_rates),
        "actions/game": sum(map(len, played)) / len(played),
        "replay ms": statistics.fmean(replays) * 1000,
        "ratios": ratios,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", choices=[*GAMES, []], help="games to measure (all)")
    parser.add_argument("--window", type=float, default=0.4,
                        help="CPU seconds of engine play per window (0.4)")
    parser.add_argument("--windows", type=int, default=7,
                        help="windows each, engine and reference alternating (7)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the bench's own chooser")
    parser.add_argument("--quick", action="store_true",
                        help="5 windows of 0.03 s: checks that the bench runs, judges nothing")
    args = parser.parse_args()
    if args.quick:
        args.window, args.windows = 0.03, 5
    rng = random.Random(args.seed)
    print(f"{'game':<8} {'actions/s':>10} {'games/s':>9} {'actions/game':>13} "
          f"{'replay ms':>10}  {'× reference: median (min–max)':<30} target ≥{TARGET:g}×")
    for key in args.games or list(GAMES):
        m = measure(key, args.window, args.windows, rng)
        ratios = m["ratios"]
        if ratios:
            median = statistics.median(ratios)
            spread = f"{median:.2f} ({min(ratios):.2f}–{max(ratios):.2f})"
            verdict = "not judged (quick)" if args.quick else (
                "ok" if median >= TARGET else "BELOW")
        else:
            spread, verdict = "no reference", ""
        print(f"{key:<8} {m['actions/s']:>10,.0f} {m['games/s']:>9,.0f} "
              f"{m['actions/game']:>13.1f} {m['replay ms']:>10.3f}  {spread:<30} {verdict}")


if __name__ == "__main__":
    main()
