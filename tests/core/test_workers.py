"""The worker processes: work runs in another process, and a dead worker is replaced."""

from __future__ import annotations

import os
import signal
from concurrent.futures.process import BrokenProcessPool

import pytest

from core.workers import BACKGROUND, INTERACTIVE, Workers


async def test_each_lane_runs_in_a_process_of_its_own() -> None:
    workers = Workers()
    try:
        interactive = await workers.run(INTERACTIVE, os.getpid)
        background = await workers.run(BACKGROUND, os.getpid)
        assert len({os.getpid(), interactive, background}) == 3
        assert await workers.run(INTERACTIVE, os.getpid) == interactive  # kept, not respawned
        with pytest.raises(ValueError, match="no worker lane"):
            await workers.run("elsewhere", os.getpid)
    finally:
        workers.close()
    with pytest.raises(RuntimeError, match="closed"):
        await workers.run(INTERACTIVE, os.getpid)


async def test_a_killed_worker_fails_one_call_and_the_next_gets_a_new_one(caplog) -> None:
    workers = Workers()
    try:
        first = await workers.run(INTERACTIVE, os.getpid)
        with pytest.raises(BrokenProcessPool):
            await workers.run(INTERACTIVE, os.kill, first, signal.SIGKILL)
        assert "worker process died" in caplog.text
        caplog.clear()
        second = await workers.run(INTERACTIVE, os.getpid)
        assert second != first
    finally:
        workers.close()
