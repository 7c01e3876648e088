"""``python -m bot`` (and the ``dungeon-deck`` script): run the bot, migrate, or sync commands.

    python -m bot            # or: python -m bot run — connect and serve
    python -m bot migrate    # apply pending migrations, print the schema version
    python -m bot sync       # push the slash commands to Discord now, then exit

Settings come from the environment, after loading ``.env`` from the current directory (see
``.env.example``). Without ``DISCORD_TOKEN``, ``run`` and ``sync`` exit with status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

import discord
import yarl
from dotenv import load_dotenv

from bot.client import create_bot
from bot.config import ConfigError, Settings
from bot.migrate import migrate as apply_migrations

log = logging.getLogger("bot")

EXIT_CONFIG = 2


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, read the settings, and do it; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run Dungeon Deck's Discord bot, migrate its database, or sync its commands.",
    )
    parser.add_argument(
        "command", nargs="?", default="run", choices=("run", "migrate", "sync"),
        help="run the bot (default), apply migrations, or sync the slash commands",
    )
    args = parser.parse_args(argv)
    # The .env of the directory the bot is started from (`make run`: the project root);
    # variables already set in the environment win.
    load_dotenv(Path.cwd() / ".env", override=False)
    try:
        settings = Settings.from_env()
        token = settings.require_token() if args.command != "migrate" else None
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_CONFIG
    discord.utils.setup_logging(level=settings.log_level, root=True)
    if settings.discord_api_base:
        point_discord_at(settings.discord_api_base)
    if args.command == "migrate":
        return migrate(settings)
    assert token is not None  # required above for run and sync
    try:
        asyncio.run(serve(settings, token, sync_only=args.command == "sync"))
    except KeyboardInterrupt:
        log.info("Stopped.")
    except discord.LoginFailure:
        print("Discord refused DISCORD_TOKEN: copy the bot token again into .env.", file=sys.stderr)
        return EXIT_CONFIG
    return 0


def point_discord_at(base: str) -> None:
    """Send discord.py's REST calls and gateway connection to ``base`` (``DISCORD_API_BASE``),
    a local stand-in for Discord: for benchmarks and tests only."""
    discord.http.Route.BASE = f"{base}/api/v10"  # the webhook adapter builds on it too
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws{base[4:]}/")
    log.warning("DISCORD_API_BASE is set: talking to %s, not to Discord", base)


def migrate(settings: Settings) -> int:
    """Apply pending migrations to the database and print its schema version."""
    settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    version = asyncio.run(apply_migrations(settings.database_path))
    print(f"{settings.database_path}: schema version {version}")
    return 0


async def serve(settings: Settings, token: str, *, sync_only: bool = False) -> None:
    """Log in (opening the database, registering buttons and commands) and connect; with
    ``sync_only``, push the commands and stop instead of connecting."""
    bot = create_bot(
        settings.database_path,
        daily_secret=settings.daily_secret,
        dev_guild_id=settings.dev_guild_id,
        sync="force" if sync_only else "auto",
    )
    async with bot:
        if sync_only:
            await bot.login(token)
        else:
            await bot.start(token)


if __name__ == "__main__":
    sys.exit(main())
