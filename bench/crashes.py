"""Crashes: the bot process killed with SIGKILL at random moments under load, many times,
restarted each time on the same database file; then nothing promised may be lost.

A click answered with a new board promised its move. Afterwards every promised move is in
the database, no run holds more moves than clicks were sent to it, every run replays to its
stored state, ``PRAGMA integrity_check`` is ok, and boards posted before the first kill still
play. ``tests/load/test_crashes.py`` runs a short version in CI.

    .venv/bin/python -m bench.crashes            # 40 players, 30 kills
    .venv/bin/python -m bench.crashes --quick    # 5 players, 3 kills
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from bench._standin.crashes import crash_test


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crashes",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 players, 3 kills")
    parser.add_argument("--players", type=int, default=40, help="players at once (40)")
    parser.add_argument("--kills", type=int, default=30, help="SIGKILLs (30)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill times and clicks")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.kills = 5, 3
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="dd-crash-") as folder:
        report = asyncio.run(crash_test(Path(folder), players=args.players, kills=args.kills,
                                        seed=args.seed))
    answered = sum(o.record.answered_at is not None for o in report.outcomes)
    print(f"{report.kills} SIGKILLs and restarts in {time.perf_counter() - started:.0f} s; "
          f"{len(report.outcomes)} interactions sent, {answered} answered, "
          f"{report.promised} moves promised, {report.cut_off} cut off by a kill")
    print(f"database: integrity_check {report.database.integrity}; {report.database.runs} runs, "
          f"{report.database.moves} moves, every one replayed")
    print(f"boards from before the kills: {', '.join(report.old_boards)}")
    for problem in report.database.problems[:20]:
        print(f"ERROR {problem}")
    for problem, n in report.problems.most_common():
        print(f"ERROR {n} × {problem}")
    if report.ok:
        print("nothing promised was lost; no move twice; every run replays")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
