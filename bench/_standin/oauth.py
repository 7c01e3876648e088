"""A stand-in for Discord's OAuth2 endpoints an Activity's server uses: the code exchange
(``POST /oauth2/token``) and who a token belongs to (``GET /users/@me``,
``GET /users/@me/guilds``), with Discord's answers to what is refused.

:class:`OAuthStandIn` keeps the users, codes and tokens; ``routes()`` gives an aiohttp
sub-application to mount (the bench stand-in mounts it at ``/api/v10``), and
``async with OAuthStandIn.serve() as oauth`` runs it alone on 127.0.0.1 (tests; its
``api`` is what ``DISCORD_API_BASE``'s ``/api/v10`` would be). Tests register users with
:meth:`add_user`, get codes with :meth:`code`, and expire tokens with :meth:`expire`.
"""

from __future__ import annotations

import itertools
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

CLIENT_ID = "1100000000000000001"
CLIENT_SECRET = "standin-client-secret"
TOKEN_LIFETIME = 604_800  # Discord's: a week


@dataclass
class OAuthUser:
    id: int
    username: str
    global_name: str | None = None
    locale: str = "en-US"
    guilds: list[int] = field(default_factory=list)


@dataclass
class Token:
    user_id: int
    expires_at: float


class OAuthStandIn:
    """Users, codes and tokens, and the routes that serve them."""

    def __init__(self, client_id: str = CLIENT_ID, client_secret: str = CLIENT_SECRET) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.users: dict[int, OAuthUser] = {}
        self.codes: dict[str, int] = {}  # one use each
        self.tokens: dict[str, Token] = {}
        #: (method, path) of every request, to count what the server asked.
        self.requests: list[tuple[str, str]] = []
        self.down = False  # answer 502 to everything (Discord unreachable)
        self.api = ""  # set by serve(): the base URL of the routes
        self._ids = itertools.count(1)

    # ----- what tests do ---------------------------------------------------------------------

    def add_user(self, user_id: int, username: str, *, global_name: str | None = None,
                 locale: str = "en-US", guilds: list[int] | None = None) -> OAuthUser:
        user = OAuthUser(user_id, username, global_name, locale, list(guilds or []))
        self.users[user_id] = user
        return user

    def code(self, user_id: int) -> str:
        """A fresh authorization code for the user (what ``authorize`` gives the client)."""
        code = f"code{next(self._ids)}.{secrets.token_hex(8)}"
        self.codes[code] = user_id
        return code

    def token(self, user_id: int, lifetime: int = TOKEN_LIFETIME) -> str:
        """An access token for the user, without the exchange."""
        token = f"tok{next(self._ids)}.{secrets.token_hex(16)}"
        self.tokens[token] = Token(user_id, time.time() + lifetime)
        return token

    def expire(self, token: str) -> None:
        """The token is expired (or revoked) from now on."""
        if token in self.tokens:
            self.tokens[token].expires_at = 0.0

    # ----- the routes ------------------------------------------------------------------------

    def routes(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/oauth2/token", self.token_endpoint)
        app.router.add_get("/users/@me", self.me_endpoint)
        app.router.add_get("/users/@me/guilds", self.guilds_endpoint)
        app.middlewares.append(self._record)
        return app

    @web.middleware
    async def _record(self, request: web.Request, handler: Any) -> web.StreamResponse:
        self.requests.append((request.method, request.path))
        if self.down:
            return web.json_response({"message": "Bad Gateway"}, status=502)
        return await handler(request)

    async def token_endpoint(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("client_id") != self.client_id or form.get("client_secret") != (
                self.client_secret):
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        user_id = self.codes.pop(str(form.get("code", "")), None)
        if user_id is None:  # Discord: an unknown or used code
            return web.json_response(
                {"error": "invalid_grant",
                 "error_description": 'Invalid "code" in request.'}, status=400)
        token = self.token(user_id)
        return web.json_response({"access_token": token, "token_type": "Bearer",
                                  "expires_in": TOKEN_LIFETIME, "refresh_token": "r" + token,
                                  "scope": "identify guilds"})

    def _user_of(self, request: web.Request) -> OAuthUser | None:
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return None
        found = self.tokens.get(header[7:])
        if found is None or found.expires_at <= time.time():
            return None
        return self.users.get(found.user_id)

    async def me_endpoint(self, request: web.Request) -> web.Response:
        user = self._user_of(request)
        if user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response({"id": str(user.id), "username": user.username,
                                  "global_name": user.global_name, "locale": user.locale,
                                  "discriminator": "0", "avatar": None})

    async def guilds_endpoint(self, request: web.Request) -> web.Response:
        user = self._user_of(request)
        if user is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response([{"id": str(g), "name": f"server {g}", "owner": False,
                                   "permissions": "0"} for g in user.guilds])

    @classmethod
    @asynccontextmanager
    async def serve(cls, **kwargs: Any) -> AsyncIterator[OAuthStandIn]:
        """The stand-in alone on 127.0.0.1 (a free port), its routes under ``/api/v10``."""
        oauth = cls(**kwargs)
        root = web.Application()
        root.add_subapp("/api/v10", oauth.routes())
        runner = web.AppRunner(root, access_log=None, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        oauth.api = f"http://127.0.0.1:{port}/api/v10"
        try:
            yield oauth
        finally:
            await runner.cleanup()
