"""Operator settings read from the environment: the table-pictures and par switches, and
whether the Activity is on."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings


def test_the_par_solver_runs_unless_turned_off() -> None:
    assert Settings.from_env({}).par_solver
    assert not Settings.from_env({"PAR_SOLVER": "off"}).par_solver
    with pytest.raises(ConfigError, match="PAR_SOLVER must be on or off, not 'later'"):
        Settings.from_env({"PAR_SOLVER": "later"})


def test_table_pictures_are_on_unless_turned_off() -> None:
    assert Settings.from_env({}).table_pictures
    assert Settings.from_env({"TABLE_PICTURES": "on"}).table_pictures
    assert not Settings.from_env({"TABLE_PICTURES": "OFF"}).table_pictures
    with pytest.raises(ConfigError, match="TABLE_PICTURES must be on or off, not 'maybe'"):
        Settings.from_env({"TABLE_PICTURES": "maybe"})


def test_the_activity_is_off_unless_the_web_adapter_is_set_up_or_it_is_turned_on() -> None:
    web = {"WEB_PORT": "8088", "DISCORD_CLIENT_SECRET": "s3cret"}
    assert not Settings.from_env({}).activity
    assert not Settings.from_env({"WEB_PORT": "8088"}).activity
    assert not Settings.from_env({"DISCORD_CLIENT_SECRET": "s3cret"}).activity
    assert not Settings.from_env({"WEB_PORT": " ", "DISCORD_CLIENT_SECRET": "s3cret"}).activity
    assert Settings.from_env(web).activity
    # The web adapter in its own process (python -m web): the bot's .env says so.
    assert Settings.from_env({"ACTIVITY": "on"}).activity
    assert not Settings.from_env({**web, "ACTIVITY": "off"}).activity
    with pytest.raises(ConfigError, match="ACTIVITY must be on or off, not 'yes'"):
        Settings.from_env({"ACTIVITY": "yes"})


def test_the_bot_runs_the_table_cog_only_with_the_activity_on(tmp_path) -> None:
    from bot.client import ACTIVITY_EXTENSIONS, EXTENSIONS, create_bot

    off = create_bot(tmp_path / "a.sqlite3")
    on = create_bot(tmp_path / "b.sqlite3", embedded_activity=True)
    assert off.extensions_to_load() == EXTENSIONS
    assert "bot.cogs.table" not in EXTENSIONS
    assert on.extensions_to_load() == EXTENSIONS + ACTIVITY_EXTENSIONS == (
        *EXTENSIONS, "bot.cogs.table")
