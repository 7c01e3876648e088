"""Operator settings read from the environment: the table-pictures switch."""

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
