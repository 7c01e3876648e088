"""Runs and their moves: the rows a game is played on, and the queries of a click.

A click's write transaction reads its run (or only its version, when the core knows the run as
of that version: ``core.known``), appends its move and updates the run with a
compare-and-set on ``version``; every statement here is one text both databases run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

from store.dialect import Conflict, Db, Query, Row
from store.texts import stored, to_json


@dataclass(frozen=True)
class RunRow:
    """One stored run, decoded: JSON columns are Python values, the seed an int."""

    id: int
    owner_id: int
    guild_id: int | None
    channel_id: int | None
    game: str
    variant: str
    seed: int
    deck: tuple[str, ...] | None
    kind: str
    day: str | None
    status: str
    outcome: str | None
    score: list[int]
    state: dict[str, Any]
    moves: int
    version: int
    ranked: bool
    rules: str
    created_at: str
    updated_at: str
    finished_at: str | None
    hinted: bool = False


@dataclass(frozen=True)
class NewRun:
    """What inserting a run needs; the store adds the id, ``moves = 0`` and ``version = 0``."""

    owner_id: int
    guild_id: int | None
    channel_id: int | None
    game: str
    variant: str
    seed: int
    deck: tuple[str, ...] | None
    kind: str
    day: str | None
    status: str
    outcome: str | None
    score: list[int]
    state: dict[str, Any]
    ranked: bool
    rules: str
    now: str
    finished_at: str | None
    score_text: str = ""
    points: int = 0


@dataclass(frozen=True)
class RunChange:
    """A run's new standing after a write; applied only if the run is still at ``expected``
    (its version), and the version then goes up by one."""

    id: int
    expected: int
    state: dict[str, Any]
    moves: int
    score: list[int]
    status: str
    outcome: str | None
    ranked: bool
    now: str
    finished_at: str | None
    hinted: bool = False
    score_text: str = ""
    points: int = 0


class Runs(Protocol):
    """The queries of runs and moves."""

    def run(self, run_id: int) -> RunRow | None: ...
    def run_version(self, run_id: int) -> int | None: ...
    def unfinished(self, owner_id: int, game: str | None) -> list[RunRow]: ...
    def daily_run(self, owner_id: int, game: str, variant: str, day: str) -> RunRow | None: ...
    def daily_and_before(self, owner_id: int, game: str, variant: str, day: str,
                         before: str) -> tuple[RunRow | None, int | None]: ...
    def insert_run(self, run: NewRun) -> RunRow: ...
    def update_run(self, change: RunChange) -> bool: ...
    def update_state(self, run_id: int, version: int, state: dict[str, Any]) -> bool: ...
    def append_move(self, run_id: int, number: int, action: str, at: str) -> None: ...
    def actions(self, run_id: int) -> list[str]: ...
    def delete_move(self, run_id: int, number: int) -> None: ...


RUN_COLUMNS = """
    id, owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day, status, outcome,
    score, state, moves, version, ranked, rules, hinted, created_at, updated_at, finished_at
"""
#: What an insert hands back: the row as stored but its state, which the inserter has.
INSERTED_COLUMNS = """
    id, owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day, status, outcome,
    score, moves, version, ranked, rules, hinted, created_at, updated_at, finished_at
"""

_RUN_VERSION = "SELECT version FROM runs WHERE id = {id}"
RUN_VERSION = Query.both(_RUN_VERSION)
_SELECT_RUN = f"SELECT {RUN_COLUMNS} FROM runs WHERE id = {{id}}"
SELECT_RUN = Query.both(_SELECT_RUN)
# In a PostgreSQL write transaction a second writer of the run waits at either of these for
# the first; on SQLite the writer holds the database's write lock already (BEGIN IMMEDIATE).
SELECT_RUN_LOCKED = Query.each(sqlite=_SELECT_RUN, postgresql=_SELECT_RUN + " FOR UPDATE")
RUN_VERSION_LOCKED = Query.each(sqlite=_RUN_VERSION, postgresql=_RUN_VERSION + " FOR UPDATE")
SELECT_UNFINISHED = Query.both(f"""
    SELECT {RUN_COLUMNS} FROM runs
    WHERE owner_id = {{owner_id}} AND status = 'playing'
      AND (CAST({{game}} AS TEXT) IS NULL OR game = {{game}})
    ORDER BY updated_at DESC, id DESC
""")
SELECT_DAILY = Query.both(f"""
    SELECT {RUN_COLUMNS} FROM runs
    WHERE kind = 'daily' AND owner_id = {{owner_id}} AND game = {{game}}
      AND variant = {{variant}} AND day = {{day}}
""")
# Today's daily and the one of the day before (the look back's), in one statement.
SELECT_DAILY_AND_BEFORE = Query.both(f"""
    SELECT {RUN_COLUMNS} FROM runs
    WHERE kind = 'daily' AND owner_id = {{owner_id}} AND game = {{game}}
      AND variant = {{variant}} AND day IN ({{day}}, {{before}})
""")
# The new run as stored, in the insert's own round trip (RETURNING: SQLite since 3.35); no row
# back: the one-daily-per-player key (or another unique key) said no.
INSERT_RUN = Query.both(f"""
    INSERT INTO runs (owner_id, guild_id, channel_id, game, variant, seed, deck, kind, day,
                      status, outcome, score, score_key, score_text, points, state, moves,
                      version, ranked, rules, created_at, updated_at, finished_at)
    VALUES ({{owner_id}}, {{guild_id}}, {{channel_id}}, {{game}}, {{variant}}, {{seed}}, {{deck}},
            {{kind}}, {{day}}, {{status}}, {{outcome}}, {{score}}, {{score_key}}, {{score_text}},
            {{points}}, {{state}}, 0, 0, {{ranked}}, {{rules}}, {{now}}, {{now}}, {{finished_at}})
    ON CONFLICT DO NOTHING
    RETURNING {INSERTED_COLUMNS}
""")
# The compare-and-set: the row changes only if nobody wrote to it since version {expected}.
UPDATE_RUN = Query.both("""
    UPDATE runs
    SET state = {state}, moves = {moves}, score = {score}, score_key = {score_key},
        score_text = {score_text}, points = {points}, status = {status}, outcome = {outcome},
        ranked = {ranked}, hinted = {hinted},
        version = version + 1, updated_at = {now}, finished_at = {finished_at}
    WHERE id = {id} AND version = {expected}
""")
# What a move that leaves a playing run playing changes, and no more: the full UPDATE_RUN also
# sets the columns that place a run on a player's lists and the boards (status, ranked, ...),
# and SQLite rewrites the entry of every index holding a column a statement sets, changed or
# not. It applies only where those columns already hold what the change gives them; where
# they do not (a hint marked, a run's end), ``update_run`` writes the full row.
UPDATE_MOVE = Query.both("""
    UPDATE runs
    SET state = {state}, moves = {moves}, score = {score}, score_key = {score_key},
        score_text = {score_text}, points = {points}, version = version + 1, updated_at = {now}
    WHERE id = {id} AND version = {expected} AND status = 'playing' AND outcome IS NULL
      AND ranked = {ranked} AND hinted = {hinted} AND finished_at IS NULL
""")
UPDATE_STATE = Query.both(
    "UPDATE runs SET state = {state} WHERE id = {id} AND version = {version}"
)
INSERT_MOVE = Query.both("""
    INSERT INTO moves (run_id, number, action, at) VALUES ({run_id}, {number}, {action}, {at})
    ON CONFLICT DO NOTHING
""")
SELECT_ACTIONS = Query.both(
    "SELECT action FROM moves WHERE run_id = {run_id} ORDER BY number"
)
DELETE_MOVE = Query.both("DELETE FROM moves WHERE run_id = {run_id} AND number = {number}")


def score_key(score: Sequence[int]) -> str:
    """Text that sorts like the score list (parts zero-padded): what leaderboards index."""
    return ".".join(f"{max(0, min(int(part), 999_999)):06d}" for part in score)


class RunsSql:
    """:class:`Runs` over a :class:`~store.dialect.Db`."""

    db: Db

    def run(self, run_id: int) -> RunRow | None:
        row = self.db.one(SELECT_RUN_LOCKED if self.db.locks_rows else SELECT_RUN,
                          {"id": run_id})
        return None if row is None else run_row(row)

    def run_version(self, run_id: int) -> int | None:
        row = self.db.one(RUN_VERSION_LOCKED if self.db.locks_rows else RUN_VERSION,
                          {"id": run_id})
        return None if row is None else int(row["version"])

    def unfinished(self, owner_id: int, game: str | None) -> list[RunRow]:
        rows = self.db.all(SELECT_UNFINISHED, {"owner_id": owner_id, "game": game})
        return [run_row(row) for row in rows]

    def daily_run(self, owner_id: int, game: str, variant: str, day: str) -> RunRow | None:
        params = {"owner_id": owner_id, "game": game, "variant": variant, "day": day}
        row = self.db.one(SELECT_DAILY, params)
        return None if row is None else run_row(row)

    def daily_and_before(self, owner_id: int, game: str, variant: str, day: str,
                         before: str) -> tuple[RunRow | None, int | None]:
        """The player's daily of ``day`` and the id of their daily of ``before``."""
        params = {"owner_id": owner_id, "game": game, "variant": variant, "day": day,
                  "before": before}
        found, before_id = None, None
        for row in self.db.all(SELECT_DAILY_AND_BEFORE, params):
            if row["day"] == day:
                found = run_row(row)
            else:
                before_id = int(row["id"])
        return found, before_id

    def insert_run(self, run: NewRun) -> RunRow:
        params = {
            "owner_id": run.owner_id, "guild_id": run.guild_id, "channel_id": run.channel_id,
            "game": run.game, "variant": run.variant, "seed": str(run.seed),
            "deck": None if run.deck is None else to_json(list(run.deck)), "kind": run.kind,
            "day": run.day, "status": run.status, "outcome": run.outcome,
            "score": to_json(run.score), "score_key": score_key(run.score),
            "state": to_json(run.state), "ranked": int(run.ranked), "rules": run.rules,
            "now": run.now, "finished_at": run.finished_at, "score_text": stored(run.score_text),
            "points": run.points,
        }
        row = self.db.one(INSERT_RUN, params)
        if row is None:
            raise Conflict(f"a {run.kind} run with this key exists already")
        return run_row(row, run.state)

    def update_run(self, change: RunChange) -> bool:
        params = {
            "id": change.id, "expected": change.expected, "state": to_json(change.state),
            "moves": change.moves, "score": to_json(change.score),
            "score_key": score_key(change.score), "status": change.status,
            "outcome": change.outcome, "ranked": int(change.ranked),
            "hinted": int(change.hinted), "now": change.now, "finished_at": change.finished_at,
            "score_text": stored(change.score_text), "points": change.points,
        }
        if (change.status == "playing" and change.outcome is None
                and change.finished_at is None and self.db.change(UPDATE_MOVE, params) == 1):
            return True
        return self.db.change(UPDATE_RUN, params) == 1

    def update_state(self, run_id: int, version: int, state: dict[str, Any]) -> bool:
        params = {"id": run_id, "version": version, "state": to_json(state)}
        return self.db.change(UPDATE_STATE, params) == 1

    def append_move(self, run_id: int, number: int, action: str, at: str) -> None:
        params = {"run_id": run_id, "number": number, "action": action, "at": at}
        if self.db.change(INSERT_MOVE, params) != 1:
            raise Conflict(f"run {run_id} has a move {number} already")

    def actions(self, run_id: int) -> list[str]:
        return [row["action"] for row in self.db.all(SELECT_ACTIONS, {"run_id": run_id})]

    def delete_move(self, run_id: int, number: int) -> None:
        self.db.change(DELETE_MOVE, {"run_id": run_id, "number": number})


def run_row(row: Row, state: dict[str, Any] | None = None) -> RunRow:
    """A ``runs`` row (of :data:`RUN_COLUMNS`) decoded; with ``state``, a row of
    :data:`INSERTED_COLUMNS` whose state that is."""
    # Made as copy.copy makes objects, without the frozen dataclass's __init__ (which sets its
    # 22 fields one object.__setattr__ at a time: about 10 µs a click); every field is given
    # (tests/core/test_model.py reads one back from each database).
    decoded = object.__new__(RunRow)
    decoded.__dict__.update(
        id=row["id"],
        owner_id=row["owner_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        variant=row["variant"],
        seed=int(row["seed"]),
        deck=None if row["deck"] is None else tuple(orjson.loads(row["deck"])),
        kind=row["kind"],
        day=row["day"],
        status=row["status"],
        outcome=row["outcome"],
        score=orjson.loads(row["score"]),
        state=_state(row["state"]) if state is None else state,
        moves=row["moves"],
        version=row["version"],
        ranked=bool(row["ranked"]),
        rules=row["rules"],
        hinted=bool(row["hinted"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
    )
    return decoded


def _state(text: str) -> dict[str, Any]:
    # An unreadable state is the core's to repair by replay, not a reason to lose the row.
    try:
        value = orjson.loads(text)
    except ValueError:  # orjson.JSONDecodeError is a ValueError
        return {}
    return value if isinstance(value, dict) else {}
