"""What differs between SQLite and PostgreSQL, said once: how a statement names its
parameters, and how a transaction's connection is read; plus the one store exception.

A query is written once as a :class:`Query`: its text names each parameter as ``{name}``,
and :meth:`Query.both` renders that into each driver's own marker (``:name`` for sqlite3,
``%(name)s`` for psycopg) when the module is imported: a format field, not a rewrite of SQL.
Where the SQL itself differs, :meth:`Query.each` takes the two texts side by side. What else
differs is explicit in the concern modules and written so both databases run one text:

- a parameter that may be NULL is cast (``CAST({game} AS TEXT) IS NULL``), PostgreSQL
  having no type for a bare NULL;
- a new row's id comes back through ``RETURNING id`` (both have it; SQLite since 3.35);
- an insert that may hit a unique key says ``ON CONFLICT DO NOTHING`` and its caller raises
  :class:`Conflict` when no row went in: no driver error is caught, and a PostgreSQL
  transaction stays usable after a refused insert;
- flags are the integers 0 and 1 and sums add up ``CASE`` expressions, not booleans;
- a write transaction on PostgreSQL reads a run ``FOR UPDATE`` (:attr:`Db.locks_rows`),
  where SQLite's ``BEGIN IMMEDIATE`` has serialised writers already.
"""

from __future__ import annotations

import sqlite3
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

SQLITE = "sqlite"
POSTGRESQL = "postgresql"


class Conflict(Exception):
    """A write broke a uniqueness rule: the row it would add exists already."""


@dataclass(frozen=True)
class Query:
    """One statement as each database takes it, and the names of its parameters."""

    sqlite: str
    postgresql: str
    params: frozenset[str]

    @classmethod
    def both(cls, text: str) -> Query:
        """The statement ``text`` (parameters written ``{name}``) for both databases.

        Raises ``ValueError`` for a ``%`` (psycopg would read it as a marker) or a field
        that is not a plain name.
        """
        return cls.each(text, text)

    @classmethod
    def each(cls, sqlite: str, postgresql: str) -> Query:
        """A statement whose SQL differs: SQLite's and PostgreSQL's texts, both written with
        ``{name}`` parameters, which must be the same names."""
        names = _fields(sqlite)
        if _fields(postgresql) != names:
            raise ValueError("the two texts of a query must take the same parameters")
        return cls(
            sqlite=sqlite.format_map({name: f":{name}" for name in names}),
            postgresql=postgresql.format_map({name: f"%({name})s" for name in names}),
            params=names,
        )

    def text(self, dialect: str) -> str:
        """The statement in ``dialect`` (``sqlite`` or ``postgresql``)."""
        return self.sqlite if dialect == SQLITE else self.postgresql


def _fields(text: str) -> frozenset[str]:
    if "%" in text:
        raise ValueError(f"a query may not hold '%' (psycopg's marker): {text.strip()[:60]!r}")
    names = set()
    for _, field, spec, conversion in string.Formatter().parse(text):
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            raise ValueError(f"{{{field}}} is not a parameter name: {text.strip()[:60]!r}")
        names.add(field)
    return frozenset(names)


Row = Mapping[str, Any]


class Db(Protocol):
    """One connection inside one transaction, as the concern modules see it: rows are read
    by column name (so every selected expression has one)."""

    #: Whether reads should lock the rows they read (PostgreSQL write transactions).
    locks_rows: bool

    def one(self, query: Query, params: Mapping[str, Any]) -> Row | None:
        """The first row (None if there is none)."""
        ...

    def all(self, query: Query, params: Mapping[str, Any]) -> list[Row]:
        """Every row."""
        ...

    def change(self, query: Query, params: Mapping[str, Any]) -> int:
        """Run a write; the number of rows it changed."""
        ...

    def queue(self, query: Query, params: Mapping[str, Any]) -> None:
        """Run a write whose row count nobody reads, at the latest with the transaction's
        next statement or its commit (PostgreSQL sends it with that one, in the same round
        trip); an error it meets is raised there. Later statements see what it wrote."""
        ...


class SqliteDb:
    """:class:`Db` over a ``sqlite3`` connection (its ``row_factory`` is ``sqlite3.Row``)."""

    locks_rows = False

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def one(self, query: Query, params: Mapping[str, Any]) -> Row | None:
        # fetchall: a RETURNING statement is finished (and reset) before the commit.
        rows = self.conn.execute(query.sqlite, params).fetchall()
        return rows[0] if rows else None

    def all(self, query: Query, params: Mapping[str, Any]) -> list[Row]:
        return self.conn.execute(query.sqlite, params).fetchall()

    def change(self, query: Query, params: Mapping[str, Any]) -> int:
        return self.conn.execute(query.sqlite, params).rowcount

    def queue(self, query: Query, params: Mapping[str, Any]) -> None:
        self.conn.execute(query.sqlite, params)  # in the process: no round trip to save
