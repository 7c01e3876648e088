"""Copy a SQLite database into an empty PostgreSQL one, checked row for row.

For a community that outgrows SQLite (``python -m bot copy-to postgresql://…``). Both
databases are first brought to the latest schema version (the two dialects' migrations keep
the same tables and columns, version for version). Then, in one PostgreSQL transaction:

1. the target must be empty (no row in any table), else :class:`CopyRefused`;
2. every table is copied with ``COPY`` (parents before the tables whose foreign keys point at
   them), from one consistent snapshot of the SQLite file, as a bulk load: the rows written
   frozen (``COPY … FREEZE`` into the tables truncated in this transaction), the table's
   secondary indexes dropped before its rows and made again after them (one sort each
   instead of ten B-trees grown row by row), then ``ANALYZE``, so the first boards after
   the copy are planned with statistics;
3. identity counters are moved past the copied ids, so new runs get new ids;
4. each table is read back from PostgreSQL and compared with what was read from SQLite: the
   number of rows and a content hash (the sum, modulo 2^256, of each row's SHA-256 over its
   values as text, so the order of rows does not matter but every value and every duplicate
   does). Any difference rolls the whole copy back.

Nothing is written unless all of it checks out. Stop the bot before copying: moves made
during the copy would not be in it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from store.migrations import folder, latest_version
from store.postgres import SCHEMA_TABLE, PostgresStore, redact_url
from store.reach import Unreachable, reach
from store.sqlite import SqliteStore

_MODULUS = 2**256
#: Memory for making each index again after its table's rows (this transaction only).
MAINTENANCE_WORK_MEM = "256MB"
#: Rows fetched at a time when reading a table back.
READ_BACK_BATCH = 10_000


class CopyRefused(Exception):
    """The copy cannot be made; the message is one sentence for the operator."""


@dataclass(frozen=True)
class TableCopy:
    """One table copied: its rows and the content hash both sides agree on."""

    name: str
    rows: int
    digest: str


@dataclass(frozen=True)
class CopyReport:
    """What was copied, table by table, at which schema version."""

    version: int
    tables: list[TableCopy]


class _Digest:
    """An order-independent hash of a multiset of rows."""

    def __init__(self) -> None:
        self.rows = 0
        self.total = 0

    def add(self, values: Iterable[Any]) -> None:
        text = json.dumps([None if v is None else str(v) for v in values], ensure_ascii=False)
        self.total = (self.total + int.from_bytes(hashlib.sha256(text.encode()).digest(),
                                                  "big")) % _MODULUS
        self.rows += 1

    @property
    def hexdigest(self) -> str:
        return f"{self.total:064x}"


async def copy_to_postgres(source: str | Path, url: str) -> CopyReport:
    """Copy the SQLite database at ``source`` into the empty PostgreSQL database at ``url``.

    Raises :class:`CopyRefused` (the target is not empty, the source is missing, the
    schemas differ, the server cannot be reached or refuses, or the read-back check failed);
    nothing is written then.
    """
    try:
        await reach(url)  # at once and with the cause, not after the pool's 30 s of retries
    except Unreachable as exc:
        raise CopyRefused(str(exc)) from None
    try:
        return await _copy_to_postgres(Path(source), url)
    except psycopg.Error as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise CopyRefused(f"PostgreSQL at {redact_url(url)} said: {first}") from exc


async def _copy_to_postgres(source: Path, url: str) -> CopyReport:
    if not source.is_file():
        raise CopyRefused(f"There is no SQLite database at {source}.")
    if latest_version(folder("sqlite")) != latest_version(folder("postgresql")):
        raise CopyRefused("This release's SQLite and PostgreSQL migrations differ in version.")
    sqlite_store = await SqliteStore.open(source)
    try:
        version = await sqlite_store.migrate()
    finally:
        await sqlite_store.close()
    pg_store = await PostgresStore.open(url, pool_size=1)
    try:
        if await pg_store.migrate() != version:  # pragma: no cover - checked above
            raise CopyRefused("The two databases are at different schema versions.")
    finally:
        await pg_store.close()
    tables = await asyncio.to_thread(_copy, source, url)
    return CopyReport(version, tables)


def _copy(source: Path, url: str) -> list[TableCopy]:
    lite = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        lite.execute("BEGIN")  # one snapshot of every table
        with psycopg.connect(url) as pg, pg.transaction():
            names = _tables(lite)
            # Locked before the check that they are empty, so that nothing written between
            # the check and the TRUNCATE below could be emptied away.
            present = {row[0] for row in pg.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
            locked = [n for n in names if n in present]  # a missing one: refused just below
            pg.execute("LOCK TABLE " + ", ".join(f'"{n}"' for n in locked)  # type: ignore[call-overload]
                       + " IN ACCESS EXCLUSIVE MODE")
            _check_target(pg, names, url)
            # Rows go in as they are: what triggers derive from them (period_points from
            # runs) is copied too, so the triggers must not add it again. Within the
            # transaction: a failed copy leaves them on.
            for name in names:
                pg.execute(f'ALTER TABLE "{name}" DISABLE TRIGGER USER')  # type: ignore[call-overload]
            # A bulk load: the empty tables are emptied again in this transaction, so COPY
            # can write its rows frozen (no second pass over every page to mark them
            # committed on the first read after the copy), and each table's secondary
            # indexes are made after its rows, by one sort each, rather than grown row by row.
            # A failed copy rolls all of it back, indexes included.
            pg.execute(f"SET LOCAL maintenance_work_mem = '{MAINTENANCE_WORK_MEM}'")  # type: ignore[call-overload]
            pg.execute("TRUNCATE " + ", ".join(f'"{n}"' for n in names))  # type: ignore[call-overload]
            copied = []
            for name in names:
                columns = _columns(lite, name)
                missing = set(columns) - set(_pg_columns(pg, name))
                if missing:
                    raise CopyRefused(
                        f"Table {name} of the target has no column {sorted(missing)[0]}: "
                        "both databases must be at the same schema version."
                    )
                indexes = _secondary_indexes(pg, name)
                for index, _ in indexes:
                    pg.execute(f"DROP INDEX {index}")  # type: ignore[call-overload]
                sent = _send(lite, pg, name, columns)
                for _, made_by in indexes:
                    pg.execute(made_by)  # type: ignore[call-overload]
                pg.execute(f'ANALYZE "{name}"')  # type: ignore[call-overload]
                _reset_identity(pg, name)
                back = _read_back(pg, name, columns)
                if (sent.rows, sent.total) != (back.rows, back.total):
                    raise CopyRefused(
                        f"Table {name} did not copy exactly ({sent.rows} rows read, "
                        f"{back.rows} read back, hashes {sent.hexdigest[:12]} and "
                        f"{back.hexdigest[:12]}); nothing was written."
                    )
                copied.append(TableCopy(name, sent.rows, sent.hexdigest))
            for name in names:
                pg.execute(f'ALTER TABLE "{name}" ENABLE TRIGGER USER')  # type: ignore[call-overload]
            return copied
    finally:
        lite.close()


def _secondary_indexes(pg: psycopg.Connection[Any], table: str) -> list[tuple[str, str]]:
    """A table's indexes that no constraint owns or leans on (not its primary key, nor a
    key a foreign key points at), each with the statement that makes it again."""
    rows = pg.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
        "WHERE i.indrelid = %s::regclass AND NOT EXISTS "
        "(SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid) "
        "ORDER BY i.indexrelid", (f'"{table}"',)
    ).fetchall()
    return [(row[0], row[1]) for row in rows]


def _tables(lite: sqlite3.Connection) -> list[str]:
    """The source's tables, each after the tables its foreign keys point at."""
    names = [row[0] for row in lite.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name"
    )]
    parents = {
        name: {row[2] for row in lite.execute(f'PRAGMA foreign_key_list("{name}")')} - {name}
        for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:
            raise CopyRefused("The source's foreign keys go round in a circle.")
        ordered += ready
    return ordered


def _columns(lite: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in lite.execute(f'PRAGMA table_info("{table}")')]


def _pg_columns(pg: psycopg.Connection[Any], table: str) -> list[str]:
    rows = pg.execute(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = 'public' AND table_name = %s", (table,)
    ).fetchall()
    return [row[0] for row in rows]


def _check_target(pg: psycopg.Connection[Any], names: list[str], url: str) -> None:
    present = [row[0] for row in pg.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
    )]
    for table in present:
        if table == SCHEMA_TABLE:
            continue
        row = pg.execute(f'SELECT count(*) FROM "{table}"').fetchone()  # type: ignore[call-overload]
        if row and row[0]:
            raise CopyRefused(
                f"The target database {redact_url(url)} is not empty (table {table} has "
                f"{row[0]} rows): copy-to only fills an empty database."
            )
    absent = sorted(set(names) - set(present))
    if absent:
        raise CopyRefused(f"The target database has no table {absent[0]} after migrating.")


def _rows(lite: sqlite3.Connection, table: str, columns: list[str]) -> Iterator[tuple[Any, ...]]:
    quoted = ", ".join(f'"{c}"' for c in columns)
    yield from lite.execute(f'SELECT {quoted} FROM "{table}"')


def _send(lite: sqlite3.Connection, pg: psycopg.Connection[Any], table: str,
          columns: list[str]) -> _Digest:
    digest = _Digest()
    quoted = ", ".join(f'"{c}"' for c in columns)
    with pg.cursor() as cursor, cursor.copy(  # type: ignore[call-overload]
        f'COPY "{table}" ({quoted}) FROM STDIN WITH (FREEZE)'
    ) as copy:
        for row in _rows(lite, table, columns):
            copy.write_row(row)
            digest.add(row)
    return digest


def _read_back(pg: psycopg.Connection[Any], table: str, columns: list[str]) -> _Digest:
    digest = _Digest()
    quoted = ", ".join(f'"{c}"' for c in columns)
    with pg.cursor(name=f"read_back_{table}") as cursor:  # server-side: any size
        cursor.itersize = READ_BACK_BATCH
        cursor.execute(f'SELECT {quoted} FROM "{table}"')  # type: ignore[call-overload]
        for row in cursor:
            digest.add(row)
    return digest


def _reset_identity(pg: psycopg.Connection[Any], table: str) -> None:
    identities = pg.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' "
        "AND table_name = %s AND is_identity = 'YES'", (table,)
    ).fetchall()
    for (column,) in identities:
        pg.execute(
            f'SELECT setval(pg_get_serial_sequence(%s, %s), coalesce(max("{column}"), 0) + 1, '  # type: ignore[call-overload]
            f'false) FROM "{table}"',
            (table, column),
        )
