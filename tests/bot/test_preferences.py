"""/preferences global-board through discord.py (simcord): off, the player is "a player" at
their true rank on /leaderboard scope:global (day, month, rating) and named on the server's;
/preferences shows every choice with its default."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from tests.bot.conftest import World
from tests.bot.test_months import tomb_daily
from tests.core.conftest import Clock

DAY = datetime(2026, 12, 15, 12, 0, tzinfo=UTC)
NEXT_DAY = datetime(2026, 12, 16, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock() -> Clock:
    return Clock(DAY)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


def lines(text: str) -> set[str]:
    return {line for line in text.splitlines() if re.match(r"`#\s*\d+`", line)}


async def global_boards(world: World, actor) -> dict[str, str]:
    found = {}
    for kind, options in (("day", {"day": "2026-12-15"}), ("month", {"day": "month"}),
                          ("rating", {"day": "rating"})):
        result = await world.slash(actor, "leaderboard", game="tomb", scope="global", **options)
        found[kind] = world.description(result.response)
    return found


async def test_global_board_off_lists_a_player_at_their_rank_and_servers_still_name_them(
    world, clock, error_logs
):
    for n, user in enumerate((world.alice, world.bob)):
        await tomb_daily(world, clock, "2026-12-15", user, n + 3)
    clock.now = NEXT_DAY
    await world.core.ratings.run_due()
    before = await global_boards(world, world.bob)
    assert all("**alice**" in text for text in before.values()), before

    answer = await world.slash(world.alice, "preferences", **{"global-board": "off"})
    assert answer.ephemeral
    assert "- `global-board`: `off`" in answer.response.content
    assert ("the global boards list you as \"a player\", at your true rank; server boards "
            "still name you") in answer.response.content

    after = await global_boards(world, world.bob)
    for kind, text in after.items():
        assert "alice" not in text and f"player {world.alice.id}" not in text, kind
        # The same lines at the same ranks, only the name changed.
        assert lines(text) == {
            line.replace("**alice**", "**a player**") for line in lines(before[kind])
        }, kind
    own = await world.slash(world.alice, "leaderboard", game="tomb", scope="global",
                            day="2026-12-15")
    assert "**a player**" in world.description(own.response)
    # The public board names nobody as "you"; only alice is told her place, privately.
    (yours,) = own.followups
    assert yours.ephemeral and yours.content.startswith("You: **#1** of 2")
    server = await world.slash(world.bob, "leaderboard", game="tomb", day="2026-12-15")
    assert "**alice**" in world.description(server.response)

    await world.slash(world.alice, "preferences", **{"global-board": "on"})
    assert await global_boards(world, world.bob) == before


async def test_preferences_show_every_choice_with_its_default(world, error_logs):
    shown = (await world.slash(world.alice, "preferences")).response.content
    assert shown.splitlines() == [
        "Your preferences:",
        "- `pictures`: `on` (table pictures on your boards)",
        "- `global-board`: `on` (your name on the global boards)",
        "- `reminders`: `off` (no direct messages)",
        "- `language`: `auto` (the answers only you see; `auto`: your Discord language)",
    ]
    turned = (await world.slash(world.alice, "preferences", reminders="on")).response.content
    # 23:00 UTC today, shown in the player's own time.
    day = world.core.ctx.clock().date()
    at = int(datetime(day.year, day.month, day.day, 23, tzinfo=UTC).timestamp())
    assert (f"- `reminders`: `on` (a direct message at <t:{at}:t>, an hour before today's deal "
            "ends, when a streak is at risk)") in turned
