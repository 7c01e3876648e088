"""The PostgreSQL and shard settings, and the bot they build (no connection needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord.ext import commands

from bot.client import DungeonBot, ShardedDungeonBot, create_bot
from bot.config import ConfigError, Settings

URL = "postgresql://dungeon:s3cret@db.example:5432/dungeon"


def test_without_them_sqlite_and_one_connection(tmp_path: Path) -> None:
    settings = Settings.from_env({"DATABASE_PATH": str(tmp_path / "deck.sqlite3")})
    assert settings.database == tmp_path / "deck.sqlite3"
    assert (settings.shard_count, settings.shard_ids, settings.shard_auto) == (None, None, False)
    bot = create_bot(settings.database)
    assert type(bot) is DungeonBot and not isinstance(bot, commands.AutoShardedBot)
    assert bot.database_path == tmp_path / "deck.sqlite3"


def test_a_process_on_some_shards_of_postgresql() -> None:
    settings = Settings.from_env({
        "DATABASE_URL": URL, "DATABASE_POOL_SIZE": "8", "SHARD_COUNT": "4",
        "SHARD_IDS": "3, 1",
    })
    assert settings.database == URL
    assert settings.database_label == "postgresql://dungeon@db.example:5432/dungeon"
    assert (settings.database_pool_size, settings.shard_count, settings.shard_ids) == (
        8, 4, (1, 3))
    bot = create_bot(settings.database, shard_count=settings.shard_count,
                     shard_ids=settings.shard_ids)
    assert isinstance(bot, ShardedDungeonBot) and isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    assert bot.database_path == URL  # a URL stays a URL (not a path)


def test_auto_runs_every_recommended_shard_here() -> None:
    settings = Settings.from_env({"SHARD_COUNT": "auto"})
    assert (settings.shard_count, settings.shard_auto) == (None, True)
    bot = create_bot("deck.sqlite3", sharded=settings.shard_auto)
    assert isinstance(bot, ShardedDungeonBot) and bot.shard_count is None


@pytest.mark.parametrize(("env", "message"), [
    ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL must be a PostgreSQL URL"),
    ({"DATABASE_READ_URL": "data/replica.sqlite3"}, "DATABASE_READ_URL must be a PostgreSQL"),
    ({"DATABASE_POOL_SIZE": "0"}, "DATABASE_POOL_SIZE must be a whole number of at least 1"),
    ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
    ({"DATABASE_URL": URL, "SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
    ({"DATABASE_URL": URL, "SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "below SHARD_COUNT \\(2\\)"),
    ({"DATABASE_URL": URL, "SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "separated by commas"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "must share a PostgreSQL database"),
    ({"DATABASE_URL": URL, "SHARD_COUNT": "auto", "SHARD_IDS": "1"}, "not auto"),
])
def test_malformed_settings_are_one_sentence(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as refused:
        Settings.from_env(env)
    text = str(refused.value)
    assert text.endswith(".") and "\n" not in text and "s3cret" not in text
