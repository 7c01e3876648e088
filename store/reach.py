"""Whether a PostgreSQL server can be used, found out quickly and said in one sentence.

A connection pool that cannot connect retries until its own timeout (30 s of warnings), and
psycopg's error puts the cause after a paragraph of its own words. One-shot commands
(``migrate``, ``copy-to``) call :func:`reach` first: one connection attempt, bounded by the
URL's ``connect_timeout`` (else :data:`REACH_TIMEOUT_SECONDS`), and :class:`Unreachable` with
the cause and the address, e.g. "connection refused at 127.0.0.1:5999".
"""

from __future__ import annotations

import asyncio
import re

import psycopg
import psycopg.conninfo

REACH_TIMEOUT_SECONDS = 5

#: What libpq says about each address it tried, e.g. ``connection to server at "127.0.0.1",
#: port 5999 failed: Connection refused`` or ``... on socket "/run/x/.s.PGSQL.5432" failed: ...``.
_ATTEMPT = re.compile(
    r'connection to server (?:at "(?P<host>[^"]*)"(?: \([^)]*\))?, port (?P<port>\d+)'
    r'|on socket "(?P<socket>[^"]*)") failed: (?P<cause>.*)'
)


class Unreachable(Exception):
    """The server cannot be connected to; the message is one sentence for the operator."""


async def reach(url: str) -> None:
    """Connect once to ``url`` and close; :class:`Unreachable` saying why when that fails."""
    await asyncio.to_thread(_reach, url)


def _reach(url: str) -> None:
    try:
        given = psycopg.conninfo.conninfo_to_dict(url).get("connect_timeout")
    except psycopg.ProgrammingError as exc:
        raise Unreachable(f"The PostgreSQL URL cannot be read: {_first_line(str(exc))}.") from None
    timeout = int(given) if given and str(given).isdigit() else REACH_TIMEOUT_SECONDS
    try:
        with psycopg.connect(url, connect_timeout=timeout):
            pass
    except psycopg.Error as exc:
        raise Unreachable(cause(exc)) from None


def cause(error: psycopg.Error) -> str:
    """One sentence for a failed connection: the cause first, then where."""
    text = str(error)
    attempt = _ATTEMPT.search(text)
    if attempt is None:
        return f"Cannot connect to PostgreSQL: {_tidy(_first_line(text))}."
    where = attempt["socket"] or f"{attempt['host']}:{attempt['port']}"
    return f"Cannot connect to PostgreSQL: {_tidy(attempt['cause'])} at {where}."


def _first_line(text: str) -> str:
    return (text.strip().splitlines() or ["no reason given"])[0].strip()


def _tidy(cause: str) -> str:
    cause = re.sub(r"^(?:connection failed: )?(?:FATAL|ERROR):\s*", "", cause.strip())
    cause = cause.rstrip(".")
    return cause[:1].lower() + cause[1:]
