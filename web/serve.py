"""Serving the Activity: :func:`start` inside a running process (the bot's, when
``WEB_PORT`` is set, or ``python -m web``), :func:`stop` at its end."""

from __future__ import annotations

import logging

from aiohttp import web

from core import Core
from core.redact import Redact
from web.app import create_app
from web.auth import Auth
from web.config import WebConfig

log = logging.getLogger(__name__)


def redact_secrets(config: WebConfig) -> None:
    """Add the web's secrets to every redacting filter of the root logger's handlers (the
    bot's log, or ``python -m web``'s), so that the client secret is never written."""
    for handler in logging.getLogger().handlers:
        for found in handler.filters:
            if isinstance(found, Redact):
                for secret in config.secrets:
                    found.add(secret)


async def start(core: Core, config: WebConfig, *, auth: Auth | None = None) -> web.AppRunner:
    """Serve the Activity on ``config.host``:``config.port`` (0: a free port); the runner,
    for :func:`stop`. ``ConfigError`` when a needed setting is missing."""
    config.require()
    redact_secrets(config)
    app = create_app(core, config, auth=auth)
    runner = web.AppRunner(app, access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, config.host, config.port)
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    log.info("the Activity is served on http://%s:%s", config.host, port_of(runner))
    return runner


def port_of(runner: web.AppRunner) -> int:
    """The port the runner listens on (the one chosen when ``WEB_PORT`` was 0)."""
    for site in runner.sites:
        server = getattr(site, "_server", None)
        if server is not None and server.sockets:
            return int(server.sockets[0].getsockname()[1])
    raise RuntimeError("the runner is not listening")


async def stop(runner: web.AppRunner) -> None:
    """Stop serving: open requests are answered, then the sockets close."""
    await runner.cleanup()
    log.info("the Activity is no longer served")
