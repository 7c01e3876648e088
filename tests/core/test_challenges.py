"""Challenges in the core: the same deal for everyone who accepts, one run each, the card's
order, the named-opponent rule, closing at the deadline (also after a restart) or by the
challenger, and what closing does to runs still being played."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

import pytest

from core import Core, RunKind, RunOver
from core.challenges import ChallengeClosed, NotChallenger, NotForYou
from core.errors import Refusal
from rules import GAMES, replay
from tests.core.conftest import SECRET, Clock
from tests.core.test_act import play_out

ALICE, BOB, CAROL, DAVE = 101, 202, 303, 404


async def named(core: Core) -> None:
    for user, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        await core.rankings.remember_name(user, name)


async def test_two_and_three_players_get_the_same_deal_and_one_run_each(core: Core) -> None:
    challenge, alices = await core.challenges.create(ALICE, "donsol", guild_id=1, channel_id=2)
    assert alices.kind is RunKind.CHALLENGE and alices.owner_id == ALICE
    bob = await core.challenges.accept(challenge.id, BOB)
    carol = await core.challenges.accept(challenge.id, CAROL)
    assert bob.created and carol.created
    for accepted in (bob, carol):
        assert accepted.run.seed == alices.seed
        assert accepted.run.view == alices.view  # exactly that deal
        assert accepted.run.kind is RunKind.CHALLENGE
    again = await core.challenges.accept(challenge.id, BOB)
    assert not again.created and again.run.id == bob.run.id  # no second run
    mine = await core.challenges.accept(challenge.id, ALICE)
    assert not mine.created and mine.run.id == alices.id
    card = await core.challenges.card(challenge.id)
    assert sorted(line.owner_id for line in card.lines) == [ALICE, BOB, CAROL]
    assert all(line.playing and line.rank is None for line in card.lines)


async def test_the_card_ranks_players_as_they_finish_and_hides_the_seed_until_closed(
    core: Core,
) -> None:
    await named(core)
    challenge, alices = await core.challenges.create(ALICE, "tomb")
    bobs = (await core.challenges.accept(challenge.id, BOB)).run
    carols = (await core.challenges.accept(challenge.id, CAROL)).run

    bob_done = await play_out(core, bobs, random.Random(1))
    card = await core.challenges.card(challenge.id)
    assert [(line.name, line.rank) for line in card.finished] == [("bob", 1)]
    assert {line.name for line in card.lines if line.playing} == {"alice", "carol"}
    assert card.challenge.revealed_seed is None

    alice_done = await play_out(core, alices, random.Random(2))
    carol_done = await play_out(core, carols, random.Random(1))  # bob's moves: bob's score
    assert carol_done.score == bob_done.score
    card = await core.challenges.card(challenge.id)
    assert card.challenge.revealed_seed is None  # still open: someone else may accept
    by_score = sorted([alice_done, bob_done, carol_done], key=lambda r: r.score, reverse=True)
    assert [line.score for line in card.finished] == [r.score for r in by_score]
    ranks = {line.name: line.rank for line in card.finished}
    assert ranks["bob"] == ranks["carol"]  # equal scores share a rank
    if alice_done.score > bob_done.score:
        assert ranks == {"alice": 1, "bob": 2, "carol": 2}
    elif alice_done.score < bob_done.score:
        assert ranks == {"bob": 1, "carol": 1, "alice": 3}
    names = [line.name for line in card.finished if line.score == bob_done.score]
    assert names.index("bob") < names.index("carol")  # equals listed by name

    final, closed = await core.challenges.close(challenge.id, ALICE)
    assert closed and final.challenge.revealed_seed == alices.seed
    # What `python -m rules replay` does with the revealed seed and a player's moves.
    replayed = replay("tomb", "standard", final.challenge.revealed_seed,
                      await core.runs.moves(bobs.id))
    assert GAMES["tomb"].score(replayed) == bob_done.score


async def test_the_named_opponent_rule(core: Core) -> None:
    challenge, _ = await core.challenges.create(ALICE, "clear", opponent_id=BOB)
    with pytest.raises(NotForYou, match=f"<@{BOB}>"):
        await core.challenges.accept(challenge.id, CAROL)
    assert (await core.challenges.accept(challenge.id, BOB)).created
    card = await core.challenges.card(challenge.id)
    assert sorted(line.owner_id for line in card.lines) == [ALICE, BOB]
    with pytest.raises(Refusal, match="someone else"):
        await core.challenges.create(ALICE, "clear", opponent_id=ALICE)


async def test_only_the_challenger_closes_and_a_run_in_play_is_finished_as_it_stands(
    core: Core,
) -> None:
    await named(core)
    challenge, alices = await core.challenges.create(ALICE, "donsol")
    bobs = (await core.challenges.accept(challenge.id, BOB)).run
    # The deal is random: a move that leaves the run in play (a first fight can kill).
    engine = GAMES["donsol"]
    move = next(a for a in bobs.actions if not engine.is_over(engine.apply(bobs.state, a)))
    bob_moved = await core.runs.act(bobs.id, BOB, bobs.version, move)
    await play_out(core, alices, random.Random(4))
    with pytest.raises(NotChallenger):
        await core.challenges.close(challenge.id, BOB)

    card, closed = await core.challenges.close(challenge.id, ALICE)
    assert closed and card.challenge.closed
    (bob_line,) = [line for line in card.lines if line.owner_id == BOB]
    assert bob_line.unfinished and not bob_line.playing
    # Finished as it stands, with what the game gives a run given up there (Donsol: the
    # cards taken, no HP: never more than playing on).
    assert bob_line.score == GAMES["donsol"].resigned(bob_moved.state)[0] == [1, 0]
    after = await core.runs.get(bobs.id)
    assert after.over and after.status.value == "resigned" and after.score == [1, 0]
    with pytest.raises(RunOver):  # a move after the close is refused: the run is over
        await core.runs.act(bobs.id, BOB, bob_moved.version, bob_moved.actions[0])
    with pytest.raises(ChallengeClosed, match="closed"):
        await core.challenges.accept(challenge.id, CAROL)
    assert (await core.challenges.close(challenge.id, ALICE))[1] is False  # once only


async def test_the_deadline_closes_it_even_across_a_restart(
    core: Core, clock: Clock, db_path: Path
) -> None:
    challenge, alices = await core.challenges.create(ALICE, "donsol", hours=2)
    short, _ = await core.challenges.create(BOB, "donsol", hours=1)
    clock.advance(hours=1, minutes=30)
    with pytest.raises(ChallengeClosed):  # late, even before a closing pass ran
        await core.challenges.accept(short.id, CAROL)
    assert [c.challenge.id for c in await core.challenges.close_due()] == [short.id]
    await core.close()

    clock.advance(hours=1)  # the bot was down when the first deadline passed
    restarted = await Core.open(db_path, clock=clock, daily_secret=SECRET)
    try:
        (card,) = await restarted.challenges.close_due()
        assert card.challenge.id == challenge.id and card.challenge.revealed_seed == alices.seed
        assert card.lines[0].unfinished  # alice never moved: finished as it stands
        assert await restarted.challenges.close_due() == []
    finally:
        await restarted.close()


async def test_bad_hours_and_open_challenges(core: Core, clock: Clock) -> None:
    for hours in (0, 73):
        with pytest.raises(Refusal, match="1 to 72 hours"):
            await core.challenges.create(ALICE, "donsol", hours=hours)
    mine, _ = await core.challenges.create(ALICE, "donsol", hours=5)
    for_bob, _ = await core.challenges.create(CAROL, "tomb", opponent_id=BOB, hours=3)
    other, _ = await core.challenges.create(DAVE, "clear")
    await core.challenges.accept(mine.id, BOB)
    listed = await core.challenges.open_for(BOB)
    assert [(o.challenge.id, o.run is not None) for o in listed] == [
        (for_bob.id, False), (mine.id, True)
    ]
    clock.advance(hours=4)
    assert [o.challenge.id for o in await core.challenges.open_for(BOB)] == [mine.id]
    assert other.id not in [o.challenge.id for o in await core.challenges.open_for(BOB)]


async def test_stats_count_challenges_played_and_won_and_leave_streaks_alone(
    core: Core,
) -> None:
    challenge, alices = await core.challenges.create(ALICE, "tomb")
    bobs = (await core.challenges.accept(challenge.id, BOB)).run
    alice_done = await play_out(core, alices, random.Random(3))
    bob_done = await play_out(core, bobs, random.Random(1))
    open_record = await core.rankings.contests(ALICE, "tomb")
    assert open_record.challenges.played == 1 and open_record.challenges.won == 0
    await core.challenges.close(challenge.id, ALICE)
    alice, bob = (await core.rankings.contests(ALICE, "tomb"),
                  await core.rankings.contests(BOB, "tomb"))
    assert (alice.challenges.played, bob.challenges.played) == (1, 1)
    best = max(alice_done.score, bob_done.score)
    assert alice.challenges.won == int(alice_done.score == best)
    assert bob.challenges.won == int(bob_done.score == best)
    record = await core.rankings.record(ALICE, "tomb")
    assert record.stats.finished == 1  # a run of its game, but no daily and no streak
    assert record.stats.dailies == 0 and record.current_streak == 0
    assert GAMES["tomb"].title == alices.title
    alone, run = await core.challenges.create(CAROL, "tomb")
    await play_out(core, run, random.Random(3))
    await core.challenges.close(alone.id, CAROL)
    carol = await core.rankings.contests(CAROL, "tomb")
    assert (carol.challenges.played, carol.challenges.won) == (1, 0)  # nobody to beat


async def test_a_deadline_is_stored_from_the_clock(core: Core, clock: Clock) -> None:
    challenge, _ = await core.challenges.create(ALICE, "donsol", hours=3)
    assert challenge.deadline == (clock.now + timedelta(hours=3)).isoformat(
        timespec="milliseconds")


@pytest.mark.parametrize("move_first", [True, False])
async def test_a_move_racing_the_close_lands_before_it_or_is_refused(
    core: Core, move_first: bool
) -> None:
    challenge, _ = await core.challenges.create(ALICE, "donsol")
    bobs = (await core.challenges.accept(challenge.id, BOB)).run
    move = core.runs.act(bobs.id, BOB, bobs.version, bobs.actions[0])
    close = core.challenges.close(challenge.id, ALICE)
    results = await asyncio.gather(*((move, close) if move_first else (close, move)),
                                   return_exceptions=True)
    moved = results[0 if move_first else 1]
    after = await core.runs.get(bobs.id)
    log = await core.runs.moves(bobs.id)
    card = await core.challenges.card(challenge.id)
    (bob_line,) = [line for line in card.lines if line.owner_id == BOB]
    assert after.over and bob_line.score == after.score
    if isinstance(moved, BaseException):  # the close came first: the move is refused
        assert isinstance(moved, RunOver) and log == [] and after.moves == 0
        assert after.status.value == "resigned" and bob_line.unfinished
    else:  # the move came first and counts; the close finished the run after it
        given_up = GAMES["donsol"].resigned(moved.state)[0]
        assert log == [bobs.actions[0]] and after.moves == 1 and after.score == given_up
        if moved.over:  # that one move ended the run: its result stands as played
            assert after.status.value == "over" and not bob_line.unfinished
        else:
            assert after.status.value == "resigned" and bob_line.unfinished
