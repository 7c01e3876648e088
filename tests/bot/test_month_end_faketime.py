"""The month's end on the system clock, under libfaketime: a process whose clock reads
2027-01-01 00:56 UTC (running ten times fast) starts the real bot in simcord with no injected
clock and watches 01:00 pass (``tests/bot/month_end_process.py``). What a server must see:
the month board open, then final; the champions posted once per server (and the daily post
once) by the bot's own loops; the champion role moved from November's holder to December's
champion; a freeze used on the day a player missed (❄️ in /stats); the 31st's look back
on a player's /daily only after 01:00 (absent at 00:59, there at 01:01).

libfaketime is Debian's ``libfaketime`` (.ci/run installs it); without it the test is
skipped, unless ``REQUIRE_FAKETIME=1`` (as in CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIBFAKETIME = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")
#: The faked clock's start, and its speed (a minute of the bot's loops takes six seconds).
FAKETIME = "@2027-01-01 00:56:00 x10"


@pytest.fixture
def libfaketime() -> Path:
    if not LIBFAKETIME.exists():
        if os.environ.get("REQUIRE_FAKETIME") == "1":
            pytest.fail(f"REQUIRE_FAKETIME=1 but {LIBFAKETIME} is missing (apt-get install "
                        "libfaketime)")
        pytest.skip("libfaketime is not installed")
    return LIBFAKETIME


def test_the_month_closes_once_on_the_system_clock(libfaketime: Path, tmp_path: Path) -> None:
    out = tmp_path / "seen.json"
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), "TZ": "UTC",
           "LD_PRELOAD": str(libfaketime), "FAKETIME": FAKETIME}
    done = subprocess.run(
        [sys.executable, "-m", "tests.bot.month_end_process", str(tmp_path / "db.sqlite3"),
         str(out)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    seen = json.loads(out.read_text())
    log = done.stdout + done.stderr

    assert seen["started_at"] < "2027-01-01T00:59:30"  # the faked clock, not the machine's
    close = int(datetime(2027, 1, 1, 1, 0, tzinfo=UTC).timestamp())
    assert seen["board_before"].startswith(f"Open: final at <t:{close}:f>")
    assert seen["board_after"] == "Final: the month's last day has closed."
    # Each server, once each though the loops ran on after: the 31st's post first (its
    # results channel was set before 01:00, so it went out at once), then the 1st's post and
    # the champions, both due at 01:00 from two loops that do not wait for each other, so
    # either may land first.
    for posts in seen["posts"]:
        assert posts[0] == "Daily #31 · 2026-12-31"
        assert sorted(posts[1:]) == ["Champions of 2026-12", "Daily #32 · 2027-01-01"]
    assert len(seen["posts"]) == 2
    first, second = seen["champions"]
    assert "🥇 alice: " in first and "(3 days)" in first and "goes to <@" in first
    assert "🥇 carol: " in second and "(8 days)" in second
    assert log.count("champions of 2026-12 sent to server") == 2
    assert seen["roles"] == {"alice": True, "bob": False}  # moved from November's holder
    # carol played the 23rd to the 30th (a freeze earned on the 7th day) and missed the 31st.
    assert seen["carol_record"] == {"current": 8, "freezes": 0, "frozen": ["2026-12-31"]}
    assert "days frozen: 1" in seen["carol_stats"] and "❄️" in seen["carol_stats"]
    # The day's look back: fay's /daily at 00:59 opens without the 31st's (not closed yet:
    # par would spoil the deal), at 01:01 with it.
    assert "2027-01-01T00:59" in seen["before_at"]
    assert "Yesterday:" not in seen["daily_before"]
    assert "2027-01-01T01:01" in seen["daily_after_at"]
    assert "Yesterday: par not solved yet" in seen["daily_after"]
    assert "Traceback" not in log
