"""The log never holds the token or the daily secret, and a refusal is one line naming the run
and the user. Through the real bot (simcord) at DEBUG, where discord.py and aiosqlite log the
most, and through the log set-up of ``python -m bot`` (``bot.ops.logs``)."""

from __future__ import annotations

import io
import logging
import random

import aiohttp
import pytest

from bot.ops import logs

SECRET = "the daily secret 5f1c0e: never in a log"
TOKEN = "MTIzNDU2Nzg5.secret-token.never-logged"


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(daily_secret=SECRET)


def formatted(records: list[logging.LogRecord]) -> list[str]:
    """Each record as a handler would write it, traceback included."""
    form = logging.Formatter("%(name)s %(levelname)s %(message)s")
    return [form.format(record) for record in records]


async def test_playing_logs_neither_secret_and_each_refusal_is_one_line(world, caplog):
    caplog.set_level(logging.DEBUG)
    rng = random.Random(3)
    board = await world.play(world.alice, "donsol")
    board = (await world.click(world.alice, board, world.moves(board)[0]["custom_id"])).response
    (run,) = await world.core.runs.unfinished(world.alice.id)
    await world.play(world.bob, "tomb", day="2026-01-01")  # a past daily: the secret is used
    await world.play_to_the_end(world.bob, (await world.play(world.bob, "clear")), rng)
    caplog.clear()

    refused = await world.click(world.bob, board, world.moves(board)[0]["custom_id"])

    assert refused.ephemeral
    lines = [r.getMessage() for r in caplog.records
             if r.levelno >= logging.INFO and "refused" in r.getMessage()]
    assert len(lines) == 1, lines
    assert f"run {run.id}" in lines[0] and f"user {world.bob.id}" in lines[0]
    everything = formatted(caplog.records)
    assert everything
    assert not [line for line in everything if SECRET in line]


def test_the_log_set_up_redacts_secrets_in_messages_and_tracebacks(monkeypatch):
    root = logging.getLogger()
    before = list(root.handlers), root.level
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)  # logging.StreamHandler() writes to sys.stderr
    redact = logs.setup(logging.DEBUG, secrets=(TOKEN, None))
    handler = root.handlers[-1]
    try:
        redact.add(SECRET)  # learnt later, as a generated daily secret is
        log = logging.getLogger("bot.test")
        log.info("connecting with %s", TOKEN)
        try:
            raise ValueError(f"bad seed from {SECRET!r}")
        except ValueError:
            log.exception("error 1234ab: user 7, run 9")
        log.debug("aiosqlite would print %s", SECRET)
    finally:
        root.removeHandler(handler)
        root.setLevel(before[1])
    text = stream.getvalue()
    assert TOKEN not in text and SECRET not in text
    assert "connecting with [redacted]" in text
    assert "ValueError: bad seed from '[redacted]'" in text
    assert text.count("[redacted]") == 3
    assert "\x1b[" not in text, "no colour codes when the log is not a terminal"
    assert logging.getLogger("aiosqlite").getEffectiveLevel() == logging.INFO


def test_a_network_error_from_discord_py_is_one_line(monkeypatch):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.OneLineNetworkErrors())
    log = logging.getLogger("discord.client")
    log.addHandler(handler)
    try:
        try:
            raise aiohttp.ClientConnectionError("Cannot connect to host discord.com:443")
        except aiohttp.ClientError:
            log.exception("Attempting a reconnect in %.2fs", 2.5)
        try:
            raise KeyError("a bug")
        except KeyError:
            log.exception("Ignoring exception in on_interaction")
    finally:
        log.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert lines[0] == ("Attempting a reconnect in 2.50s "
                        "(ClientConnectionError: Cannot connect to host discord.com:443)")
    assert lines[1] == "Ignoring exception in on_interaction"
    assert lines[2] == "Traceback (most recent call last):", "a bug keeps its traceback"


def test_the_database_passwords_are_redacted_as_written_and_decoded(monkeypatch):
    from bot.config import Settings

    settings = Settings.from_env({
        "DATABASE_URL": "postgresql://dd:pa%40ss-9f2e@db.example:5432/dd",
        "DATABASE_READ_URL": "postgresql://reader:r3ad-only-77@replica.example/dd",
        "DISCORD_TOKEN": TOKEN,
    })
    root = logging.getLogger()
    before = list(root.handlers), root.level
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    logs.setup(logging.INFO, secrets=logs.secrets_of(settings))
    handler = root.handlers[-1]
    try:
        log = logging.getLogger("bot.test")
        log.info("connecting to %s", settings.database_url)
        try:  # a driver quoting the decoded password in its message
            raise ValueError("invalid connection option: password=pa@ss-9f2e")
        except ValueError:
            log.exception("the store could not open")
        log.warning("replica %s is behind", settings.database_read_url)
    finally:
        root.removeHandler(handler)
        root.setLevel(before[1])
    text = stream.getvalue()
    for secret in ("pa%40ss-9f2e", "pa@ss-9f2e", "r3ad-only-77"):
        assert secret not in text
    assert "postgresql://dd:[redacted]@db.example:5432/dd" in text
    assert "password=[redacted]" in text
    assert "reader:[redacted]@replica.example" in text


def test_the_activitys_client_secret_is_kept_out_of_the_log(monkeypatch):
    from bot.__main__ import SECRETS, SETTINGS_USED
    from bot.config import Settings

    client_secret = "oauth2-client-secret-4f1c9a"
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "WEB_PORT": "8088",
                                  "DISCORD_CLIENT_SECRET": client_secret})
    root = logging.getLogger()
    before = list(root.handlers), root.level
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    logs.setup(logging.INFO, secrets=logs.secrets_of(settings))
    handler = root.handlers[-1]
    try:
        log = logging.getLogger("bot.test")
        log.info("exchanging a code with client_secret=%s", client_secret)
        try:
            raise RuntimeError(f"token endpoint refused {client_secret}")
        except RuntimeError:
            log.exception("sign-in failed")
    finally:
        root.removeHandler(handler)
        root.setLevel(before[1])
    text = stream.getvalue()
    assert client_secret not in text
    assert "client_secret=[redacted]" in text
    # Every command reads it, so each one's log keeps it out.
    assert "DISCORD_CLIENT_SECRET" in SECRETS
    assert all(used is None or "DISCORD_CLIENT_SECRET" in used
               for used in SETTINGS_USED.values())
