"""The month's board through discord.py (simcord): /leaderboard day:month and month:YYYY-MM,
its pages surviving a restart and a new month, bad months refused in one sentence."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime

import pytest

from tests.bot.conftest import World
from tests.core.conftest import Clock
from tests.core.test_act import play_out

IN_DECEMBER = datetime(2026, 12, 20, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(IN_DECEMBER)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


async def tomb_daily(world: World, clock: Clock, day: str, user, rng: int) -> int:
    clock.now = datetime.fromisoformat(f"{day}T09:00:00+00:00")
    await world.core.rankings.remember_name(user.id, user.name)
    started = await world.core.daily.start(user.id, "tomb", guild_id=world.guild.id)
    run = await play_out(world.core, started.run, random.Random(rng))
    return run.score[1] if run.outcome in ("won", "escaped") else 0


async def test_the_month_board_adds_up_this_months_daily_points(world, clock, error_logs):
    alice = [await tomb_daily(world, clock, day, world.alice, n)
             for n, day in enumerate(("2026-12-02", "2026-12-09", "2026-12-19"))]
    bob = await tomb_daily(world, clock, "2026-12-12", world.bob, 4)
    clock.now = IN_DECEMBER
    board = (await world.slash(world.alice, "leaderboard", game="tomb", day="month")).response
    embed = board.embeds[0]
    assert "month of 2026-12" in embed.title and "Dungeon Hall" in embed.title
    text = world.description(board)
    assert f"**alice** — {sum(alice)} points (3 days)" in text and "← you" not in text
    assert f"**bob** — {bob} points (1 day)" in text
    fields = {f.name: f.value for f in embed.fields}
    final = int(datetime(2027, 1, 1, 1, 0, tzinfo=UTC).timestamp())
    assert fields["Ranked dailies"] == f"Open: final at <t:{final}:f> (<t:{final}:R>)."
    assert "Play today's deal" in [b.get("label") for b in world.buttons(board)]

    clock.now = datetime(2027, 1, 5, 12, 0, tzinfo=UTC)  # past months stay readable, final
    past = (await world.slash(world.bob, "leaderboard", game="tomb", month="2026-12")).response
    assert "month of 2026-12" in past.embeds[0].title
    assert ({f.name: f.value for f in past.embeds[0].fields}["Ranked dailies"]
            == "Final: the month's last day has closed.")
    assert "Play today's deal" not in [b.get("label") for b in world.buttons(past)]
    assert f"**alice** — {sum(alice)} points (3 days)" in world.description(past)
    assert f"**bob** — {bob} points (1 day)" in world.description(past)
    empty = (await world.slash(world.bob, "leaderboard", game="tomb", day="month")).response
    assert "month of 2027-01" in empty.embeds[0].title
    assert "No ranked dailies this month yet" in world.description(empty)


async def test_month_pages_survive_a_restart_and_the_next_month(
    world, make_bot, clock, error_logs
):
    clock.now = datetime(2026, 12, 8, 9, 0, tzinfo=UTC)
    for user in range(1, 13):
        await world.core.rankings.remember_name(user, f"player {user:02d}")
        started = await world.core.daily.start(user, "tomb", guild_id=world.guild.id)
        await play_out(world.core, started.run, random.Random(user))
    clock.now = IN_DECEMBER
    page = (await world.slash(world.bob, "leaderboard", game="tomb", day="month",
                              scope="global")).response
    assert "12 players · page 1/2" in page.embeds[0].footer.text
    (nxt,) = [b["custom_id"] for b in world.buttons(page) if b.get("label") == "Next"]
    assert ":m2026-12-01:g:" in nxt
    await world.env.restart_bot(make_bot(clock=clock))
    clock.now = datetime(2027, 1, 2, 9, 0, tzinfo=UTC)  # January: the page keeps its month
    second = (await world.click(world.bob, page, nxt)).response
    assert "page 2/2" in second.embeds[0].footer.text
    assert "month of 2026-12" in second.embeds[0].title


@pytest.mark.parametrize(("options", "says"), [
    ({"month": "2027-03"}, "has not begun"),
    ({"month": "12/2026"}, "A month is written YYYY-MM"),
    ({"month": "2026-12", "day": "today"}, "Give a day or a month, not both."),
])
async def test_a_bad_month_is_refused_in_one_sentence(world, options, says, error_logs):
    result = await world.slash(world.alice, "leaderboard", game="tomb", **options)
    assert result.ephemeral and says in result.response.content


def test_a_total_of_one_reads_in_the_singular() -> None:
    from bot.i18n import ENGLISH
    from bot.standings import period_line_text
    from rules import GAMES
    from store.base import PeriodLine

    line = PeriodLine(rank=1, owner_id=5, name="alice", total=1, days=1)
    assert period_line_text(line, GAMES["donsol"], ENGLISH).endswith("— 1 card (1 day)")
    line = dataclasses.replace(line, total=12, days=2)
    assert period_line_text(line, GAMES["donsol"], ENGLISH).endswith("— 12 cards (2 days)")
    assert period_line_text(line, GAMES["clear"], ENGLISH).endswith(
        "— 12 monsters slain (2 days)")
