"""A run as the core hands it up, made cheaply: from its stored row, evolved by a write, and its
JSON columns, each the same as the plain way of making it."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from core import Core
from core.model import Run, RunKind, RunStatus
from rules import GAMES
from store.runs import RunRow, to_json
from tests.core.conftest import Clock, Seeds

ALICE = 1001


def test_a_run_has_exactly_its_rows_fields() -> None:
    # Run.from_row copies the row's fields: a field added to one and not the other must fail
    # here rather than make runs without it.
    assert {f.name for f in dataclasses.fields(Run)} == {f.name for f in dataclasses.fields(RunRow)}


async def test_a_stored_run_reads_back_as_the_dataclass_would_make_it(
    db_path: Path, clock: Clock
) -> None:
    async with await Core.open(db_path, clock=clock, random_seed=Seeds(12345)) as core:
        started = await core.runs.start(ALICE, "donsol", guild_id=7, channel_id=8)
        action = started.actions[0]
        played = await core.runs.act(started.id, ALICE, started.version, action)
        read = await core.runs.get(started.id)
    for run in (started, played, read):
        plain = Run(**{f.name: getattr(run, f.name) for f in dataclasses.fields(Run)})
        assert run == plain and repr(run) == repr(plain)
        assert isinstance(run.kind, RunKind) and isinstance(run.status, RunStatus)
        with pytest.raises(dataclasses.FrozenInstanceError):
            run.moves = 99  # type: ignore[misc]
    assert (read.moves, read.version) == (1, played.version) == (1, started.version + 1)
    assert read == played


def test_evolve_is_dataclasses_replace_and_forgets_the_old_view() -> None:
    engine = GAMES["donsol"]
    state = engine.new(12345)
    run = Run(
        id=1, owner_id=ALICE, guild_id=None, channel_id=None, game="donsol", variant="normal",
        seed=12345, deck=None, kind=RunKind.PRACTICE, day=None, status=RunStatus.PLAYING,
        outcome=None, score=[0], moves=0, version=0, ranked=False, rules=engine.rules_tag,
        hinted=False, created_at="t0", updated_at="t0", finished_at=None, state=state,
    )
    before = run.view
    after = engine.apply(state, engine.actions(state)[0])
    evolved = run.evolve(state=after, moves=1, version=1, updated_at="t1")
    assert evolved == dataclasses.replace(run, state=after, moves=1, version=1, updated_at="t1")
    assert evolved.view == engine.view(after) != before
    assert run.view is before and run.moves == 0  # the old run is untouched
    with pytest.raises(TypeError, match="colour"):
        run.evolve(colour="red")


def test_the_json_columns_are_the_standard_librarys_text() -> None:
    rng = random.Random(7)
    for key, engine in GAMES.items():
        for variant in engine.variants:
            state = engine.new(rng.getrandbits(64), variant)
            while True:
                dump = engine.dump(state)
                assert to_json(dump) == json.dumps(dump, separators=(",", ":"),
                                                   ensure_ascii=False), key
                actions = engine.actions(state)
                if not actions:
                    break
                state = engine.apply(state, rng.choice(actions))
    # What orjson refuses is still written, as the standard library writes it.
    for value in ({1: "a"}, [2**70], {"é": "ü"}):
        assert to_json(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
