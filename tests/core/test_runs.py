"""Starting, reading, listing, resigning and undoing runs; dailies and seeds."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from core import (
    AlreadyPlayed,
    BadRequest,
    CannotUndo,
    Core,
    NotYourRun,
    RunNotFound,
    RunOver,
)
from core.settings import GuildSettings
from rules import GAMES, replay
from rules.deal import daily_seed
from rules.donsol.engine import DECK as DONSOL_DECK
from tests.core.conftest import SECRET, Clock, Seeds, execute, query, snapshot

ALICE, BOB = 1001, 2002


async def test_a_practice_run_is_dealt_from_a_fresh_random_seed(
    db_path: Path, clock: Clock
) -> None:
    async with await Core.open(db_path, clock=clock, random_seed=Seeds(12345)) as svc:
        run = await svc.runs.start(ALICE, "donsol", guild_id=7, channel_id=8)
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
    core: Core,
) -> None:
    seeds = {(await core.runs.start(ALICE, "donsol")).seed for _ in range(5)}
    assert len(seeds) == 5 and all(0 <= s < 2**64 for s in seeds)


@pytest.mark.parametrize("seed", [0, 2**63 - 1, 2**63, 2**64 - 1])
async def test_64_bit_seeds_round_trip(db_path: Path, clock: Clock, seed: int) -> None:
    async with await Core.open(db_path, clock=clock) as svc:
        run_id = (await svc.runs.start(ALICE, "donsol", "hard", seed=seed)).id
    async with await Core.open(db_path, clock=clock) as svc:
        run = await svc.runs.get(run_id)
    assert run.seed == seed and run.state.seed == seed and run.variant == "hard"
    assert query(db_path, "SELECT seed FROM runs") == [(str(seed),)]


async def test_an_explicit_deck_is_dealt_and_kept(db_path: Path, clock: Clock) -> None:
    deck = tuple(reversed(DONSOL_DECK))
    async with await Core.open(db_path, clock=clock) as svc:
        run_id = (await svc.runs.start(ALICE, "donsol", seed=5, deck=deck)).id
    async with await Core.open(db_path, clock=clock) as svc:
        run = await svc.runs.get(run_id)
    assert run.deck == deck
    assert run.view["room"] == ["BJ", "RJ", "KC", "QC"]


async def test_bad_starts_are_refused_and_write_nothing(
    core: Core, db_path: Path
) -> None:
    bad = [
        ({"game": "chess"}, "no game called 'chess': choose Donsol"),
        ({"game": "donsol", "variant": "nightmare"}, "no 'nightmare' variant: choose"),
        ({"game": "donsol", "seed": 2**64}, "seed"),
        ({"game": "donsol", "seed": -1}, "seed"),
        ({"game": "donsol", "deck": ["AS", "2S"]}, "54 cards"),
    ]
    for kwargs, message in bad:
        with pytest.raises(BadRequest, match=message):
            await core.runs.start(ALICE, **kwargs)
    with pytest.raises(BadRequest, match="user id"):
        await core.runs.start(2**64, "donsol")
    past_days = [
        ("2026-12-01", "revealed when its boards close, at 2026-12-02 01:00 UTC"),
        ("2026-12-02", "revealed when its boards close"),
        ("1st of May", "YYYY-MM-DD"),
        ("2026-02-30", "YYYY-MM-DD"),
    ]
    for day, message in past_days:
        with pytest.raises(BadRequest, match=message):
            await core.daily.practise(ALICE, "donsol", None, day)
    assert snapshot(db_path) == ([], [])


async def test_get_run_of_an_unknown_id(core: Core) -> None:
    for run_id in (1, 0, -5, 2**70):
        with pytest.raises(RunNotFound, match="does not exist"):
            await core.runs.get(run_id)
    with pytest.raises(RunNotFound):
        await core.runs.moves(99)


async def test_unfinished_runs_most_recently_played_first(
    core: Core, clock: Clock
) -> None:
    first = await core.runs.start(ALICE, "donsol", seed=0)
    clock.advance(minutes=1)
    second = await core.runs.start(ALICE, "donsol", seed=1)
    clock.advance(minutes=1)
    done = await core.runs.start(ALICE, "donsol", seed=2)
    await core.runs.resign(done.id, ALICE, done.version)
    await core.runs.start(BOB, "donsol", seed=3)
    assert [r.id for r in await core.runs.unfinished(ALICE)] == [second.id, first.id]
    clock.advance(minutes=1)
    await core.runs.act(first.id, ALICE, 0, first.actions[0])
    assert [r.id for r in await core.runs.unfinished(ALICE)] == [first.id, second.id]
    assert [r.id for r in await core.runs.unfinished(ALICE, "donsol")] == [first.id, second.id]
    other = next(key for key in GAMES if key != "donsol") if len(GAMES) > 1 else "nothing"
    assert await core.runs.unfinished(ALICE, other) == []
    assert await core.runs.unfinished(4242) == []


async def test_resign_ends_the_run_as_lost_with_its_score(
    core: Core, clock: Clock, db_path: Path
) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)  # room 3D JC 8C 4H
    run = await core.runs.act(run.id, ALICE, 0, "take 3D")
    clock.advance(seconds=30)
    with pytest.raises(NotYourRun):
        await core.runs.resign(run.id, BOB, run.version)
    resigned = await core.runs.resign(run.id, ALICE, run.version)
    assert (resigned.status, resigned.outcome, resigned.score) == ("resigned", "lost", [1, 0])
    assert resigned.over and resigned.actions == [] and not resigned.ranked
    assert resigned.finished_at == "2026-12-01T12:00:30.000+00:00"
    assert await core.runs.get(run.id) == resigned
    before = snapshot(db_path)
    with pytest.raises(RunOver):
        await core.runs.resign(run.id, ALICE, resigned.version)
    with pytest.raises(RunOver):
        await core.runs.act(run.id, ALICE, resigned.version, "take JC")
    assert snapshot(db_path) == before


async def test_undo_replays_all_moves_but_the_last(core: Core, db_path: Path) -> None:
    run = await core.runs.start(ALICE, "donsol", seed=0)
    run = await core.runs.act(run.id, ALICE, 0, "take 3D")
    after_one = GAMES["donsol"].dump(run.state)
    run = await core.runs.act(run.id, ALICE, 1, "take JC")
    with pytest.raises(NotYourRun):
        await core.runs.undo(run.id, BOB, run.version)
    undone = await core.runs.undo(run.id, ALICE, run.version)
    assert undone.moves == 1 and GAMES["donsol"].dump(undone.state) == after_one
    assert undone.score == [1, 21]
    assert await core.runs.moves(run.id) == ["take 3D"]
    assert query(db_path, "SELECT number, action FROM moves") == [(1, "take 3D")]
    assert GAMES["donsol"].dump((await core.runs.get(run.id)).state) == after_one
    again = await core.runs.act(run.id, ALICE, undone.version, "take 8C")
    assert await core.runs.moves(run.id) == ["take 3D", "take 8C"] and again.moves == 2
    once = await core.runs.undo(run.id, ALICE, again.version)
    twice = await core.runs.undo(run.id, ALICE, once.version)
    # The version only goes up: five writes, though the run is back at move 0.
    assert (twice.moves, twice.version) == (0, 6)
    before = snapshot(db_path)
    with pytest.raises(CannotUndo, match="no move"):
        await core.runs.undo(run.id, ALICE, twice.version)
    assert snapshot(db_path) == before


async def test_undo_is_for_practice_runs_still_being_played(
    core: Core, db_path: Path
) -> None:
    daily = await core.daily.start_new(ALICE, "donsol")
    daily = await core.runs.act(daily.id, ALICE, 0, daily.actions[0])
    practice = await core.runs.start(ALICE, "donsol", seed=0)
    practice = await core.runs.act(practice.id, ALICE, 0, "take 3D")
    resigned = await core.runs.resign(practice.id, ALICE, practice.version)
    before = snapshot(db_path)
    with pytest.raises(CannotUndo, match="practice"):
        await core.runs.undo(daily.id, ALICE, daily.version)
    with pytest.raises(RunOver):
        await core.runs.undo(practice.id, ALICE, resigned.version)
    assert snapshot(db_path) == before


async def test_one_daily_per_player_game_variant_and_day(
    core: Core, clock: Clock, db_path: Path
) -> None:
    daily = await core.daily.start_new(ALICE, "donsol", guild_id=7)
    assert (daily.kind, daily.day, daily.variant) == ("daily", "2026-12-01", "normal")
    assert daily.seed == daily_seed(SECRET, "donsol", "normal", "2026-12-01")
    daily = await core.runs.act(daily.id, ALICE, 0, daily.actions[0])
    before = snapshot(db_path)
    with pytest.raises(AlreadyPlayed, match="already played today's Donsol") as refused:
        await core.daily.start_new(ALICE, "donsol")
    assert refused.value.run == daily  # the bot can offer to resume it
    assert snapshot(db_path) == before
    hard = await core.daily.start_new(ALICE, "donsol", "hard")
    assert hard.seed == daily_seed(SECRET, "donsol", "hard", "2026-12-01") != daily.seed
    assert (await core.daily.start_new(BOB, "donsol")).seed == daily.seed
    clock.advance(days=1)
    tomorrow = await core.daily.start_new(ALICE, "donsol")
    assert tomorrow.day == "2026-12-02" and tomorrow.seed != daily.seed
    # The database itself refuses a second daily, whatever the code above it does.
    with pytest.raises(Exception, match="UNIQUE"):
        execute(
            db_path,
            "INSERT INTO runs (owner_id, game, variant, seed, kind, day, score, state, rules,"
            " created_at, updated_at) SELECT owner_id, game, variant, seed, kind, day, score,"
            " state, rules, created_at, updated_at FROM runs WHERE id = ?",
            (daily.id,),
        )


async def test_the_daily_day_is_the_utc_day(db_path: Path) -> None:
    late_in_tokyo = datetime(2026, 12, 2, 8, 30, tzinfo=timezone(timedelta(hours=9)))
    async with await Core.open(
        db_path, clock=Clock(late_in_tokyo), daily_secret=SECRET
    ) as svc:
        daily = await svc.daily.start_new(ALICE, "donsol")
    assert daily.day == "2026-12-01" and daily.created_at == "2026-12-01T23:30:00.000+00:00"


async def test_a_past_day_practice_deals_the_daily_seed(
    core: Core, clock: Clock
) -> None:
    daily = await core.daily.start_new(ALICE, "donsol", "easy")
    clock.advance(days=1)
    for _ in range(2):  # a past deal can be practised again and again
        past = await core.daily.practise(BOB, "donsol", "easy", "2026-12-01")
        assert (past.kind, past.day, past.seed) == ("practice", "2026-12-01", daily.seed)
        assert past.view == daily.view


async def test_the_daily_secret_is_generated_once_and_kept(db_path: Path, clock: Clock) -> None:
    async with await Core.open(db_path, clock=clock) as svc:
        secret = await svc.daily.secret()
        first = await svc.daily.start_new(ALICE, "donsol")
    stored = query(db_path, "SELECT value FROM meta WHERE key = 'daily_secret'")
    assert len(secret) == 64 and stored == [(secret,)]
    async with await Core.open(db_path, clock=clock) as svc:
        assert await svc.daily.secret() == secret
        assert (await svc.daily.start_new(BOB, "donsol")).seed == first.seed
    async with await Core.open(db_path, clock=clock, daily_secret="env") as svc:
        assert await svc.daily.secret() == "env"
        seed = daily_seed("env", "donsol", "normal", "2026-12-01")
        assert (await svc.daily.start_new(3, "donsol")).seed == seed


async def test_meta_and_guild_settings(core: Core) -> None:
    assert await core.settings.meta("command_hash") is None
    await core.settings.set_meta("command_hash", "abc")
    await core.settings.set_meta("command_hash", "def")
    assert await core.settings.meta("command_hash") == "def"
    await core.settings.change_guild(7, results_channel=99, min_account_age=3)
    now = await core.settings.change_guild(7, results_channel=100)
    await core.settings.change_guild(8, results_channel=5, daily_post=False)
    assert now == GuildSettings(results_channel=100, min_account_age=3)
    assert await core.settings.guild(7) == now
    assert await core.settings.guild(8) == GuildSettings(results_channel=5, daily_post=False)
    assert await core.settings.guild(9) == GuildSettings()
    with pytest.raises(BadRequest, match="min-account-age"):
        await core.settings.change_guild(9, min_account_age=-1, results_channel=1)
    assert await core.settings.guild(9) == GuildSettings()
    assert [g for g, _ in await core.settings.guilds_with_results_channel()] == [7, 8]


async def test_runs_survive_a_restart(db_path: Path, clock: Clock) -> None:
    async with await Core.open(db_path, clock=clock) as svc:
        run = await svc.runs.start(ALICE, "donsol", seed=0)
        run = await svc.runs.act(run.id, ALICE, 0, "take 3D")
        run = await svc.runs.act(run.id, ALICE, 1, "take 4H")
    async with await Core.open(db_path, clock=clock) as svc:
        again = await svc.runs.get(run.id)
        assert again == run
        assert await svc.runs.moves(run.id) == ["take 3D", "take 4H"]
        assert GAMES["donsol"].dump(again.state) == GAMES["donsol"].dump(
            replay("donsol", None, 0, ["take 3D", "take 4H"])
        )


async def test_version_reads_the_write_count_alone(core):
    run = await core.runs.start(ALICE, "donsol", seed=3)
    assert await core.runs.version(run.id) == 0
    played = await core.runs.act(run.id, ALICE, 0, run.actions[0])
    assert await core.runs.version(run.id) == played.version == 1
    with pytest.raises(RunNotFound):
        await core.runs.version(run.id + 1000)
