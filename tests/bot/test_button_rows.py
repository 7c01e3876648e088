"""Buttons as sent: plain component JSON that discord.py sends as it is and never keeps."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import discord
import pytest

from bot.buttons import ButtonRows, PlainButton, button, link


def _same_as_discord_py(specs: list[dict]) -> tuple[list[dict], list[dict]]:
    ours, theirs = ButtonRows(), discord.ui.View(timeout=None)
    for spec in specs:
        url = spec.pop("url", None)
        if url is not None:
            ours.add(link(url, label=spec["label"], row=spec.get("row")))
            theirs.add_item(discord.ui.Button(url=url, **spec))
        else:
            ours.add(button(**spec))
            theirs.add_item(discord.ui.Button(**spec))
    return ours.to_components(), theirs.to_components()


async def test_rows_are_laid_out_and_written_as_discord_py_writes_them():
    card = discord.PartialEmoji(name="AS", id=1234567890)
    specs = [
        {"custom_id": "dd.m:1:0:take AS", "label": "Take", "emoji": card, "row": 1},
        {"custom_id": "dd.c:undo:1:0:", "label": "Undo", "emoji": "↩️"},
        {"custom_id": "dd.c:resign:1:0:", "label": "Resign", "row": 4,
         "style": discord.ButtonStyle.danger, "disabled": True},
        {"custom_id": "dd.c:hint:1:0:", "label": None, "emoji": "💡"},
        {"url": "https://discord.com/channels/1/2/3", "label": "Card", "row": 2},
    ] + [{"custom_id": f"dd.m:1:0:fight {n}", "label": f"Fight {n}"} for n in range(6)]
    ours, theirs = _same_as_discord_py(specs)
    assert ours == theirs
    assert [len(row["components"]) for row in ours] == [5, 4, 1, 1]


async def test_random_boards_match_discord_py_button_for_button():
    rng = random.Random(7)
    for _ in range(200):
        specs = []
        for n in range(rng.randint(1, 20)):
            spec = {"custom_id": f"dd.m:{n}:1:act {n}", "label": rng.choice([None, f"L{n}"]),
                    "style": rng.choice(list(discord.ButtonStyle)[:4]),
                    "disabled": rng.random() < 0.2, "emoji": rng.choice([None, "🗡️"])}
            if spec["label"] is None and spec["emoji"] is None:
                spec["label"] = "x"
            if rng.random() < 0.3:
                spec["row"] = rng.randint(0, 3)
            specs.append(spec)
        try:
            theirs = discord.ui.View(timeout=None)
            for spec in specs:
                theirs.add_item(discord.ui.Button(**spec))
        except ValueError:  # discord.py refuses the layout: so do we, when sending
            rows = ButtonRows()
            for spec in specs:
                rows.add(button(**spec))
            with pytest.raises(ValueError):
                rows.to_components()
            continue
        assert _same_as_discord_py([dict(s) for s in specs])[0] == theirs.to_components()


async def test_a_full_row_and_a_26th_button_are_refused():
    rows = ButtonRows()
    for n in range(6):
        rows.add(button(f"dd.m:1:0:a {n}", label="x", row=0))
    with pytest.raises(ValueError):
        rows.to_components()
    many = ButtonRows()
    for n in range(25):
        many.add(button(f"dd.m:1:0:a {n}", label="x"))
    with pytest.raises(ValueError):
        many.add(button("dd.m:1:0:one more", label="x"))


async def test_remove_takes_out_the_buttons_of_a_prefix():
    rows = ButtonRows()
    rows.add(button("dd.c:again:1:3:", label="Play again"))
    rows.add(button("dd.c:resign:1:3:", label="Resign"))
    rows.remove("dd.c:again:")
    assert [b["label"] for row in rows.to_components() for b in row["components"]] == ["Resign"]


async def test_boards_sent_and_clicked_leave_nothing_behind_in_discord_py(world, error_logs):
    """discord.py keeps the view of a message it sends unless the view says it is finished;
    for an ephemeral one it also starts a 15-minute timeout task. Boards must leave neither:
    thousands of players would otherwise fill the memory with views until a restart."""
    bot = world.env.bot
    store = bot._connection._view_store
    tasks_before = len(asyncio.all_tasks())
    public = await world.play(world.alice, "donsol")
    private = await world.play(world.bob, "clear", private=True)
    await world.click(world.alice, public, world.moves(public)[0]["custom_id"])
    await world.click(world.bob, private, world.moves(private)[0]["custom_id"])
    await world.slash(world.alice, "daily", game="tomb")
    await asyncio.sleep(0)
    assert store._synced_message_views == {}
    assert store._views == {}
    assert len(asyncio.all_tasks()) <= tasks_before


def test_a_button_with_its_face_is_the_same_button_with_another_emoji() -> None:
    face = discord.PartialEmoji(name="7C", id=123456789012345678)
    for plain in (PlainButton("dd.m:1:2:take 7C", "Take", discord.ButtonStyle.primary, 1, True),
                  PlainButton(None, "Open", discord.ButtonStyle.link, url="https://x.test")):
        assert plain.with_emoji(face) == dataclasses.replace(plain, emoji=face)
        assert plain.with_emoji(face).to_dict()["emoji"] == face.to_dict()
