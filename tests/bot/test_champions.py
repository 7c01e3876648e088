"""The month's close end to end (simcord): a server that played a month gets its champions
posted once on the 1st at 01:00 UTC and its champion role moved from last month's champions
to this month's; /settings refuses a role the bot cannot give, saying what is missing; a role
that stops being givable later costs one log line and a note in the post."""

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime

import discord
import pytest

from tests.bot.conftest import World
from tests.core.conftest import Clock
from tests.core.test_act import play_out

DECEMBER = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)
JANUARY_CLOSE = datetime(2027, 2, 1, 1, 0, 30, tzinfo=UTC)
DECEMBER_CLOSE = datetime(2027, 1, 1, 1, 0, 30, tzinfo=UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(DECEMBER)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


@pytest.fixture
def admin(world):
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("carol"), roles=[role])


def poster(world: World):
    return world.env.bot.get_cog("ChampionsLoop").poster


def roles_of(world: World, member) -> list[int]:
    return list(world.env.backend.get_member(world.guild.id, member.id).role_ids)


def bot_role(world: World):
    (role,) = [r for r in world.env.backend.get_guild(world.guild.id).roles.values()
               if r.managed]
    return role


async def daily(world: World, clock: Clock, day: str, member, game: str, rng: int) -> int:
    clock.now = datetime.fromisoformat(f"{day}T09:00:00+00:00")
    await world.core.rankings.remember_name(member.id, member.name)
    started = await world.core.daily.start(member.id, game, guild_id=world.guild.id)
    run = await play_out(world.core, started.run, random.Random(rng))
    return run.score[1]


def text_of(message) -> str:
    (embed,) = message.embeds
    return "\n".join([embed.title or "", embed.description or ""]
                     + [f"{f.name}\n{f.value}" for f in embed.fields])


async def month_of_tomb(world, clock, month: str, winner, loser) -> None:
    """``winner`` plays three Tomb dailies of ``month``, ``loser`` none: a clear champion
    (Tomb's random play scores points on these deals more often than not)."""
    for n, day in enumerate(("03", "10", "17")):
        await daily(world, clock, f"{month}-{day}", winner, "tomb", n)


async def test_a_month_played_is_closed_once_with_champions_posted_and_roled(
    world, admin, clock, error_logs
):
    results = world.guild.create_text_channel("results")
    champion = world.guild.create_role("Champion")
    answer = await world.slash(admin, "settings",
                               **{"results-channel": results, "champion-role": champion})
    assert answer.ephemeral and "Changed `results-channel`, `champion-role`" in (
        answer.response.content)
    assert f"- `champion-role`: <@&{champion.id}>" in answer.response.content

    await month_of_tomb(world, clock, "2026-12", world.alice, world.bob)
    board = await world.core.rankings.month("tomb", month="2026-12", guild_id=world.guild.id)
    assert board.lines and board.lines[0].owner_id == world.alice.id

    clock.now = datetime(2027, 1, 1, 0, 59, tzinfo=UTC)  # December's last day still open
    assert await poster(world).run_due(clock.now) == []
    clock.now = DECEMBER_CLOSE
    done = await poster(world).run_due(clock.now)
    assert done == [(world.guild.id, "posted", None)]
    assert await poster(world).run_due(clock.now) == []  # once
    (post,) = [m for m in results.history() if m.author.bot and m.embeds
               and m.embeds[0].title == "Champions of 2026-12"]
    text = text_of(post)
    assert f"🥇 alice: {board.lines[0].total} (3 days)" in text
    assert "1 ranked on this server" in text
    assert "Nobody ranked on this server." in text  # the other games' first variants
    assert f"<@&{champion.id}> goes to <@{world.alice.id}>" in text
    assert champion.id in roles_of(world, world.alice)
    assert champion.id not in roles_of(world, world.bob)

    # January: bob is the champion; alice's role goes to him at February's 1st.
    await month_of_tomb(world, clock, "2027-01", world.bob, world.alice)
    clock.now = JANUARY_CLOSE
    assert await poster(world).run_due(clock.now) == [(world.guild.id, "posted", None)]
    assert champion.id in roles_of(world, world.bob)
    assert champion.id not in roles_of(world, world.alice)


async def test_settings_refuse_a_role_the_bot_cannot_give_and_say_what_is_missing(
    world, admin, error_logs
):
    above = world.guild.create_role("Above")
    world.env.backend.edit_role(world.guild.id, above.id,
                                {"position": bot_role(world).position + 1})
    text = (await world.slash(admin, "settings", **{"champion-role": above})).response.content
    assert "must be below my highest role" in text and "Nothing was changed" in text
    fine = world.guild.create_role("Champion")
    permissions = discord.Permissions(bot_role(world).permissions)
    permissions.manage_roles = False
    world.env.backend.edit_role(world.guild.id, bot_role(world).id,
                                {"permissions": permissions.value})
    text = (await world.slash(admin, "settings", **{"champion-role": fine})).response.content
    assert "I need the Manage Roles permission" in text
    shown = (await world.slash(admin, "settings")).response.content
    assert "- `champion-role`: not set" in shown


async def test_a_role_no_longer_givable_is_one_log_line_and_a_note_in_the_post(
    world, admin, clock, caplog, error_logs
):
    results = world.guild.create_text_channel("results")
    champion = world.guild.create_role("Champion")
    await world.slash(admin, "settings", **{"results-channel": results, "champion-role": champion})
    await month_of_tomb(world, clock, "2026-12", world.alice, world.bob)
    # Someone moves the role above the bot's after it was set.
    world.env.backend.edit_role(world.guild.id, champion.id,
                                {"position": bot_role(world).position + 1})
    clock.now = DECEMBER_CLOSE
    with caplog.at_level(logging.INFO):
        done = await poster(world).run_due(clock.now)
    ((guild_id, status, note),) = done
    assert guild_id == world.guild.id
    assert status == "posted" and "must be below my highest role" in note
    lines = [r for r in caplog.records if "champion role of server" in r.getMessage()]
    assert len(lines) == 1
    (post,) = [m for m in results.history() if m.author.bot and m.embeds
               and m.embeds[0].title == "Champions of 2026-12"]
    assert "Not given: the role Champion must be below my highest role" in text_of(post)
    assert champion.id not in roles_of(world, world.alice)
