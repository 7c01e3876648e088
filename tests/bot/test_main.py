"""``python -m bot`` as an operator runs it: in a fresh directory, with a bare environment."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
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
    done = run_bot(tmp_path, "sync", DEV_GUILD_ID="my-server", DISCORD_TOKEN="x")
    assert done.returncode == 2
    assert done.stderr == "DEV_GUILD_ID must be a server id (digits only), not 'my-server'.\n"
    done = run_bot(tmp_path, "migrate", LOG_LEVEL="chatty")
    assert done.returncode == 2
    assert done.stderr.startswith("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")


def test_a_malformed_setting_a_command_does_not_use_does_not_stop_it(tmp_path):
    unrelated = {"DEV_GUILD_ID": "abc", "METRICS_PORT": "none", "SHARD_IDS": "x"}

    migrated = run_bot(tmp_path, "migrate", **unrelated)
    backed_up = run_bot(tmp_path, "backup", "backups/deck.sqlite3", **unrelated)

    assert migrated.returncode == 0, migrated.stderr
    assert migrated.stdout == f"{Path('data/dungeon-deck.sqlite3')}: schema version {LATEST}\n"
    assert backed_up.returncode == 0, backed_up.stderr
    assert (tmp_path / "backups" / "deck.sqlite3").is_file()


def closed_port() -> int:
    """A local TCP port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("command", [["migrate"], ["copy-to", "{url}"]])
def test_an_unreachable_postgresql_is_one_sentence_naming_the_cause_at_once(tmp_path, command):
    port = closed_port()
    url = f"postgresql://dungeon:secret@127.0.0.1:{port}/dungeon"
    (tmp_path / "deck.sqlite3").touch()
    started = time.monotonic()

    done = run_bot(tmp_path, *[part.format(url=url) for part in command],
                   DATABASE_URL=url, DATABASE_PATH="deck.sqlite3")

    assert time.monotonic() - started < 10, "no 30 s of pool retries"
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"Cannot connect to PostgreSQL: connection refused at 127.0.0.1:{port}.\n"
    )


def test_sync_with_discord_unreachable_gives_up_soon_in_one_sentence(tmp_path):
    port = closed_port()
    started = time.monotonic()

    done = run_bot(tmp_path, "sync", DISCORD_TOKEN="a.b.c",
                   DISCORD_API_BASE=f"http://127.0.0.1:{port}")

    assert time.monotonic() - started < 30
    assert done.returncode == 1
    assert done.stderr.count("Discord cannot be reached (attempt") == 2, done.stderr
    last = done.stderr.splitlines()[-1]
    assert last.startswith("Discord cannot be reached (")
    assert last.endswith("; 3 attempts): the commands were not synced, try again later.")
    assert "Stopping" not in done.stderr and "clicks" not in done.stderr


def test_sigterm_during_sync_says_the_commands_were_not_synced(tmp_path):
    bot = subprocess.Popen(
        [sys.executable, "-m", "bot", "sync"], cwd=tmp_path, stderr=subprocess.PIPE, text=True,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT),
             "DISCORD_TOKEN": "a.b.c", "DISCORD_API_BASE": f"http://127.0.0.1:{closed_port()}"},
    )
    try:
        assert bot.stderr is not None
        seen = [next(line for line in bot.stderr if "Discord cannot be reached" in line)]
        bot.send_signal(signal.SIGTERM)
        seen += bot.stderr.readlines()
        assert bot.wait(10) == 1
    finally:
        bot.kill()
    text = "".join(seen)
    assert "Stopping on SIGTERM: the commands were not synced" in text
    assert "clicks" not in text
    assert seen[-1] == "Stopped before the commands were synced.\n"


def test_the_emoji_dry_run_draws_the_faces_in_the_configured_colours(tmp_path) -> None:
    from bot.pictures.faces import face_png

    for colours in ("two", "four"):
        out = tmp_path / colours
        done = run_bot(tmp_path, "emoji", "--dry-run", "--out", str(out), CARD_COLOURS=colours)
        assert done.returncode == 0, done.stderr
        assert f"{colours} colours" in done.stdout
        assert (out / "dd_AC.png").read_bytes() == face_png("AC", colours)
