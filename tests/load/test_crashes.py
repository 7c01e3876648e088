"""The bot process killed with SIGKILL at random moments under load and restarted on the same
database file: nothing a player was promised is lost (short version; ``python -m
bench.crashes`` is the long one)."""

from __future__ import annotations

from bench._standin.crashes import crash_test
from rules import GAMES


async def test_sigkill_under_load_loses_no_promised_move(tmp_path):
    report = await crash_test(tmp_path, players=6, kills=3, seed=11, up=(0.4, 0.9))

    assert report.kills == 3
    assert report.cut_off >= 1, "no kill caught an interaction in flight"
    assert report.promised >= 8, "too few moves were played to mean anything"
    assert report.database.integrity == "ok"
    assert report.database.problems == []  # promised moves stored, none twice, all replay
    assert not report.problems, report.problems  # every other interaction answered once
    assert report.old_boards == ["played"] * len(GAMES)  # a board per game from before
    assert report.log_errors == []
