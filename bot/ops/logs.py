"""The bot process's log: one stream handler on the root logger that never writes a secret,
and discord.py's gateway reconnect attempts on one line each instead of a traceback.

``setup(level, secrets)`` installs it and returns the :class:`Redact` filter, to which secrets
learnt later (a daily secret generated and kept in the database) are added with ``add``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit

import aiohttp
import discord

from bot.config import Settings

REDACTED = "[redacted]"

#: Failures that mean "Discord cannot be reached right now": worth one line, not a traceback.
NETWORK_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    aiohttp.ClientError,
    asyncio.TimeoutError,
    discord.ConnectionClosed,
    discord.GatewayNotFound,
    discord.DiscordServerError,
)


class Redact(logging.Filter):
    """Replaces every known secret in a record's message, traceback and stack with
    ``[redacted]``. Put on a handler, it covers every record that handler writes."""

    def __init__(self, secrets: Iterable[str | None] = ()) -> None:
        super().__init__()
        self._secrets: set[str] = set()
        self._format = logging.Formatter()
        for secret in secrets:
            self.add(secret)

    def add(self, secret: str | None) -> None:
        if secret:
            self._secrets.add(secret)

    def scrub(self, text: str) -> str:
        for secret in sorted(self._secrets, key=len, reverse=True):  # longest first
            text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secrets:
            return True
        message = record.getMessage()
        clean = self.scrub(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            # Formatters reuse exc_text once set: format the traceback here, scrubbed.
            record.exc_text = self._format.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = self.scrub(record.stack_info)
        return True


def url_passwords(*urls: str | None) -> list[str]:
    """The password of each database URL, as written in it and percent-decoded (a driver's
    message may quote either)."""
    found: list[str] = []
    for url in urls:
        if not url:
            continue
        try:
            password = urlsplit(url).password
        except ValueError:  # a malformed URL: the config refuses it; nothing to redact
            password = None
        if password:
            found += [password, unquote(password)]
    return found


def secrets_of(settings: Settings) -> list[str | None]:
    """Everything in the settings a log must never show: the token, the daily secret, the
    Activity's OAuth2 client secret, and the passwords of ``DATABASE_URL`` and
    ``DATABASE_READ_URL``."""
    return [settings.token, settings.daily_secret, settings.client_secret,
            *url_passwords(settings.database_url, settings.database_read_url)]


class OneLineNetworkErrors(logging.Filter):
    """discord.py logs each gateway reconnect attempt with a full traceback; when the cause
    is the network, keep the line and put the cause on it instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("discord.") and record.exc_info:
            error = record.exc_info[1]
            if isinstance(error, NETWORK_ERRORS):
                record.msg = f"{record.getMessage()} ({describe(error)})"
                record.args = None
                record.exc_info = None
                record.exc_text = None
        return True


class QuietDiscord(logging.Filter):
    """Drops discord.py lines that tell an operator of this bot nothing: "logging in using
    static token" on every login attempt (the attempts get a line of their own, see
    ``bot.ops.lifecycle``), and the voice warnings (the bot has no voice)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "discord.client" and record.msg in QUIET_MESSAGES)


QUIET_MESSAGES = frozenset({
    "logging in using static token",
    "PyNaCl is not installed, voice will NOT be supported",
    "davey is not installed, voice will NOT be supported",
})


def describe(error: BaseException) -> str:
    """A network failure in a few words: its type and message."""
    text = str(error).strip()
    if isinstance(error, asyncio.TimeoutError) and not text:
        text = "no answer in time"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def setup(level: int, secrets: Iterable[str | None] = ()) -> Redact:
    """Log to standard error at ``level`` (discord.py's format, in colour on a terminal),
    never writing ``secrets``; returns the filter that redacts them."""
    handler = logging.StreamHandler()
    redact = Redact(secrets)
    handler.addFilter(QuietDiscord())
    handler.addFilter(OneLineNetworkErrors())
    handler.addFilter(redact)
    # discord.py colours a container's log too (it guesses a terminal); only a real one here.
    plain = logging.Formatter(PLAIN_FORMAT, "%Y-%m-%d %H:%M:%S", style="{")
    formatter = discord.utils.MISSING if handler.stream.isatty() else plain
    discord.utils.setup_logging(handler=handler, formatter=formatter, level=level, root=True)
    # aiosqlite's DEBUG lines print every job's arguments: players' data, and the daily secret
    # when it is generated (before the filter can know it). Never below INFO.
    logging.getLogger("aiosqlite").setLevel(max(level, logging.INFO))
    return redact


#: discord.py's own format, without colours.
PLAIN_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
