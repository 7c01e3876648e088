"""``python -m web``: the Activity in a process of its own, beside the bot's (both on the same
database). Reads ``.env`` and the environment as the bot does, opens the core, serves until
SIGTERM or Ctrl-C; a missing or malformed setting exits 2 with one sentence."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from core import Core
from core.environment import ConfigError
from core.redact import Redact
from web import serve
from web.config import WebConfig

log = logging.getLogger("web")

LOG_FORMAT = "{asctime} {levelname:<8} {name}: {message}"


def setup_logging(config: WebConfig) -> None:
    handler = logging.StreamHandler()
    handler.addFilter(Redact(config.secrets))
    handler.setFormatter(logging.Formatter(LOG_FORMAT, "%Y-%m-%d %H:%M:%S", style="{"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.getLogger("aiosqlite").setLevel(logging.INFO)  # its DEBUG lines show arguments


async def run(config: WebConfig) -> None:
    database = config.database
    if database.url is None:
        database.path.parent.mkdir(parents=True, exist_ok=True)
    core = await Core.open(database.database, daily_secret=config.daily_secret,
                           read_url=database.read_url, pool_size=database.pool_size)
    try:
        try:
            runner = await serve.start(core, config)
        except OSError as exc:
            raise CannotListen(
                f"The Activity cannot listen on {config.host}:{config.port}: "
                f"{exc.strerror or exc}.") from None
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stopping.set)
        log.info("serving the Activity on the database %s", database.label)
        await stopping.wait()
        await serve.stop(runner)
    finally:
        await core.close()


class CannotListen(Exception):
    """The port is taken or the address is not this machine's: one sentence."""


def main() -> int:
    try:
        from dotenv import load_dotenv

        load_dotenv()
        config = WebConfig.from_env()
        config.require()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    setup_logging(config)
    try:
        asyncio.run(run(config))
    except CannotListen as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
