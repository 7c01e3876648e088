"""Online backups of the SQLite database file (``python -m bot backup PATH``): a consistent
copy taken while the bot runs, with SQLite's backup API, from a process of its own.

The copy is one backup step over the whole file: it reads one snapshot of the database (in WAL
mode a reader does not block the bot's writes, and the bot's writes do not disturb it), so the
copy holds every transaction committed before it started and none after. It is written to a
temporary file next to ``PATH``, checked with ``PRAGMA quick_check``, made durable and only
then renamed to ``PATH``: a failed or interrupted backup never leaves a half-written ``PATH``.

Restoring is the reverse, with the bot stopped (see the README): copy the backup over the
database file and delete the old file's ``-wal`` and ``-shm`` files if any are left.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

#: How long to wait for a lock the bot holds (a write transaction lasts milliseconds).
BUSY_TIMEOUT_MS = 10_000


class BackupError(Exception):
    """The backup cannot be made; the message is one sentence for the operator."""


@dataclass(frozen=True)
class Backup:
    """What a backup made: where, how big, how long it took."""

    path: Path
    pages: int
    size: int
    seconds: float


def backup(source: Path, target: Path) -> Backup:
    """Copy the database ``source`` to ``target`` (replacing it) while others may write to it.

    Blocking: from asyncio, run it in a thread (``asyncio.to_thread``).
    """
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupError(f"There is no database at {source}.")
    if target.exists() and target.resolve() == source.resolve():
        raise BackupError(f"{target} is the database itself; choose another path.")
    if target.is_dir():
        raise BackupError(f"{target} is a folder; give a file name for the backup.")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    started = time.perf_counter()
    # mode=rw: never create a database where there was none.
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=0)
    try:
        src.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # pages=-1: the whole database in one step, one snapshot
            (check,) = dst.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise BackupError(f"The copy failed its check ({check}); {source} may be damaged.")
            (pages,) = dst.execute("PRAGMA page_count").fetchone()
        finally:
            dst.close()
    except sqlite3.Error as error:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        raise BackupError(f"The backup of {source} failed: {error}.") from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        raise
    finally:
        src.close()
    _fsync(partial)
    os.replace(partial, target)
    _fsync(target.parent)
    return Backup(target, pages, target.stat().st_size, time.perf_counter() - started)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
