"""Engine throughput: random legal play of complete games, and replays of finished ones.

For each game in ``rules.GAMES`` (or the ones named), plays complete games for a few seconds
on one core — ``new``, then ``actions()`` and ``apply`` until the end, ``actions()`` calls
included — and prints actions applied per second, games per second, and the mean time to
replay a finished game from its transcript. Run: ``.venv/bin/python -m bench.engine``
(``--quick``: a fraction of a second per game, to check that it runs).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rules import GAMES, replay

TARGETS = {"donsol": 50_000, "tomb": 20_000, "clear": 50_000}  # actions per second, one core


def play_for(key: str, seconds: float, rng: random.Random) -> tuple[int, int, float, list]:
    """Play random games for about ``seconds``; return (games, actions, elapsed, transcripts)."""
    game = GAMES[key]
    games = actions = 0
    transcripts: list[tuple[int, str, list[str]]] = []
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        seed = rng.getrandbits(64)
        variant = rng.choice(game.variants)
        state = game.new(seed, variant)
        moves: list[str] = []
        legal = game.actions(state)
        while legal:
            action = legal[rng.randrange(len(legal))]
            state = game.apply(state, action)
            moves.append(action)
            legal = game.actions(state)
        games += 1
        actions += len(moves)
        if len(transcripts) < 200:
            transcripts.append((seed, variant, moves))
    return games, actions, time.perf_counter() - start, transcripts


def time_replays(key: str, transcripts: list) -> float:
    """Mean seconds to replay one finished game."""
    times = []
    for seed, variant, moves in transcripts:
        t0 = time.perf_counter()
        replay(key, variant, seed, moves)
        times.append(time.perf_counter() - t0)
    return statistics.fmean(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", choices=[*GAMES, []], help="games to measure (all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="play time per game (3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the bench's own chooser")
    parser.add_argument("--quick", action="store_true",
                        help="0.2 s per game: checks that the bench runs, measures little")
    args = parser.parse_args()
    if args.quick:
        args.seconds = 0.2
    rng = random.Random(args.seed)
    print(f"{'game':<8} {'actions/s':>10} {'games/s':>9} {'actions/game':>13} "
          f"{'replay ms':>10} {'target':>8}")
    for key in args.games or list(GAMES):
        games, actions, elapsed, transcripts = play_for(key, args.seconds, rng)
        replay_ms = time_replays(key, transcripts) * 1000
        rate = actions / elapsed
        target = TARGETS.get(key)
        verdict = "" if target is None else ("ok" if rate >= target else "BELOW") + f" {target:,}"
        print(f"{key:<8} {rate:>10,.0f} {games / elapsed:>9,.0f} {actions / games:>13.1f} "
              f"{replay_ms:>10.3f} {verdict:>8}")


if __name__ == "__main__":
    main()
