"""The worker processes: work runs in another process, and a dead worker is replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from core.workers import BACKGROUND, INTERACTIVE, PICTURES, Workers


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
        assert "worker process died (exit codes [-9])" in caplog.text
        caplog.clear()
        second = await workers.run(INTERACTIVE, os.getpid)
        assert second != first
    finally:
        workers.close()


async def test_each_death_is_logged_with_the_dead_workers_exit_code(caplog) -> None:
    """The pool's own thread waits for a dead worker too: the code must not read None."""
    workers = Workers()
    try:
        for _ in range(5):
            worker = await workers.run(INTERACTIVE, os.getpid)
            with pytest.raises(BrokenProcessPool):
                await workers.run(INTERACTIVE, os.kill, worker, signal.SIGKILL)
    finally:
        workers.close()
    lines = [r.getMessage() for r in caplog.records if "died" in r.getMessage()]
    assert len(lines) == 5
    assert all("(exit codes [-9])" in line for line in lines), lines


async def test_workers_end_when_the_bot_is_killed(tmp_path) -> None:
    """A bot killed mid-solve (SIGKILL: no close) leaves no worker process behind."""
    script = tmp_path / "bot.py"
    script.write_text(
        "import asyncio, os, time\n"
        "from core.workers import BACKGROUND, Workers\n"
        "async def main():\n"
        "    workers = Workers()\n"
        "    print(await workers.run(BACKGROUND, os.getpid), flush=True)\n"
        "    await workers.run(BACKGROUND, time.sleep, 600)  # a long solve, then killed\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    said = tmp_path / "worker.pid"
    with said.open("w") as out:  # a file, not a pipe: the worker would hold a pipe open
        bot = await asyncio.create_subprocess_exec(
            sys.executable, str(script), stdout=out, cwd=Path(__file__).resolve().parents[2],
        )
    for _ in range(600):
        if said.read_text().strip():
            break
        await asyncio.sleep(0.1)
    worker = int(said.read_text())
    await asyncio.sleep(1.0)  # the long solve has begun
    assert _alive(worker)
    bot.kill()
    await bot.wait()
    for _ in range(100):
        if not _alive(worker):
            break
        await asyncio.sleep(0.1)
    assert not _alive(worker), "the worker outlived the bot"


async def test_a_stop_signal_sent_to_the_bots_process_group_does_not_kill_its_workers(
    tmp_path,
) -> None:
    """Ctrl-C in a terminal, GNU timeout and systemd (KillMode=control-group) signal the
    workers along with the bot: a worker killed by it broke the pictures of the clicks the
    bot was still answering. The workers carry on; the bot stops them itself."""
    script = tmp_path / "bot.py"
    script.write_text(
        "import asyncio, os, signal, sys, time\n"
        "from core.workers import PICTURES, Workers\n"
        "async def main():\n"
        "    loop = asyncio.get_running_loop()\n"
        "    for signum in (signal.SIGTERM, signal.SIGINT):  # the bot's clean stop\n"
        "        loop.add_signal_handler(signum, lambda: None)\n"
        "    workers = Workers()\n"
        "    worker = await workers.run(PICTURES, os.getpid)\n"
        "    print('worker', worker, flush=True)\n"
        "    try:\n"
        "        await workers.run(PICTURES, time.sleep, 3.0)  # a picture under way\n"
        "        again = await workers.run(PICTURES, os.getpid)\n"
        "        print('done', again == worker, workers.deaths[PICTURES], flush=True)\n"
        "    finally:\n"
        "        workers.close()\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    said = tmp_path / "said.txt"
    with said.open("w") as out:
        bot = await asyncio.create_subprocess_exec(
            sys.executable, str(script), stdout=out, stderr=asyncio.subprocess.STDOUT,
            cwd=Path(__file__).resolve().parents[2], start_new_session=True,
        )
    for _ in range(600):
        if said.read_text().startswith("worker ") or bot.returncode is not None:
            break
        await asyncio.sleep(0.1)
    assert said.read_text().startswith("worker "), said.read_text()
    worker = int(said.read_text().split()[1])
    await asyncio.sleep(1.0)  # the picture is under way
    os.killpg(bot.pid, signal.SIGTERM)  # as systemctl stop and GNU timeout send it
    os.killpg(bot.pid, signal.SIGINT)  # as Ctrl-C in a terminal
    assert await asyncio.wait_for(bot.wait(), 30) == 0, said.read_text()
    assert said.read_text().splitlines()[-1] == "done True 0", said.read_text()
    for _ in range(50):  # closed by the bot once its work was done
        if not _alive(worker):
            break
        await asyncio.sleep(0.1)
    assert not _alive(worker), "the worker outlived the bot"


async def test_the_bot_still_ends_a_busy_worker_at_close() -> None:
    """Stop signals from the bot itself are obeyed: close() terminates a busy solver."""
    workers = Workers()
    worker = await workers.run(BACKGROUND, os.getpid)
    solving = asyncio.ensure_future(workers.run(BACKGROUND, time.sleep, 60))
    await asyncio.sleep(0.5)
    workers.close()
    for _ in range(100):
        if not _alive(worker):
            break
        await asyncio.sleep(0.1)
    assert not _alive(worker), "close() did not end the busy worker"
    with pytest.raises(BaseException):  # noqa: B017 (broken or cancelled: either is fine)
        await solving


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped by init, does not count)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


async def test_pictures_and_pars_run_at_a_lower_priority_than_the_bot_and_hints() -> None:
    workers = Workers()
    try:
        mine = os.nice(0)
        assert await workers.run(PICTURES, os.nice, 0) == mine + 10
        assert await workers.run(BACKGROUND, os.nice, 0) == mine + 15
        assert await workers.run(INTERACTIVE, os.nice, 0) == mine
    finally:
        workers.close()


#: A program that embeds the core the quick way: no ``if __name__ == "__main__":`` guard.
UNGUARDED = '''
import asyncio, sys
from datetime import UTC, datetime
from core import Core

with open(sys.argv[2], "a") as marks:
    print("ran", file=marks)


async def main() -> None:
    core = await Core.open(sys.argv[1], clock=lambda: datetime(2026, 12, 5, 12, tzinfo=UTC))
    try:
        core.hints.budget, core.hints.samples = 200, 2
        run = await core.runs.start(1, "donsol", seed=7)
        run, found = await core.hints.suggest(run.id, 1, run.version)
        print("hint", found.action)
    finally:
        await core.close()

asyncio.run(main())
'''


async def test_a_worker_does_not_run_the_program_that_started_it_again(tmp_path: Path) -> None:
    """spawn's child runs the parent's main script again (to find functions defined there):
    a program embedding the core without a main guard ran once more in every worker, opening
    the database, writing its own runs (and, before the hint could come back, failing with
    whatever that second run did: a locked or vanished database file)."""
    import sqlite3

    script, marks, database = tmp_path / "embed.py", tmp_path / "marks", tmp_path / "x.sqlite3"
    script.write_text(UNGUARDED)
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(script), str(database), str(marks), cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, err.decode()
    assert out.decode().startswith("hint "), err.decode()
    assert marks.read_text().splitlines() == ["ran"]
    assert "Traceback" not in err.decode(), err.decode()
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == 1


async def test_the_pictures_lane_answers_many_jobs_at_once_from_one_process() -> None:
    workers = Workers()
    try:
        # Asked at once before any process is up: one is started, and every job is answered
        # with its own result.
        pids = await asyncio.gather(*(workers.run(PICTURES, os.getpid) for _ in range(10)))
        assert len(set(pids)) == 1 and pids[0] != os.getpid()
        squares = await asyncio.gather(*(workers.run(PICTURES, pow, i, 2) for i in range(200)))
        assert squares == [i * i for i in range(200)]
        big = await workers.run(PICTURES, bytes, 1 << 20)  # larger than a socket's buffer
        assert big == bytes(1 << 20)
        assert await workers.run(PICTURES, os.getpid) == pids[0]
    finally:
        workers.close()


async def test_the_pictures_lane_raises_the_workers_exception_here() -> None:
    workers = Workers()
    try:
        with pytest.raises(ValueError, match="invalid literal"):
            await workers.run(PICTURES, int, "not a number")
        with pytest.raises(RuntimeError, match="could not be sent back"):
            await workers.run(PICTURES, _unpicklable)
        assert await workers.run(PICTURES, int, "7") == 7  # the same worker carries on
        assert workers.deaths[PICTURES] == 0
    finally:
        workers.close()


async def test_closing_the_pictures_lane_lets_the_job_under_way_finish() -> None:
    workers = Workers()
    worker = await workers.run(PICTURES, os.getpid)
    job = asyncio.ensure_future(workers.run(PICTURES, _slow_answer, 0.5))
    await asyncio.sleep(0.2)  # sent, and under way
    workers.close()
    assert await asyncio.wait_for(job, 10) == "drawn"
    for _ in range(100):  # then the worker exits on its own
        if not _alive(worker):
            break
        await asyncio.sleep(0.1)
    assert not _alive(worker), "the pictures worker outlived its close"


def _unpicklable() -> object:
    return lambda: None


def _slow_answer(seconds: float) -> str:
    time.sleep(seconds)
    return "drawn"
