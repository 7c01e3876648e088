"""``python -m bot migrate``: bring a database file to the latest schema version.

``bot/__main__.py`` calls :func:`migrate` and prints the version it returns.
"""

from __future__ import annotations

from pathlib import Path

from bot.store import MIGRATIONS, Store


async def migrate(path: str | Path, folder: str | Path = MIGRATIONS) -> int:
    """Apply the pending migrations of ``folder`` to the database at ``path``; return its
    schema version. Raises ``ValueError`` if the database is newer than the migrations."""
    db = await Store.open(path)
    try:
        return await db.migrate(folder)
    finally:
        await db.close()
