"""The Hint button through discord.py (simcord): on practice boards only, the board comes back
with the move and why and with buttons that still play, and hinted runs show in /stats."""

from __future__ import annotations

import pytest

from bot.buttons import control_id
from core import Refusal
from core.hints import PRACTICE_ONLY
from tests.bot.conftest import World

#: A cheaper hint than the bot's (same code path), so a click settles quickly here.
BUDGET = 3_000


def labels(message) -> list[str]:
    return [b.get("label") for b in World.buttons(message)]


async def test_a_hint_shows_a_legal_move_and_why_and_leaves_a_live_board(world, error_logs):
    world.core.hints.budget = BUDGET
    board = await world.play(world.alice, "donsol")
    assert "Hint" in labels(board)
    (run,) = await world.core.runs.unfinished(world.alice.id)
    move_labels = {b["label"] for b in world.moves(board)}
    old_move = world.moves(board)[0]["custom_id"]

    result = await world.click(world.alice, board, world.control(board, "hint")["custom_id"])
    assert not result.ephemeral
    hinted = world.message(board)
    text = world.description(hinted)
    assert text.startswith("*💡 Hint: **")
    label = text.removeprefix("*💡 Hint: **").split("**")[0]
    assert label in move_labels  # a move the player can make, as its button reads
    assert " — " in text.split("\n")[0]  # and why
    after = await world.core.runs.get(run.id)
    assert after.hinted and after.version == run.version + 1
    # The board carries the new version: its buttons play; the old ones are stale.
    assert world.control(hinted, "hint")["custom_id"] == control_id(
        "hint", run.id, after.version)
    live_ids = [b["custom_id"] for b in world.moves(hinted)]
    assert old_move not in live_ids
    assert all(i.startswith(f"dd.m:{run.id}:{after.version}:") for i in live_ids)
    live = world.message(board)
    played = await world.click(world.alice, live, world.moves(live)[0]["custom_id"])
    assert not played.ephemeral
    assert (await world.core.runs.get(run.id)).moves == 1

    # A second hint on the same run: the same mark, no new count in stats.
    live = world.message(board)
    await world.click(world.alice, live, world.control(live, "hint")["custom_id"])
    live = world.message(board)
    await world.click(world.alice, live, world.control(live, "resign")["custom_id"])
    live = world.message(board)
    await world.click(world.alice, live, world.control(live, "confirm")["custom_id"])
    stats = await world.slash(world.alice, "stats", game="donsol")
    (field,) = stats.response.embeds[0].fields
    assert "Runs with hints: 1" in field.value


async def test_the_same_position_gets_the_same_hint(world, error_logs):
    world.core.hints.budget = BUDGET
    board = await world.play(world.alice, "clear")
    (run,) = await world.core.runs.unfinished(world.alice.id)
    await world.click(world.alice, board, world.control(board, "hint")["custom_id"])
    shown = world.description(world.message(board)).splitlines()[0]
    marked, again = await world.core.hints.suggest(run.id, world.alice.id, run.version + 1)
    label = marked.engine.label(marked.view, again.action)
    assert shown == f"*💡 Hint: **{label}** — {again.reason}*"
    assert marked.version == run.version + 1  # already hinted: no second write


async def test_no_hint_on_a_daily_nor_for_someone_else(world, error_logs):
    daily = await world.slash(world.alice, "daily", game="donsol")
    assert "Hint" not in labels(daily.response)
    (run,) = await world.core.runs.unfinished(world.alice.id)
    # A forged hint id on a daily (a modified client) reaches this refusal in the core.
    with pytest.raises(Refusal, match="practice runs only") as refused:
        await world.core.hints.suggest(run.id, world.alice.id, run.version)
    assert str(refused.value) == PRACTICE_ONLY
    assert not (await world.core.runs.get(run.id)).hinted

    board = await world.play(world.bob, "tomb")
    other = await world.click(world.alice, board, world.control(board, "hint")["custom_id"])
    assert other.ephemeral and "belongs to" in other.response.content
    (bobs,) = [r for r in await world.core.runs.unfinished(world.bob.id)]
    assert not bobs.hinted
