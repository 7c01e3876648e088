"""Operator settings read from the environment: the table-pictures switch."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings


def test_table_pictures_are_on_unless_turned_off() -> None:
    assert Settings.from_env({}).table_pictures
    assert Settings.from_env({"TABLE_PICTURES": "on"}).table_pictures
    assert not Settings.from_env({"TABLE_PICTURES": "OFF"}).table_pictures
    with pytest.raises(ConfigError, match="TABLE_PICTURES must be on or off, not 'maybe'"):
        Settings.from_env({"TABLE_PICTURES": "maybe"})
