"""The day's look back through discord.py (simcord): atop the next /daily only once the day
has closed, under a replay, and in /stats game: day: with its refusals; and the /stats card,
drawn in the pictures worker and cached, absent with pictures off."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from PIL import Image

from bot.pictures import stats_card
from core.daily import closes_at
from core.workers import PICTURES
from tests.bot.test_daily import NOON, play_daily_through_core
from tests.core.conftest import Clock

DAY = NOON.date().isoformat()  # Donsol #5
NEXT = NOON + timedelta(days=1)
TURN_BUDGET = 300
YESTERDAY = re.compile(
    r"^\*Yesterday: (at most )?\d+% of par · better than (\d+%|everyone else) · best [^·]+ · "
    r"turning point: /replay run:\d+\n"
)


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


async def put_par(world, score: list[int]) -> None:
    from store.base import ParRow

    par = ParRow(game="donsol", variant="normal", day=DAY, rules="donsol/1", score=score,
                 score_text="won with 9 HP", won=True, exact=True, actions=[], nodes=1,
                 seconds=0.0, solved_at="2026-12-06")
    await world.core.store.write(lambda tx, row: tx.insert_par(row), par)


async def test_the_next_daily_opens_with_yesterday_only_after_the_close(
    world, clock, error_logs
):
    await play_daily_through_core(world, world.alice.id, 3)
    await play_daily_through_core(world, world.bob.id, 4)
    await put_par(world, [54, 9])

    clock.now = NEXT.replace(hour=0, minute=30)  # the next day, before yesterday closed
    early = await world.slash(world.alice, "daily", game="donsol")
    assert "Yesterday" not in world.description(early.response)
    assert "Today's deal is yours" in world.description(early.response)

    clock.now = closes_at(DAY)
    again = await world.slash(world.alice, "daily", game="donsol")
    text = world.description(again.response)
    assert YESTERDAY.match(text), text
    assert "Welcome back" in text.splitlines()[1]
    # Only for the game and variant played yesterday.
    other = await world.slash(world.alice, "daily", game="donsol", variant="easy")
    assert "Yesterday" not in world.description(other.response)
    no_tomb = await world.slash(world.bob, "daily", game="tomb")
    assert "Yesterday" not in world.description(no_tomb.response)

    # Once the turning point is kept (a replay worked it out), the line names its move.
    world.core.replays.budget_per_step = TURN_BUDGET
    (run,) = [r for r in [await world.core.lookback.of_day(world.alice.id, "donsol", None,
                                                             DAY)] if r]
    await world.slash(world.alice, "replay", run=run.run_id)
    later = await world.slash(world.alice, "daily", game="donsol")
    assert re.search(r"· (turning point move \d+|no move cost anything)\n",
                     world.description(later.response))


async def test_a_replay_shows_its_runs_look_back(world, clock, error_logs):
    run = await play_daily_through_core(world, world.alice.id, 3)
    await play_daily_through_core(world, world.bob.id, 4)
    clock.now = closes_at(DAY)
    world.core.replays.budget_per_step = TURN_BUDGET
    replay = (await world.slash(world.bob, "replay", run=run.id)).response
    fields = {f.name: f.value for f in replay.embeds[0].fields}
    value = fields["Look back at Donsol #5"]
    assert re.match(r"^par not solved yet · better than (0%|everyone else) · best ", value), value
    assert "turning point" not in value  # it has its own field


async def test_stats_day_refusals_and_the_look_back(world, clock, error_logs):
    await play_daily_through_core(world, world.alice.id, 3)
    no_game = await world.slash(world.alice, "stats", day="2026-12-05")
    assert no_game.ephemeral and no_game.response.content == (
        "Give the game too: `/stats game:<game> day:<day>`.")
    still_open = await world.slash(world.alice, "stats", game="donsol", day="5")
    assert still_open.ephemeral and still_open.response.content.startswith(
        "Donsol #5 is still open: its look back comes when its boards close, at "
        "<t:1796518800:f> (<t:1796518800:R>)")
    future = await world.slash(world.alice, "stats", game="donsol", day="2026-12-09")
    assert future.response.content == "Donsol #9 (2026-12-09) has not been dealt yet."
    bad = await world.slash(world.alice, "stats", game="donsol", day="someday")
    assert bad.response.content == "'someday' is not a day: write it as YYYY-MM-DD."

    clock.now = closes_at(DAY)
    none = await world.slash(world.bob, "stats", game="donsol", day="yesterday")
    assert none.response.content == "You have no finished daily of Donsol #5."
    theirs = await world.slash(world.bob, "stats", game="donsol", day="#5", user=world.alice)
    assert theirs.response.embeds[0].title == "alice's Donsol #5"  # anyone's, once closed
    unplayed = await world.slash(world.alice, "stats", game="donsol", day="#5", user=world.bob)
    assert unplayed.response.content == "bob has no finished daily of Donsol #5."

    world.core.replays.budget_per_step = TURN_BUDGET
    shown = await world.slash(world.alice, "stats", game="donsol", day="2026-12-05")
    assert shown.ephemeral
    embed = shown.response.embeds[0]
    assert embed.title == "alice's Donsol #5"
    (field,) = embed.fields
    assert "Against par: **par not solved yet**" in field.value
    assert "Among 1 ranked: **the only ranked player**" in field.value
    assert re.search(r"Turning point: (Here the deal|After “|No move cost)", field.value)


async def test_stats_has_a_card_with_pictures_on_and_none_with_them_off(
    world, make_bot, clock, error_logs
):
    await world.env.restart_bot(make_bot(clock=clock, pictures=True))
    await world.env.bot.core.workers.run(PICTURES, stats_card.render_card, [])  # warm
    await play_daily_through_core(world, world.alice.id, 3)
    stats_card.CACHE._items.clear()
    shown = (await world.slash(world.alice, "stats", game="donsol")).response
    assert shown.embeds[0].image.url == "attachment://stats.png"
    (attachment,) = shown.attachments
    png = await attachment.read()
    with Image.open(io.BytesIO(png)) as image:
        assert image.size == (stats_card.WIDTH, 16 + stats_card.SECTION_H + 16)
        assert len(image.getcolors(maxcolors=100_000)) > 5  # not blank
    assert len(stats_card.CACHE) == 1
    again = (await world.slash(world.alice, "stats", game="donsol")).response
    assert len(again.attachments) == 1 and stats_card.CACHE.hits >= 1
    # The text is complete without it.
    assert "Since the first daily (1 day):" in again.embeds[0].fields[0].value

    await world.core.settings.set_player(world.alice.id, "pictures", "off")
    off = (await world.slash(world.alice, "stats", game="donsol")).response
    assert off.attachments == [] and not off.embeds[0].image.url
    nothing = (await world.slash(world.bob, "stats", game="donsol")).response
    assert nothing.attachments == []  # no daily played: no card
