"""The dialect differences, explicit and tested: how a query's ``{name}`` parameters become
each driver's markers, what a query may not hold, and every query of every concern module
accepted as written by both databases."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import psycopg
import pytest

from store import (
    boards,
    challenges,
    pars,
    posts,
    ratings,
    records,
    runs,
    seasons,
    series,
    settings,
)
from store.dialect import Query
from store.sqlite import SqliteStore

CONCERNS = (runs, settings, posts, boards, records, challenges, series, pars, seasons, ratings)


def every_query() -> dict[str, Query]:
    """Each concern module's queries by name, the boards' statements of every scope too."""
    found: dict[str, Query] = {}
    for module in CONCERNS:
        for name, value in vars(module).items():
            if isinstance(value, Query):
                found[f"{module.__name__}.{name}"] = value
    for scope, statements in [*boards.BOARD_STATEMENTS.items(), *boards.PERIOD_STATEMENTS.items(),
                              *ratings.RATING_STATEMENTS.items()]:
        for field, query in vars(statements).items():
            if query is not None:  # a scope without kept counts has no counts statement
                found[f"{type(statements).__name__}{scope}.{field}"] = query
    return found


def test_parameters_become_each_drivers_markers() -> None:
    query = Query.both("SELECT value FROM meta WHERE key = {key} AND value <> {key} OR {other}")
    assert query.sqlite == "SELECT value FROM meta WHERE key = :key AND value <> :key OR :other"
    assert query.postgresql == (
        "SELECT value FROM meta WHERE key = %(key)s AND value <> %(key)s OR %(other)s"
    )
    assert query.params == {"key", "other"}
    assert query.text("sqlite") == query.sqlite and query.text("postgresql") == query.postgresql


def test_texts_side_by_side_take_the_same_parameters() -> None:
    days = Query.each("SELECT julianday({day})", "SELECT CAST({day} AS DATE)")
    assert days.sqlite == "SELECT julianday(:day)"
    assert days.postgresql == "SELECT CAST(%(day)s AS DATE)"
    with pytest.raises(ValueError, match="same parameters"):
        Query.each("SELECT {day}", "SELECT {date}")


@pytest.mark.parametrize("text", [
    "SELECT name FROM players WHERE name LIKE 'a%'",  # psycopg would take % for a marker
    "SELECT {owner.id}",
    "SELECT {owner!r}",
    "SELECT {owner:>4}",
])
def test_what_one_text_cannot_say_is_refused_when_written(text: str) -> None:
    with pytest.raises(ValueError):
        Query.both(text)


def test_the_concerns_hold_every_query_and_name_their_parameters() -> None:
    queries = every_query()
    assert len(queries) > 60
    for name, query in queries.items():
        assert ":" not in query.postgresql.replace("::", ""), name
        for param in query.params:
            assert f":{param}" in query.sqlite and f"%({param})s" in query.postgresql, name


async def test_both_databases_take_every_query_as_written(db_path: Path) -> None:
    """EXPLAIN each query on a migrated database: every table, column and function it names
    exists there, and its parameters are typed (PostgreSQL)."""
    if isinstance(db_path, Path):
        store = await SqliteStore.open(db_path)
        await store.migrate()
        await store.close()
        conn = sqlite3.connect(db_path)
        with contextlib.closing(conn):
            for name, query in every_query().items():
                try:
                    conn.execute(f"EXPLAIN {query.sqlite}", dict.fromkeys(query.params))
                except sqlite3.Error as exc:
                    pytest.fail(f"SQLite refuses {name}: {exc}")
        return
    with psycopg.connect(str(db_path)) as pg:
        for name, query in every_query().items():
            try:
                with pg.transaction():
                    pg.execute(f"EXPLAIN {query.postgresql}",  # type: ignore[arg-type]
                               dict.fromkeys(query.params))
            except psycopg.Error as exc:
                pytest.fail(f"PostgreSQL refuses {name}: {exc}")
