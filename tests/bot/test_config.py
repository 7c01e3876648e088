"""Operator settings read from the environment: the table-pictures and par switches,
whether the Activity is on, and the interactions endpoint."""

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


KEY = "3f" * 32  # an application's Public Key as the Developer Portal shows it


def test_the_interactions_endpoint_is_off_until_its_key_and_port_are_set() -> None:
    off = Settings.from_env({})
    assert off.interactions_public_key is None and off.interactions_port is None
    on = Settings.from_env({"INTERACTIONS_PUBLIC_KEY": KEY.upper(), "INTERACTIONS_PORT": "8443"})
    assert on.interactions_public_key == bytes.fromhex(KEY)
    assert (on.interactions_host, on.interactions_port) == ("127.0.0.1", 8443)
    there = Settings.from_env({"INTERACTIONS_PUBLIC_KEY": KEY, "INTERACTIONS_PORT": "8443",
                               "INTERACTIONS_HOST": "0.0.0.0"})
    assert there.interactions_host == "0.0.0.0"


@pytest.mark.parametrize(("env", "sentence"), [
    ({"INTERACTIONS_PUBLIC_KEY": KEY[:-2], "INTERACTIONS_PORT": "8443"},
     "INTERACTIONS_PUBLIC_KEY must be the application's Public Key from the Developer Portal "
     "(General Information): 64 hexadecimal digits, not '3f3f"),
    ({"INTERACTIONS_PUBLIC_KEY": "z" * 64, "INTERACTIONS_PORT": "8443"},
     "64 hexadecimal digits, not 'zzz"),
    ({"INTERACTIONS_PUBLIC_KEY": KEY}, "INTERACTIONS_PUBLIC_KEY needs INTERACTIONS_PORT"),
    ({"INTERACTIONS_PORT": "8443"}, "INTERACTIONS_PORT needs INTERACTIONS_PUBLIC_KEY"),
    ({"INTERACTIONS_PUBLIC_KEY": KEY, "INTERACTIONS_PORT": "0"},
     "INTERACTIONS_PORT must be a port number from 1 to 65535, not '0'."),
    ({"INTERACTIONS_PUBLIC_KEY": KEY, "INTERACTIONS_PORT": "8443",
      "INTERACTIONS_HOST": "https://bot.example"}, "INTERACTIONS_HOST must be an address"),
    ({"INTERACTIONS_HOST": "0.0.0.0"}, "INTERACTIONS_HOST needs INTERACTIONS_PUBLIC_KEY"),
])
def test_a_malformed_interactions_setting_is_one_sentence(env, sentence) -> None:
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(env)
    message = str(refused.value)
    assert sentence in message
    assert message.count(". ") == 0 and message.endswith((".", ")."))
