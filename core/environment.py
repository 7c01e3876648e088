"""Settings both adapters read from the environment the same way (moved down from
``bot/config.py`` so that ``web/config.py`` reads them alike without importing the bot):
the database (``DATABASE_PATH``/``DATABASE_URL`` and its replica and pool), the stand-in
Discord (``DISCORD_API_BASE``), ports and counts. Each error is one sentence for the operator.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE_PATH = Path("data") / "dungeon-deck.sqlite3"


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one sentence for the operator."""


def text(env: Mapping[str, str], name: str) -> str | None:
    """The setting's value, stripped; None when unset or blank."""
    value = env.get(name, "").strip()
    return value or None


def api_base(value: str | None) -> str | None:
    """``DISCORD_API_BASE``: a local stand-in for Discord (loopback only: secrets are sent
    to it), as ``http://host:port``; None when unset."""
    if value is None:
        return None
    match = re.fullmatch(r"http://(127\.0\.0\.1|localhost|\[::1\]):([0-9]{1,5})/?", value)
    if match is None:
        raise ConfigError(
            "DISCORD_API_BASE must be a local stand-in such as http://127.0.0.1:8080, "
            f"not {value!r} (for benchmarks and tests only)."
        )
    return f"http://{match[1]}:{match[2]}"


def port(value: str | None, name: str) -> int | None:
    if value is None:
        return None
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise ConfigError(f"{name} must be a port number from 1 to 65535, not {value!r}.")
    return int(value)


def database_url(value: str | None, name: str) -> str | None:
    if value is None:
        return None
    if not value.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            f"{name} must be a PostgreSQL URL such as postgresql://user:password@host/dbname "
            "(leave it empty for SQLite at DATABASE_PATH)."
        )
    return value


def count(value: str | None, name: str) -> int | None:
    if value is None:
        return None
    if not value.isdigit() or int(value) < 1:
        raise ConfigError(f"{name} must be a whole number of at least 1, not {value!r}.")
    return int(value)


@dataclass(frozen=True)
class DatabaseSettings:
    """Where the store is: a SQLite file, or PostgreSQL with its pool and read replica."""

    path: Path = DEFAULT_DATABASE_PATH
    url: str | None = None
    pool_size: int | None = None
    read_url: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> DatabaseSettings:
        return cls(
            path=Path(text(env, "DATABASE_PATH") or DEFAULT_DATABASE_PATH),
            url=database_url(text(env, "DATABASE_URL"), "DATABASE_URL"),
            pool_size=count(text(env, "DATABASE_POOL_SIZE"), "DATABASE_POOL_SIZE"),
            read_url=database_url(text(env, "DATABASE_READ_URL"), "DATABASE_READ_URL"),
        )

    @property
    def database(self) -> str | Path:
        """What the store opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.url or self.path

    @property
    def label(self) -> str:
        """The database as an operator may read it: the file, or the URL without password."""
        if self.url is None:
            return str(self.path)
        return re.sub(r"(//[^:/@]*):[^@]*@", r"\1@", self.url)
