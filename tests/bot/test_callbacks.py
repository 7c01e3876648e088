"""Answers POSTed on kept connections (``bot.callbacks``), against a real HTTP server on
loopback (plain and TLS): what is sent, that connections are kept and reused, and that every
answer but a 2xx (and every failed connection) says so, for discord.py to send it instead."""

from __future__ import annotations

import asyncio
import email.parser
import email.policy
import io
import ssl
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.callbacks import Callbacks, form

API = "/api/v10"
PATH = API + "/interactions/123/a-token/callback"


class Server:
    """An aiohttp server noting every request and the connection it came on."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, dict[str, str], bytes]] = []
        self.connections: set[int] = set()
        self.answer: Any = lambda request: web.Response(status=204)
        self.runner: web.AppRunner | None = None
        self.port = 0

    async def handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        self.requests.append((request.method, request.path_qs, dict(request.headers), body))
        assert request.transport is not None
        self.connections.add(id(request.transport))
        answer = self.answer(request)
        if asyncio.iscoroutine(answer):
            answer = await answer
        return answer

    async def start(self, ssl_context: ssl.SSLContext | None = None) -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0, ssl_context=ssl_context)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    served = Server()
    await served.start()
    yield served
    assert served.runner is not None
    await served.runner.cleanup()


@pytest.fixture
async def callbacks(server: Server) -> AsyncIterator[Callbacks]:
    client = Callbacks(f"http://127.0.0.1:{server.port}{API}", "DiscordBot (test, 1)")
    yield client
    await client.close()


def url(server: Server, path: str = PATH) -> str:
    return f"http://127.0.0.1:{server.port}{path}"


async def test_an_answer_is_posted_as_json_and_a_2xx_says_it_was_taken(server, callbacks) -> None:
    assert await callbacks.post(url(server), b'{"type":7,"data":{"content":"hi"}}')
    [(method, path, headers, body)] = server.requests
    assert (method, path, body) == ("POST", PATH, b'{"type":7,"data":{"content":"hi"}}')
    assert headers["Content-Type"] == "application/json"
    assert headers["User-Agent"] == "DiscordBot (test, 1)"
    assert headers["Host"] == f"127.0.0.1:{server.port}"
    assert "Authorization" not in headers  # the interaction's token is in the path
    server.answer = lambda request: web.json_response({"ok": True})  # 200 with a body
    assert await callbacks.post(url(server), b"{}")


async def test_connections_are_kept_and_reused(server, callbacks) -> None:
    for _ in range(20):
        assert await callbacks.post(url(server), b"{}")
    assert len(server.connections) == 1 and callbacks.opened == 1
    # Answers at once open more, and are kept for the next ones.
    gate = asyncio.Event()

    async def slow(request: web.Request) -> web.Response:
        await gate.wait()
        return web.Response(status=204)

    server.answer = slow
    posts = [asyncio.create_task(callbacks.post(url(server), b"{}")) for _ in range(5)]
    while len(server.requests) < 25:
        await asyncio.sleep(0.01)
    gate.set()
    assert all(await asyncio.gather(*posts))
    assert callbacks.opened == 5
    server.answer = lambda request: web.Response(status=204)
    for _ in range(10):
        assert await callbacks.post(url(server), b"{}")
    assert callbacks.opened == 5 and len(server.connections) == 5


@pytest.mark.parametrize("status", [400, 401, 404, 429, 500, 503])
async def test_any_other_answer_is_not_taken(server, callbacks, status: int) -> None:
    server.answer = lambda request: web.json_response(
        {"message": "no", "code": 10062, "retry_after": 0.1}, status=status)
    assert not await callbacks.post(url(server), b"{}")
    server.answer = lambda request: web.Response(status=204)
    assert await callbacks.post(url(server), b"{}")  # and the connection is still good


async def test_a_chunked_answer_is_read_whole(server, callbacks) -> None:
    async def chunked(request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(status=200)
        response.enable_chunked_encoding()
        await response.prepare(request)
        for part in (b'{"a":', b"1}"):
            await response.write(part)
        await response.write_eof()
        return response

    server.answer = chunked
    assert await callbacks.post(url(server), b"{}")
    assert await callbacks.post(url(server), b"{}")
    assert callbacks.opened == 1


async def test_a_closed_connection_is_not_reused(server, callbacks) -> None:
    server.answer = lambda request: web.Response(status=204, headers={"Connection": "close"})
    assert await callbacks.post(url(server), b"{}")
    assert await callbacks.post(url(server), b"{}")
    assert callbacks.opened == 2 and len(server.connections) == 2


async def test_a_connection_lost_before_its_answer_is_not_taken(server, callbacks) -> None:
    def hang_up(request: web.Request) -> web.Response:
        assert request.transport is not None
        request.transport.close()
        return web.Response(status=204)

    server.answer = hang_up
    assert not await callbacks.post(url(server), b"{}")
    server.answer = lambda request: web.Response(status=204)
    assert await callbacks.post(url(server), b"{}")  # on a new connection


async def test_an_idle_connection_the_server_closed_is_replaced(server: Server) -> None:
    client = Callbacks(f"http://127.0.0.1:{server.port}{API}", "ua", idle_seconds=0.05)
    try:
        assert await client.post(url(server), b"{}")
        await asyncio.sleep(0.1)  # kept longer than idle_seconds: not reused
        assert await client.post(url(server), b"{}")
        assert client.opened == 2
    finally:
        await client.close()


async def test_a_slow_answer_times_out(server: Server) -> None:
    client = Callbacks(f"http://127.0.0.1:{server.port}{API}", "ua", timeout=0.2)

    async def never(request: web.Request) -> web.Response:
        await asyncio.sleep(5)
        return web.Response(status=204)

    server.answer = never
    try:
        assert not await client.post(url(server), b"{}")
    finally:
        await client.close()


async def test_nothing_is_sent_elsewhere_or_once_closed(server, callbacks) -> None:
    assert not callbacks.serves("http://example.com/api/v10/interactions/1/t/callback")
    assert not callbacks.serves(f"http://127.0.0.1:{server.port}")
    assert not await callbacks.post("http://127.0.0.2:1/api/v10/x", b"{}")
    await callbacks.close()
    assert not await callbacks.post(url(server), b"{}")
    assert server.requests == []
    with pytest.raises(ValueError):
        Callbacks("ftp://example.com/api", "ua")


async def test_a_refused_connection_is_not_taken() -> None:
    client = Callbacks("http://127.0.0.1:9/api/v10", "ua")  # the discard port: nobody there
    try:
        assert not await client.post("http://127.0.0.1:9/api/v10/x", b"{}")
    finally:
        await client.close()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True)
    return cert, key


async def test_https_checks_the_servers_certificate(certificate: tuple[Path, Path]) -> None:
    cert, key = certificate
    served = Server()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    await served.start(context)
    base = f"https://127.0.0.1:{served.port}{API}"
    trusting = Callbacks(base, "ua", ssl_context=ssl.create_default_context(cafile=cert))
    default = Callbacks(base, "ua")  # the system's authorities: this certificate is not theirs
    try:
        assert await trusting.post(base + "/interactions/1/t/callback", b"{}")
        assert await trusting.post(base + "/interactions/2/t/callback", b"{}")
        assert trusting.opened == 1
        assert not await default.post(base + "/interactions/3/t/callback", b"{}")
        assert [path for _, path, _, _ in served.requests] == [
            API + "/interactions/1/t/callback", API + "/interactions/2/t/callback"]
    finally:
        await trusting.close()
        await default.close()
        assert served.runner is not None
        await served.runner.cleanup()


async def test_a_picture_goes_as_a_form_that_reads_back_whole(server, callbacks) -> None:
    picture = io.BytesIO(b"\x89PNG not really, but bytes \r\n--x-- with a boundary-like line")
    picture.seek(4)  # discord.File remembers where its file started; so does form()
    seen: list[dict[str, Any]] = []

    async def read(request: web.Request) -> web.Response:
        # The body as a mail reader parses a form (the server read it already, and aiohttp's
        # own form reader reads the stream): an independent reading of the same bytes.
        raw = b"Content-Type: " + request.headers["Content-Type"].encode() + b"\r\n\r\n"
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            raw + await request.read())
        assert message.is_multipart() and not message.defects
        fields = {part.get_param("name", header="content-disposition"): part
                  for part in message.iter_parts()}
        upload = fields["files[0]"]
        seen.append({"payload_json": fields["payload_json"].get_payload(decode=True).decode(),
                     "name": upload.get_filename(), "type": upload.get_content_type(),
                     "bytes": upload.get_payload(decode=True)})
        return web.Response(status=204)

    server.answer = read
    body = form([
        {"name": "payload_json", "value": '{"type":7,"data":{"attachments":[{"id":0}]}}'},
        {"name": "files[0]", "value": picture, "filename": "table.png",
         "content_type": "application/octet-stream"},
    ])
    assert body is not None and body[1].startswith("multipart/form-data; boundary=")
    assert await callbacks.post(url(server), *body)
    assert seen == [{"payload_json": '{"type":7,"data":{"attachments":[{"id":0}]}}',
                     "name": "table.png", "type": "application/octet-stream",
                     "bytes": picture.getvalue()[4:]}]
    assert picture.tell() == 4  # put back for discord.py, should it send the form instead


def test_a_form_it_cannot_write_as_it_is_is_left_to_discord_py() -> None:
    picture = io.BytesIO(b"png")
    assert form([{"name": 'files"[0]', "value": picture, "filename": "t.png"}]) is None
    assert form([{"name": "files[0]", "value": picture, "filename": "t\r\n.png"}]) is None
    assert form([{"name": "files[0]", "value": object(), "filename": "t.png"}]) is None


async def test_a_429_or_5xx_is_handed_over_once_discord_py_would_have_waited(
        server, callbacks, caplog) -> None:
    # This request is the adapter's first attempt: its wait comes before the handover.
    limited = {"message": "You are being rate limited.", "retry_after": 0.3, "global": False}
    for answer, at_least, at_most in (
            (web.json_response(limited, status=429, headers={"Via": "1.1 google"}), 0.3, 0.9),
            (web.json_response(limited, status=429), 0.0, 0.2),  # no Via: Cloudflare's, as is
            (web.json_response({"message": "oops", "code": 0}, status=502), 1.0, 1.6),
            (web.json_response({"message": "Unknown interaction", "code": 10062}, status=404),
             0.0, 0.2)):
        server.answer = lambda request, answer=answer: answer
        began = asyncio.get_running_loop().time()
        assert not await callbacks.post(url(server), b"{}", webhook_id=123)
        assert at_least <= asyncio.get_running_loop().time() - began < at_most
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "Webhook ID 123 is rate limited. Retrying in 0.30 seconds."]
    assert "a-token" not in caplog.text
