"""Score texts read back from the database are said in the reader's language, end to end
through simcord: a French server's leaderboard and a French player's /stats say a stored
score phrase in French; a score text stored as plain English before (an old row) still reads
as it was.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import discord
import pytest

from tests.bot.conftest import World
from tests.bot.test_languages import LOCALES, discord_languages  # noqa: F401 (a fixture)
from tests.core.conftest import Clock, execute
from tests.core.test_act import play_out
from tests.core.test_stored_texts import phrased  # noqa: F401 (a fixture)

YESTERDAY = "2026-12-13"
NOON = datetime(2026, 12, 14, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


@pytest.fixture
def admin(world):
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("carol"), roles=[role])


async def donsol_daily(world: World, clock: Clock, user, rng: int):
    """``user`` plays yesterday's Donsol daily to its end (random legal moves)."""
    clock.now = datetime.fromisoformat(f"{YESTERDAY}T09:00:00+00:00")
    await world.core.rankings.remember_name(user.id, user.name)
    started = await world.core.daily.start(user.id, "donsol", guild_id=world.guild.id)
    run = await play_out(world.core, started.run, random.Random(rng))
    clock.now = NOON
    return run


async def test_a_stored_score_phrase_is_french_on_a_french_board_and_a_french_stats(
        world, admin, clock, phrased, error_logs):  # noqa: F811 (the fixture imported)
    alice = await donsol_daily(world, clock, world.alice, 1)
    bob = await donsol_daily(world, clock, world.bob, 2)
    await world.slash(admin, "settings", language="fr")
    LOCALES[world.alice.id] = "fr"

    board = (await world.slash(world.bob, "leaderboard", game="donsol", day=YESTERDAY)).response
    text = world.description(board)
    for name, run in (("alice", alice), ("bob", bob)):
        assert re.search(rf"\*\*{name}\*\*.*{run.score[0]} cartes", text), text
    assert "cards" not in text

    stats = (await world.slash(world.alice, "stats", game="donsol")).response
    (field,) = stats.embeds[0].fields
    assert f"Meilleur : **{alice.score[0]} cartes**" in field.value, field.value
    assert "cards" not in field.value


async def test_an_old_plain_score_text_reads_as_it_was(world, clock, db_path, error_logs):
    alice = await donsol_daily(world, clock, world.alice, 1)
    execute(db_path, "UPDATE runs SET score_text = ? WHERE id = ?",
            ("12/54 cards, 3 HP", alice.id))
    LOCALES[world.alice.id] = "fr"
    stats = (await world.slash(world.alice, "stats", game="donsol")).response
    assert "Meilleur : **12/54 cards, 3 HP**" in stats.embeds[0].fields[0].value
