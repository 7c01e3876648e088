"""The benchmarks stay runnable: each is listed in the Makefile, runs as ``python -m bench.NAME``
without hiding a project package, and has the ``--quick`` mode CI runs (``make bench-quick``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if not p.stem.startswith("_"))
#: The project's top-level packages: a bench script with one of these names would hide it.
PACKAGES = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))


def listed() -> list[str]:
    match = re.search(r"^BENCHES\s*:?=\s*(.*)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert match, "the Makefile has no BENCHES line"
    return match.group(1).split()


def test_every_bench_script_is_listed_in_the_makefile():
    assert SCRIPTS, "no benchmark found"
    assert sorted(listed()) == SCRIPTS, (
        "list each bench/*.py in the Makefile's BENCHES (helpers start with _)"
    )


def test_no_bench_script_is_named_like_a_package():
    assert {"bot", "rules"} <= set(PACKAGES)
    assert not set(SCRIPTS) & set(PACKAGES)


@pytest.mark.parametrize("name", SCRIPTS)
def test_each_bench_runs_as_a_module_and_has_a_quick_mode(name):
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{name}", "--help"],
        cwd=ROOT, env={"PATH": os.environ.get("PATH", "")},
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "--quick" in done.stdout


def test_the_activity_bench_runs_quick_and_prints_its_table_and_json():
    """``python -m bench.activity --quick --json``: the table on stderr, the figures on stdout,
    every player's moves measured on both sides, nothing lost."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "WEB_", "DATABASE_", "DEV_"))}
    done = subprocess.run(
        [sys.executable, "-m", "bench.activity", "--quick", "--json"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    table = done.stderr
    for mode in ("paced", "back-to-back"):
        for side in ("web", "bot"):
            assert re.search(rf"^{mode}\s+{side}\s+\d+", table, re.MULTILINE), table
        assert re.search(rf"^{mode}\s+web/bot\s+p50 [0-9.]+", table, re.MULTILINE), table
    assert "every move and click answered, every promised move stored, no error" in table
    assert "first load of the page" in table
    data = json.loads(done.stdout)
    assert data["ok"] and data["problems"] == {}
    # 10 players a side, 2 rounds: 3 paced and 5 back-to-back moves a player a round.
    for side in ("web", "bot"):
        assert data["figures"]["paced"][side]["moves"] == 10 * 3 * 2
        assert data["figures"]["back-to-back"][side]["moves"] == 10 * 5 * 2
        assert data["figures"]["paced"][side]["cpu_per_move_ms"]["median"] > 0
    assert data["database"][0].startswith("integrity_check: ok;")
    page = data["page"]
    if (ROOT / "web" / "dist" / "index.html").exists():
        assert page["total"]["kinds"]["script"]["requests"] >= 1, page
        assert page["table"]["kinds"]["faces"]["requests"] >= 1, page
    else:
        assert "not built" in page["skipped"]
