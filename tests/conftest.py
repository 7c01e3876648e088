"""What every test folder shares: the throwaway PostgreSQL cluster, started once per session
when a test asks for it, the summary line saying whether the PostgreSQL tests ran, and
``error_logs`` (a test fails on an ERROR it did not expect).

Without PostgreSQL on the machine, tests that need it are skipped, and the summary says so in
one line (``make test`` then runs the SQLite half). ``REQUIRE_POSTGRES=1`` (set by CI) turns
that skip into a failure, so CI cannot pass without having run both halves.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator

import psycopg
import pytest

from tests.postgres.cluster import Cluster, Unavailable

#: The session's database, migrated once and emptied before each test.
DATABASE = "dungeon_tests"

_skipped: list[str] = []
_unavailable: list[str] = []


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster for the session (skips the test when there is none)."""
    try:
        running = Cluster().start()
    except Unavailable as exc:
        _unavailable.append(str(exc))
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(f"REQUIRE_POSTGRES=1 but {exc}")
        pytest.skip(f"PostgreSQL half skipped: {exc}")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def pg_database(pg_cluster: Cluster) -> str:
    """The URL of the session's database, migrated to the latest schema."""
    import asyncio

    from store.postgres import PostgresStore

    url = pg_cluster.create_database(DATABASE)

    async def migrate() -> None:
        store = await PostgresStore.open(url, pool_size=1)
        try:
            await store.migrate()
        finally:
            await store.close()

    asyncio.run(migrate())
    return url


@pytest.fixture
def pg_url(pg_database: str) -> str:
    """The URL of a PostgreSQL database at the latest schema version with no rows (the
    session's database, emptied: much quicker than a new database per test)."""
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute("SET lock_timeout = '10s'")
        tables = [row[0] for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
            "AND tablename <> 'schema_version'"
        )]
        names = ", ".join(f'"{name}"' for name in tables)
        conn.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")  # type: ignore[arg-type]
    return pg_database


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped and "PostgreSQL half skipped" in str(report.longrepr):
        _skipped.append(report.nodeid)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _skipped:
        reason = _unavailable[0] if _unavailable else "PostgreSQL is not available"
        terminalreporter.write_line(
            f"PostgreSQL: {len(_skipped)} tests skipped ({reason}); only SQLite was tested.",
            yellow=True,
        )


@pytest.fixture
def error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[list[logging.LogRecord]]:
    """The ERROR records logged during the test; the test fails if any is left unclaimed
    (a test expecting one clears the list)."""
    caplog.set_level(logging.INFO)
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.ERROR:
                records.append(record)

    handler = Keep()
    logging.getLogger().addHandler(handler)
    try:
        yield records
    finally:
        logging.getLogger().removeHandler(handler)
    assert not records, [r.getMessage() for r in records]
