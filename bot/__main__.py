"""``python -m bot`` (and the ``dungeon-deck`` script): run the bot, migrate, or sync commands.

    python -m bot              # or: python -m bot run — connect and serve
    python -m bot migrate      # apply pending migrations, print the schema version
    python -m bot sync         # push the slash commands to Discord now, then exit
    python -m bot backup PATH [--overwrite]  # copy the database to PATH while the bot runs
    python -m bot emoji --dry-run [--out DIR]  # write the card faces to DIR (data/emoji)
    python -m bot copy-to postgresql://…  # move the SQLite database into an empty PostgreSQL
    python -m bot ratings --recompute  # rebuild every rating from the stored daily boards

Settings come from the environment, after loading ``.env`` from the current directory (see
``.env.example``). Without ``DISCORD_TOKEN``, ``run`` and ``sync`` exit with status 2, as
they do when Discord refuses the token. How the bot starts (retrying while Discord cannot be
reached) and stops (SIGTERM or Ctrl-C) is in :mod:`bot.ops.lifecycle`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

import discord
import yarl
from dotenv import load_dotenv

from bot.config import ConfigError, Settings
from bot.migrate import migrate as apply_migrations
from bot.ops import lifecycle, logs
from bot.ops.copy import copy_command
from bot.ops.ratings import ratings_command
from bot.pictures.emoji import emoji_command
from store.backup import BackupError, backup
from store.reach import Unreachable

log = logging.getLogger("bot")

EXIT_CONFIG = 2
#: The gateway's close code for a token it does not accept.
GATEWAY_AUTHENTICATION_FAILED = 4004
TOKEN_REFUSED = "Discord refused DISCORD_TOKEN: copy the bot token again into .env."
#: The settings each command reads, besides the secrets the log keeps out (None: all of
#: them), so that a malformed setting a command does not use cannot stop it.
SECRETS = ("DISCORD_TOKEN", "DAILY_SECRET", "DISCORD_CLIENT_SECRET")
SETTINGS_USED: dict[str, tuple[str, ...] | None] = {
    "run": None,
    "sync": None,
    "migrate": ("DATABASE_PATH", "DATABASE_URL", "LOG_LEVEL", *SECRETS),
    "backup": ("DATABASE_PATH", "DATABASE_URL", "LOG_LEVEL", *SECRETS),
    "copy-to": ("DATABASE_PATH", "LOG_LEVEL", *SECRETS),
    "emoji": ("CARD_COLOURS", "LOG_LEVEL", *SECRETS),
    "ratings": ("DATABASE_PATH", "DATABASE_URL", "LOG_LEVEL", *SECRETS),
}
NOT_SYNCED = "Stopped before the commands were synced."
BACKUP_POSTGRES = (
    "DATABASE_URL is set, so the data is in PostgreSQL: back it up with pg_dump "
    "(python -m bot backup copies the SQLite file)."
)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line, read the settings, and do it; returns the exit status."""
    args = _parser().parse_args(argv)
    # The .env of the directory the bot is started from (`make run`: the project root);
    # variables already set in the environment win.
    load_dotenv(Path.cwd() / ".env", override=False)
    try:
        settings = Settings.from_env(only=SETTINGS_USED[args.command])
        needs_token = args.command in ("run", "sync")
        token = settings.require_token() if needs_token else None
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_CONFIG
    redact = logs.setup(settings.log_level, secrets=logs.secrets_of(settings))
    if settings.discord_api_base:
        point_discord_at(settings.discord_api_base)
    if args.command == "migrate":
        return migrate(settings)
    if args.command == "backup":
        return make_backup(settings, args.path, overwrite=args.overwrite)
    if args.command == "emoji":
        return emoji_command(args.out, dry_run=args.dry_run, colours=settings.card_colours)
    if args.command == "copy-to":
        return copy_command(settings.database_path, args.url)
    if args.command == "ratings":
        return ratings_command(settings, recompute=args.recompute)
    assert token is not None  # required above for run and sync
    # Until serve() installs its own handlers: SIGTERM as Ctrl-C, a clean stop either way.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        process = asyncio.run(lifecycle.serve(
            settings, token, sync_only=args.command == "sync", redact=redact
        ))
    except lifecycle.Unreachable as exc:
        print(exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        if args.command == "sync":
            print(NOT_SYNCED, file=sys.stderr)
            return 1
        log.info("Stopped.")
        return 0
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_CONFIG
    except discord.LoginFailure:
        print(TOKEN_REFUSED, file=sys.stderr)
        return EXIT_CONFIG
    except discord.ConnectionClosed as exc:
        if exc.code == GATEWAY_AUTHENTICATION_FAILED:
            print(TOKEN_REFUSED, file=sys.stderr)
            return EXIT_CONFIG
        print(f"Discord closed the connection for good (code {exc.code}: {exc.reason}).",
              file=sys.stderr)
        return 1
    except Exception:
        # Through the log handler, which keeps the token and the daily secret out of it.
        log.exception("The bot stopped on an unexpected error")
        return 1
    if process.sync_only and not process.synced:
        print(NOT_SYNCED, file=sys.stderr)
        return 1
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run Dungeon Deck's Discord bot, migrate or back up its database, "
        "or sync its commands.",
    )
    commands = parser.add_subparsers(dest="command", metavar="command")
    commands.add_parser("run", help="connect to Discord and serve (the default)")
    commands.add_parser("migrate", help="apply pending migrations, print the schema version")
    commands.add_parser("sync", help="push the slash commands to Discord now, then exit")
    backup = commands.add_parser(
        "backup", help="copy the database to PATH while the bot runs (consistent, online)"
    )
    backup.add_argument("path", type=Path, metavar="PATH", help="the backup file to write")
    backup.add_argument("--overwrite", action="store_true",
                        help="replace PATH if it exists (else the backup is refused)")
    emoji = commands.add_parser("emoji", help="write the card-face emoji to a folder to look at")
    emoji.add_argument("--dry-run", action="store_true", help="write the faces, upload nothing")
    emoji.add_argument("--out", type=Path, metavar="DIR", help="the folder (data/emoji)")
    copy_to = commands.add_parser(
        "copy-to", help="copy the SQLite database (DATABASE_PATH) into an empty PostgreSQL one"
    )
    copy_to.add_argument("url", metavar="URL", help="the target, postgresql://user@host/db")
    ratings = commands.add_parser(
        "ratings", help="rate the closed days not rated yet, or rebuild every rating"
    )
    ratings.add_argument("--recompute", action="store_true",
                         help="rebuild every rating from the stored daily boards (after a "
                         "rules or rating change) and replace the stored ones")
    parser.set_defaults(command="run")
    return parser


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def point_discord_at(base: str) -> None:
    """Send discord.py's REST calls and gateway connection to ``base`` (``DISCORD_API_BASE``),
    a local stand-in for Discord: for benchmarks and tests only."""
    discord.http.Route.BASE = f"{base}/api/v10"  # the webhook adapter builds on it too
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws{base[4:]}/")
    log.warning("DISCORD_API_BASE is set: talking to %s, not to Discord", base)


def migrate(settings: Settings) -> int:
    """Apply pending migrations to the database and print its schema version."""
    if settings.database_url is None:
        settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        version = asyncio.run(apply_migrations(settings.database))
    except ValueError as exc:  # the database is newer than this release
        print(f"{settings.database_label}: {exc}.", file=sys.stderr)
        return 1
    except Unreachable as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"{settings.database_label}: schema version {version}")
    return 0


def make_backup(settings: Settings, path: Path, *, overwrite: bool = False) -> int:
    """Copy the database to ``path`` (see :mod:`store.backup`) and say what was written."""
    if settings.database_url is not None:  # a stale SQLite file may lie at DATABASE_PATH
        print(BACKUP_POSTGRES, file=sys.stderr)
        return 1
    try:
        made = backup(settings.database_path, path, overwrite=overwrite)
    except BackupError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"{settings.database_path} backed up to {made.path} "
          f"({made.size / 1024:,.0f} KiB, {made.seconds:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
