"""Backups: ``python -m bot backup PATH`` copies the database while the bot plays on it, and a
restored copy (bot stopped, file copied back) plays on from where the copy was taken."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

from bot.__main__ import BACKUP_POSTGRES
from store.backup import backup

ROOT = Path(__file__).resolve().parents[2]


def integrity(path: Path) -> str:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]


async def test_a_backup_taken_during_play_restores_and_plays_on(
    world, make_bot, db_path, tmp_path, error_logs
):
    rng = random.Random(11)

    async def click(board):
        result = await world.click(world.alice, board, rng.choice(world.moves(board))["custom_id"])
        assert not result.ephemeral, result.response.content
        return result.response

    board = await world.play(world.alice, "clear")
    for _ in range(3):
        board = await click(board)
    (run,) = await world.core.runs.unfinished(world.alice.id)
    before = await world.core.runs.moves(run.id)
    target = tmp_path / "backups" / "deck.sqlite3"

    copying = asyncio.create_task(asyncio.to_thread(backup, db_path, target))
    board = await click(board)  # the player goes on while the copy is taken
    made = await copying
    for _ in range(3):
        board = await click(board)
    after = await world.core.runs.moves(run.id)

    assert made.path == target and made.size == target.stat().st_size > 0
    assert integrity(target) == "ok"
    assert not list(target.parent.glob(".*partial")), "no temporary file is left"

    # Restore as the README says: stop the bot, put the copy in place of the database file
    # (and remove the old file's -wal and -shm), start the bot.
    await world.env.bot.core.close()
    for stale in (db_path, Path(f"{db_path}-wal"), Path(f"{db_path}-shm")):
        stale.unlink(missing_ok=True)
    shutil.copyfile(target, db_path)
    await world.env.restart_bot(make_bot())

    restored = await world.core.runs.moves(run.id)
    assert restored[: len(before)] == before, "everything before the copy is in it"
    assert restored == after[: len(restored)], "and nothing that was not played"
    assert len(restored) in (len(before), len(before) + 1)

    # The board on screen is ahead of the restored run: a click on it changes nothing and
    # brings the board back to where the run is; from there the run plays to its end.
    shown = world.message(board)
    result = await world.click(world.alice, shown, world.moves(shown)[0]["custom_id"])
    assert await world.core.runs.moves(run.id) == restored
    last = await world.play_to_the_end(world.alice, world.message(result.response), rng)
    assert not world.moves(last)
    finished = await world.core.runs.get(run.id)
    assert finished.over
    assert (await world.core.runs.moves(run.id))[: len(restored)] == restored
    assert integrity(db_path) == "ok"


def run_backup(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "backup", *args],
        cwd=cwd, env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), **env},
        capture_output=True, text=True, timeout=60,
    )


def test_the_backup_command_copies_the_database_and_says_where(tmp_path):
    migrated = subprocess.run(
        [sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, capture_output=True, text=True,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)}, timeout=60,
    )
    assert migrated.returncode == 0, migrated.stderr

    done = run_backup(tmp_path, "backups/2026-11-30.sqlite3")

    assert done.returncode == 0, done.stderr
    source = Path("data") / "dungeon-deck.sqlite3"
    target = Path("backups") / "2026-11-30.sqlite3"
    assert done.stdout.startswith(f"{source} backed up to {target} (")
    assert integrity(tmp_path / target) == "ok"
    with contextlib.closing(sqlite3.connect(tmp_path / target)) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert {"runs", "moves", "meta"} <= tables


def test_the_backup_command_refuses_what_would_lose_data(tmp_path):
    missing = run_backup(tmp_path, "copy.sqlite3")
    assert (missing.returncode, missing.stderr) == (
        1, f"There is no database at {Path('data') / 'dungeon-deck.sqlite3'}.\n")
    assert not (tmp_path / "data").exists(), "no database is created by a backup"

    subprocess.run([sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, check=True,
                   capture_output=True, env={"PYTHONPATH": str(ROOT)}, timeout=60)
    onto_itself = run_backup(tmp_path, "data/dungeon-deck.sqlite3")
    assert onto_itself.returncode == 1
    assert onto_itself.stderr == (
        f"{Path('data/dungeon-deck.sqlite3')} is the database itself; choose another path.\n")
    assert integrity(tmp_path / "data" / "dungeon-deck.sqlite3") == "ok"


def test_with_postgresql_the_backup_command_points_to_pg_dump(tmp_path):
    subprocess.run([sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, check=True,
                   capture_output=True, env={"PYTHONPATH": str(ROOT)}, timeout=60)

    done = run_backup(tmp_path, "copy.sqlite3", DATABASE_URL="postgresql://deck@127.0.0.1/deck")

    assert done.returncode == 1
    assert done.stderr == BACKUP_POSTGRES + "\n"
    assert "pg_dump" in BACKUP_POSTGRES
    assert not (tmp_path / "copy.sqlite3").exists(), "the stale SQLite file is not copied"


def test_a_backup_is_private_and_never_replaces_a_file_unless_asked(tmp_path):
    subprocess.run([sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, check=True,
                   capture_output=True, env={"PYTHONPATH": str(ROOT)}, timeout=60)
    target = tmp_path / "backups" / "deck.sqlite3"
    target.parent.mkdir()
    target.write_text("last week's backup")

    refused = run_backup(tmp_path, "backups/deck.sqlite3")

    assert refused.returncode == 1
    assert refused.stderr == (
        f"{Path('backups/deck.sqlite3')} exists already; give another path, or add "
        "--overwrite to replace it.\n")
    assert target.read_text() == "last week's backup"
    assert [p.name for p in target.parent.iterdir()] == ["deck.sqlite3"], "no partial left"

    replaced = run_backup(tmp_path, "backups/deck.sqlite3", "--overwrite")
    fresh = run_backup(tmp_path, "backups/fresh.sqlite3")

    assert replaced.returncode == 0, replaced.stderr
    assert fresh.returncode == 0, fresh.stderr
    for made in (target, tmp_path / "backups" / "fresh.sqlite3"):
        assert integrity(made) == "ok"
        assert stat.S_IMODE(made.stat().st_mode) == 0o600, "as private as the token"
    assert sorted(p.name for p in target.parent.iterdir()) == ["deck.sqlite3", "fresh.sqlite3"]
