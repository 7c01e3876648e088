"""The daily post's core: which day is due, who is due, what a server's post says, and the
record that makes it go out once — with an injected clock and real databases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from core import BadRequest, Core
from core.daily import closes_at, day_number
from core.posts import POSTED, SKIPPED, Due, Posts, due_day
from rules import GAMES
from rules.deal import commitment
from tests.core.conftest import Clock
from tests.core.test_daily import finish, new_account

ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
GUILD, OTHER_GUILD, QUIET_GUILD = 77, 88, 99
CHANNEL, OTHER_CHANNEL = 7001, 8001
DAY = "2026-12-01"
NEXT = "2026-12-02"


def posts_of(core: Core) -> Posts:
    return Posts(core.ctx, core.daily)


@pytest.mark.parametrize(("now", "day"), [
    (datetime(2026, 11, 30, 23, 0, tzinfo=UTC), None),
    (datetime(2026, 12, 1, 0, 59, 59, tzinfo=UTC), None),  # day #1's post is due at 01:00
    (datetime(2026, 12, 1, 1, 0, tzinfo=UTC), "2026-12-01"),
    (datetime(2026, 12, 14, 0, 30, tzinfo=UTC), "2026-12-13"),
    (datetime(2026, 12, 14, 1, 0, tzinfo=UTC), "2026-12-14"),
    (datetime(2027, 1, 1, 0, 59), "2026-12-31"),  # a naive moment is UTC
    (datetime(2027, 1, 1, 3, 0, tzinfo=timezone(timedelta(hours=2))), "2027-01-01"),
])
def test_the_post_of_a_day_is_due_from_its_01_00_utc(now: datetime, day: str | None) -> None:
    assert due_day(now) == day
    if day is not None:  # the day before has closed exactly then: its seeds can be shown
        assert closes_at((datetime.fromisoformat(day) - timedelta(days=1)).date().isoformat()) \
            <= now.replace(tzinfo=now.tzinfo or UTC)


async def test_servers_with_a_channel_and_the_post_on_are_due_until_recorded(
    core: Core, clock: Clock
) -> None:
    posts = posts_of(core)
    await core.settings.change_guild(GUILD, results_channel=CHANNEL)
    await core.settings.change_guild(OTHER_GUILD, results_channel=OTHER_CHANNEL,
                                     daily_post=False)
    await core.settings.change_guild(QUIET_GUILD, min_account_age=3)  # no channel
    clock.now = datetime(2026, 12, 2, 1, 0, 30, tzinfo=UTC)
    day = posts.due_day()
    assert day == NEXT

    assert await posts.pending(day) == [Due(GUILD, CHANNEL, day)]
    assert await posts.status(GUILD, day) is None
    assert await posts.claim(GUILD, day)
    assert not await posts.claim(GUILD, day)  # a second claim, by any process, loses
    assert await posts.status(GUILD, day) == "claimed"
    assert await posts.pending(day) == []  # claimed is never sent again, even unfinished
    await posts.finish(GUILD, day, POSTED, channel_id=CHANNEL, message_id=555)
    assert await posts.status(GUILD, day) == POSTED
    assert not await posts.claim(GUILD, day)

    await core.settings.change_guild(OTHER_GUILD, daily_post=True)  # turned on after 01:00
    assert await posts.pending(day) == [Due(OTHER_GUILD, OTHER_CHANNEL, day)]
    assert await posts.claim(OTHER_GUILD, day)
    await posts.finish(OTHER_GUILD, day, SKIPPED, note="the results channel no longer exists")
    assert await posts.status(OTHER_GUILD, day) == SKIPPED
    assert await posts.pending(day) == []
    assert await posts.pending("2026-12-03") == [  # the next day starts afresh
        Due(GUILD, CHANNEL, "2026-12-03"), Due(OTHER_GUILD, OTHER_CHANNEL, "2026-12-03"),
    ]
    with pytest.raises(ValueError):
        await posts.finish(GUILD, day, "claimed")


async def test_a_post_has_every_new_deal_and_the_final_top_three_with_seeds(
    core: Core, clock: Clock
) -> None:
    posts = posts_of(core)
    for user, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        await core.rankings.remember_name(user, name)
    played = {user: await finish(core, user, seed=seed)
              for user, seed in ((ALICE, 3), (BOB, 4), (CAROL, 3), (DAVE, 5))}
    elsewhere = await finish(core, 1005, seed=6, guild=OTHER_GUILD)
    tomb = await finish(core, BOB, "tomb", seed=7)
    hard = await finish(core, CAROL, "donsol", seed=8, variant="hard")
    clock.now = datetime(2026, 12, 2, 1, 0, tzinfo=UTC)

    post = await posts.compose(GUILD, NEXT)

    assert post.number == day_number(NEXT) == 2
    expected = [(key, variant) for key, engine in GAMES.items() for variant in engine.variants]
    assert [(d.game, d.variant) for d in post.deals] == expected
    for deal in post.deals:
        assert deal.number == 2 and deal.day == NEXT
        assert deal.commitment == await core.daily.commitment(deal.game, deal.variant, NEXT)
        assert deal.title == GAMES[deal.game].title
    # Each game's first variant, and other variants someone ranked in.
    shown = [(p.game, p.variant) for p in post.podiums]
    firsts = [(key, engine.variants[0]) for key, engine in GAMES.items()]
    assert shown == [firsts[0], ("donsol", "hard"), *firsts[1:]]
    donsol = post.podiums[0]
    assert donsol.day == DAY and donsol.number == 1 and donsol.size == 4
    assert donsol.seed == played[ALICE].seed and commitment(donsol.seed) == donsol.commitment
    scores = sorted((r.score for r in played.values()), reverse=True)
    ranks = [1 + sum(s > score for s in scores) for score in scores]
    expect = [(rank, score) for rank, score in zip(ranks, scores, strict=True) if rank <= 3]
    assert [(line.rank, line.score) for line in donsol.lines] == expect
    assert elsewhere.owner_id not in {line.owner_id for line in donsol.lines}  # server only
    assert [line.owner_id for line in post.podiums[1].lines] == [CAROL]
    assert post.podiums[1].seed == hard.seed != donsol.seed
    assert [line.owner_id for line in post.podiums[2].lines] == [BOB]
    assert post.podiums[2].seed == tomb.seed
    assert post.podiums[3].lines == [] and post.podiums[3].size == 0  # nobody played Clear
    assert post.podiums[3].seed == await core.daily.seed("clear", None, DAY)

    other = await posts.compose(OTHER_GUILD, NEXT, post.deals)
    assert [line.owner_id for line in other.podiums[0].lines] == [1005]


async def test_the_top_three_keeps_shared_ranks_and_the_servers_account_age(
    core: Core, clock: Clock
) -> None:
    posts = posts_of(core)
    young = new_account(2, clock())
    old = [new_account(400 + k, clock()) for k in range(4)]
    for k, user in enumerate(old):
        await core.rankings.remember_name(user, f"player{k}")
    # Four equal scores: one shared rank 1, all four shown.
    runs = [await finish(core, user, seed=11) for user in old]
    assert len({tuple(run.score) for run in runs}) == 1
    await finish(core, young, seed=11)
    await core.settings.change_guild(GUILD, results_channel=CHANNEL, min_account_age=7)
    clock.now = datetime(2026, 12, 2, 2, 0, tzinfo=UTC)

    (donsol, *_) = (await posts.compose(GUILD, NEXT)).podiums
    assert [line.rank for line in donsol.lines] == [1, 1, 1, 1]
    assert [line.name for line in donsol.lines] == ["player0", "player1", "player2", "player3"]
    assert young not in {line.owner_id for line in donsol.lines} and donsol.size == 4


async def test_no_seed_is_shown_before_its_day_closes(core: Core, clock: Clock) -> None:
    posts = posts_of(core)
    await finish(core, ALICE)
    clock.now = datetime(2026, 12, 2, 0, 59, tzinfo=UTC)  # runs of day #1 can still rank
    with pytest.raises(BadRequest, match="revealed when its boards close"):
        await posts.podiums(GUILD, DAY)
    clock.advance(minutes=1)
    assert (await posts.podiums(GUILD, DAY))[0].seed == await core.daily.seed("donsol", None, DAY)


async def test_day_one_has_no_day_before(core: Core, clock: Clock) -> None:
    clock.now = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
    post = await posts_of(core).compose(GUILD, DAY)
    assert post.number == 1 and post.podiums == []
    assert len(post.deals) == sum(len(engine.variants) for engine in GAMES.values())
