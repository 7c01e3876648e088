"""Group commit in the SQLite store: writes that arrive together share one durable commit,
each in its own savepoint, and each caller still gets its own result or refusal."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from core import Core, StaleBoard
from store import connections
from tests.core.conftest import SECRET, Clock, query

ALICE = 1001


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "group.sqlite3"


@pytest.fixture
async def sqlite_core(db_file: Path):
    core = await Core.open(db_file, clock=Clock(), daily_secret=SECRET)
    yield core
    await core.close()


async def test_writes_at_once_share_commits_and_keep_their_own_outcomes(
    sqlite_core: Core, db_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = [await sqlite_core.runs.start(ALICE, "donsol", seed=seed) for seed in range(30)]
    sizes: list[int] = []
    original = connections.write_batch

    def counted(conn, batch):
        sizes.append(len(batch))
        return original(conn, batch)

    monkeypatch.setattr(connections, "write_batch", counted)
    # Each run gets two moves from the same board at once: one lands, one is stale.
    calls = [sqlite_core.runs.act(run.id, ALICE, 0, run.actions[i])
             for run in runs for i in (0, 1)]
    results = await asyncio.gather(*calls, return_exceptions=True)

    played = [r for r in results if not isinstance(r, BaseException)]
    stale = [r for r in results if isinstance(r, StaleBoard)]
    assert len(played) == 30 and len(stale) == 30
    assert sum(sizes) == 60 and max(sizes) > 1, sizes  # batched, and every write ran
    assert len(sizes) < 60
    # The refused writes left nothing behind; every played move is stored once.
    assert query(db_file, "SELECT count(*) FROM moves") == [(30,)]
    assert query(db_file, "SELECT count(*) FROM runs WHERE moves = 1 AND version = 1") == [(30,)]
    for run in played:
        assert await sqlite_core.runs.get(run.id) == run  # what each caller got is stored


async def test_a_write_that_fails_in_a_batch_is_rolled_back_alone(
    sqlite_core: Core, db_file: Path
) -> None:
    store = sqlite_core.store

    def insert(tx, key: str, fail: bool) -> str:
        tx.set_meta(key, "written")
        if fail:
            raise ValueError(f"{key} fails after writing")
        return key

    results = await asyncio.gather(
        *(store.write(insert, f"k{i}", i % 3 == 1) for i in range(9)), return_exceptions=True
    )
    assert [r if isinstance(r, str) else "failed" for r in results] == [
        "failed" if i % 3 == 1 else f"k{i}" for i in range(9)
    ]
    kept = {k for (k,) in query(db_file, "SELECT key FROM meta WHERE key LIKE 'k%'")}
    assert kept == {f"k{i}" for i in range(9) if i % 3 != 1}


async def test_reads_do_not_wait_for_a_write_being_committed(
    sqlite_core: Core, db_file: Path
) -> None:
    """The writer has a connection and a thread of its own: in WAL mode a read (a board, a
    leaderboard) goes on while a write is under way, and sees the last committed state."""
    run = await sqlite_core.runs.start(ALICE, "donsol", seed=7)
    store = sqlite_core.store
    writing, release = threading.Event(), threading.Event()

    def slow_write(tx):
        tx.set_meta("slow", "written")
        writing.set()
        release.wait(10)  # holds the write transaction open on the writer's thread

    write = asyncio.ensure_future(store.write(slow_write))
    await asyncio.get_running_loop().run_in_executor(None, writing.wait, 10)
    try:
        seen = await asyncio.wait_for(sqlite_core.runs.get(run.id), 5)
        meta = await asyncio.wait_for(store.read(lambda tx: tx.meta("slow")), 5)
    finally:
        release.set()
    await write
    assert seen.id == run.id and seen.version == 0
    assert meta is None, "a read sees what was committed, not the write under way"
    assert await store.read(lambda tx: tx.meta("slow")) == "written"


async def test_close_waits_for_the_writes_already_asked_for(db_file: Path) -> None:
    core = await Core.open(db_file, clock=Clock(), daily_secret=SECRET)
    runs = [await core.runs.start(ALICE, "donsol", seed=seed) for seed in range(5)]
    pending = [asyncio.ensure_future(core.runs.act(run.id, ALICE, 0, run.actions[0]))
               for run in runs]
    await asyncio.sleep(0)
    await core.close()
    assert all(p.done() and p.exception() is None for p in pending)
    assert query(db_file, "SELECT count(*) FROM moves") == [(5,)]
