"""A minimal stand-in for Discord on 127.0.0.1: the REST routes and the gateway a bot uses.

A real, unmodified discord.py bot connects to it when pointed there (``DISCORD_API_BASE``
for Dungeon Deck): discord.py's own HTTP client, rate-limit handling and gateway code run
as in production. The stand-in keeps Discord's rules that matter to a game bot:

- one response per interaction: a second callback is refused with 40060;
- a callback more than 3 s after the interaction was sent is refused with 10062;
- components over Discord's limits (custom id > 100 characters, > 5 rows, > 5 buttons a
  row) are refused with 50035;
- a 429 carries ``retry_after`` and a ``Via`` header (discord.py treats a 429 without one as
  a Cloudflare ban); :meth:`StandIn.inject` makes the next matching requests answer 429 or
  5xx, to test that the bot rides them out.

Interactions are delivered as INTERACTION_CREATE dispatches on the gateway, or, with
``StandIn(delivery="http")``, as Discord does to an Interactions Endpoint URL: each one a POST
to the bot's endpoint (:attr:`StandIn.endpoint`), signed with the stand-in's own Ed25519 key
(:attr:`StandIn.public_key`, which the bot is given as ``INTERACTIONS_PUBLIC_KEY``) over the
timestamp and the body. The HTTP response is the interaction's response (200 with it, or 202
with none once the bot POSTed the callback), held to the same rules as a callback: one
response (a callback after an inline answer is refused with 40060, and the other way round),
within 3 s (Discord gives up on the request then). Each interaction gets an
:class:`Interaction` record holding the time it was sent and the answers it got. Messages
the bot posts or updates are kept, so players can read the buttons off their boards.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson
from aiohttp import WSMsgType, web
from nacl.signing import SigningKey

from bench._standin import payloads as p
from bench._standin.oauth import OAuthStandIn

DEADLINE = 3.0  # seconds Discord waits for an interaction's first response
#: Values of ``with_response`` that ask for the callback object (discord.py sends "1").
WITH = ("1", "true", "True")
HEARTBEAT_MS = 41_250
API = "/api/v10"
#: The application command type of an Activity's Primary Entry Point.
ENTRY_POINT = 4


@dataclass
class Interaction:
    """One interaction sent to the bot and what came back."""

    id: int
    token: str
    kind: int
    user_id: int
    data: dict[str, Any]
    source_message: int | None  # the clicked message, for a component interaction
    sent_at: float = 0.0
    delivered: bool = False  # written to a live gateway connection
    answered_at: float | None = None  # first accepted callback
    response: dict[str, Any] | None = None  # that callback's body ({"type", "data"})
    message_id: int | None = None  # the message the response created or updated
    refused: list[int] = field(default_factory=list)  # Discord error codes of refused callbacks
    followups: list[dict[str, Any]] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    #: Over HTTP: the endpoint's status (200 inline, 202 by callback), and the POST while
    #: it is in flight.
    http_status: int | None = None
    posting: asyncio.Task[None] | None = None

    @property
    def latency(self) -> float | None:
        return None if self.answered_at is None else self.answered_at - self.sent_at

    @property
    def ephemeral(self) -> bool:
        data = (self.response or {}).get("data") or {}
        return bool(int(data.get("flags") or 0) & p.EPHEMERAL)

    @property
    def text(self) -> str:
        """The response's content and embed texts, and those of its follow-ups."""
        parts: list[str] = []
        for data in [(self.response or {}).get("data") or {}, *self.followups]:
            parts.append(data.get("content") or "")
            for embed in data.get("embeds") or []:
                parts += [embed.get("title") or "", embed.get("description") or ""]
                parts += [f.get("value", "") for f in embed.get("fields") or []]
                parts.append((embed.get("footer") or {}).get("text") or "")
        return "\n".join(x for x in parts if x)


@dataclass
class Fault:
    """Answer the next ``count`` requests whose path matches ``pattern`` with ``status``."""

    pattern: str
    status: int
    count: int = 1
    retry_after: float = 0.25
    hits: int = 0


class StandIn:
    """The server. ``async with StandIn() as discord:`` starts it on a free port."""

    def __init__(self, token: str | None = None, *, delivery: str = "gateway") -> None:
        if delivery not in ("gateway", "http"):
            raise ValueError(f"delivery is gateway or http, not {delivery!r}")
        self.token = token or f"standin.{secrets.token_hex(12)}"
        #: How interactions reach the bot: INTERACTION_CREATE on the gateway, or signed POSTs
        #: to :attr:`endpoint`.
        self.delivery = delivery
        #: The bot's interactions endpoint (``http://127.0.0.1:PORT/interactions``), as set
        #: in the Developer Portal.
        self.endpoint: str | None = None
        self._signing = SigningKey.generate()
        self._client: aiohttp.ClientSession | None = None
        self.port = 0
        self.commands: dict[str, dict[str, Any]] = {}  # name -> the synced command
        self.emojis: dict[str, dict[str, Any]] = {}  # the application's, by id
        self.messages: dict[int, dict[str, Any]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.unexpected: list[str] = []  # REST routes the stand-in does not serve
        self.rest_log: list[tuple[float, str, str, int]] = []  # (time, method, path, status)
        #: Each interaction callback's (path, User-Agent, status), to tell who sent it.
        self.callback_log: list[tuple[str, str, int]] = []
        #: Interaction callbacks that came with a file (a picture), of all callbacks.
        self.callbacks_with_files = 0
        self.callbacks = 0
        self.identified = asyncio.Event()  # a gateway session is ready (set again on reconnect)
        self.sessions = 0
        self._faults: list[Fault] = []
        self._ids = itertools.count(int(time.time() * 1000) << 22)
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self._listeners: list[Callable[[Interaction], None]] = []
        self._by_token: dict[str, Interaction] = {}
        #: The OAuth2 endpoints an Activity's server uses (users, codes, tokens).
        self.oauth = OAuthStandIn()

    # ----- life cycle ------------------------------------------------------------------------

    async def __aenter__(self) -> StandIn:
        app = web.Application(client_max_size=32 << 20)
        app.router.add_get("/", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.oauth.api = self.base_url + API
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._client is not None:
            await self._client.close()
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        """What ``DISCORD_API_BASE`` must be set to."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def public_key(self) -> str:
        """The key the stand-in signs interactions with, in hex (the Developer Portal's
        Public Key: what ``INTERACTIONS_PUBLIC_KEY`` must be)."""
        return bytes(self._signing.verify_key).hex()

    @property
    def connected(self) -> bool:
        return (self._ws is not None and not self._ws.closed and self.identified.is_set()
                and (self.delivery == "gateway" or self.endpoint is not None))

    async def wait_connected(self) -> None:
        """Wait while no bot is connected (players do not click into a dead bot)."""
        while not self.connected:
            await self.identified.wait()
            await asyncio.sleep(0)

    def inject(self, pattern: str, status: int, count: int = 1,
               retry_after: float = 0.25) -> Fault:
        """Make the next ``count`` REST requests whose path (after ``/api/v10``) matches the
        regex ``pattern`` answer ``status`` (429 with ``retry_after``, or a 5xx)."""
        fault = Fault(pattern, status, count, retry_after)
        self._faults.append(fault)
        return fault

    # ----- what players do -------------------------------------------------------------------

    def command(self, user_id: int, name: str, options: list[dict[str, Any]] | None = None,
                ) -> Interaction:
        """Send a slash command ``/name`` with raw ``options`` (``{"name","type","value"}``)."""
        synced = self.commands.get(name, {})
        data = {"id": synced.get("id", str(next(self._ids))), "name": name, "type": 1,
                "options": options or []}
        return self._send(p.APPLICATION_COMMAND, user_id, data, None)

    def click(self, user_id: int, message_id: int, custom_id: str,
              message: dict[str, Any] | None = None) -> Interaction:
        """Click the button ``custom_id`` on message ``message_id``, as the client showed it
        (``message``: an older copy, for a stale click; default: the message as it is now).
        A custom id not on the message is put on its first button: a forged click."""
        shown = p.copied(message or self.messages[message_id])
        found = p.buttons(shown)
        if found and all(b.get("custom_id") != custom_id for b in found):
            found[0]["custom_id"] = custom_id
        data = {"custom_id": custom_id, "component_type": 2}
        return self._send(p.MESSAGE_COMPONENT, user_id, data, shown)

    def on_interaction(self, listener: Callable[[Interaction], None]) -> None:
        """Call ``listener`` with every interaction sent from now on."""
        self._listeners.append(listener)

    def _send(self, kind: int, user_id: int, data: dict[str, Any],
              message: dict[str, Any] | None) -> Interaction:
        iid = next(self._ids)
        record = Interaction(iid, f"itoken-{iid}-{secrets.token_hex(8)}", kind, user_id, data,
                             int(message["id"]) if message else None)
        self.interactions[iid] = record
        self._by_token[record.token] = record
        for listener in self._listeners:
            listener(record)
        payload = p.interaction(iid, record.token, kind, user_id, data, message)
        record.sent_at = time.perf_counter()
        if self.delivery == "http":
            if self.endpoint is None:
                record.done.set()
            else:
                record.delivered = True
                record.posting = asyncio.get_running_loop().create_task(
                    self._post(record, orjson.dumps(payload)))
        elif self.connected:
            assert self._ws is not None
            self._seq += 1
            frame = orjson.dumps({"op": 0, "t": "INTERACTION_CREATE", "s": self._seq,
                                  "d": payload})
            record.delivered = True
            asyncio.get_running_loop().create_task(self._send_frame(self._ws, frame, record))
        else:
            record.done.set()  # nobody to deliver it to: the user sees "interaction failed"
        return record

    async def _send_frame(self, ws: web.WebSocketResponse, frame: bytes,
                          record: Interaction) -> None:
        # Timed from here, as the frame goes onto the socket: the stand-in's own work before
        # (encoding it, waiting for this task's turn) is not the bot's.
        record.sent_at = time.perf_counter()
        try:
            await ws.send_frame(frame, WSMsgType.TEXT)
        except (ConnectionError, RuntimeError):
            record.delivered = False
            record.done.set()

    # ----- the interactions endpoint --------------------------------------------------------

    def signed(self, body: bytes, timestamp: str | None = None) -> dict[str, str]:
        """The headers Discord sends ``body`` with: its signature by the stand-in's key."""
        timestamp = timestamp or str(int(time.time()))
        signature = self._signing.sign(timestamp.encode() + body).signature.hex()
        return {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": timestamp,
                "Content-Type": "application/json"}

    def _session(self) -> aiohttp.ClientSession:
        if self._client is None:
            # Kept-alive connections, as many as there are requests in flight (Discord's
            # front keeps its connections to a busy endpoint open too).
            self._client = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0),
                timeout=aiohttp.ClientTimeout(total=DEADLINE))
        return self._client

    async def ping(self) -> tuple[int, Any]:
        """What the Developer Portal does when the endpoint's URL is saved: a signed PING.
        Returns the status and the decoded answer (None if it is not JSON)."""
        assert self.endpoint is not None
        body = orjson.dumps({"id": str(next(self._ids)), "application_id": str(p.APPLICATION_ID),
                             "type": 1, "token": secrets.token_hex(8), "version": 1})
        async with self._session().post(self.endpoint, data=body,
                                         headers=self.signed(body)) as response:
            raw = await response.read()
            try:
                return response.status, orjson.loads(raw)
            except orjson.JSONDecodeError:
                return response.status, None

    async def _post(self, record: Interaction, body: bytes) -> None:
        """Deliver one interaction to the endpoint; its inline answer counts as a callback
        received when the response came."""
        assert self.endpoint is not None
        headers = self.signed(body)
        # Timed from here, as for a gateway frame: the signing before is the stand-in's work.
        record.sent_at = time.perf_counter()
        try:
            async with self._session().post(self.endpoint, data=body,
                                             headers=headers) as response:
                arrived = time.perf_counter()
                record.http_status = response.status
                if response.status == 200:
                    answer = orjson.loads(await response.read())
                    self._respond(record, answer, arrived, with_response=False)
                elif response.status == 202:  # the callback came before (or comes by 3 s)
                    await response.read()
                    return
        except TimeoutError:
            record.refused.append(10062)  # Discord stopped waiting: the interaction failed
        except (aiohttp.ClientError, OSError, ValueError):
            record.delivered = record.http_status is not None
        finally:
            record.posting = None
        record.done.set()

    # ----- the gateway -----------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        previous, self._ws = self._ws, ws
        if previous is not None and not previous.closed:
            await previous.close()
        self.identified.clear()
        await ws.send_frame(orjson.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_MS}}),
                            WSMsgType.TEXT)
        try:
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    continue
                message = orjson.loads(frame.data)
                op = message.get("op")
                if op == 1:
                    await ws.send_frame(orjson.dumps({"op": 11}), WSMsgType.TEXT)
                elif op == 2:
                    if (message.get("d") or {}).get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    await self._identify(ws)
                elif op == 6:  # no resuming here: a new session each time
                    await ws.send_frame(orjson.dumps({"op": 9, "d": False}), WSMsgType.TEXT)
        finally:
            if self._ws is ws:
                self.identified.clear()
        return ws

    async def _identify(self, ws: web.WebSocketResponse) -> None:
        self.sessions += 1
        self._seq = 0
        for name, data in (("READY", p.ready(secrets.token_hex(16), f"ws://127.0.0.1:{self.port}")),
                           ("GUILD_CREATE", p.guild())):
            self._seq += 1
            await ws.send_frame(
                orjson.dumps({"op": 0, "t": name, "s": self._seq, "d": data}), WSMsgType.TEXT)
        self.identified.set()

    # ----- REST --------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        arrived = time.perf_counter()  # before the body is read and decoded: the bot's answer
        path = "/" + request.match_info["tail"]
        response = await self._route(request, path, arrived)
        self.rest_log.append((time.perf_counter(), request.method, path, response.status))
        if path.endswith("/callback"):
            self.callback_log.append((path, request.headers.get("User-Agent", ""),
                                      response.status))
        return response

    async def _route(self, request: web.Request, path: str, arrived: float) -> web.Response:
        for fault in self._faults:
            if fault.count > 0 and re.search(fault.pattern, path):
                fault.count -= 1
                fault.hits += 1
                return _fault(fault)
        method = request.method
        callback = re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path)
        if callback:  # authenticated by the interaction token, like Discord
            body = await _body(request)
            self.callbacks += 1
            self.callbacks_with_files += request.content_type.startswith("multipart/")
            return self._callback(int(callback[1]), callback[2], body, arrived,
                                  with_response=request.query.get("with_response") in WITH)
        webhook = re.fullmatch(r"/webhooks/(\d+)/([^/]+)(?:/messages/(@original|\d+))?", path)
        if webhook:
            body = await _body(request) if method in ("POST", "PATCH") else {}
            await self._answer_first(webhook[2])
            return self._webhook(method, webhook[2], webhook[3], body)
        oauth = self._oauth_route(request, path)
        if oauth is not None:  # an Activity's server, with a player's bearer token
            return await oauth
        if request.headers.get("Authorization") != f"Bot {self.token}":
            return _error(401, 0, "401: Unauthorized")
        if path == "/users/@me" and method == "GET":
            return _json(p.BOT_USER)
        if path == "/oauth2/applications/@me" and method == "GET":
            return _json(p.application())
        if path in ("/gateway", "/gateway/bot") and method == "GET":
            data: dict[str, Any] = {"url": f"ws://127.0.0.1:{self.port}"}
            if path == "/gateway/bot":
                data |= {"shards": 1, "session_start_limit": {
                    "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}
            return _json(data)
        if re.fullmatch(rf"/applications/{p.APPLICATION_ID}(/guilds/\d+)?/commands", path):
            if method == "PUT":
                synced = self._sync(await request.json(loads=orjson.loads))
                return synced if isinstance(synced, web.Response) else _json(synced)
            if method == "GET":
                return _json(list(self.commands.values()))
        emoji = re.fullmatch(rf"/applications/{p.APPLICATION_ID}/emojis(?:/(\d+))?", path)
        if emoji:
            return await self._emoji(request, method, emoji[1])
        posted = re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", path)
        if posted and method in ("POST", "PATCH"):
            body = await _body(request)
            if posted[2] is None:
                msg = p.message(next(self._ids), body)
                self.messages[int(msg["id"])] = msg
                return _json(msg)
            if int(posted[2]) in self.messages:
                return _json(self._edit(int(posted[2]), body))
            return _error(404, 10008, "Unknown Message")
        self.unexpected.append(f"{method} {path}")
        return _error(404, 0, "404: Not Found")

    def _oauth_route(self, request: web.Request, path: str) -> Any:
        if path == "/oauth2/token" and request.method == "POST":
            return self.oauth.token_endpoint(request)
        if request.method == "GET" and request.headers.get("Authorization", "").startswith(
                "Bearer "):
            if path == "/users/@me":
                return self.oauth.me_endpoint(request)
            if path == "/users/@me/guilds":
                return self.oauth.guilds_endpoint(request)
        return None

    async def _emoji(self, request: web.Request, method: str, emoji_id: str | None,
                     ) -> web.Response:
        """Application emojis: list, upload (the image is not kept), get, rename, delete."""
        if emoji_id is None and method == "GET":
            return _json({"items": list(self.emojis.values())})
        if emoji_id is None and method == "POST":
            body = await request.json(loads=orjson.loads)
            if any(e["name"] == body.get("name") for e in self.emojis.values()):
                return _error(400, 50035, "Invalid Form Body: name: already taken")
            made = {"id": str(next(self._ids)), "name": body.get("name"), "roles": [],
                    "user": p.BOT_USER, "require_colons": True, "managed": False,
                    "animated": False, "available": True}
            self.emojis[made["id"]] = made
            return _json(made, status=201)
        if emoji_id not in self.emojis:
            return _error(404, 10014, "Unknown Emoji")
        if method == "DELETE":
            del self.emojis[emoji_id]
            return web.Response(status=204)
        if method == "PATCH":
            self.emojis[emoji_id]["name"] = (await request.json(loads=orjson.loads)).get("name")
        return _json(self.emojis[emoji_id])

    def enable_activity(self, name: str = "launch") -> dict[str, Any]:
        """What turning Activities on in the Developer Portal does: Discord creates the app's
        Primary Entry Point command (type 4, handler 2: Discord launches the Activity)."""
        made = {"id": str(next(self._ids)), "application_id": str(p.APPLICATION_ID),
                "version": str(next(self._ids)), "name": name, "description": "",
                "type": ENTRY_POINT, "handler": 2, "integration_types": [0, 1],
                "contexts": [0, 1, 2], "default_member_permissions": None, "nsfw": False}
        self.commands[name] = made
        return dict(made)

    def _sync(self, commands: list[dict[str, Any]]) -> list[dict[str, Any]] | web.Response:
        # As Discord: an overwrite that leaves out the Entry Point command is refused, and a
        # command sent with its id (or under its name) keeps that id.
        if (any(c.get("type") == ENTRY_POINT for c in self.commands.values())
                and not any(c.get("type") == ENTRY_POINT for c in commands)):
            return _error(400, 50240, "You cannot remove this app's Primary Entry Point command.")
        before = self.commands
        self.commands = {
            c["name"]: dict(
                c, id=str(c.get("id") or before.get(c["name"], {}).get("id") or next(self._ids)),
                application_id=str(p.APPLICATION_ID), version=str(next(self._ids)))
            for c in commands
        }
        return list(self.commands.values())

    async def _answer_first(self, token: str) -> None:
        """A follow-up or an edit sent right after an inline answer: the answer, written out
        first by the bot, is taken first (Discord has it before what follows it)."""
        record = self._by_token.get(token)
        posting = record.posting if record is not None else None
        if posting is not None and record is not None and record.answered_at is None:
            await asyncio.wait({posting}, timeout=DEADLINE)

    def _callback(self, iid: int, token: str, body: dict[str, Any], arrived: float,
                  with_response: bool = True) -> web.Response:
        record = self.interactions.get(iid)
        if record is None or record.token != token:
            return _error(404, 10062, "Unknown interaction")
        return self._respond(record, body, arrived, with_response)

    def _respond(self, record: Interaction, body: dict[str, Any], arrived: float,
                 with_response: bool) -> web.Response:
        """The interaction's response, by callback or inline, under Discord's rules."""
        iid = record.id
        if arrived - record.sent_at > DEADLINE:
            record.refused.append(10062)
            return _error(404, 10062, "Unknown interaction")
        if record.answered_at is not None:
            record.refused.append(40060)
            return _error(400, 40060, "Interaction has already been acknowledged.")
        kind, data = int(body.get("type", 0)), body.get("data") or {}
        if problem := _invalid(data):
            record.refused.append(50035)
            return _error(400, 50035, f"Invalid Form Body: {problem}")
        record.answered_at = arrived
        record.response = {"type": kind, "data": data}
        resource: dict[str, Any] = {"type": kind}
        if kind in (p.CHANNEL_MESSAGE, p.DEFERRED_CHANNEL_MESSAGE):
            msg = p.message(next(self._ids), data, interaction_id=iid, user_id=record.user_id)
            self.messages[int(msg["id"])] = msg
            record.message_id = int(msg["id"])
            resource["message"] = msg
        elif kind == p.UPDATE_MESSAGE and record.source_message in self.messages:
            record.message_id = record.source_message
            resource["message"] = self._edit(record.source_message, data)
        elif kind == p.DEFERRED_UPDATE:
            record.message_id = record.source_message
        record.done.set()
        if not with_response:  # as Discord: the callback object only when asked for
            return web.Response(status=204)
        msg = resource.get("message") or {}
        return _json({
            "interaction": {"id": str(iid), "type": record.kind,
                            "response_message_id": msg.get("id"),
                            "response_message_loading": kind == p.DEFERRED_CHANNEL_MESSAGE,
                            "response_message_ephemeral": bool(
                                int(msg.get("flags") or 0) & p.EPHEMERAL)},
            "resource": resource,
        })

    def _webhook(self, method: str, token: str, target: str | None,
                 body: dict[str, Any]) -> web.Response:
        record = self._by_token.get(token)
        if record is None or time.perf_counter() - record.sent_at > 15 * 60:
            return _error(401, 50027, "Invalid Webhook Token")
        if record.answered_at is None:
            return _error(404, 10015, "Unknown Webhook")
        if problem := _invalid(body):
            return _error(400, 50035, f"Invalid Form Body: {problem}")
        if target is None and method == "POST":  # a follow-up message
            record.followups.append(body)
            msg = p.message(next(self._ids), body, interaction_id=record.id,
                            user_id=record.user_id)
            self.messages[int(msg["id"])] = msg
            return _json(msg)
        message_id = record.message_id if target == "@original" else int(target or 0)
        if message_id not in self.messages:
            return _error(404, 10008, "Unknown Message")
        if method == "PATCH":
            record.followups.append(body)
            return _json(self._edit(message_id, body))
        if method == "GET":
            return _json(self.messages[message_id])
        if method == "DELETE":
            del self.messages[message_id]
            return web.Response(status=204)
        return _error(405, 0, "405: Method Not Allowed")

    def _edit(self, message_id: int, data: dict[str, Any]) -> dict[str, Any]:
        msg = self.messages[message_id]
        msg.update({k: data[k] for k in ("content", "embeds", "components") if k in data})
        msg["edited_timestamp"] = p.TIMESTAMP
        return msg


def _invalid(data: dict[str, Any]) -> str | None:
    """Discord's component limits, as a 50035 would name them."""
    rows = data.get("components") or []
    if len(rows) > 5:
        return "components: must be 5 or fewer in length"
    for row in rows:
        if row.get("type") == 1 and len(row.get("components") or []) > 5:
            return "components.components: must be 5 or fewer in length"
    for button in p.buttons(data):
        if len(button.get("custom_id") or "") > 100:
            return "custom_id: Must be 100 or fewer in length."
        if len(button.get("label") or "") > 80:
            return "label: Must be 80 or fewer in length."
    return None


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')


async def _body(request: web.Request) -> dict[str, Any]:
    """A JSON body, or the ``payload_json`` part of a multipart one (files are dropped)."""
    if request.content_type.startswith("multipart/"):
        found = _BOUNDARY.search(request.headers.get("Content-Type", ""))
        return payload_json(await request.read(), found[1].encode() if found else b"")
    if not request.can_read_body:
        return {}
    return await request.json(loads=orjson.loads)


def payload_json(raw: bytes, boundary: bytes) -> dict[str, Any]:
    """The ``payload_json`` part of a multipart body. Split in one pass over the bytes:
    aiohttp's part reader, line by line through a table picture, cost the stand-in more CPU
    than the bot spent attaching it, and the stand-in shares the machine with the bot."""
    if not boundary:
        return {}
    for part in raw.split(b"--" + boundary):
        head, blank, content = part.partition(b"\r\n\r\n")
        if blank and b'name="payload_json"' in head:
            return orjson.loads(content.removesuffix(b"\r\n"))  # type: ignore[no-any-return]
    return {}


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py decodes a body only when Content-Type is exactly "application/json".
    return web.Response(body=orjson.dumps(data), status=status,
                        headers={"Content-Type": "application/json"} | (headers or {}))


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status=status)


def _fault(fault: Fault) -> web.Response:
    if fault.status == 429:
        return _json(
            {"message": "You are being rate limited.", "retry_after": fault.retry_after,
             "global": False},
            status=429,
            headers={"Retry-After": str(max(1, round(fault.retry_after))),
                     "Via": "1.1 google", "X-RateLimit-Scope": "user"},
        )
    return _json({"message": "Server error", "code": 0}, status=fault.status)
