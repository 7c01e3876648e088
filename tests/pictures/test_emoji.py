"""The card-emoji sync through discord.py against simcord's virtual Discord: the first start
uploads every face, a restart uploads nothing, a changed face re-uploads only itself, and a
refused upload leaves the boards on text cards with one warning."""

from __future__ import annotations

import logging
import re

import discord
import pytest
import simcord

from bot.pictures import emoji as card_emoji
from bot.pictures.faces import FACE_NAMES
from rules.cards import RANKS
from tests.pictures.conftest import SqliteMeta

EMOJI_ROUTE = "/applications/*/emojis"


def uploads(env: simcord.Env, since: int = 0) -> list[str]:
    """The names of the emoji the bot uploaded, in order, from request ``since`` on."""
    return [
        r.json["name"] for r in env.http_requests[since:]
        if r.method == "POST" and r.path.startswith("/applications/")
    ]


def deletions(env: simcord.Env, since: int = 0) -> list[str]:
    return [r.path for r in env.http_requests[since:]
            if r.method == "DELETE" and r.path.startswith("/applications/")]


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == card_emoji.__name__ and r.levelno == logging.WARNING]


def test_names_are_valid_and_distinct() -> None:
    names = [card_emoji.emoji_name(code) for code in FACE_NAMES]
    assert len(names) == len(set(names)) == 55
    assert all(re.fullmatch(r"[A-Za-z0-9_]{2,32}", n) for n in names)
    assert card_emoji.emoji_name("10H") == "dd_10H"


async def test_first_start_uploads_every_face(simcord_env: simcord.Env, meta: SqliteMeta) -> None:
    mapping = await card_emoji.sync_card_emoji(simcord_env.bot, meta)

    assert sorted(uploads(simcord_env)) == sorted(f"dd_{c}" for c in FACE_NAMES)
    on_discord = {e.name: e.id for e in simcord_env.backend.application_emojis.values()}
    assert set(mapping) == set(FACE_NAMES)
    for code, found in mapping.items():
        assert isinstance(found, discord.PartialEmoji)
        assert found.id == on_discord[f"dd_{code}"]
    assert str(mapping["10H"]) == f"<:dd_10H:{on_discord['dd_10H']}>"
    assert card_emoji.card_text("AS", mapping) == f"<:dd_AS:{on_discord['dd_AS']}>"
    assert card_emoji.card_text("AS", {}) == "A♠"
    assert await meta.get(card_emoji.STORE_KEY)


async def test_a_restart_uploads_nothing(simcord_env: simcord.Env, meta: SqliteMeta) -> None:
    first = await card_emoji.sync_card_emoji(simcord_env.bot, meta)
    await simcord_env.restart_bot(discord.Client(intents=discord.Intents.default()))
    cursor = len(simcord_env.http_requests)

    again = await card_emoji.sync_card_emoji(simcord_env.bot, meta)

    assert again == first
    assert uploads(simcord_env, cursor) == []
    assert deletions(simcord_env, cursor) == []


async def test_a_changed_face_is_replaced_alone(
    simcord_env: simcord.Env, meta: SqliteMeta, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await card_emoji.sync_card_emoji(simcord_env.bot, meta)
    drawn = card_emoji.faces()
    redrawn = {**drawn, "7C": drawn["8C"]}  # 7♣ drawn anew (here: with other pixels)
    monkeypatch.setattr(card_emoji, "faces", lambda colours: redrawn)
    cursor = len(simcord_env.http_requests)

    again = await card_emoji.sync_card_emoji(simcord_env.bot, meta)

    assert uploads(simcord_env, cursor) == ["dd_7C"]
    (deleted,) = deletions(simcord_env, cursor)
    assert deleted.endswith(f"/emojis/{first['7C'].id}")
    assert again["7C"].id != first["7C"].id
    assert {c: e for c, e in again.items() if c != "7C"} == {
        c: e for c, e in first.items() if c != "7C"}
    names = [e.name for e in simcord_env.backend.application_emojis.values()]
    assert names.count("dd_7C") == 1 and len(names) == 55


async def test_switching_to_two_colours_uploads_the_faces_that_changed(
    simcord_env: simcord.Env, meta: SqliteMeta
) -> None:
    first = await card_emoji.sync_card_emoji(simcord_env.bot, meta)
    cursor = len(simcord_env.http_requests)

    again = await card_emoji.sync_card_emoji(simcord_env.bot, meta, colours="two")

    # Only diamonds and clubs change ink; spades, hearts, jokers and the back stay.
    changed = sorted(f"dd_{r}{s}" for s in "DC" for r in RANKS)
    assert sorted(uploads(simcord_env, cursor)) == changed
    assert len(deletions(simcord_env, cursor)) == 26
    assert again["AS"] == first["AS"] and again["AD"] != first["AD"]


async def test_an_emoji_deleted_on_discord_comes_back(
    simcord_env: simcord.Env, meta: SqliteMeta
) -> None:
    first = await card_emoji.sync_card_emoji(simcord_env.bot, meta)
    simcord_env.backend.delete_application_emoji(first["QD"].id)
    cursor = len(simcord_env.http_requests)

    again = await card_emoji.sync_card_emoji(simcord_env.bot, meta)

    assert uploads(simcord_env, cursor) == ["dd_QD"]
    assert again["QD"].id != first["QD"].id


@pytest.mark.parametrize(("status", "code"), [(403, 50013), (500, 0)])
async def test_a_refused_upload_falls_back_to_text_with_one_warning(
    simcord_env: simcord.Env, meta: SqliteMeta, caplog: pytest.LogCaptureFixture,
    status: int, code: int,
) -> None:
    caplog.set_level(logging.INFO)
    simcord_env.inject_error("POST", EMOJI_ROUTE, status=status, code=code, times=None)

    mapping = await card_emoji.sync_card_emoji(simcord_env.bot, meta)

    assert mapping == {}
    assert card_emoji.card_text("RJ", mapping) == "🃏"
    (warning,) = warnings(caplog)
    assert "text cards" in warning and str(status) in warning
    assert simcord_env.backend.application_emojis == {}


async def test_a_sync_cut_short_resumes_where_it_stopped(
    simcord_env: simcord.Env, meta: SqliteMeta, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = simcord_env.bot
    real_create = client.create_application_emoji
    done = 0

    async def create_then_fail(*, name: str, image: bytes) -> discord.Emoji:
        nonlocal done
        if done == 20:
            simcord_env.inject_error("POST", EMOJI_ROUTE, status=503, times=1)
        done += 1
        return await real_create(name=name, image=image)

    monkeypatch.setattr(client, "create_application_emoji", create_then_fail)
    assert await card_emoji.sync_card_emoji(client, meta) == {}
    assert len(warnings(caplog)) == 1
    monkeypatch.undo()
    cursor = len(simcord_env.http_requests)

    mapping = await card_emoji.sync_card_emoji(client, meta)

    assert len(uploads(simcord_env, cursor)) == 55 - 20
    assert set(mapping) == set(FACE_NAMES)


async def test_the_limit_reached_uploads_nothing(
    simcord_env: simcord.Env, meta: SqliteMeta, caplog: pytest.LogCaptureFixture,
) -> None:
    for n in range(card_emoji.APPLICATION_EMOJI_LIMIT - 10):
        simcord_env.backend.create_application_emoji(f"other_{n}")
    cursor = len(simcord_env.http_requests)

    assert await card_emoji.sync_card_emoji(simcord_env.bot, meta) == {}

    assert uploads(simcord_env, cursor) == []
    (warning,) = warnings(caplog)
    assert "room for 10 of 2000" in warning


async def test_discord_down_falls_back(
    simcord_env: simcord.Env, meta: SqliteMeta, caplog: pytest.LogCaptureFixture,
) -> None:
    simcord_env.inject_error("GET", EMOJI_ROUTE, status=502, times=None)

    assert await card_emoji.sync_card_emoji(simcord_env.bot, meta) == {}
    assert len(warnings(caplog)) == 1


async def test_a_second_copy_of_a_face_is_removed(
    simcord_env: simcord.Env, meta: SqliteMeta
) -> None:
    first = await card_emoji.sync_card_emoji(simcord_env.bot, meta)
    extra = simcord_env.backend.create_application_emoji("dd_AS")  # e.g. two starts at once
    cursor = len(simcord_env.http_requests)

    again = await card_emoji.sync_card_emoji(simcord_env.bot, meta)

    assert again == first
    assert uploads(simcord_env, cursor) == []
    (deleted,) = deletions(simcord_env, cursor)
    assert deleted.endswith(f"/emojis/{extra.id}")


async def test_a_broken_store_falls_back_too(
    simcord_env: simcord.Env, meta: SqliteMeta, caplog: pytest.LogCaptureFixture,
) -> None:
    await meta.conn.close()  # the database went away under the bot

    assert await card_emoji.sync_card_emoji(simcord_env.bot, meta) == {}
    (warning,) = warnings(caplog)
    assert "text cards" in warning
