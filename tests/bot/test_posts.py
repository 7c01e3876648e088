"""The daily post end to end: the real bot, discord.py and simcord's Discord, an injected
clock and finished daily runs played through the core; no sleeping.

It goes out once per server and day, is caught up (once, the latest day only) after a
restart, and is skipped, not retried, where the channel or the bot is gone.
"""

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime
from types import SimpleNamespace

import discord
import pytest

from bot.cogs.posts import DailyPosts, Pacer, holds, post_embed
from core.posts import DailyPost, Deal, Podium
from rules import GAMES
from store.base import BoardLine
from tests.core.conftest import Clock

DAY = "2026-12-14"  # daily #14
NEXT = "2026-12-15"
AT_NOON = datetime(2026, 12, 14, 12, 0, tzinfo=UTC)
POST_TIME = datetime(2026, 12, 15, 1, 0, 30, tzinfo=UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(AT_NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


def poster_of(world):
    # load_extension executes the module afresh: its classes are not this module's imports.
    cog = world.env.bot.get_cog("DailyPosts")
    assert type(cog).__name__ == DailyPosts.__name__
    return cog.poster


async def finished_daily(world, member, game: str = "donsol", seed: int = 1):
    """The member's daily of ``game`` today, in the world's server, played to the end with
    random legal moves (through the core, as a player's clicks would)."""
    core, rng = world.core, random.Random(seed)
    await core.rankings.remember_name(member.id, member.name)
    run = (await core.daily.start(member.id, game, guild_id=world.guild.id)).run
    while not run.over:
        run = await core.runs.act(run.id, member.id, run.version, rng.choice(run.actions))
    return run


async def set_results_channel(world, name: str = "results"):
    channel = world.guild.create_text_channel(name)
    await world.core.settings.change_guild(world.guild.id, results_channel=channel.id)
    return channel


def posts_in(channel) -> list[discord.Message]:
    return [m for m in channel.history() if m.author.bot]


def text_of(message: discord.Message) -> str:
    (embed,) = message.embeds
    parts = [embed.title or "", embed.description or "", (embed.footer.text or "")]
    parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return "\n".join(parts)


async def test_the_post_goes_out_once_with_deals_top_three_and_seeds(
    world, clock, error_logs
):
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(world.env.create_user("carol"), roles=[role])
    results = world.guild.create_text_channel("results")
    answer = await world.slash(admin, "settings", **{"results-channel": results})
    assert answer.response.content.endswith(
        f"Today's post (daily #14) goes out in <#{results.id}> within a minute."
    )
    alice = await finished_daily(world, world.alice, seed=3)
    bob = await finished_daily(world, world.bob, seed=4)
    tomb = await finished_daily(world, world.bob, "tomb", seed=5)
    poster = poster_of(world)

    clock.now = datetime(2026, 12, 15, 0, 59, tzinfo=UTC)  # the post of the 15th is not due
    (before,) = await poster.run_due(clock())  # ...but the 14th's is (set up after 01:00)
    assert before.day == DAY and before.status == "posted"
    (early,) = posts_in(results)
    assert early.embeds[0].title == f"Daily #14 · {DAY}"
    fields = {field.name: field.value for field in early.embeds[0].fields}
    seed = await world.core.daily.seed("donsol", None, "2026-12-13")  # closed: shown
    assert fields["Donsol #13 (normal): final top three"] == (
        f"Nobody ranked on this server.\nSeed `{seed}`"
    )
    for key, engine in GAMES.items():
        for variant in engine.variants:  # nothing of the open day 14 is revealed
            assert str(await world.core.daily.seed(key, variant, DAY)) not in text_of(early)

    clock.now = POST_TIME
    (result,) = await poster.run_due(clock())

    assert (result.guild_id, result.day, result.status, result.channel_id, result.note) == (
        world.guild.id, NEXT, "posted", results.id, None)
    assert await poster.run_due(clock()) == []  # a second pass posts nothing
    early_again, message = posts_in(results)
    assert early_again.id == early.id and message.id == result.message_id
    text = text_of(message)
    assert message.embeds[0].title == f"Daily #15 · {NEXT}"
    for key, engine in GAMES.items():
        for variant in engine.variants:
            commitment = await world.core.daily.commitment(key, variant, NEXT)
            assert f"**{engine.title} #15** ({variant}): commitment `{commitment}`" in text
            # No seed of a day that is not closed (the 15th's deals are open).
            assert str(await world.core.daily.seed(key, variant, NEXT)) not in text
    fields = {field.name: field.value for field in message.embeds[0].fields}
    donsol = fields["Donsol #14 (normal): final top three"]
    first, second = sorted((alice, bob), key=lambda run: run.score, reverse=True)
    names = {alice.owner_id: "alice", bob.owner_id: "bob"}
    second_rank = 1 if first.score == second.score else 2
    assert donsol.splitlines() == [
        f"1. {names[first.owner_id]}: {first.view['score_text']}",
        f"{second_rank}. {names[second.owner_id]}: {second.view['score_text']}",
        f"Seed `{alice.seed}` · 2 ranked on this server",
    ]
    assert fields["Tomb of Four Kings #14 (standard): final top three"].splitlines() == [
        f"1. bob: {tomb.view['score_text']}", f"Seed `{tomb.seed}` · 1 ranked on this server",
    ]
    clear_seed = await world.core.daily.revealed_seed("clear", None, DAY)
    assert fields["Clear the Dungeon #14 (standard): final top three"].splitlines() == [
        "Nobody ranked on this server.", f"Seed `{clear_seed}`",
    ]
    assert message.embeds[0].footer.text == f"Check a deal: /verify game:<game> day:{DAY}"
    assert await poster.posts.status(world.guild.id, NEXT) == "posted"


async def test_a_missed_post_goes_out_once_after_a_restart_only_the_latest_day(
    world, make_bot, clock, error_logs
):
    results = await set_results_channel(world)
    assert await poster_of(world).run_due(clock()) != []  # today's (the 14th's) post
    await finished_daily(world, world.alice)
    # The bot is down from here until three days later, past three post times.
    clock.now = datetime(2026, 12, 17, 9, 0, tzinfo=UTC)

    await world.env.restart_bot(make_bot(clock=clock))
    await world.env.settle()  # the first pass, right after ready

    _, caught_up = posts_in(results)
    assert caught_up.embeds[0].title == "Daily #17 · 2026-12-17"
    posts = poster_of(world).posts
    assert [await posts.status(world.guild.id, day) for day in
            ("2026-12-15", "2026-12-16", "2026-12-17")] == [None, None, "posted"]
    assert await poster_of(world).run_due(clock()) == []
    await world.env.restart_bot(make_bot(clock=clock))
    await world.env.settle()
    assert len(posts_in(results)) == 2  # a second restart posts nothing again


async def test_the_running_bot_posts_within_a_minute_of_01_00(world, clock, error_logs):
    results = await set_results_channel(world)
    await poster_of(world).run_due(clock())  # the 14th's post, sent at once
    clock.now = datetime(2026, 12, 15, 0, 59, 30, tzinfo=UTC)
    await world.env.advance_time(61)  # the background task's next pass: not due yet
    assert len(posts_in(results)) == 1
    clock.now = POST_TIME
    await world.env.advance_time(61)
    assert [m.embeds[0].title for m in posts_in(results)] == [
        f"Daily #14 · {DAY}", f"Daily #15 · {NEXT}",
    ]
    await world.env.advance_time(61)
    assert len(posts_in(results)) == 2


async def test_a_vanished_channel_is_skipped_with_a_log_line_and_not_retried(
    world, clock, caplog, error_logs
):
    results = await set_results_channel(world)
    world.env.backend.delete_channel(results.id)
    clock.now = POST_TIME

    with caplog.at_level(logging.INFO, logger="bot.cogs.posts"):
        (result,) = await poster_of(world).run_due(clock())

    assert result.status == "skipped" and result.note == "the results channel no longer exists"
    assert [r.getMessage() for r in caplog.records if r.name == "bot.cogs.posts"] == [
        f"daily post of {NEXT} skipped for server {world.guild.id}, channel {results.id}: "
        "the results channel no longer exists"
    ]
    assert await poster_of(world).posts.status(world.guild.id, NEXT) == "skipped"
    assert await poster_of(world).run_due(clock()) == []  # not retried
    assert not [r for r in world.env.http_requests if r.path.startswith("/channels/")]


@pytest.mark.parametrize(("status", "code", "words"), [
    (404, 10003, "Unknown Channel"), (403, 50001, "Missing Access"),
])
async def test_a_channel_discord_refuses_is_skipped(
    world, clock, status, code, words, error_logs
):
    results = await set_results_channel(world)
    world.env.inject_error("POST", "/channels/*/messages", status=status, code=code,
                           message=words)
    clock.now = POST_TIME
    (result,) = await poster_of(world).run_due(clock())
    assert result.status == "skipped"
    assert result.note == f"Discord answered {status} ({code}: {words})"
    assert posts_in(results) == []
    assert await poster_of(world).run_due(clock()) == []


async def test_a_server_that_removed_the_bot_is_skipped(world, clock, error_logs):
    await set_results_channel(world)
    world.env.backend.remove_guild(world.guild.id)
    clock.now = POST_TIME
    (result,) = await poster_of(world).run_due(clock())
    assert result.status == "skipped" and result.note == "the bot is no longer in this server"
    assert await poster_of(world).run_due(clock()) == []


async def test_a_channel_the_bot_may_no_longer_post_in_is_skipped_without_a_request(
    world, clock, error_logs
):
    me = world.env.bot.get_guild(world.guild.id).me
    results = world.guild.create_text_channel(
        "results", overwrites={me: discord.PermissionOverwrite(embed_links=False)}
    )
    await world.core.settings.change_guild(world.guild.id, results_channel=results.id)
    clock.now = POST_TIME
    (result,) = await poster_of(world).run_due(clock())
    assert result.status == "skipped" and result.note == "the bot lacks Embed Links there"
    assert not [r for r in world.env.http_requests if r.path.startswith("/channels/")]


async def test_no_post_where_it_is_off_or_there_is_no_channel(world, clock, error_logs):
    other = world.env.create_guild("Quiet Hall")
    results = await set_results_channel(world)
    await world.core.settings.change_guild(world.guild.id, daily_post=False)
    await world.core.settings.change_guild(other.id, min_account_age=3)
    clock.now = POST_TIME
    assert await poster_of(world).run_due(clock()) == []
    assert posts_in(results) == []
    assert await poster_of(world).posts.status(world.guild.id, NEXT) is None


async def test_the_pacer_spaces_sends_after_a_burst() -> None:
    now, slept = [0.0], []

    async def sleep(seconds: float) -> None:
        slept.append(round(seconds, 6))

    pacer = Pacer(20.0, 5, clock=lambda: now[0], sleep=sleep)
    for _ in range(8):
        await pacer.wait()
    assert slept == [0.05, 0.1, 0.15]  # each waiter reserves the next free slot
    now[0] = 10.0  # a quiet while refills the burst, no more
    slept.clear()
    for _ in range(6):
        await pacer.wait()
    assert slept == [0.05]


def test_the_longest_post_fits_in_one_embed() -> None:
    """Ten tied lines of the longest names on every board: every field and the whole embed
    stay inside Discord's limits, and each podium keeps its seed."""
    name = "*_~`|" * 13  # 65 characters, each escaped
    lines = [BoardLine(1, k, 10**17 + k, name, [54, 21], "died after 54/54 cards, 21 HP",
                       "resigned", "dead") for k in range(10)]
    deals = [Deal(key, engine.title, variant, NEXT, 15, "f" * 64)
             for key, engine in GAMES.items() for variant in engine.variants]
    podiums = [Podium(deal.game, deal.title, deal.variant, DAY, 14, 2**64 - 1, "0" * 64,
                      lines, 10_000) for deal in deals]
    embed = post_embed(DailyPost(1, NEXT, 15, deals, podiums))
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    for field in embed.fields:
        assert len(field.value) <= 1024
    for field in embed.fields[1:]:
        assert field.value.endswith(f"Seed `{2**64 - 1}` · 10000 ranked on this server")
        assert field.value.startswith("1. \\*\\_")


def test_with_shards_each_process_posts_for_the_servers_it_holds() -> None:
    ids = [(k << 22) | 5 for k in range(8)]  # shard k % 4 of 4
    one = SimpleNamespace(shard_count=None, shard_id=None, shard_ids=None)
    assert all(holds(one, guild_id) for guild_id in ids)
    second = SimpleNamespace(shard_count=4, shard_id=1, shard_ids=None)
    assert [holds(second, g) for g in ids] == [False, True, False, False] * 2
    auto = SimpleNamespace(shard_count=4, shard_id=None, shard_ids=[0, 3])
    assert [holds(auto, g) for g in ids] == [True, False, False, True] * 2
