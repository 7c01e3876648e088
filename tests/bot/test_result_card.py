"""The result card through discord.py (simcord): its look by kind of end, what it means for
the player, and its Share, Practice and Stats buttons, refused calmly to anyone else."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime

import discord
import pytest

from bot.boards import result
from bot.boards.common import Finish
from bot.games import BOARDS, clear, donsol
from rules import GAMES
from tests.bot.conftest import World
from tests.core.conftest import Clock

NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)  # Donsol #5


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


async def finished_daily(world: World, actor, game: str = "donsol", seed: int = 3):
    board = (await world.slash(actor, "daily", game=game)).response
    rng = random.Random(seed)
    while moves := world.moves(board):
        board = (await world.click(actor, board, rng.choice(moves)["custom_id"])).response
    return board


def state_after(game: str, seed: int, keep: callable) -> dict:
    """The view of the first random run of ``game`` whose final view ``keep`` accepts."""
    engine = GAMES[game]
    for deal in range(2000):
        rng = random.Random(deal)
        state = engine.new(seed + deal)
        while not engine.is_over(state):
            state = engine.apply(state, rng.choice(engine.actions(state)))
        view = engine.view(state)
        if keep(view):
            return view
    raise AssertionError("no such run")


def test_near_misses_come_from_the_engines_facts() -> None:
    dead = state_after("donsol", 0, lambda v: v["outcome"] == "dead" and v["dungeon"] > 20)
    assert donsol.finish(dead).near_miss is None
    # The same death with only the last room's cards left (the view as the engine gives it).
    late = {**dead, "dungeon": 0, "room": dead["room"][:3] or ["2H"]}
    left = len(late["room"])
    assert donsol.finish(late).near_miss == (
        f"So close: {left} card{'s' if left != 1 else ''} from the end of the dungeon.")

    stuck = state_after("clear", 0, lambda v: v["outcome"] == "stuck")
    assert clear.finish({**stuck, "slain": 11}).near_miss == (
        "So close: 1 monster short of clearing the dungeon.")
    assert clear.finish({**stuck, "slain": 6}).near_miss is None


def test_a_clear_win_explains_its_spare_cards_beside_a_full_reserve() -> None:
    # "0 cards to spare" beside a reserve of 6 read as a contradiction: spare cards are the
    # power deck and hand never played; cards put on the reserve were played there.
    stuck = state_after("clear", 0, lambda v: v["outcome"] == "stuck")
    won = {**stuck, "outcome": "won", "won": True, "reserve": ["2H"] * 6, "talon": 0}
    (note,) = clear.finish(won).notes
    assert "the 6 cards left on the reserve were played there" in note
    (one,) = clear.finish({**won, "reserve": ["2H"]}).notes
    assert "the card left on the reserve was played there, so it does not count" in one
    assert clear.finish({**won, "reserve": []}).notes == ()


async def test_a_daily_card_says_the_outcome_the_score_once_and_what_it_means(
    world, error_logs
):
    board = await finished_daily(world, world.alice)
    run = (await world.core.rankings.record(world.alice.id, "donsol"))
    embed = board.embeds[0]
    (daily,) = [r for r in [await world.core.runs.get(1)] if r.kind == "daily"]
    assert embed.title == result.heading(daily, BOARDS["donsol"])
    assert embed.author.name == "alice · Donsol #5 · normal · daily"
    fields = {f.name: f.value for f in embed.fields}
    assert set(fields) == {"What it means", "Your share line", "Deal of Donsol #5"}
    meaning = fields["What it means"]
    assert "Your first Donsol (normal) run finished" in meaning
    assert "🏅 #1 of 1 on this server · #1 of 1 worldwide" in meaning
    assert f"🔥 Daily streak: **{run.current_streak}** day." in meaning
    labels = [b["label"] for b in world.buttons(board)]
    assert labels[:3] == ["Share", "Practice Donsol", "Stats"]


async def test_a_new_personal_best_is_said(world, error_logs):
    scores = []
    for seed in range(8):
        board = await world.play(world.alice, "donsol", variant="easy")
        board = await world.play_to_the_end(world.alice, board, random.Random(seed))
        runs = await world.core.runs.unfinished(world.alice.id)
        assert runs == []
        scores.append(board)
    texts = [{f.name: f.value for f in b.embeds[0].fields}["What it means"] for b in scores]
    assert texts[0].startswith("Your first Donsol (easy) run finished")
    assert all(t.startswith(("🌟", "Your best at Donsol (easy):")) for t in texts[1:])
    assert any("**New personal best**" in t for t in texts[1:])


async def test_a_near_miss_is_gold_and_a_wipe_out_red(world, error_logs):
    board = await world.play(world.alice, "donsol")
    await world.play_to_the_end(world.alice, board, random.Random(1))
    run = await world.core.runs.get(1)
    assert run.outcome == "dead"
    plain = BOARDS["donsol"]
    close = dataclasses.replace(plain, finish=lambda view, language: Finish(near_miss="So close."))
    assert result.colour(run, dataclasses.replace(plain, finish=lambda v, language: Finish())) == (
        discord.Colour.red())
    assert result.colour(run, close) == discord.Colour.gold()
    assert result.card(run, close, owner=None, notice=None, facts=None).description.startswith(
        f"**{run.view['score_text']}**\nSo close.")


async def test_stats_answers_privately_with_the_games_record(world, error_logs):
    board = await finished_daily(world, world.alice)
    shown = await world.click(world.alice, board, world.control(board, "stats")["custom_id"])
    assert shown.ephemeral
    (field,) = shown.response.embeds[0].fields
    assert field.name == "Donsol" and "dailies 1" in field.value


async def test_other_players_and_forged_clicks_are_refused_and_change_nothing(
    world, error_logs
):
    practice = await world.play(world.alice, "donsol")
    practice = await world.play_to_the_end(world.alice, practice, random.Random(2))
    run_id = int(world.control(practice, "again")["custom_id"].split(":")[2])
    before = world.channel.last_message
    for verb in ("stats", "again"):
        refused = await world.click(world.bob, practice,
                                    world.control(practice, verb)["custom_id"])
        assert refused.ephemeral
        assert refused.response.content == (
            f"This run belongs to <@{world.alice.id}>; start your own with `/play`.")
    # Forged ids (Share on a practice run, unknown runs): tests/bot/test_raw.py.
    assert "Share" not in [b["label"] for b in world.buttons(practice)]
    assert run_id
    assert world.channel.last_message.id == before.id  # nothing was posted
    assert await world.core.runs.unfinished(world.bob.id) == []


async def test_a_daily_played_in_a_dm_is_handed_over_to_copy(world, error_logs):
    carol = world.env.create_user("carol")
    board = (await world.slash(carol, "daily", game="tomb")).response
    rng = random.Random(4)
    while moves := world.moves(board):
        board = (await world.click(carol, board, rng.choice(moves)["custom_id"])).response
    shared = await world.click(carol, board, world.control(board, "share")["custom_id"])
    assert shared.ephemeral
    assert shared.response.content.startswith(
        "Your result, to copy and post anywhere:\n```\nTomb of Four Kings #5 · carol\n")


async def test_help_says_where_a_share_goes(world, error_logs):
    shown = (await world.slash(world.alice, "help")).response
    daily = next(b for b in world.buttons(shown) if b["label"] == "The daily")
    shown = (await world.click(world.alice, shown, daily["custom_id"])).response
    text = world.description(shown)
    assert "**Share** button posts its spoiler-free line" in text
    assert "results channel if one is set (which also gets every daily result by itself)" in text
