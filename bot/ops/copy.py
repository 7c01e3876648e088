"""``python -m bot copy-to postgresql://…``: move the SQLite database into an empty PostgreSQL
one, checked row for row (see :mod:`store.copy`), and say what was copied."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from store import is_postgres_url


def copy_command(source: Path, url: str) -> int:
    """Copy ``source`` into ``url``; print a line per table. Exit status 0, or 1 with one
    sentence on standard error when the copy is refused or fails (nothing is written then)."""
    if not is_postgres_url(url):
        print(f"copy-to needs a postgresql:// URL, not {url!r}.", file=sys.stderr)
        return 1
    from store.copy import CopyRefused, copy_to_postgres
    from store.postgres import redact_url

    try:
        report = asyncio.run(copy_to_postgres(source, url))
    except CopyRefused as exc:
        print(exc, file=sys.stderr)
        return 1
    for table in report.tables:
        print(f"{table.name}: {table.rows} rows, content hash {table.digest[:16]} on both sides")
    total = sum(t.rows for t in report.tables)
    print(f"Copied {source} into {redact_url(url)}: {total} rows in {len(report.tables)} "
          f"tables, checked row for row (schema version {report.version}). Set DATABASE_URL "
          "to it and start the bot.")
    return 0
