"""The Activity's aiohttp application: the JSON API (``web.api``) and the built client
(``web/dist/``: ``index.html``, ``assets/``, ``faces/``), every route under ``/`` and under
``/.proxy/`` (Discord's proxy prefix), with a Content-Security-Policy on every answer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp import web

from core import Core, Run
from language import Language
from web import api
from web.auth import Auth
from web.config import WebConfig
from web.errors import middleware

DIST = Path(__file__).parent / "dist"
PREFIXES = ("", "/.proxy")
#: The largest request body accepted (a move is a few dozen bytes).
MAX_BODY = 16 * 1024

#: Only the page's own origin (Discord serves it from ``<client id>.discordsays.com``, and
#: proxies everything the page fetches through it); Discord's client frames the page.
CSP = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",  # the page sets no inline style (tests/client fails on a refusal)
    "img-src 'self' data: blob: https://cdn.discordapp.com",
    "font-src 'self'",
    "connect-src 'self' https://*.discordsays.com wss://*.discordsays.com",
    "frame-ancestors 'self' https://discord.com https://*.discord.com https://*.discordsays.com",
    "base-uri 'self'",
    "form-action 'none'",
    "object-src 'none'",
))
INDEX_CACHE = "no-store"
ASSET_CACHE = "public, max-age=31536000, immutable"  # hashed names: a new build, a new name
FACE_CACHE = "public, max-age=86400"

CONFIG: web.AppKey[WebConfig] = web.AppKey("config", WebConfig)
DIST_KEY: web.AppKey[Path] = web.AppKey("dist", Path)


@web.middleware
async def headers(request: web.Request, handler: api.Handler) -> web.StreamResponse:
    response = await handler(request)
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


def create_app(core: Core, config: WebConfig, *, auth: Auth | None = None,
               dist: Path = DIST) -> web.Application:
    """The application over ``core``; ``auth`` (made from ``config`` when None) is closed
    with it."""
    auth = auth or Auth(config.discord_api, config.client_id, config.client_secret)

    async def refused_run(run: Run, language: Language) -> dict[str, Any]:
        return await api.run_payload(run, language, core)

    app = web.Application(client_max_size=MAX_BODY,
                          middlewares=[headers, middleware(refused_run), api.signed_in])
    app[api.CORE] = core
    app[CONFIG] = config
    app[api.AUTH] = auth
    app[DIST_KEY] = dist

    async def close_auth(_: web.Application) -> None:
        await auth.close()

    app.on_cleanup.append(close_auth)
    for prefix in PREFIXES:
        for method, path, handler in api.ROUTES:
            app.router.add_route(method, prefix + path, handler)
        app.router.add_get(prefix + "/", index)
        app.router.add_get(prefix + "/index.html", index)
        app.router.add_get(prefix + "/assets/{name:[A-Za-z0-9._-]+}", asset)
        app.router.add_get(prefix + "/faces/{name:[A-Za-z0-9._-]+}", face)
    return app


NOT_BUILT = ("The table is not built on this server: run make (it builds web/dist/ from "
             "web/client/).")


async def index(request: web.Request) -> web.StreamResponse:
    page = request.app[DIST_KEY] / "index.html"
    if not page.is_file():
        return web.Response(status=503, text=NOT_BUILT, headers={"Cache-Control": "no-store"})
    return web.FileResponse(page, headers={"Cache-Control": INDEX_CACHE})


async def asset(request: web.Request) -> web.StreamResponse:
    return _file(request, "assets", ASSET_CACHE)


async def face(request: web.Request) -> web.StreamResponse:
    return _file(request, "faces", FACE_CACHE)


def _file(request: web.Request, folder: str, cache: str) -> web.StreamResponse:
    name = request.match_info["name"]
    path = request.app[DIST_KEY] / folder / name
    # The route's pattern has no slash; a name of dots alone stays in the folder too.
    if name.strip(".") == "" or not path.is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(path, headers={"Cache-Control": cache})
