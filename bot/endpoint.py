"""Receiving interactions over HTTP: Discord's Interactions Endpoint URL.

With an Interactions Endpoint URL set in the Developer Portal, Discord sends every interaction
as a signed ``POST`` to it instead of an INTERACTION_CREATE on the gateway, and takes the
first answer in the HTTP response. The bot may keep its gateway connection for everything
else; clicks need no gateway shard, and any process behind a load balancer can take any click.

**What is accepted.** Each request must carry ``X-Signature-Ed25519`` (hex) and
``X-Signature-Timestamp``, and the signature must be the application's public key's
(``INTERACTIONS_PUBLIC_KEY``) over the timestamp followed by the raw body; else 401 (Discord
sends bad signatures on purpose to check this). Nothing in the body is read before that.
Then the timestamp must be within :data:`WINDOW` seconds of this machine's clock, and the
interaction id must not have been seen in that window (:class:`Replays`); else 401. A body
over :data:`MAX_BODY` is refused unread (413); a signed body that is not an interaction
is 400. None of these dispatches anything.

**What is answered.** A ``PING`` is answered ``{"type": 1}``. Any other interaction goes
through the same INTERACTION_CREATE parser the gateway uses (``bot.fastpath``'s, in front of
discord.py's), so the router, the handlers, the presenter and their guarantees are the
gateway path's. The dispatch runs in a context whose webhook adapter
(discord.py's ``async_context``) is an :class:`EndpointAdapter` for this one interaction:

- the interaction's first answer, if it is a callback with a JSON body, no files and no
  ``with_response`` (every board the fast path sends), or a deferral (which discord.py asks
  ``with_response`` of, but whose callback object holds nothing the bot reads), becomes the
  HTTP response: 200 with that body. Discord gets it without a callback POST;
- any other first answer (a picture's form, discord.py's general ``send_message`` or
  ``launch_activity``, which read the callback object back) is POSTed to Discord's callback
  route as on the gateway path, and the HTTP request is answered 202 with no body once
  Discord accepted it;
- every other request (follow-ups, edits of the original message) goes to Discord untouched,
  after the inline answer has been written out, so Discord has the answer before them.

If nothing answered after :data:`ANSWER_WITHIN` seconds, the HTTP request is answered 202 and
closed: a later answer takes the callback route, which Discord still accepts until its 3 s
are up and refuses after (``bot.replies`` logs that as on the gateway path). The request is
answered once, whatever happens.

The private discord.py pieces relied on are listed in :data:`PRIVATE` and checked by
``tests/bot/test_endpoint.py``.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

import discord
import orjson
from aiohttp import web
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from bot.fastpath import CALLBACK

log = logging.getLogger(__name__)

PATH = "/interactions"
#: The largest body read (bytes). An interaction is the clicked message at most plus what
#: was resolved for it, a few tens of kB; Discord sends nothing near this.
MAX_BODY = 256 * 1024
#: How far (seconds) a request's signed timestamp may be from this machine's clock, either
#: way. Discord wants the answer within 3 s of sending, so a real request is a few seconds
#: old at most; the rest is room for a clock that NTP keeps loosely. The ids of the requests
#: accepted are remembered this long past their timestamp: a replay inside the window is
#: refused by its id, one outside it by its timestamp.
WINDOW = 60.0
#: Replays' memory holds at most this many ids (an id takes about 100 bytes). Beyond it new
#: requests are refused (503) rather than an unexpired id forgotten: that is over 1,600
#: interactions a second for two minutes, more than one process answers.
MAX_SEEN = 200_000
#: How long (seconds from the request's arrival) the HTTP request waits for the first answer;
#: then it is answered 202 and a later answer goes by callback (Discord's limit is 3 s).
ANSWER_WITHIN = 2.5
#: An answer is written out within this; a follow-up waits for it no longer.
WRITE_WITHIN = 1.0
#: Interaction types and response types of Discord's.
PING = 1
PONG = 1
DEFERRALS = (discord.InteractionResponseType.deferred_channel_message.value,
             discord.InteractionResponseType.deferred_message_update.value)
#: Refusals of requests that looked like Discord's but were not (stale, replayed) are worth
#: a warning; at most one a minute, so that someone replaying cannot flood the log.
WARN_EVERY = 60.0

JSON = {"Content-Type": "application/json"}

#: The private discord.py names this module relies on (checked by tests/bot/test_endpoint.py
#: on every release), besides those of :data:`bot.fastpath.PRIVATE` it goes through.
PRIVATE = (
    "Client._connection",
    "ConnectionState.parsers['INTERACTION_CREATE'] (it creates the handlers' tasks before it "
    "returns: they copy the context it runs in)",
    "webhook.async_.async_context (a ContextVar)",
    "webhook.async_.AsyncWebhookAdapter(), whose only state is ._locks, and its "
    "request(route, session, *, payload=..., multipart=..., files=..., params=..., ...), "
    "through which every interaction answer, "
    "follow-up and edit goes",
    "AsyncWebhookAdapter.create_interaction_response: params={'with_response': '1'}",
    "http.Route .method, .path, .webhook_id, .webhook_token",
    "InteractionCallbackResponse reads data['interaction']['id'] and data.get('resource')",
)


class Replays:
    """The interaction ids accepted in the last :data:`WINDOW` seconds (bounded memory)."""

    def __init__(self, window: float = WINDOW, limit: int = MAX_SEEN) -> None:
        self.window = window
        self.limit = limit
        self._expiry: dict[str, float] = {}
        self._order: deque[tuple[float, str]] = deque()

    def __len__(self) -> int:
        return len(self._expiry)

    def check(self, interaction_id: str, signed_at: float, now: float) -> str | None:
        """Remember ``interaction_id``; None if it is new, else why it is refused
        (``replayed``, or ``full``)."""
        order, expiry = self._order, self._expiry
        while order and order[0][0] < now:
            _, old = order.popleft()
            if expiry.get(old, now) < now:
                del expiry[old]
        if interaction_id in expiry:
            return "replayed"
        if len(expiry) >= self.limit:
            return "full"
        # After signed_at + window its timestamp alone refuses it.
        until = signed_at + self.window
        expiry[interaction_id] = until
        order.append((until, interaction_id))
        return None


# The states of an exchange: the HTTP request waits for an answer; a callback is being
# POSTed (202 once it is accepted); the HTTP request is answered (or given up).
OPEN, FORWARDING, CLOSED = "open", "forwarding", "closed"
#: The HTTP answer when the interaction was answered by callback (or not in time).
ACCEPTED = None


class Exchange:
    """One interaction received over HTTP: its HTTP answer, given once."""

    __slots__ = ("_written", "answer", "id", "inline", "kind", "state", "token")

    def __init__(self, interaction_id: int, token: str, kind: int,
                 loop: asyncio.AbstractEventLoop) -> None:
        self.id = interaction_id
        self.token = token
        self.kind = kind
        self.state = OPEN
        #: The body of the HTTP answer (200), or ACCEPTED (202).
        self.answer: asyncio.Future[bytes | None] = loop.create_future()
        #: Whether the answer is the interaction response itself (not yet written: see
        #: :meth:`wait_written`).
        self.inline = False
        self._written: asyncio.Future[None] | None = None

    @property
    def is_open(self) -> bool:
        return self.state is OPEN and not self.answer.done()

    def answer_inline(self, body: bytes) -> None:
        self.state = CLOSED
        self.inline = True
        self._written = self.answer.get_loop().create_future()
        self.answer.set_result(body)

    def accept(self) -> None:
        """Answer 202 (the callback was POSTed, or nothing answered in time)."""
        self.state = CLOSED
        if not self.answer.done():
            self.answer.set_result(ACCEPTED)

    def written(self) -> None:
        """The inline answer is written out (or could not be)."""
        if self._written is not None and not self._written.done():
            self._written.set_result(None)

    async def wait_written(self) -> None:
        written = self._written
        if written is not None and not written.done():
            try:
                await asyncio.wait_for(asyncio.shield(written), WRITE_WITHIN)
            except TimeoutError:
                log.warning("interaction %s: its answer was not written out in %g s",
                            self.id, WRITE_WITHIN)

    def callback_object(self, payload: dict[str, Any]) -> dict[str, Any]:
        """What Discord's callback route answers ``with_response`` for a deferral."""
        kind = payload.get("type")
        flags = int((payload.get("data") or {}).get("flags") or 0)
        return {"interaction": {"id": str(self.id), "type": self.kind,
                                "response_message_id": None,
                                "response_message_loading": kind == DEFERRALS[0],
                                "response_message_ephemeral": bool(flags & 64)},
                "resource": {"type": kind}}


class EndpointAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter for one interaction received over HTTP: its first answer
    is the HTTP response when it can be (see the module's docstring); every other request
    goes through ``fallback`` (the adapter the context had: discord.py's own)."""

    def __init__(self, exchange: Exchange, fallback: AsyncWebhookAdapter) -> None:
        # Not discord.py's __init__: its only state is the rate-limit locks its own request
        # takes, and every request this one sends goes through the fallback's (one made per
        # interaction, it would cost a dictionary of weak references each time).
        self._locks = fallback._locks
        self.exchange = exchange
        self.fallback = fallback

    async def request(self, route: Any, session: Any, *, payload: dict[str, Any] | None = None,
                      multipart: Any = None, files: Any = None,
                      params: dict[str, Any] | None = None, **kwargs: Any) -> Any:
        exchange = self.exchange
        if (exchange.is_open and route.path == CALLBACK and route.method == "POST"
                and int(route.webhook_id) == exchange.id):
            if payload is not None and not files and not multipart:
                if not params:
                    exchange.answer_inline(orjson.dumps(payload))
                    return None  # as Discord's 204
                if params == {"with_response": "1"} and payload.get("type") in DEFERRALS:
                    exchange.answer_inline(orjson.dumps(payload))
                    return exchange.callback_object(payload)
            exchange.state = FORWARDING
            try:
                data = await self.fallback.request(
                    route, session, payload=payload, multipart=multipart, files=files,
                    params=params, **kwargs)
            except BaseException:
                if exchange.state is FORWARDING:  # not answered: the next answer may be
                    exchange.state = OPEN
                raise
            exchange.accept()
            return data
        if exchange.inline and route.webhook_token == exchange.token:
            await exchange.wait_written()  # Discord has the answer before what follows it
        return await self.fallback.request(route, session, payload=payload,
                                           multipart=multipart, files=files, params=params,
                                           **kwargs)


def _refusal(status: int) -> web.Response:
    return web.Response(status=status)


class Endpoint:
    """``POST /interactions`` for ``client``, checked against ``public_key`` (32 bytes)."""

    def __init__(self, client: discord.Client, public_key: bytes, *,
                 window: float = WINDOW, answer_within: float = ANSWER_WITHIN,
                 clock: Callable[[], float] = time.time, limit: int = MAX_SEEN) -> None:
        self.client = client
        self._verify = VerifyKey(public_key).verify
        self.window = window
        self.answer_within = answer_within
        self.clock = clock
        self.replays = Replays(window, limit)
        #: New requests are refused (503) once a stop began.
        self.stopping = False
        #: Requests refused, by reason; interactions dispatched.
        self.refused: Counter[str] = Counter()
        self.dispatched = 0
        self._warned = -WARN_EVERY

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_post(PATH, self.handle)
        return app

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self.stopping:
            return self._refuse(503, "stopping")
        signature = request.headers.get("X-Signature-Ed25519")
        timestamp = request.headers.get("X-Signature-Timestamp")
        if not signature or not timestamp:
            return self._refuse(401, "unsigned")
        length = request.content_length
        if length is not None and length > MAX_BODY:
            return self._refuse(413, "too large")
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return self._refuse(413, "too large")
        try:
            self._verify(timestamp.encode() + body, bytes.fromhex(signature))
        except (BadSignatureError, ValueError, UnicodeError):
            return self._refuse(401, "bad signature")
        # Signed with the application's key from here on.
        now = self.clock()
        try:
            signed_at = float(int(timestamp))
        except ValueError:
            return self._refuse(401, "bad timestamp")
        if abs(now - signed_at) > self.window:
            self._warn("A signed interaction came with a timestamp %.0f s off this machine's "
                       "clock (at most %g s is accepted): refused. A replay, or this "
                       "machine's clock is wrong (check NTP).", now - signed_at, self.window)
            return self._refuse(401, "stale")
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError:
            return self._refuse(400, "not JSON")
        if not (isinstance(data, dict) and type(data.get("type")) is int
                and isinstance(data.get("id"), str) and data["id"].isdigit()
                and (data["type"] == PING or isinstance(data.get("token"), str))):
            return self._refuse(400, "not an interaction")
        why = self.replays.check(data["id"], signed_at, now)
        if why == "replayed":
            self._warn("A signed interaction came a second time (id %s): refused.", data["id"])
            return self._refuse(401, why)
        if why is not None:
            log.warning("The interactions endpoint remembers %d ids already: refusing new "
                        "interactions until some expire.", len(self.replays))
            return self._refuse(503, why)
        if data["type"] == PING:
            return web.Response(body=b'{"type":1}', headers=JSON)
        return await self._dispatch(request, data)

    async def _dispatch(self, request: web.Request, data: dict[str, Any]) -> web.StreamResponse:
        loop = asyncio.get_running_loop()
        exchange = Exchange(int(data["id"]), data["token"], data["type"], loop)
        context = contextvars.copy_context()
        context.run(async_context.set, EndpointAdapter(exchange, async_context.get()))
        parse = self.client._connection.parsers["INTERACTION_CREATE"]
        try:
            # discord.py creates the handlers' tasks in here: they copy this context.
            context.run(parse, data)
        except Exception:
            log.exception("interaction %s received over HTTP could not be dispatched",
                          data["id"])
            exchange.accept()
            return _refusal(500)
        self.dispatched += 1
        timer = loop.call_later(self.answer_within, self._late, exchange)
        try:
            body = await exchange.answer
        finally:
            timer.cancel()
            if not exchange.answer.done():  # this request was cancelled: nobody answers it
                exchange.accept()
        if body is ACCEPTED:
            return web.Response(status=202)
        response = web.Response(body=body, headers=JSON)
        try:
            await response.prepare(request)
            await response.write_eof()
        finally:
            exchange.written()
        return response

    def _late(self, exchange: Exchange) -> None:
        if exchange.answer.done():
            return
        # Not an error in itself: a later answer goes by callback, and one Discord refuses as
        # too late is logged where it is refused (bot.replies).
        log.debug("interaction %s: no answer within %g s: answered 202, a later answer goes "
                  "by callback", exchange.id, self.answer_within)
        exchange.accept()

    def _refuse(self, status: int, reason: str) -> web.Response:
        self.refused[reason] += 1
        log.debug("interactions endpoint: %d (%s)", status, reason)
        return _refusal(status)

    def _warn(self, message: str, *args: object) -> None:
        now = time.monotonic()
        if now - self._warned >= WARN_EVERY:
            self._warned = now
            log.warning(message, *args)


class Served:
    """The endpoint being served: stop taking requests, then close."""

    def __init__(self, endpoint: Endpoint, runner: web.AppRunner, port: int) -> None:
        self.endpoint = endpoint
        self.runner = runner
        self.port = port

    def refuse_new(self) -> None:
        self.endpoint.stopping = True

    async def close(self) -> None:
        self.endpoint.stopping = True
        await self.runner.cleanup()


async def start(client: discord.Client, public_key: bytes, host: str, port: int) -> Served:
    """Serve ``POST /interactions`` on ``host:port`` (``OSError`` when it cannot listen)."""
    endpoint = Endpoint(client, public_key)
    runner = web.AppRunner(endpoint.app(), access_log=None, handle_signals=False,
                           shutdown_timeout=ANSWER_WITHIN + 0.5)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    bound = int(runner.addresses[0][1])
    log.info("Interactions endpoint on http://%s:%d%s", host, bound, PATH)
    return Served(endpoint, runner, bound)


__all__ = ["ANSWER_WITHIN", "MAX_BODY", "PATH", "PRIVATE", "WINDOW", "Endpoint",
           "EndpointAdapter", "Exchange", "Replays", "Served", "start"]
