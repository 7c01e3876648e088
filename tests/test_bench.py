"""The benchmarks stay runnable: each is listed in the Makefile, runs as ``python -m bench.NAME``
without hiding a project package, and has the ``--quick`` mode CI runs (``make bench-quick``)."""

from __future__ import annotations

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
