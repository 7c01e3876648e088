"""/replay through discord.py (simcord): refused while the day is open and for someone
else's unranked run; paged with restart-proof buttons; the turning point worked out once and
kept; opened with one click from a closed day's board and from a finished daily."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest

from bot import screens
from core.daily import closes_at
from rules import GAMES
from store.texts import said
from tests.bot.conftest import World
from tests.bot.test_daily import NOON, play_daily_through_core
from tests.core.conftest import Clock, query
from tests.core.test_act import play_out

DAY = NOON.date().isoformat()  # Donsol #5
#: Nodes per step for the turning point: a few hundred keep a click well under a second.
TURN_BUDGET = 300


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


def by_label(message, label: str) -> dict:
    (found,) = [b for b in World.buttons(message) if b.get("label") == label]
    return found


def replay_message(result):
    """The replay a /replay or a Replay click sent (deferred, then the thinking message
    becomes the replay)."""
    message = result.response
    assert message is not None
    assert message.embeds, message.content
    return message


async def test_replays_are_refused_while_the_day_is_open(world, clock, error_logs):
    run = await play_daily_through_core(world, world.alice.id, 3)
    refused = await world.slash(world.bob, "replay", run=run.id)
    assert refused.ephemeral
    assert refused.response.content == (
        "Donsol #5 is still open: its runs can be replayed once its boards close, at "
        "<t:1796518800:f> (<t:1796518800:R>), so nobody replays today's deal."
    )
    own = await world.slash(world.alice, "replay", run=run.id)  # not even its player
    assert own.ephemeral and "still open" in own.response.content
    practice = await world.core.runs.start(world.alice.id, "donsol")
    other = await world.slash(world.alice, "replay", run=practice.id)
    assert other.ephemeral and "only dailies can be replayed" in other.response.content
    missing = await world.slash(world.alice, "replay", run=9999)
    assert missing.ephemeral and "no run with that number" in missing.response.content


async def test_replay_pages_through_the_run_and_survives_a_restart(
    world, make_bot, clock, error_logs
):
    run = await play_daily_through_core(world, world.alice.id, 3)
    moves = await world.core.runs.moves(run.id)
    clock.now = closes_at(DAY)
    world.core.replays.budget_per_step = TURN_BUDGET

    result = await world.slash(world.bob, "replay", run=run.id)  # anyone, once closed
    assert not result.ephemeral
    first = replay_message(result)
    assert world.description(first).startswith(f"*🎞️ Replay of run #{run.id}: the deal")
    assert f"Step 0 of {len(moves)}" in first.embeds[0].footer.text
    assert by_label(first, "First").get("disabled") and by_label(first, "Back").get("disabled")
    assert not [b for b in World.buttons(first) if b["custom_id"].startswith("dd.m:")]
    (turn,) = query(world.core.store.path, "SELECT step, text FROM run_turns WHERE run_id = ?",
                    (run.id,))

    forward = await world.click(world.bob, first, by_label(first, "Forward")["custom_id"])
    step1 = forward.response
    engine = GAMES["donsol"]
    deal = engine.new(run.seed, run.variant)
    label = engine.label(engine.view(deal), moves[0])
    assert world.description(step1).startswith(f"*🎞️ Move 1 of {len(moves)}: {label}*")
    assert "▸ " in world.description(step1)  # the move's events
    assert f"Step 1 of {len(moves)}" in step1.embeds[0].footer.text

    await world.env.restart_bot(make_bot(clock=clock))  # old buttons keep working
    world.core.replays.budget_per_step = TURN_BUDGET
    last = (await world.click(world.alice, step1, by_label(step1, "Last")["custom_id"])).response
    assert f"Step {len(moves)} of {len(moves)}" in last.embeds[0].footer.text
    assert f"Final score: **{run.view['score_text']}**" in world.description(last)
    assert by_label(last, "Forward").get("disabled")
    back = (await world.click(world.alice, last, by_label(last, "Back")["custom_id"])).response
    assert f"Step {len(moves) - 1} of {len(moves)}" in back.embeds[0].footer.text

    step, text = turn[0], said(turn[1])  # the column keeps the sentence's message
    assert step is not None  # this run (seed 3) let a better score slip at some move
    jump = await world.click(world.alice, back, by_label(back, "Turning point")["custom_id"])
    marked = jump.response
    assert f"Step {step} of {len(moves)}" in marked.embeds[0].footer.text
    fields = {f.name: f.value for f in marked.embeds[0].fields}
    assert fields["⚠️ Turning point"] == text
    assert re.match(r"(Here the deal was still winnable|After “)", text), text
    assert by_label(marked, "Turning point").get("disabled")
    # Kept: a second /replay reads it, never works it out again.
    again = await world.slash(world.alice, "replay", run=run.id)
    assert replay_message(again).embeds
    assert query(world.core.store.path, "SELECT step, text FROM run_turns") == [turn]


async def test_only_its_player_replays_an_unranked_run(world, clock, error_logs):
    started = await world.core.daily.start(world.bob.id, "donsol", guild_id=world.guild.id)
    clock.now = closes_at(DAY) + timedelta(minutes=5)  # finished after the close: not ranked
    run = await play_out(world.core, started.run, random.Random(4))
    assert not run.ranked
    world.core.replays.budget_per_step = TURN_BUDGET
    refused = await world.slash(world.alice, "replay", run=run.id)
    assert refused.ephemeral
    assert refused.response.content == (
        f"Run #{run.id} is not ranked on Donsol #5's board: only its player can replay it."
    )
    own = await world.slash(world.bob, "replay", run=run.id)
    assert replay_message(own).embeds


async def test_one_click_opens_a_replay_from_the_board_and_from_a_finished_daily(
    world, clock, error_logs
):
    board = (await world.slash(world.alice, "daily", game="donsol")).response
    rng = random.Random(7)
    while moves := world.moves(board):
        board = (await world.click(world.alice, board, rng.choice(moves)["custom_id"])).response
    # Until the day closes the button says when it opens, and cannot be clicked.
    replay_button = by_label(board, "Replay opens 01:00 UTC")
    assert replay_button["disabled"] and replay_button["emoji"]["name"] == "🎞️"
    await play_daily_through_core(world, world.bob.id, 5)
    open_board = (await world.slash(world.alice, "leaderboard", game="donsol")).response
    assert not [b for b in World.buttons(open_board) if b.get("label", "").startswith("Replay")]

    clock.now = closes_at(DAY)
    world.core.replays.budget_per_step = TURN_BUDGET
    closed = (await world.slash(world.alice, "leaderboard", game="donsol",
                                day="yesterday")).response
    ranked = [b for b in World.buttons(closed) if b.get("label", "").startswith("Replay #")]
    lines = (await world.core.rankings.board("donsol", day=DAY, guild_id=world.guild.id)).lines
    assert len(lines) == 2
    assert [b["label"] for b in ranked] == [f"Replay #{line.rank}" for line in lines]
    opened = await world.click(world.bob, closed, ranked[0]["custom_id"])
    assert opened.ephemeral
    shown = replay_message(opened)
    assert "Replay of run #" in world.description(shown)
    # Drawn again after the close, the board offers it live, with the same id (the click is
    # checked when it comes, so no id is tied to the time a board was drawn).
    run = await world.core.runs.get(int(replay_button["custom_id"].split(":")[1]))
    screen = screens.board(run)
    await world.env.bot.get_cog("Replays").dress(run, screen)
    (live,) = [b for b in screen.buttons.buttons if b.custom_id == replay_button["custom_id"]]
    assert live.label == "Replay" and not live.disabled
    assert live.custom_id == f"dd.rp:{run.id}:0:o"  # as the leaderboard's, which opened above


async def test_a_turning_point_that_fails_leaves_the_replay_and_says_so(
    world, clock, error_logs, monkeypatch
):
    run = await play_daily_through_core(world, world.alice.id, 3)
    clock.now = closes_at(DAY)

    async def broken(run_id: int, viewer_id: int):
        raise RuntimeError("the worker process died")

    monkeypatch.setattr(world.core.replays, "turn", broken)
    result = await world.slash(world.alice, "replay", run=run.id)
    shown = replay_message(result)
    assert not result.ephemeral and "Replay of run #" in world.description(shown)
    assert "Turning point" not in [b.get("label") for b in World.buttons(shown)]
    (note,) = result.followups[-1:]
    assert note.ephemeral and "could not be worked out" in note.content
    assert [r.getMessage() for r in error_logs] == [
        f"run {run.id}: its turning point could not be worked out"]
    error_logs.clear()
