"""Migration files: numbered SQL scripts per dialect, read and split into statements.

``migrations/<dialect>/NNNN_description.sql`` holds the schema's history for one backend; a
database records the last version applied (SQLite: ``PRAGMA user_version``). Each backend's
runner applies the newer files, each in one transaction together with its version bump.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

#: The migrations shipped with the project, one folder per dialect.
MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"

_NAME = re.compile(r"^(\d+)_[\w-]+\.sql$")


@dataclass(frozen=True)
class Migration:
    """One numbered SQL file: its version (the number) and its statements."""

    version: int
    name: str
    statements: tuple[str, ...]


def folder(dialect: str) -> Path:
    """The migrations folder of ``dialect`` (``sqlite`` or ``postgresql``)."""
    return MIGRATIONS / dialect


def load_migrations(path: str | Path) -> list[Migration]:
    """The ``NNNN_name.sql`` files of ``path``, in version order.

    Raises ``ValueError`` for another kind of ``.sql`` file name or a version used twice.
    """
    found: dict[int, Migration] = {}
    for file in sorted(Path(path).glob("*.sql")):
        match = _NAME.match(file.name)
        if match is None:
            raise ValueError(f"migration {file.name!r} is not named like 0001_description.sql")
        version = int(match.group(1))
        if version < 1 or version in found:
            raise ValueError(f"migration {file.name!r}: version {version} is zero or used twice")
        text = file.read_text(encoding="utf-8")
        found[version] = Migration(version, file.name, split_statements(text, file.name))
    return [found[v] for v in sorted(found)]


def latest_version(path: str | Path) -> int:
    """The highest version among the migrations of ``path`` (0 if there are none)."""
    migrations = load_migrations(path)
    return migrations[-1].version if migrations else 0


def split_statements(sql: str, name: str = "<sql>") -> tuple[str, ...]:
    """Split a script into complete statements (semicolons in strings, comments and triggers
    are respected through ``sqlite3.complete_statement``, which also suits PostgreSQL's plain
    DDL)."""
    statements: list[str] = []
    pending = ""
    *pieces, rest = sql.split(";")
    for piece in pieces:
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if _strip_comments(pending + rest).strip():
        raise ValueError(f"{name}: the last statement has no closing semicolon")
    return tuple(s for s in statements if _strip_comments(s).strip(" \n\t;"))


def _strip_comments(sql: str) -> str:
    return re.sub(r"--[^\n]*", "", sql)
