"""Starting, reading, listing, resigning and undoing runs; dailies and seeds."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.service import (
    AlreadyPlayed,
    CannotUndo,
    GameService,
    NotYourRun,
    RunNotFound,
    RunOver,
)
from rules import GAMES, replay
from rules.deal import DONSOL_DECK, daily_seed
from tests.service.conftest import SECRET, Clock, Seeds, execute, query, snapshot

ALICE, BOB = 1001, 2002


async def test_a_practice_run_is_dealt_from_a_fresh_random_seed(
    db_path: Path, clock: Clock
) -> None:
    async with await GameService.open(db_path, clock=clock, random_seed=Seeds(12345)) as svc:
        run = await svc.start_run(ALICE, "donsol", guild_id=7, channel_id=8)
    assert run.seed == 12345
    assert (run.kind, run.status, run.moves, run.day) == ("practice", "playing", 0, None)
    assert (run.owner_id, run.guild_id, run.channel_id) == (ALICE, 7, 8)
    assert run.variant == "normal" and run.title == "Donsol"
    assert GAMES["donsol"].dump(run.state) == GAMES["donsol"].dump(GAMES["donsol"].new(12345))
    assert run.view["room"] == list(run.state.room) and run.actions == GAMES["donsol"].actions(
        run.state
    )
    assert run.created_at == run.updated_at == "2026-12-01T12:00:00.000+00:00"
    assert run.finished_at is None and run.score == [0, 21] and not run.ranked


async def test_the_default_random_seed_is_64_bits_and_differs_per_run(
    service: GameService,
) -> None:
    seeds = {(await service.start_run(ALICE, "donsol")).seed for _ in range(5)}
    assert len(seeds) == 5 and all(0 <= s < 2**64 for s in seeds)


@pytest.mark.parametrize("seed", [0, 2**63 - 1, 2**63, 2**64 - 1])
async def test_64_bit_seeds_round_trip(db_path: Path, clock: Clock, seed: int) -> None:
    async with await GameService.open(db_path, clock=clock) as svc:
        run_id = (await svc.start_run(ALICE, "donsol", "hard", seed=seed)).id
    async with await GameService.open(db_path, clock=clock) as svc:
        run = await svc.get_run(run_id)
    assert run.seed == seed and run.state.seed == seed and run.variant == "hard"
    assert query(db_path, "SELECT seed FROM runs") == [(str(seed),)]


async def test_an_explicit_deck_is_dealt_and_kept(db_path: Path, clock: Clock) -> None:
    deck = tuple(reversed(DONSOL_DECK))
    async with await GameService.open(db_path, clock=clock) as svc:
        run_id = (await svc.start_run(ALICE, "donsol", seed=5, deck=deck)).id
    async with await GameService.open(db_path, clock=clock) as svc:
        run = await svc.get_run(run_id)
    assert run.deck == deck
    assert run.view["room"] == ["BJ", "RJ", "KC", "QC"]


async def test_bad_starts_are_refused_and_write_nothing(
    service: GameService, db_path: Path
) -> None:
    bad = [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "donsol", "variant": "nightmare"}, "no variant 'nightmare'"),
        ({"game": "donsol", "seed": 2**64}, "seed"),
        ({"game": "donsol", "seed": -1}, "seed"),
        ({"game": "donsol", "deck": ["AS", "2S"]}, "54 cards"),
        ({"game": "donsol", "day": "2026-11-30", "seed": 3}, "fixed"),
        ({"game": "donsol", "day": "2026-12-01"}, "not over yet"),
        ({"game": "donsol", "day": "2026-12-02"}, "not over yet"),
        ({"game": "donsol", "day": "1st of May"}, "YYYY-MM-DD"),
        ({"game": "donsol", "day": "2026-02-30"}, "YYYY-MM-DD"),
    ]
    for kwargs, message in bad:
        with pytest.raises(ValueError, match=message):
            await service.start_run(ALICE, **kwargs)
    with pytest.raises(ValueError, match="user id"):
        await service.start_run(2**64, "donsol")
    assert snapshot(db_path) == ([], [])


async def test_get_run_of_an_unknown_id(service: GameService) -> None:
    for run_id in (1, 0, -5, 2**70):
        with pytest.raises(RunNotFound, match="does not exist"):
            await service.get_run(run_id)
    with pytest.raises(RunNotFound):
        await service.moves(99)


async def test_unfinished_runs_most_recently_played_first(
    service: GameService, clock: Clock
) -> None:
    first = await service.start_run(ALICE, "donsol", seed=0)
    clock.advance(minutes=1)
    second = await service.start_run(ALICE, "donsol", seed=1)
    clock.advance(minutes=1)
    done = await service.start_run(ALICE, "donsol", seed=2)
    await service.resign(done.id, ALICE)
    await service.start_run(BOB, "donsol", seed=3)
    assert [r.id for r in await service.unfinished_runs(ALICE)] == [second.id, first.id]
    clock.advance(minutes=1)
    await service.act(first.id, ALICE, 0, first.actions[0])
    assert [r.id for r in await service.unfinished_runs(ALICE)] == [first.id, second.id]
    assert [r.id for r in await service.unfinished_runs(ALICE, "donsol")] == [first.id, second.id]
    other = next(key for key in GAMES if key != "donsol") if len(GAMES) > 1 else "nothing"
    assert await service.unfinished_runs(ALICE, other) == []
    assert await service.unfinished_runs(4242) == []


async def test_resign_ends_the_run_as_lost_with_its_score(
    service: GameService, clock: Clock, db_path: Path
) -> None:
    run = await service.start_run(ALICE, "donsol", seed=0)  # room 3D JC 8C 4H
    run = await service.act(run.id, ALICE, 0, "take 3D")
    clock.advance(seconds=30)
    with pytest.raises(NotYourRun):
        await service.resign(run.id, BOB)
    resigned = await service.resign(run.id, ALICE)
    assert (resigned.status, resigned.outcome, resigned.score) == ("resigned", "lost", [1, 21])
    assert resigned.over and resigned.actions == [] and not resigned.ranked
    assert resigned.finished_at == "2026-12-01T12:00:30.000+00:00"
    assert await service.get_run(run.id) == resigned
    before = snapshot(db_path)
    with pytest.raises(RunOver):
        await service.resign(run.id, ALICE)
    with pytest.raises(RunOver):
        await service.act(run.id, ALICE, 1, "take JC")
    assert snapshot(db_path) == before


async def test_undo_replays_all_moves_but_the_last(service: GameService, db_path: Path) -> None:
    run = await service.start_run(ALICE, "donsol", seed=0)
    run = await service.act(run.id, ALICE, 0, "take 3D")
    after_one = GAMES["donsol"].dump(run.state)
    run = await service.act(run.id, ALICE, 1, "take JC")
    with pytest.raises(NotYourRun):
        await service.undo(run.id, BOB)
    undone = await service.undo(run.id, ALICE)
    assert undone.moves == 1 and GAMES["donsol"].dump(undone.state) == after_one
    assert undone.score == [1, 21]
    assert await service.moves(run.id) == ["take 3D"]
    assert query(db_path, "SELECT number, action FROM moves") == [(1, "take 3D")]
    assert GAMES["donsol"].dump((await service.get_run(run.id)).state) == after_one
    again = await service.act(run.id, ALICE, 1, "take 8C")
    assert await service.moves(run.id) == ["take 3D", "take 8C"] and again.moves == 2
    await service.undo(run.id, ALICE)
    await service.undo(run.id, ALICE)
    before = snapshot(db_path)
    with pytest.raises(CannotUndo, match="no move"):
        await service.undo(run.id, ALICE)
    assert snapshot(db_path) == before


async def test_undo_is_for_practice_runs_still_being_played(
    service: GameService, db_path: Path
) -> None:
    daily = await service.start_daily(ALICE, "donsol")
    daily = await service.act(daily.id, ALICE, 0, daily.actions[0])
    practice = await service.start_run(ALICE, "donsol", seed=0)
    practice = await service.act(practice.id, ALICE, 0, "take 3D")
    await service.resign(practice.id, ALICE)
    before = snapshot(db_path)
    with pytest.raises(CannotUndo, match="practice"):
        await service.undo(daily.id, ALICE)
    with pytest.raises(RunOver):
        await service.undo(practice.id, ALICE)
    assert snapshot(db_path) == before


async def test_one_daily_per_player_game_variant_and_day(
    service: GameService, clock: Clock, db_path: Path
) -> None:
    daily = await service.start_daily(ALICE, "donsol", guild_id=7)
    assert (daily.kind, daily.day, daily.variant) == ("daily", "2026-12-01", "normal")
    assert daily.seed == daily_seed(SECRET, "donsol", "normal", "2026-12-01")
    daily = await service.act(daily.id, ALICE, 0, daily.actions[0])
    before = snapshot(db_path)
    with pytest.raises(AlreadyPlayed, match="already started today's Donsol") as refused:
        await service.start_daily(ALICE, "donsol")
    assert refused.value.run == daily  # the bot can offer to resume it
    assert snapshot(db_path) == before
    hard = await service.start_daily(ALICE, "donsol", "hard")
    assert hard.seed == daily_seed(SECRET, "donsol", "hard", "2026-12-01") != daily.seed
    assert (await service.start_daily(BOB, "donsol")).seed == daily.seed
    clock.advance(days=1)
    tomorrow = await service.start_daily(ALICE, "donsol")
    assert tomorrow.day == "2026-12-02" and tomorrow.seed != daily.seed
    # The database itself refuses a second daily, whatever the code above it does.
    with pytest.raises(Exception, match="UNIQUE"):
        execute(
            db_path,
            "INSERT INTO runs (owner_id, game, variant, seed, kind, day, score, state,"
            " created_at, updated_at) SELECT owner_id, game, variant, seed, kind, day, score,"
            " state, created_at, updated_at FROM runs WHERE id = ?",
            (daily.id,),
        )


async def test_the_daily_day_is_the_utc_day(db_path: Path) -> None:
    late_in_tokyo = datetime(2026, 12, 2, 8, 30, tzinfo=timezone(timedelta(hours=9)))
    async with await GameService.open(
        db_path, clock=Clock(late_in_tokyo), daily_secret=SECRET
    ) as svc:
        daily = await svc.start_daily(ALICE, "donsol")
    assert daily.day == "2026-12-01" and daily.created_at == "2026-12-01T23:30:00.000+00:00"


async def test_a_past_day_practice_deals_the_daily_seed(
    service: GameService, clock: Clock
) -> None:
    daily = await service.start_daily(ALICE, "donsol", "easy")
    clock.advance(days=1)
    for _ in range(2):  # a past deal can be practised again and again
        past = await service.start_run(BOB, "donsol", "easy", day="2026-12-01")
        assert (past.kind, past.day, past.seed) == ("practice", "2026-12-01", daily.seed)
        assert past.view == daily.view


async def test_the_daily_secret_is_generated_once_and_kept(db_path: Path, clock: Clock) -> None:
    async with await GameService.open(db_path, clock=clock) as svc:
        secret = await svc.daily_secret()
        first = await svc.start_daily(ALICE, "donsol")
    assert len(secret) == 64 and query(db_path, "SELECT value FROM meta") == [(secret,)]
    async with await GameService.open(db_path, clock=clock) as svc:
        assert await svc.daily_secret() == secret
        assert (await svc.start_daily(BOB, "donsol")).seed == first.seed
    async with await GameService.open(db_path, clock=clock, daily_secret="env") as svc:
        assert await svc.daily_secret() == "env"
        seed = daily_seed("env", "donsol", "normal", "2026-12-01")
        assert (await svc.start_daily(3, "donsol")).seed == seed


async def test_meta_and_guild_settings(service: GameService) -> None:
    assert await service.get_meta("command_hash") is None
    await service.set_meta("command_hash", "abc")
    await service.set_meta("command_hash", "def")
    assert await service.get_meta("command_hash") == "def"
    await service.set_guild_setting(7, "results_channel", "99")
    await service.set_guild_setting(7, "results_channel", "100")
    await service.set_guild_setting(8, "results_channel", "5")
    assert await service.guild_settings(7) == {"results_channel": "100"}
    assert await service.guild_settings(9) == {}


async def test_runs_survive_a_restart(db_path: Path, clock: Clock) -> None:
    async with await GameService.open(db_path, clock=clock) as svc:
        run = await svc.start_run(ALICE, "donsol", seed=0)
        run = await svc.act(run.id, ALICE, 0, "take 3D")
        run = await svc.act(run.id, ALICE, 1, "take 4H")
    async with await GameService.open(db_path, clock=clock) as svc:
        again = await svc.get_run(run.id)
        assert again == run
        assert await svc.moves(run.id) == ["take 3D", "take 4H"]
        assert GAMES["donsol"].dump(again.state) == GAMES["donsol"].dump(
            replay("donsol", None, 0, ["take 3D", "take 4H"])
        )
