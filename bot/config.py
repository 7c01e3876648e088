"""The bot's settings, read from the environment (``.env`` is loaded into it by ``__main__``).

Every setting is listed, with a comment, in ``.env.example``.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

# The parsers the web adapter shares live in the core (web/config.py reads them alike).
from core.environment import (
    DEFAULT_DATABASE_PATH,
    ConfigError,
    DatabaseSettings,
    api_base,
    count,
    database_url,
)
from core.environment import port as _any_port
from core.environment import text as _text

__all__ = ["DEFAULT_DATABASE_PATH", "DEFAULT_INTERACTIONS_HOST", "ConfigError", "Settings"]

#: Where the interactions endpoint listens by default: a TLS proxy on the same machine
#: forwards Discord's requests to it.
DEFAULT_INTERACTIONS_HOST = "127.0.0.1"

#: Printed when the token is missing; the operator has nothing else to read.
NO_TOKEN = (
    "Set DISCORD_TOKEN in .env (copy .env.example) — "
    "see README ‘Create the Discord application’."
)


@dataclass(frozen=True)
class Settings:
    """What the bot needs to run."""

    token: str | None
    database_path: Path
    daily_secret: str | None
    dev_guild_id: int | None
    log_level: int
    #: A local stand-in for Discord to talk to instead (benchmarks and tests only).
    discord_api_base: str | None = None
    #: Serve /healthz and Prometheus /metrics on 127.0.0.1 at this port (None: no server).
    metrics_port: int | None = None
    #: PostgreSQL instead of SQLite (``postgresql://…``), its connection pool's size, and a
    #: read replica for leaderboard reads.
    database_url: str | None = None
    database_pool_size: int | None = None
    database_read_url: str | None = None
    #: Sharding: how many shards the bot has in all, and those this process runs (None:
    #: every shard, or as many as Discord recommends when ``shard_count`` is None too).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: ``SHARD_COUNT=auto``: run every shard Discord recommends, in this process.
    shard_auto: bool = False
    #: ``TABLE_PICTURES=off``: no table pictures on boards anywhere (each costs a few ms of
    #: CPU in a worker process; a small machine under heavy load may want them off).
    table_pictures: bool = True
    #: ``PAR_SOLVER=off``: this process never solves closed days' pars (each a core for
    #: seconds to a minute); another process, or none, does.
    par_solver: bool = True
    #: ``CARD_COLOURS``: the card emoji's inks, ``four`` (♠ black, ♥ red, ♦ blue, ♣ green) or
    #: ``two`` (red and black).
    card_colours: str = "four"
    #: The Activity (docs/activity.md): the /table command and boards' Open table button.
    #: ``ACTIVITY`` on or off; by default on exactly when the web adapter is set up in this
    #: process's environment (``WEB_PORT`` and ``DISCORD_CLIENT_SECRET`` both set).
    activity: bool = False
    #: ``DISCORD_CLIENT_SECRET``: read by the web adapter (``web.config``); here only so the
    #: log keeps it out (``bot.ops.logs``) and for ``activity``'s default.
    client_secret: str | None = None
    #: The interactions endpoint (``bot.endpoint``): the application's public key (32 bytes,
    #: ``INTERACTIONS_PUBLIC_KEY`` in hex) and where to listen (``INTERACTIONS_HOST``,
    #: ``INTERACTIONS_PORT``); None: interactions come on the gateway only.
    interactions_public_key: bytes | None = None
    interactions_port: int | None = None
    interactions_host: str = DEFAULT_INTERACTIONS_HOST

    @property
    def store(self) -> DatabaseSettings:
        """The database settings, as the web adapter reads them too."""
        return DatabaseSettings(self.database_path, self.database_url, self.database_pool_size,
                                self.database_read_url)

    @property
    def database(self) -> str | Path:
        """What the store opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.store.database

    @property
    def database_label(self) -> str:
        """The database as an operator may read it: the file, or the URL without password."""
        return self.store.label

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, only: Collection[str] | None = None
    ) -> Settings:
        """Read the settings; ``ConfigError`` for a malformed one (a missing token is allowed
        here: only connecting needs it, see :meth:`require_token`).

        With ``only``, just the variables named there are read (the others keep their
        defaults), so a command is not stopped by a setting it does not use.
        """
        env = os.environ if environ is None else environ
        if only is not None:
            env = {name: value for name, value in env.items() if name in only}
        return cls(
            token=_text(env, "DISCORD_TOKEN"),
            database_path=Path(_text(env, "DATABASE_PATH") or DEFAULT_DATABASE_PATH),
            daily_secret=_text(env, "DAILY_SECRET"),
            dev_guild_id=_guild_id(_text(env, "DEV_GUILD_ID")),
            log_level=_log_level(_text(env, "LOG_LEVEL") or "INFO"),
            discord_api_base=_api_base(_text(env, "DISCORD_API_BASE")),
            metrics_port=_port(_text(env, "METRICS_PORT")),
            table_pictures=_switch(_text(env, "TABLE_PICTURES"), "TABLE_PICTURES"),
            par_solver=_switch(_text(env, "PAR_SOLVER"), "PAR_SOLVER"),
            card_colours=_card_colours(_text(env, "CARD_COLOURS")),
            activity=_activity(_text(env, "ACTIVITY"), web_port=_text(env, "WEB_PORT"),
                               client_secret=_text(env, "DISCORD_CLIENT_SECRET")),
            client_secret=_text(env, "DISCORD_CLIENT_SECRET"),
            database_url=_database_url(_text(env, "DATABASE_URL"), "DATABASE_URL"),
            database_pool_size=_count(_text(env, "DATABASE_POOL_SIZE"), "DATABASE_POOL_SIZE"),
            database_read_url=_database_url(_text(env, "DATABASE_READ_URL"),
                                            "DATABASE_READ_URL"),
            **_shards(_text(env, "SHARD_COUNT"), _text(env, "SHARD_IDS"),
                      postgres=_text(env, "DATABASE_URL") is not None),
            **_interactions(_text(env, "INTERACTIONS_PUBLIC_KEY"),
                            _text(env, "INTERACTIONS_PORT"), _text(env, "INTERACTIONS_HOST")),
        )

    def require_token(self) -> str:
        """The token; ``ConfigError`` saying where to set it when there is none."""
        if not self.token:
            raise ConfigError(NO_TOKEN)
        return self.token




def _guild_id(value: str | None) -> int | None:
    if value is None:
        return None
    if not value.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {value!r}.")
    return int(value)






def _log_level(value: str) -> int:
    level = logging.getLevelName(value.upper())
    if not isinstance(level, int):
        raise ConfigError(
            f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {value!r}."
        )
    return level






def _shards(count_text: str | None, ids_text: str | None, *, postgres: bool
            ) -> dict[str, object]:
    if count_text is not None and count_text.lower() == "auto":
        if ids_text is not None:
            raise ConfigError("SHARD_IDS needs a number in SHARD_COUNT, not auto.")
        return {"shard_count": None, "shard_ids": None, "shard_auto": True}
    count = _count(count_text, "SHARD_COUNT")
    if ids_text is None:
        return {"shard_count": count, "shard_ids": None}
    if count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT: how many shards the bot has in all.")
    if not postgres:
        # Work done once for all servers (the advisory lock) needs the shared PostgreSQL.
        raise ConfigError(
            "SHARD_IDS splits the shards between processes, which must share a PostgreSQL "
            "database: set DATABASE_URL (see README, 'Beyond one machine')."
        )
    parts = [part.strip() for part in ids_text.split(",")]
    if not all(part.isdigit() for part in parts):
        raise ConfigError(f"SHARD_IDS must be shard numbers separated by commas, not {ids_text!r}.")
    ids = tuple(sorted({int(part) for part in parts}))
    if ids[-1] >= count:
        raise ConfigError(
            f"SHARD_IDS must be below SHARD_COUNT ({count}): shards are numbered from 0, "
            f"not {ids_text!r}."
        )
    return {"shard_count": count, "shard_ids": ids}


def _interactions(key: str | None, port: str | None, host: str | None) -> dict[str, object]:
    if key is None and port is None:
        if host is not None:
            raise ConfigError("INTERACTIONS_HOST needs INTERACTIONS_PUBLIC_KEY and "
                              "INTERACTIONS_PORT (see README, 'The interactions endpoint').")
        return {}
    if key is None:
        raise ConfigError("INTERACTIONS_PORT needs INTERACTIONS_PUBLIC_KEY: the application's "
                          "Public Key from the Developer Portal (General Information).")
    if not re.fullmatch(r"[0-9a-fA-F]{64}", key):
        raise ConfigError("INTERACTIONS_PUBLIC_KEY must be the application's Public Key from "
                          "the Developer Portal (General Information): 64 hexadecimal digits, "
                          f"not {key!r}.")
    if port is None:
        raise ConfigError("INTERACTIONS_PUBLIC_KEY needs INTERACTIONS_PORT: the port to receive "
                          "Discord's interactions on (behind an HTTPS proxy).")
    host = host or DEFAULT_INTERACTIONS_HOST
    if any(c.isspace() or c in "/@" for c in host):
        raise ConfigError("INTERACTIONS_HOST must be an address to listen on such as 127.0.0.1 "
                          f"or 0.0.0.0, not {host!r}.")
    return {"interactions_public_key": bytes.fromhex(key),
            "interactions_port": _any_port(port, "INTERACTIONS_PORT"),
            "interactions_host": host}


def _switch(value: str | None, name: str) -> bool:
    if value is None or value.lower() == "on":
        return True
    if value.lower() == "off":
        return False
    raise ConfigError(f"{name} must be on or off, not {value!r}.")


def _activity(value: str | None, *, web_port: str | None, client_secret: str | None) -> bool:
    # WEB_PORT's own checks are the web adapter's (web.config); set is all that counts here.
    # An operator running the web adapter as its own process (python -m web) has neither
    # in the bot's environment and sets ACTIVITY=on.
    if value is None:
        return web_port is not None and client_secret is not None
    return _switch(value, "ACTIVITY")


def _card_colours(value: str | None) -> str:
    if value is None:
        return "four"
    if value.lower() not in ("four", "two"):
        raise ConfigError(f"CARD_COLOURS must be four or two, not {value!r}.")
    return value.lower()


_api_base = api_base
_database_url = database_url
_count = count


def _port(value: str | None) -> int | None:
    return _any_port(value, "METRICS_PORT")
