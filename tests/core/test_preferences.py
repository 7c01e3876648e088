"""``global-board:off`` on both databases: the player keeps their line and true rank on every
global board (day, week, month, rating) without their name, and is named on the server's;
set before they ever played, it holds once they do; on again, the name is back."""

from __future__ import annotations

from datetime import UTC, datetime

from core import Core
from core.settings import GLOBAL_BOARD
from tests.core.conftest import Clock
from tests.core.test_series import daily_tomb

ALICE, BOB, CAROL = 101, 202, 303
DAYS = ("2026-12-14", "2026-12-15")


def shown(lines) -> list[tuple[int, int, str, bool]]:
    return sorted((line.rank, line.owner_id, line.name, line.hidden) for line in lines)


async def boards(core: Core, guild_id: int | None) -> dict[str, list]:
    return {
        "day": (await core.rankings.board("tomb", day=DAYS[1], guild_id=guild_id)).lines,
        "week": (await core.rankings.week("tomb", guild_id=guild_id)).lines,
        "month": (await core.rankings.month("tomb", guild_id=guild_id)).lines,
        "rating": (await core.ratings.board("tomb", guild_id=guild_id)).lines,
    }


async def test_a_hidden_player_keeps_their_rank_on_global_boards_without_their_name(
    core: Core, clock: Clock
) -> None:
    # Alice hides before she ever played: her row has no name yet.
    await core.settings.set_player(ALICE, GLOBAL_BOARD, "off")
    for user, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
        await core.rankings.remember_name(user, name)
    for n, day in enumerate(DAYS):
        for user in (ALICE, BOB, CAROL):
            await daily_tomb(core, clock, day, user, user + n)
    clock.now = datetime(2026, 12, 16, 12, 0, tzinfo=UTC)
    await core.ratings.run_due()

    hidden = await boards(core, None)
    server = await boards(core, 7)
    await core.settings.set_player(ALICE, GLOBAL_BOARD, "on")
    named = await boards(core, None)

    for kind, lines in named.items():
        assert {line.owner_id for line in lines} == {ALICE, BOB, CAROL}, kind
        assert not any(line.hidden for line in lines), kind
        assert shown(server[kind]) == shown(lines), kind  # the server names everyone
        # Hidden: the same lines at the same ranks, only Alice's name left out.
        assert shown(hidden[kind]) == sorted(
            (line.rank, line.owner_id, "" if line.owner_id == ALICE else line.name,
             line.owner_id == ALICE) for line in lines
        ), kind


async def test_the_viewers_own_line_is_hidden_too(core: Core, clock: Clock) -> None:
    await core.rankings.remember_name(ALICE, "alice")
    await daily_tomb(core, clock, DAYS[0], ALICE, 1)
    await core.settings.set_player(ALICE, GLOBAL_BOARD, "off")
    board = await core.rankings.board("tomb", day=DAYS[0], viewer_id=ALICE)
    (line,) = board.lines
    assert (line.rank, line.name, line.hidden) == (1, "", True)
    own = await core.rankings.standing(ALICE, "tomb", "standard", DAYS[0], 7)
    assert own.world is not None and own.world.hidden and own.world.name == ""
    assert own.server is not None and own.server.name == "alice" and not own.server.hidden
