"""The daily through discord.py (simcord): /daily, its result, /leaderboard with paging,
/verify and /stats, with an injected clock."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest

from rules import GAMES, replay
from rules.deal import commitment
from tests.bot.conftest import World
from tests.core.conftest import Clock
from tests.core.test_act import play_out

NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)  # Donsol #5
CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b|\b[RB]J\b|[♠♥♦♣🃏]")


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


async def daily_board(world: World, actor, game: str = "donsol", **options):
    result = await world.slash(actor, "daily", game=game, **options)
    assert result.ephemeral, "a daily board is never shown in the channel"
    return result


async def test_daily_deals_once_and_brings_the_same_run_back(world, error_logs):
    first = await daily_board(world, world.alice)
    embed = first.response.embeds[0]
    assert embed.title.startswith("Donsol #5 · normal · daily")
    (run,) = await world.core.runs.unfinished(world.alice.id)
    fields = {f.name: f.value for f in embed.fields}
    deal = fields["Deal of Donsol #5"]
    # The first characters, enough to compare with /verify, not four lines of hash.
    assert f"`{commitment(run.seed)[:12]}…`" in deal and commitment(run.seed) not in deal
    assert "/verify" in deal
    closes = int(datetime(2026, 12, 6, 1, 0, tzinfo=UTC).timestamp())
    assert f"<t:{closes}:f> (<t:{closes}:R>)" in deal and "UTC" not in deal
    assert "Undo" not in [b.get("label") for b in world.buttons(first.response)]
    board = (await world.click(world.alice, first.response, world.moves(first.response)[0][
        "custom_id"])).response

    again = await daily_board(world, world.alice)
    assert "Welcome back" in world.description(again.response)
    assert again.response.embeds[0].fields == board.embeds[0].fields
    assert len(await world.core.runs.unfinished(world.alice.id)) == 1
    bob = await daily_board(world, world.bob)
    (bobs,) = await world.core.runs.unfinished(world.bob.id)
    assert bobs.seed == run.seed  # the same deal for everyone
    assert bob.response.embeds[0].title.startswith("Donsol #5")


async def test_a_finished_daily_shows_its_standing_and_posts_a_spoiler_free_line(
    world, error_logs
):
    result = await daily_board(world, world.alice, game="tomb")
    rng = random.Random(5)
    board = result.response
    while moves := world.moves(board):
        clicked = await world.click(world.alice, board, rng.choice(moves)["custom_id"])
        board = clicked.response
    fields = {f.name: f.value for f in board.embeds[0].fields}
    assert "#1 of 1 on this server · #1 of 1 worldwide" in fields["What it means"]
    nxt = int(datetime(2026, 12, 6, tzinfo=UTC).timestamp())
    assert f"Next deal <t:{nxt}:R> (at <t:{nxt}:t>)." in fields["What it means"]
    assert "🔥 Daily streak: **1** day." in fields["What it means"]
    # Without a results channel, nothing is posted until the player presses Share.
    assert clicked.followups == []
    own = fields["Your share line"]
    assert own.startswith("Tomb of Four Kings #5 · alice\n")
    assert not CARD_CODE.search(own), own

    shared = await world.click(world.alice, board, world.control(board, "share")["custom_id"])
    assert not shared.ephemeral and shared.response.content == own
    (told,) = shared.followups
    assert told.ephemeral and told.content == "Shared in this channel."

    after = await daily_board(world, world.alice, game="tomb")
    assert world.moves(after.response) == []
    assert "#1 of 1 worldwide" in {f.name: f.value for f in after.response.embeds[0].fields}[
        "What it means"]
    again = await world.click(world.alice, after.response,
                              world.control(after.response, "share")["custom_id"])
    assert again.ephemeral
    assert again.response.content.startswith(
        f"This result is already shared, in <#{world.channel.id}>. Here it is to copy:\n```")


async def test_the_result_goes_to_the_results_channel_when_one_is_set(world, error_logs):
    results = world.guild.create_text_channel("results")
    await world.core.settings.change_guild(world.guild.id, results_channel=results.id)
    board = (await daily_board(world, world.bob, game="clear")).response
    rng = random.Random(2)
    while moves := world.moves(board):
        clicked = await world.click(world.bob, board, rng.choice(moves)["custom_id"])
        board = clicked.response
    assert clicked.followups == []  # not in the channel where it was played
    posted = results.last_message
    assert posted is not None and posted.content.startswith("Clear the Dungeon #5 · bob\n")
    assert posted.content.endswith("Play today's deal: /daily")
    assert not CARD_CODE.search(posted.content)
    # Share then says where it already is, and posts nothing more.
    shared = await world.click(world.bob, board, world.control(board, "share")["custom_id"])
    assert shared.ephemeral
    assert shared.response.content.startswith(f"This result is already shared, in <#{results.id}>")
    assert results.last_message.id == posted.id


async def play_daily_through_core(world: World, user_id: int, seed: int, game: str = "donsol"):
    started = await world.core.daily.start(user_id, game, guild_id=world.guild.id)
    return await play_out(world.core, started.run, random.Random(seed))


async def test_leaderboard_pages_survive_a_restart(world, make_bot, clock, error_logs):
    for user in range(1, 24):
        await world.core.rankings.remember_name(user, f"player {user:02d}")
        await play_daily_through_core(world, user, user)
    await play_daily_through_core(world, world.alice.id, 99)

    result = await world.slash(world.alice, "leaderboard", game="donsol")
    page = result.response
    assert not result.ephemeral
    lines = world.description(page).splitlines()
    assert len([ln for ln in lines if ln.startswith("`#")]) in (10, 11)
    assert "page 1/3" in page.embeds[0].footer.text and "24 ranked" in page.embeds[0].footer.text
    (nxt,) = [b for b in world.buttons(page) if b.get("label") == "Next"]

    await world.env.restart_bot(make_bot(clock=clock))
    second = (await world.click(world.bob, page, nxt["custom_id"])).response
    assert "page 2/3" in second.embeds[0].footer.text
    ranks = [int(m) for m in re.findall(r"`#\s*(\d+)`", world.description(second))]
    assert ranks == sorted(ranks) and min(ranks) >= 10


async def test_server_and_global_boards_through_discord(world, error_logs):
    await play_daily_through_core(world, world.alice.id, 1)
    started = await world.core.daily.start(world.bob.id, "donsol")  # in a DM
    await play_out(world.core, started.run, random.Random(2))
    here = (await world.slash(world.alice, "leaderboard", game="donsol")).response
    everyone = (await world.slash(world.alice, "leaderboard", game="donsol",
                                  scope="global")).response
    assert "1 ranked" in here.embeds[0].footer.text
    assert "2 ranked" in everyone.embeds[0].footer.text
    # The public board marks nobody; the caller alone is told their place.
    assert "← you" not in world.description(here)
    assert "alice" not in world.description(here)  # nor adds the caller's line


async def test_a_public_board_marks_nobody_and_tells_the_caller_their_place(
    world, error_logs
):
    await world.core.rankings.remember_name(world.bob.id, "bob")
    await play_daily_through_core(world, world.bob.id, 2)
    for user in range(1, 13):
        await world.core.rankings.remember_name(user, f"player {user:02d}")
        await play_daily_through_core(world, user, user)
    await world.core.rankings.remember_name(world.alice.id, "alice")
    run = await play_daily_through_core(world, world.alice.id, 1)
    result = await world.slash(world.alice, "leaderboard", game="donsol", scope="global")
    assert not result.ephemeral
    board = world.description(result.response)
    assert "← you" not in board and "…" not in board
    (private,) = result.followups
    assert private.ephemeral
    standing = await world.core.rankings.standing(world.alice.id, "donsol", "normal",
                                                  run.day, None)
    assert private.content == (f"You: **#{standing.world.rank}** of 14 · "
                               f"{standing.world.score_text}")
    # Bob reads the same board with no mark of Alice's and hears his own place.
    bobs = await world.slash(world.bob, "leaderboard", game="donsol", scope="global")
    assert world.description(bobs.response) == board
    assert bobs.followups[0].content.startswith("You: **#")


async def test_the_boards_play_button_starts_the_clickers_daily(world, error_logs):
    await play_daily_through_core(world, world.alice.id, 1)
    result = await world.slash(world.alice, "leaderboard", game="tomb")
    (play,) = [b for b in world.buttons(result.response) if b.get("label") == "Play today's deal"]
    assert play["custom_id"] == "dd.dy:tomb:standard"
    started = await world.click(world.bob, result.response, play["custom_id"])
    assert started.ephemeral
    assert started.response.embeds[0].title.startswith("Tomb of Four Kings #5 · standard · daily")
    (run,) = await world.core.runs.unfinished(world.bob.id)
    assert (run.game, run.kind.value) == ("tomb", "daily")
    again = await world.click(world.bob, result.response, play["custom_id"])
    assert "Welcome back" in world.description(again.response)
    assert len(await world.core.runs.unfinished(world.bob.id)) == 1


async def test_verify_shows_the_commitment_then_the_seed_and_the_moves(
    world, clock, error_logs
):
    run = await play_daily_through_core(world, world.alice.id, 3)
    before = (await world.slash(world.alice, "verify", game="donsol")).response
    text = world.description(before)
    assert commitment(run.seed) in text and str(run.seed) not in text
    refused = await world.slash(world.alice, "verify", game="donsol", run=run.id)
    assert refused.ephemeral and "once its boards close" in refused.response.content

    clock.now = NOON + timedelta(hours=13)  # 01:00 UTC the next day: the board is final
    after = await world.slash(world.alice, "verify", game="donsol", day="yesterday", run=run.id)
    text = world.description(after.response)
    assert f"Seed: `{run.seed}`" in text and commitment(run.seed) in text
    assert f"python -m rules deal donsol --variant normal --seed {run.seed}" in text
    (attachment,) = after.response.attachments
    moves = [ln for ln in (await attachment.read()).decode().splitlines()
             if ln and not ln.startswith("#")]
    final = GAMES["donsol"].view(replay("donsol", "normal", run.seed, moves))
    assert final["score"] == run.score  # the moves replay to the score on the board


async def test_stats_show_streaks_and_the_last_days(world, clock, error_logs):
    for day in range(3):
        clock.now = NOON + timedelta(days=day)
        await play_daily_through_core(world, world.alice.id, day)
    result = await world.slash(world.alice, "stats", game="donsol")
    assert result.ephemeral
    (field,) = result.response.embeds[0].fields
    assert field.name == "Donsol"
    assert "Runs **3**" in field.value and "dailies 3" in field.value
    assert "Daily streak: **3** (longest 3)" in field.value
    # The strip starts at the player's first daily: 3 days, not 11 empty ones before them.
    lines = field.value.splitlines()
    heading = lines.index("Since the first daily (3 days):")
    marks = lines[heading + 1]
    assert len(marks) == 3 and set(marks) <= {"🟩", "🟥", "⬜"}
    assert "⬛" not in field.value


async def test_the_strip_marks_a_day_not_played_and_holds_a_week_a_row(
    world, clock, error_logs
):
    for day in (0, 1, 3, 6, 7, 9, 10, 13, 14, 15):  # 16 days, from the first daily on
        clock.now = NOON + timedelta(days=day)
        await play_daily_through_core(world, world.alice.id, day)
    result = await world.slash(world.alice, "stats", game="donsol")
    (field,) = result.response.embeds[0].fields
    lines = field.value.splitlines()
    heading = lines.index("Last 14 days:")
    rows = lines[heading + 1:heading + 3]
    assert [len(row) for row in rows] == [7, 7]  # a week a row: no wrap at phone width
    # Days 2..15: 2, 4, 5, 8, 11 and 12 not played (no 7 days in a row: no freeze).
    strip = "".join(rows)
    missed = [i for i, mark in enumerate(strip) if mark == "➖"]
    assert missed == [0, 2, 3, 6, 9, 10]
    assert "➖ not played" in result.response.embeds[0].footer.text


async def test_daily_refuses_an_option_no_client_offers(world, error_logs):
    refused = await world.slash(world.alice, "daily", game="donsol", variant="standard")
    assert refused.ephemeral and "Donsol has no 'standard' variant" in refused.response.content
    assert await world.core.runs.unfinished(world.alice.id) == []


async def test_where_the_bot_may_not_post_the_player_gets_the_line_to_copy(world, error_logs):
    board = (await daily_board(world, world.alice, game="donsol")).response
    rng = random.Random(3)
    while moves := world.moves(board):
        clicked = await world.click(world.alice, board, rng.choice(moves)["custom_id"])
        board = clicked.response
    world.env.inject_error("POST", "/interactions/*", status=403, code=50013,
                           message="Missing Permissions")
    shared = await world.click(world.alice, board, world.control(board, "share")["custom_id"])
    assert shared.ephemeral
    copy = shared.response.content
    assert copy.startswith("I may not post here, so here is your result to copy:\n```\n")
    assert "Donsol #5 (normal) · alice\n" in copy and not CARD_CODE.search(copy)


async def test_the_daily_works_in_a_dm_and_counts_on_the_global_board(world, error_logs):
    carol = world.env.create_user("carol")
    result = await daily_board(world, carol, game="clear")
    board = result.response
    rng = random.Random(4)
    while moves := world.moves(board):
        board = (await world.click(carol, board, rng.choice(moves)["custom_id"])).response
    standing = {f.name: f.value for f in board.embeds[0].fields}["What it means"]
    assert "#1 of 1 worldwide" in standing and "on this server" not in standing
    everyone = (await world.slash(world.alice, "leaderboard", game="clear",
                                  scope="global")).response
    assert "carol" in world.description(everyone)
