"""A log filter that never lets a secret through (moved down from ``bot/ops/logs.py`` so the
bot's log and the web adapter's share it): the bot token, the OAuth client secret, the daily
secret, database passwords.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from urllib.parse import unquote, urlsplit

REDACTED = "[redacted]"


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
