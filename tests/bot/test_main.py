"""``python -m bot`` as an operator runs it: in a fresh directory, with a bare environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import NO_TOKEN
from store.migrations import folder

ROOT = Path(__file__).resolve().parents[2]
LATEST = max(int(p.name.split("_")[0]) for p in folder("sqlite").glob("*.sql"))


def run_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` with only PATH and the project on the import path."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("command", [[], ["run"], ["sync"]])
def test_without_a_token_it_says_what_to_set_and_exits_2(tmp_path, command):
    (tmp_path / ".env").write_text("# copied from .env.example\nDISCORD_TOKEN=\n")

    done = run_bot(tmp_path, *command)

    assert done.returncode == 2
    assert done.stderr == NO_TOKEN + "\n"
    assert NO_TOKEN.startswith("Set DISCORD_TOKEN in .env (copy .env.example)")
    assert done.stdout == ""
    assert not (tmp_path / "data").exists(), "nothing is created without a token"


def test_the_console_script_entry_point_returns_2_without_a_token(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    assert capsys.readouterr().err == NO_TOKEN + "\n"


def test_migrate_creates_the_database_and_prints_the_schema_version(tmp_path):
    done = run_bot(tmp_path, "migrate")

    assert done.returncode == 0, done.stderr
    default = Path("data") / "dungeon-deck.sqlite3"
    assert done.stdout == f"{default}: schema version {LATEST}\n"
    assert (tmp_path / default).is_file()
    again = run_bot(tmp_path, "migrate")
    assert again.stdout == done.stdout


def test_settings_come_from_the_env_file_of_the_current_directory(tmp_path):
    (tmp_path / ".env").write_text("DATABASE_PATH=saves/deck.sqlite3\nLOG_LEVEL=warning\n")

    done = run_bot(tmp_path, "migrate")

    assert done.stdout == f"{Path('saves/deck.sqlite3')}: schema version {LATEST}\n"
    assert (tmp_path / "saves" / "deck.sqlite3").is_file()


def test_a_malformed_setting_is_named(tmp_path):
    done = run_bot(tmp_path, "migrate", DEV_GUILD_ID="my-server")
    assert done.returncode == 2
    assert done.stderr == "DEV_GUILD_ID must be a server id (digits only), not 'my-server'.\n"
