"""Online backups of the SQLite database file (``python -m bot backup PATH``): a consistent
copy taken while the bot runs, with SQLite's backup API, from a process of its own.

The copy is one backup step over the whole file: it reads one snapshot of the database (in WAL
mode a reader does not block the bot's writes, and the bot's writes do not disturb it), so the
copy holds every transaction committed before it started and none after. It is written to a
temporary file next to ``PATH``, checked with ``PRAGMA quick_check``, made durable and only
then renamed to ``PATH``: a failed or interrupted backup never leaves a half-written ``PATH``.
The copy holds every secret the database does (the daily secret among them), so it is
readable by its owner only (mode 0600), and an existing ``PATH`` is replaced only when asked.

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
#: Owner read and write only: a backup is as private as the token.
BACKUP_MODE = 0o600


_EXISTS = "{target} exists already; give another path, or add --overwrite to replace it."


class BackupError(Exception):
    """The backup cannot be made; the message is one sentence for the operator."""


@dataclass(frozen=True)
class Backup:
    """What a backup made: where, how big, how long it took."""

    path: Path
    pages: int
    size: int
    seconds: float


def backup(source: Path, target: Path, *, overwrite: bool = False) -> Backup:
    """Copy the database ``source`` to ``target`` while others may write to it; an existing
    ``target`` is replaced only with ``overwrite``.

    Blocking: from asyncio, run it in a thread (``asyncio.to_thread``).
    """
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupError(f"There is no database at {source}.")
    if target.exists() and target.resolve() == source.resolve():
        raise BackupError(f"{target} is the database itself; choose another path.")
    if target.is_dir():
        raise BackupError(f"{target} is a folder; give a file name for the backup.")
    if target.exists() and not overwrite:
        raise BackupError(_EXISTS.format(target=target))
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    started = time.perf_counter()
    # mode=rw: never create a database where there was none.
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True, timeout=0)
    try:
        src.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, BACKUP_MODE))
        os.chmod(partial, BACKUP_MODE)  # whatever the umask; SQLite's journal takes it too
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
    if overwrite:
        os.replace(partial, target)
    else:
        _rename_unless_taken(partial, target)
    _fsync(target.parent)
    return Backup(target, pages, target.stat().st_size, time.perf_counter() - started)


def _rename_unless_taken(partial: Path, target: Path) -> None:
    """Move ``partial`` to ``target`` unless a file appeared there since the check: a hard
    link, unlike a rename, refuses an existing name (where links are not supported, the
    check above is all there is)."""
    try:
        os.link(partial, target)
    except FileExistsError:
        partial.unlink()
        raise BackupError(_EXISTS.format(target=target)) from None
    except OSError:
        os.replace(partial, target)
    else:
        partial.unlink()


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
