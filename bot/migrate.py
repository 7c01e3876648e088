"""``python -m bot migrate``: bring a database file to the latest schema version.

``bot/__main__.py`` calls :func:`migrate` and prints the version it returns.
"""

from __future__ import annotations

from pathlib import Path

from store import is_postgres_url, open_store
from store.reach import reach


async def migrate(path: str | Path, folder: str | Path | None = None) -> int:
    """Apply the pending migrations (of ``folder``, default the shipped ones) to the database
    at ``path``; return its schema version. Raises ``ValueError`` if the database is newer
    than the migrations, and ``store.reach.Unreachable`` (at once, with the cause) when a
    PostgreSQL server cannot be connected to."""
    if is_postgres_url(path):
        await reach(str(path))
    db = await open_store(path)
    try:
        return await db.migrate(folder)
    finally:
        await db.close()
