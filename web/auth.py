"""Who is asking: the OAuth2 code exchange and the access token -> user mapping.

The client gets a code from the Embedded App SDK (``authorize``); :meth:`Auth.exchange`
trades it at ``{DISCORD_API}/oauth2/token`` with the client secret (which never leaves the
server). Every API call then carries ``Authorization: Bearer <token>``; :meth:`Auth.user`
asks Discord whose token it is (``/users/@me`` and ``/users/@me/guilds``) and keeps the answer
for at most :data:`CACHE_SECONDS`, in a cache of at most :data:`CACHE_SIZE` tokens, and never
past the token's own ``expires_in`` when this server exchanged it (after that the token is
refused without asking Discord, which would refuse it too). A token
Discord refuses is :class:`SignedOut` (and dropped from the cache); Discord unreachable is
:class:`DiscordUnreachable`. Nothing the client says about who it is is ever believed.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import aiohttp

log = logging.getLogger(__name__)

#: How long a token's user is kept before Discord is asked again (seconds): a token revoked
#: on Discord keeps working here at most this long.
CACHE_SECONDS = 3600.0
CACHE_SIZE = 10_000
#: How long to wait for Discord (seconds).
TIMEOUT = 10.0
#: Longest token accepted from a client (Discord's are about 30 characters).
MAX_TOKEN = 200


class SignedOut(Exception):
    """No token, or one Discord does not know (forged, expired, revoked)."""


class BadCode(Exception):
    """Discord refused the authorization code (unknown, used, or for another app)."""


class DiscordUnreachable(Exception):
    """Discord did not answer, or answered with an error of its own."""


@dataclass(frozen=True)
class User:
    """A signed-in player, as Discord says."""

    id: int
    name: str  # global_name, else username
    locale: str | None
    guilds: frozenset[int]


class Auth:
    """The exchange and the token cache, over one :class:`aiohttp.ClientSession`."""

    def __init__(self, api: str, client_id: str | None, client_secret: str | None, *,
                 cache_seconds: float = CACHE_SECONDS, cache_size: int = CACHE_SIZE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.api = api.rstrip("/")
        self.client_id = client_id
        self._client_secret = client_secret
        self._cache_seconds = cache_seconds
        self._cache_size = cache_size
        # sha256(token) -> (user, expires at, monotonic): the tokens themselves are not kept.
        self._cache: OrderedDict[bytes, tuple[User, float]] = OrderedDict()
        # sha256(token) -> when it expires (monotonic), for the tokens exchanged here.
        self._lifetimes: OrderedDict[bytes, float] = OrderedDict()
        self._clock = clock
        self._session: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT))
        return self._session

    async def exchange(self, code: str) -> tuple[str, int]:
        """``(access_token, expires_in)`` for an authorization code; ``BadCode``,
        ``DiscordUnreachable``."""
        form = {"client_id": self.client_id or "", "client_secret": self._client_secret or "",
                "grant_type": "authorization_code", "code": code}
        try:
            async with self._http().post(f"{self.api}/oauth2/token", data=form) as response:
                if response.status in (400, 401):
                    raise BadCode()
                if response.status != 200:
                    raise DiscordUnreachable(f"token endpoint answered {response.status}")
                data = await response.json(content_type=None)
        except (TimeoutError, aiohttp.ClientError, ValueError) as exc:
            raise DiscordUnreachable(describe(exc)) from None
        token, expires = data.get("access_token"), data.get("expires_in")
        if not isinstance(token, str) or not isinstance(expires, int):
            raise DiscordUnreachable("token endpoint answered without a token")
        while len(self._lifetimes) >= self._cache_size:
            self._lifetimes.popitem(last=False)
        self._lifetimes[_key(token)] = self._clock() + expires
        return token, expires

    async def user(self, token: str | None) -> User:
        """The token's user (cached); ``SignedOut``, ``DiscordUnreachable``."""
        if not token or len(token) > MAX_TOKEN or not token.isascii() or not token.isprintable():
            raise SignedOut()
        key = _key(token)
        now = self._clock()
        ends = self._lifetimes.get(key, float("inf"))
        if ends <= now:
            self._cache.pop(key, None)
            raise SignedOut()
        found = self._cache.get(key)
        if found is not None:
            if found[1] > now:
                return found[0]
            del self._cache[key]
        me = await self._get(token, "/users/@me")
        guilds = await self._get(token, "/users/@me/guilds")
        try:
            user = User(
                id=int(me["id"]), name=str(me.get("global_name") or me["username"]),
                locale=me.get("locale") if isinstance(me.get("locale"), str) else None,
                guilds=frozenset(int(g["id"]) for g in guilds),
            )
        except (KeyError, TypeError, ValueError):
            raise DiscordUnreachable("/users/@me answered something unexpected") from None
        while len(self._cache) >= self._cache_size:
            self._cache.popitem(last=False)
        self._cache[key] = (user, min(now + self._cache_seconds, ends))
        return user

    def forget(self, token: str) -> None:
        self._cache.pop(_key(token), None)

    async def _get(self, token: str, path: str) -> object:
        headers = {"Authorization": f"Bearer {token}"}
        try:
            async with self._http().get(self.api + path, headers=headers) as response:
                if response.status == 401:
                    self.forget(token)
                    raise SignedOut()
                if response.status != 200:
                    raise DiscordUnreachable(f"{path} answered {response.status}")
                return await response.json(content_type=None)
        except (TimeoutError, aiohttp.ClientError, ValueError) as exc:
            raise DiscordUnreachable(describe(exc)) from None


def _key(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def describe(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
