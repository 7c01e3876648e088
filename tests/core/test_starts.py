"""Starts that cost one transaction: ``/daily`` keeps the player's name and finds their daily
of the day before in the transaction that starts (or brings back) today's, and ``/play``
finds the unfinished practice run or deals one in a single write, through the core, with an
injected clock and real database files."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from core import BadRequest, Core, RunKind
from core.daily import closes_at
from rules import GAMES
from store.dialect import Query
from store.runs import INSERT_RUN, SELECT_DAILY_AND_BEFORE, SELECT_UNFINISHED
from store.settings import INSERT_META_IF_ABSENT, SELECT_META, UPSERT_PLAYER
from store.tx import SqlTx
from tests.core.conftest import START, Clock, query
from tests.core.test_act import play_out

ALICE, BOB = 1001, 1002
DAY = START.date().isoformat()


@pytest.fixture
def calls(core: Core, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Callable[..., Any]]]:
    """Every transaction the core asks the store for, in order: ``("read"|"write", fn)``."""
    asked: list[tuple[str, Callable[..., Any]]] = []
    read, write = core.store.read, core.store.write

    async def reading(fn: Callable[..., Any], *args: Any, replica: bool = False) -> Any:
        asked.append(("read", fn))
        return await read(fn, *args, replica=replica)

    async def writing(fn: Callable[..., Any], *args: Any) -> Any:
        asked.append(("write", fn))
        return await write(fn, *args)

    monkeypatch.setattr(core.store, "read", reading)
    monkeypatch.setattr(core.store, "write", writing)
    return asked


def kinds(calls: list[tuple[str, Callable[..., Any]]]) -> list[str]:
    return [kind for kind, _ in calls]


async def test_a_daily_start_keeps_the_name_in_its_one_write(
    core: Core, db_path: Path, calls: list[tuple[str, Callable[..., Any]]]
) -> None:
    await core.daily.secret()  # generated once per process, before any start
    calls.clear()
    started = await core.daily.start(ALICE, "donsol", name="  Alice \n  of   the Deck ")
    assert started.created and started.yesterday is None
    assert kinds(calls) == ["write"]
    assert await core.lookback.after_start(started) is None
    assert kinds(calls) == ["write"]  # no daily the day before: nothing more to read
    assert query(db_path, "SELECT name FROM players WHERE user_id = ?", (ALICE,)) == [
        ("Alice of the Deck",)]
    run = await play_out(core, started.run, random.Random(1))
    (line,) = (await core.rankings.board("donsol")).lines
    assert line.owner_id == ALICE and line.name == "Alice of the Deck"
    # Brought back under a new name: the same run, the name kept anew.
    again = await core.daily.start(ALICE, "donsol", name="Alice")
    assert not again.created and again.run.id == run.id and again.run.over
    assert query(db_path, "SELECT name FROM players WHERE user_id = ?", (ALICE,)) == [
        ("Alice",)]
    # Without a name (as before), the kept one stays; an empty one lists the player's id.
    await core.daily.start(ALICE, "donsol")
    assert query(db_path, "SELECT name FROM players WHERE user_id = ?", (ALICE,)) == [
        ("Alice",)]
    await core.daily.start(BOB, "donsol", name=" \t ")
    assert query(db_path, "SELECT name FROM players WHERE user_id = ?", (BOB,)) == [
        (str(BOB),)]


async def test_the_day_before_is_found_by_the_start_and_looked_back_at_once_closed(
    core: Core, clock: Clock, calls: list[tuple[str, Callable[..., Any]]]
) -> None:
    yesterday = await play_out(core, (await core.daily.start(ALICE, "donsol")).run,
                               random.Random(2))
    await core.daily.start(BOB, "donsol")  # Bob never finishes his
    unfinished_tomb = (await core.daily.start(ALICE, "tomb")).run
    clock.now = START + timedelta(days=1) - timedelta(hours=11, minutes=30)  # 00:30, open
    calls.clear()
    started = await core.daily.start(ALICE, "donsol")
    assert started.created and started.yesterday == yesterday.id
    assert await core.lookback.after_start(started) is None  # the day before is still open
    assert kinds(calls) == ["write"]
    clock.now = closes_at(DAY)
    again = await core.daily.start(ALICE, "donsol")
    assert not again.created and again.yesterday == yesterday.id
    back = await core.lookback.after_start(again)
    assert back is not None and back.run_id == yesterday.id
    assert back == await core.lookback.yesterday(ALICE, "donsol", None)
    # Another variant, or a daily of the day before not finished: no look back.
    hard = await core.daily.start(ALICE, "donsol", "hard")
    assert hard.yesterday is None and await core.lookback.after_start(hard) is None
    bob = await core.daily.start(BOB, "donsol")
    assert bob.yesterday is not None and await core.lookback.after_start(bob) is None
    tomb = await core.daily.start(ALICE, "tomb")
    assert tomb.yesterday == unfinished_tomb.id and await core.lookback.after_start(tomb) is None


async def test_play_brings_back_the_unfinished_practice_run_or_deals_one_in_one_write(
    core: Core, calls: list[tuple[str, Callable[..., Any]]]
) -> None:
    await core.daily.start(ALICE, "donsol")  # an unfinished daily is not a practice run
    calls.clear()
    first = await core.runs.open_practice(ALICE, "donsol", guild_id=77, channel_id=88)
    assert first.created and first.run.kind is RunKind.PRACTICE
    assert (first.run.guild_id, first.run.channel_id, first.run.variant) == (77, 88, "normal")
    assert kinds(calls) == ["write"]
    again = await core.runs.open_practice(ALICE, "donsol", "hard")
    assert not again.created and again.run.id == first.run.id and again.run.variant == "normal"
    other = await core.runs.open_practice(ALICE, "tomb")
    assert other.created and other.run.game == "tomb"
    finished = await play_out(core, first.run, random.Random(3))
    fresh = await core.runs.open_practice(ALICE, "donsol")
    assert fresh.created and fresh.run.id not in (finished.id, other.run.id)
    assert kinds(calls) == ["write"] * (3 + finished.moves + 1)  # never a read first
    assert [r.id for r in await core.runs.unfinished(ALICE, "donsol")
            if r.kind is RunKind.PRACTICE] == [fresh.run.id]


async def test_today_s_deal_is_dealt_once_and_each_run_is_its_player_s(
    core: Core, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = GAMES["donsol"]
    dealt: list[int] = []
    new = type(engine).new

    def counting(self: Any, seed: int, *args: Any, **kwargs: Any) -> Any:
        dealt.append(seed)
        return new(self, seed, *args, **kwargs)

    monkeypatch.setattr(type(engine), "new", counting)
    alice = (await core.daily.start(ALICE, "donsol")).run
    clock.advance(minutes=5)
    bob = (await core.daily.start(BOB, "donsol", guild_id=77, channel_id=88)).run
    assert len(dealt) == 1
    assert (alice.owner_id, alice.guild_id, alice.channel_id) == (ALICE, None, None)
    assert (bob.owner_id, bob.guild_id, bob.channel_id) == (BOB, 77, 88)
    assert alice.seed == bob.seed and alice.view == bob.view and alice.id != bob.id
    assert datetime.fromisoformat(bob.created_at) == START + timedelta(minutes=5)
    assert datetime.fromisoformat(alice.created_at) == START
    await core.daily.start(ALICE, "donsol", "hard")  # another variant: its own deal
    assert len(dealt) == 2
    clock.advance(days=1)
    tomorrow = (await core.daily.start(ALICE, "donsol")).run
    assert len(dealt) == 3 and tomorrow.seed != alice.seed and tomorrow.day != alice.day


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[Query]:
    """Every statement a transaction runs through the store's ``Db`` (on either database),
    in order; a queued write counts where it is queued."""
    seen: list[Query] = []

    class Counting:
        def __init__(self, db: Any) -> None:
            self.db, self.locks_rows = db, db.locks_rows

        def one(self, query: Query, params: Any) -> Any:
            seen.append(query)
            return self.db.one(query, params)

        def all(self, query: Query, params: Any) -> Any:
            seen.append(query)
            return self.db.all(query, params)

        def change(self, query: Query, params: Any) -> Any:
            seen.append(query)
            return self.db.change(query, params)

        def queue(self, query: Query, params: Any) -> None:
            seen.append(query)
            self.db.queue(query, params)

    made = SqlTx.__init__
    monkeypatch.setattr(SqlTx, "__init__", lambda tx, db: made(tx, Counting(db)))
    return seen


async def test_a_start_stores_its_run_in_one_statement_that_hands_it_back(
    core: Core, statements: list[Query]
) -> None:
    await core.daily.secret()
    await core.daily.start(BOB, "donsol")  # the day's rules pinned by someone else's start
    statements.clear()
    started = await core.runs.open_practice(ALICE, "donsol", guild_id=77, channel_id=88)
    assert started.created
    assert statements == [SELECT_UNFINISHED, INSERT_RUN]  # no read back of the new run
    statements.clear()
    daily = await core.daily.start(ALICE, "donsol", name="Alice")
    assert daily.created and daily.yesterday is None
    # The name (queued: on PostgreSQL it goes with the next statement), today's and
    # yesterday's dailies in one read, the insert; the day's rules are known pinned.
    assert statements == [UPSERT_PLAYER, SELECT_DAILY_AND_BEFORE, INSERT_RUN]
    statements.clear()
    again = await core.daily.start(ALICE, "donsol", name="Alice")
    assert not again.created and statements == [UPSERT_PLAYER, SELECT_DAILY_AND_BEFORE]
    # What a start hands back is the run as stored.
    for run in (started.run, daily.run):
        stored = await core.runs.get(run.id)
        assert stored == run and stored.view == run.view
        assert GAMES[run.game].dump(stored.state) == GAMES[run.game].dump(run.state)
    assert again.run == daily.run


async def test_the_day_s_rules_are_pinned_by_its_first_daily_and_asked_once(
    core: Core, clock: Clock, statements: list[Query], monkeypatch: pytest.MonkeyPatch
) -> None:
    await core.daily.secret()
    statements.clear()
    await core.daily.start(ALICE, "donsol")
    assert statements == [SELECT_DAILY_AND_BEFORE, INSERT_META_IF_ABSENT, SELECT_META,
                          INSERT_RUN]
    statements.clear()
    await core.daily.start(BOB, "donsol", "hard")  # another variant: the same day's pin
    assert statements == [SELECT_DAILY_AND_BEFORE, INSERT_RUN]
    # A bot with other rules (upgraded mid-day) is refused the day's daily, and asks every
    # time: the pin says which rules the day is played under.
    monkeypatch.setattr(type(GAMES["donsol"]), "rules_version", 2)
    for user in (1003, 1004):
        statements.clear()
        with pytest.raises(BadRequest, match="played under rules donsol/1"):
            await core.daily.start(user, "donsol")
        assert INSERT_META_IF_ABSENT in statements and INSERT_RUN not in statements
    clock.advance(days=1)  # the next day is pinned to the new rules by its first daily
    statements.clear()
    assert (await core.daily.start(1003, "donsol")).run.rules == "donsol/2"
    assert INSERT_META_IF_ABSENT in statements
