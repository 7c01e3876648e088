"""The web adapter's settings, read from the environment (every one listed in
``.env.example``). The database and the stand-in Discord are read exactly as the bot reads
them (``core.environment``); a malformed value is a :class:`ConfigError` of one sentence.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from core.environment import ConfigError, DatabaseSettings, api_base, port, text

#: Discord's API, where codes are exchanged and tokens tell who their user is.
DISCORD_API = "https://discord.com/api/v10"
DEFAULT_HOST = "127.0.0.1"

__all__ = ["DEFAULT_HOST", "DISCORD_API", "ConfigError", "WebConfig"]


@dataclass(frozen=True)
class WebConfig:
    """What the web adapter needs. ``port`` None: the adapter is off."""

    port: int | None
    host: str = DEFAULT_HOST
    client_id: str | None = None
    #: The OAuth2 client secret: sent to Discord's token endpoint only, never to a client,
    #: never logged (``secrets``), never shown by ``repr``.
    client_secret: str | None = field(default=None, repr=False)
    discord_api: str = DISCORD_API
    database: DatabaseSettings = field(default_factory=DatabaseSettings)
    daily_secret: str | None = field(default=None, repr=False)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WebConfig:
        env = os.environ if environ is None else environ
        client_id = text(env, "DISCORD_CLIENT_ID")
        if client_id is not None and not client_id.isdigit():
            raise ConfigError(
                f"DISCORD_CLIENT_ID must be the application's id (digits only), not {client_id!r}.")
        host = text(env, "WEB_HOST") or DEFAULT_HOST
        if any(c.isspace() or c in "/@" for c in host):
            raise ConfigError(f"WEB_HOST must be an address to listen on such as 127.0.0.1 or "
                              f"0.0.0.0, not {host!r}.")
        return cls(
            port=port(text(env, "WEB_PORT"), "WEB_PORT"),
            host=host,
            client_id=client_id,
            client_secret=text(env, "DISCORD_CLIENT_SECRET"),
            discord_api=_discord_api(api_base(text(env, "DISCORD_API_BASE"))),
            database=DatabaseSettings.from_env(env),
            daily_secret=text(env, "DAILY_SECRET"),
        )

    @property
    def enabled(self) -> bool:
        """Whether to serve: ``WEB_PORT`` is set."""
        return self.port is not None

    def require(self) -> None:
        """``ConfigError`` naming the first setting serving needs and lacks."""
        if self.port is None:
            raise ConfigError("Set WEB_PORT to serve the Activity (see README, 'The Activity').")
        if self.client_id is None:
            raise ConfigError("Set DISCORD_CLIENT_ID to the application's id (Developer Portal, "
                              "General Information) to serve the Activity.")
        if self.client_secret is None:
            raise ConfigError("Set DISCORD_CLIENT_SECRET (Developer Portal, OAuth2) to serve the "
                              "Activity: players sign in with it.")

    @property
    def secrets(self) -> list[str | None]:
        """What a log must never show."""
        from core.redact import url_passwords

        return [self.client_secret, self.daily_secret,
                *url_passwords(self.database.url, self.database.read_url)]


def _discord_api(base: str | None) -> str:
    # The bot points discord.py at ``{DISCORD_API_BASE}/api/v10``: the same stand-in here.
    return DISCORD_API if base is None else f"{base}/api/v10"
