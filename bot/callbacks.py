"""Interaction answers POSTed on lean keep-alive connections: a click's one HTTP request.

discord.py sends an interaction's callback through its webhook adapter on aiohttp's
``ClientSession``: a lock per webhook, rate-limit headers, retries, cookies, timeouts, tracing
and a ``ClientResponse`` to read, about a quarter of the bot's CPU for a paced click on this
machine (README, "Performance"). While Discord answers 2xx a click needs none of it, so the
answers of the bot's own boards (:mod:`bot.fastpath`) are sent here: the request written whole
on a pooled HTTP/1.1 connection, the response read by httptools (the llhttp parser Node.js
uses) for its status and nothing more.

Everything else stays discord.py's, and the fast path hands it over (:func:`bot.fastpath`'s
``_callback``):

- a callback whose files are not plain in-memory or on-disk files, or when a proxy is set
  (a table picture goes as a ``multipart/form-data`` body written here: :func:`form`);
- an answer that is not 2xx, and a request whose connection fails or times out before its
  answer: the same callback is then sent through discord.py's adapter, whose retries, waits
  on 429 and exceptions (``NotFound`` for an interaction past its 3 s, ...) the handlers
  already deal with. The request sent here counts as the adapter's first attempt: after a
  429 or a 5xx the adapter is handed it once the wait it would have made is over. A
  connection that failed after Discord took the first request can only make the second come
  back "already answered" (40060): the risk discord.py's own retry after a reset connection
  takes too.

One request is in flight per connection; connections are opened as clicks come at once and
kept (up to :data:`IDLE_LIMIT`, each for :data:`IDLE_SECONDS` unused) for the next ones.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import secrets
import ssl
import time
from typing import Any

import httptools
import orjson
import yarl

log = logging.getLogger(__name__)

#: Idle connections kept for the next answers; more are opened when more clicks come at once.
IDLE_LIMIT = 64
#: An idle connection unused this long is closed rather than reused (servers close idle
#: keep-alive connections after a while; a request written on one that is closing is lost).
IDLE_SECONDS = 20.0
#: The longest a request may take to be answered (seconds); Discord's deadline is 3 s.
TIMEOUT = 5.0
JSON = "application/json"
#: The most of an answer's body kept (an error's JSON; a 2xx's body is not read).
MAX_BODY = 64 * 1024
#: A form field's name or file name written as it is (nothing to quote or escape).
_SAFE = re.compile(r"[\w.\[\]-]{1,200}")


class Callbacks:
    """POSTs JSON bodies to one API origin (``base``, e.g. ``https://discord.com/api/v10``)
    on kept connections; see the module docstring."""

    def __init__(self, base: str, user_agent: str, *, ssl_context: ssl.SSLContext | None = None,
                 idle_limit: int = IDLE_LIMIT, idle_seconds: float = IDLE_SECONDS,
                 timeout: float = TIMEOUT) -> None:
        url = yarl.URL(base)
        if url.scheme not in ("http", "https") or not url.host:
            raise ValueError(f"not an http(s) address: {base!r}")
        self.origin = str(url.origin())
        self._host = url.host
        self._port = url.port or (443 if url.scheme == "https" else 80)
        self._ssl = (ssl_context or ssl.create_default_context()) if url.scheme == "https" else None
        host = url.host if url.is_default_port() else f"{url.host}:{url.port}"
        self._head = f"Host: {host}\r\nUser-Agent: {user_agent}\r\n".encode()
        self._idle: list[_Connection] = []
        self._idle_limit = idle_limit
        self._idle_seconds = idle_seconds
        self._timeout = timeout
        self._closed = False
        #: Connections opened so far (what the tests and the bench read).
        self.opened = 0

    def serves(self, url: str) -> bool:
        """Whether ``url`` is on this origin."""
        return url.startswith(self.origin) and url[len(self.origin):len(self.origin) + 1] == "/"

    async def post(self, url: str, body: bytes, content_type: str = JSON, *,
                   webhook_id: object = None) -> bool:
        """POST ``body`` (JSON, or a :func:`form`) to ``url`` (on this origin); True when
        Discord answered 2xx. False for any other answer, a failed or lost connection, or a
        timeout: the caller then sends it the way that deals with each (discord.py's
        adapter), now. This request counts as that adapter's first attempt: after a 429 (with
        Discord's ``Via``) it returns once the ``retry_after`` Discord asked for is over, and
        after a 5xx once discord.py's first back-off (1 s) is, as the adapter would have
        waited before its second attempt. ``webhook_id`` names the interaction in that log
        line (its token is never logged)."""
        sent = await self._post(url, body, content_type)
        if sent is None:
            return False
        status, answer, via = sent
        if 200 <= status < 300:
            return True
        if status == 429 and via:
            try:
                retry_after = float(orjson.loads(answer)["retry_after"])
            except (ValueError, KeyError, TypeError):
                return False
            log.warning("Webhook ID %s is rate limited. Retrying in %.2f seconds.",
                        webhook_id, retry_after)
            await asyncio.sleep(retry_after)
        elif status >= 500:
            await asyncio.sleep(1)
        return False

    async def _post(self, url: str, body: bytes,
                    content_type: str) -> tuple[int, bytes, bool] | None:
        """The answer's status, body and whether it came through a proxy (``Via``); None
        when none came."""
        if self._closed or not self.serves(url):
            return None
        request = b"".join((b"POST ", url[len(self.origin):].encode(), b" HTTP/1.1\r\n",
                            self._head, b"Content-Type: ", content_type.encode(),
                            b"\r\nContent-Length: %d\r\n\r\n" % len(body), body))
        connection: _Connection | None = None
        try:
            async with asyncio.timeout(self._timeout):
                connection = self._take() or await self._open()
                answer = await connection.send(request)
        except (OSError, TimeoutError, ssl.SSLError, httptools.HttpParserError) as exc:
            log.debug("Answer not sent on a kept connection (%s: %s); discord.py sends it",
                      type(exc).__name__, exc)
            if connection is not None:
                connection.close()
            return None
        self._give(connection)
        return answer

    def _take(self) -> _Connection | None:
        now = time.monotonic()
        while self._idle:
            connection = self._idle.pop()
            if connection.usable and now - connection.since < self._idle_seconds:
                return connection
            connection.close()
        return None

    def _give(self, connection: _Connection) -> None:
        if (connection.usable and not self._closed
                and len(self._idle) < self._idle_limit):
            connection.since = time.monotonic()
            self._idle.append(connection)
        else:
            connection.close()

    async def _open(self) -> _Connection:
        loop = asyncio.get_running_loop()
        _, connection = await loop.create_connection(
            _Connection, self._host, self._port, ssl=self._ssl,
            server_hostname=self._host if self._ssl is not None else None)
        self.opened += 1
        return connection

    async def close(self) -> None:
        """Close every kept connection; later posts return False."""
        self._closed = True
        idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()
        await asyncio.sleep(0)  # let the transports run their close


def form(parts: list[dict[str, Any]]) -> tuple[bytes, str] | None:
    """discord.py's multipart parts (``MultipartParameters.multipart``: the ``payload_json``
    text, then each file's ``fp`` with its ``filename`` and ``content_type``) as a
    ``multipart/form-data`` body and its content type, as aiohttp's ``FormData`` (without
    quoting, as discord.py asks) writes them; each file is read and put back where it was.
    None for a part it does not know how to write (discord.py's adapter sends those)."""
    boundary = secrets.token_hex(16)
    chunks: list[bytes] = []
    for part in parts:
        name, value = part.get("name"), part.get("value")
        filename = part.get("filename")
        if not isinstance(name, str) or not _SAFE.fullmatch(name) or (
                filename is not None and not (isinstance(filename, str)
                                              and _SAFE.fullmatch(filename))):
            return None
        disposition = f'form-data; name="{name}"'
        if filename is not None:
            disposition += f'; filename="{filename}"'
        if isinstance(value, str):
            data, kind = value.encode(), part.get("content_type") or JSON
        elif isinstance(value, io.IOBase) and hasattr(value, "seek"):
            start = value.tell()
            data = value.read()
            value.seek(start)
            kind = part.get("content_type") or "application/octet-stream"
        else:
            return None
        if not isinstance(data, bytes):
            return None
        chunks += [f"--{boundary}\r\nContent-Type: {kind}\r\n"
                   f"Content-Disposition: {disposition}\r\n\r\n".encode(), data, b"\r\n"]
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


class _Connection(asyncio.Protocol):
    """One HTTP/1.1 connection: one request at a time, its answer's status read whole."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.waiter: asyncio.Future[tuple[int, bytes, bool]] | None = None
        self.body: list[bytes] = []
        self.via = False
        self.keep_alive = True
        self.lost = False
        self.since = 0.0

    @property
    def usable(self) -> bool:
        return (not self.lost and self.keep_alive and self.waiter is None
                and self.transport is not None and not self.transport.is_closing())

    async def send(self, request: bytes) -> tuple[int, bytes, bool]:
        """Write ``request``; its answer's status, body and ``Via``, once read whole."""
        assert self.transport is not None and self.waiter is None
        self.body, self.via = [], False
        waiter = self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(request)
        try:
            return await waiter
        finally:
            self.waiter = None

    def close(self) -> None:
        self.keep_alive = False
        if self.transport is not None:
            self.transport.close()

    # asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(exc)
            self.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._fail(exc or ConnectionResetError("the server closed the connection"))

    # httptools' callbacks

    def on_header(self, name: bytes, value: bytes) -> None:
        if name.lower() == b"via":
            self.via = True

    def on_body(self, body: bytes) -> None:
        if sum(map(len, self.body)) < MAX_BODY:  # an answer's body is a short JSON error
            self.body.append(body)

    def on_message_complete(self) -> None:
        self.keep_alive = self.parser.should_keep_alive()
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result((self.parser.get_status_code(), b"".join(self.body), self.via))
        if not self.keep_alive:
            self.close()

    def _fail(self, exc: BaseException) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            with contextlib.suppress(asyncio.InvalidStateError):
                waiter.set_exception(exc if isinstance(exc, OSError | httptools.HttpParserError)
                                     else ConnectionResetError(str(exc)))
