"""Card faces and table pictures on real boards, through discord.py (simcord): emoji on the
move buttons and in the text once synced, the table attached to the board's answer, the
board's text beside its picture, and the switches that turn pictures off."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.pictures.table import FILENAME

EMOJI = re.compile(r"<:dd_\w+:\d+>")


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(pictures=True, card_emoji=True)


async def settle(world) -> None:
    """Wait for the bot's background work: the emoji sync and the pictures being attached."""
    bot = world.env.bot
    if bot._emoji_task is not None:
        await bot._emoji_task
    if bot.table_pictures.warming is not None:
        await bot.table_pictures.warming
    while bot.table_pictures._tasks:
        await asyncio.gather(*bot.table_pictures._tasks)


async def test_boards_show_card_faces_and_the_table(world, error_logs):
    await settle(world)
    assert len(world.env.bot.card_emoji) == 55
    board = await world.play(world.alice, "donsol")
    await settle(world)

    shown = world.message(board)
    assert shown.embeds[0].image.url == f"attachment://{FILENAME}"
    (attachment,) = shown.attachments
    assert attachment.filename == FILENAME and (await attachment.read()).startswith(b"\x89PNG")
    faces = [b for b in world.moves(shown) if b.get("emoji", {}).get("id")]
    assert faces, "move buttons that name a card carry its face"
    assert all(b["emoji"]["name"].startswith("dd_") for b in faces)

    clicked = await world.click(world.alice, shown, world.moves(shown)[0]["custom_id"])
    await settle(world)
    after = world.message(clicked.response)
    assert EMOJI.search(after.embeds[0].description or "") or any(
        EMOJI.search(f.value) for f in after.embeds[0].fields
    ), "the board's text names its cards with their faces"
    assert len(after.attachments) == 1  # the new picture replaced the old one


async def test_a_player_can_turn_pictures_off(world, error_logs):
    await settle(world)
    await world.core.settings.set_player(world.alice.id, "pictures", "off")
    board = await world.play(world.alice, "tomb")
    await settle(world)
    shown = world.message(board)
    assert shown.attachments == [] and not shown.embeds[0].image.url
    # The board is complete without them: every move still has its button.
    assert world.moves(shown)


async def test_a_server_can_turn_pictures_off(world, error_logs):
    await settle(world)
    await world.core.settings.change_guild(world.guild.id, pictures=False)
    board = await world.play(world.bob, "clear")
    await settle(world)
    assert world.message(board).attachments == []


async def test_boards_go_without_pictures_while_the_worker_is_behind(world, error_logs):
    """Past the pictures under way that the worker can keep up with, a board goes out as text
    (the old picture taken off, so it never shows an earlier table) and is counted."""
    from bot import metrics

    def skipped() -> float:
        return metrics.METRICS.registry.get_sample_value(
            "dungeon_deck_pictures_total", {"outcome": "skipped"})

    await settle(world)
    tables = world.env.bot.table_pictures
    board = await world.play(world.alice, "donsol")
    await settle(world)
    assert len(world.message(board).attachments) == 1

    before = skipped()
    tables.max_in_flight = 0  # as if the worker were that far behind
    clicked = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])
    await settle(world)
    shown = world.message(clicked.response)
    assert shown.attachments == [] and not shown.embeds[0].image.url
    assert world.moves(shown), "the text board is complete"
    assert skipped() == before + 1

    tables.max_in_flight = 8  # caught up: the next board has its picture again
    again = await world.click(world.alice, shown, world.moves(shown)[0]["custom_id"])
    await settle(world)
    assert len(world.message(again.response).attachments) == 1


TABLE_FIELDS = {"Health", "Shield", "Sickness", "Room", "Dungeon", "Escape"}


async def test_with_its_picture_a_donsol_board_says_the_table_once(world, error_logs):
    """The picture carries the table: mid-game, the text keeps what happened, one status line
    and the prompt; no Health/Room/... fields and no footer repeating the score."""
    await settle(world)
    board = await world.play(world.alice, "donsol")
    await settle(world)
    clicked = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])
    await settle(world)
    shown = world.message(clicked.response)
    embed = shown.embeds[0]
    assert len(shown.attachments) == 1
    assert not {f.name for f in embed.fields} & TABLE_FIELDS
    assert not embed.footer.text
    text = embed.description or ""
    assert text.startswith("▸ ")  # what the click did
    assert re.search(r"^❤️ \d+/21 · 🛡️ .+ · \d+ left$", text, re.M)
    assert text.rstrip().endswith("**")  # the prompt closes it


async def test_without_pictures_a_donsol_board_keeps_its_fields(world, error_logs):
    await settle(world)
    await world.core.settings.set_player(world.alice.id, "pictures", "off")
    board = await world.play(world.alice, "donsol")
    await settle(world)
    clicked = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])
    shown = world.message(clicked.response)
    embed = shown.embeds[0]
    assert shown.attachments == []
    assert {"Health", "Shield", "Sickness", "Room", "Dungeon"} <= {f.name for f in embed.fields}
    assert "Score:" in (embed.footer.text or "")
    assert "❤️" not in (embed.description or "").split("**")[0].split("▸")[0]


async def test_a_daily_board_with_its_picture_keeps_its_commitment(world, error_logs):
    """Only the game's table fields give way to the picture: a daily's own fields stay."""
    await settle(world)
    result = await world.slash(world.alice, "daily", game="donsol")
    await settle(world)
    embed = result.response.embeds[0]
    assert embed.image.url == f"attachment://{FILENAME}"
    assert not {f.name for f in embed.fields} & TABLE_FIELDS
    assert embed.fields, "the daily's commitment is still there"


async def test_the_first_challenge_board_has_card_faces_and_the_table(world, error_logs):
    """The challenger's own board comes as a follow-up to the public card; it is dressed like
    every other board (it used to go out bare: no faces, no picture)."""
    await settle(world)
    result = await world.slash(world.alice, "challenge", game="donsol")
    (board,) = result.followups
    await settle(world)
    shown = world.message(board)
    assert shown.embeds[0].image.url == f"attachment://{FILENAME}"
    (attachment,) = shown.attachments
    assert (await attachment.read()).startswith(b"\x89PNG")
    assert any(b.get("emoji", {}).get("id") for b in world.moves(shown))
    assert "Challenge #1" in {f.name for f in shown.embeds[0].fields}
    card = world.message(result.response)
    assert card.attachments == [] and not card.embeds[0].image.url  # the card stays as it was
