"""A player's record in one game: finished runs and wins, their best score, their streaks of
daily days and their last days' dailies.

The store knows no outcome words: the caller says which outcomes of the game are wins
(``wins``, from the game's engine), and the store counts those.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol

from store.dialect import Db, Query
from store.texts import said


@dataclass(frozen=True)
class GameStats:
    """A player's finished runs of one game: counts, best and average."""

    game: str
    finished: int
    wins: int
    best_score: list[int] | None
    best_text: str | None
    average_points: float | None
    dailies: int
    hinted: int = 0


@dataclass(frozen=True)
class Streak:
    """A run of consecutive UTC days with a finished daily: first and last day, and length."""

    first: str
    last: str
    length: int


@dataclass(frozen=True)
class DayMark:
    """A finished daily of one day, for the last-14-days row."""

    day: str
    status: str
    outcome: str | None
    won: bool
    score_text: str


@dataclass(frozen=True)
class PriorBest:
    """A player's finished runs of one game and variant before a given run: how many, and
    the best of them (its ``score_key`` and ``score_text``; None when there were none)."""

    runs: int
    best_key: str | None
    best_text: str | None


class Records(Protocol):
    """The queries of a player's record. ``wins`` are the game's winning outcome words."""

    def game_stats(self, owner_id: int, game: str, wins: Collection[str]) -> GameStats: ...
    def prior_best(
        self, owner_id: int, game: str, variant: str, run_id: int, finished_at: str
    ) -> PriorBest: ...
    def streaks(self, owner_id: int, game: str) -> list[Streak]: ...
    def daily_marks(
        self, owner_id: int, game: str, since: str, wins: Collection[str]
    ) -> list[DayMark]: ...
    def daily_scores(self, owner_id: int, game: str) -> list[list[int]]: ...


# One line per outcome (a handful): the wins are added up from the outcomes the caller names.
# From the totals kept as runs end (player_totals, migration 0018): a line per variant and
# outcome, however many runs the player has ended ('' is an ended run without an outcome).
SELECT_GAME_STATS = Query.both("""
    SELECT nullif(outcome, '') AS outcome, sum(runs) AS finished,
           max(best_key) AS best_key,
           sum(points) AS points,
           sum(dailies) AS dailies,
           sum(hinted) AS hinted
    FROM player_totals
    WHERE owner_id = {owner_id} AND game = {game}
    GROUP BY outcome
""")
# The first run to reach the best: in the variants whose kept best it is, each searched in
# runs_player_best at that score (a few runs), not among all the player's runs of the game.
SELECT_BEST = Query.both("""
    SELECT score, score_text FROM runs
    WHERE owner_id = {owner_id} AND game = {game} AND status <> 'playing'
      AND score_key = {key}
      AND variant IN (SELECT variant FROM player_totals
                      WHERE owner_id = {owner_id} AND game = {game} AND best_key = {key})
    ORDER BY finished_at, id LIMIT 1
""")

# Runs finished before this one (in the same instant: those created before it), of every kind:
# a personal best is the player's, whatever the deal.
#
# How many: what the run's row kept when it ended (prior_runs: the count of finished_runs then,
# migration 0017), read by its key; counted row by row only for a run that ended before that.
SELECT_PRIOR_RUNS = Query.both("SELECT prior_runs FROM runs WHERE id = {run_id}")
SELECT_PRIOR_COUNT = Query.both("""
    SELECT count(*) AS runs FROM runs
    WHERE owner_id = {owner_id} AND game = {game} AND variant = {variant}
      AND status <> 'playing' AND id <> {run_id} AND (finished_at < {finished_at}
           OR (finished_at = {finished_at} AND id < {run_id}))
""")
# The best of them, the first to reach it: the index runs_player_best holds the player's
# ended runs best first, so this reads from its top down to the first run that ended before
# this one (the run itself when it is the new best, and the few better ones that ended after
# it when an older card is drawn again), not every run.
SELECT_PRIOR_BEST = Query.both("""
    SELECT score_key, score_text FROM runs
    WHERE owner_id = {owner_id} AND game = {game} AND variant = {variant}
      AND status <> 'playing' AND id <> {run_id} AND (finished_at < {finished_at}
           OR (finished_at = {finished_at} AND id < {run_id}))
    ORDER BY score_key DESC, finished_at, id LIMIT 1
""")


def _streaks(day_number: str) -> str:
    # Gaps and islands: consecutive days minus their row number are constant along a streak.
    return f"""
        WITH days AS (
            SELECT DISTINCT day, {day_number} AS n FROM runs
            WHERE kind = 'daily' AND owner_id = {{owner_id}} AND game = {{game}}
              AND status <> 'playing'
        ),
        islands AS (SELECT day, n - row_number() OVER (ORDER BY n) AS island FROM days)
        SELECT min(day) AS first, max(day) AS last, count(*) AS length
        FROM islands GROUP BY island ORDER BY last DESC
    """


#: A day ("YYYY-MM-DD") as a number that goes up by one a day: each database's own words.
SELECT_STREAKS = Query.each(
    sqlite=_streaks("CAST(julianday(day) AS INTEGER)"),
    postgresql=_streaks("(CAST(day AS DATE) - DATE '1970-01-01')"),
)
SELECT_DAILY_MARKS = Query.both("""
    SELECT day, status, outcome, score_text FROM runs
    WHERE kind = 'daily' AND owner_id = {owner_id} AND game = {game} AND status <> 'playing'
      AND day >= {since}
    ORDER BY day, variant
""")
# Every finished daily's score (the stats card's histogram): one small row a day played.
SELECT_DAILY_SCORES = Query.both("""
    SELECT score FROM runs
    WHERE kind = 'daily' AND owner_id = {owner_id} AND game = {game} AND status <> 'playing'
    ORDER BY day, variant
""")


class RecordsSql:
    """:class:`Records` over a :class:`~store.dialect.Db`."""

    db: Db

    def game_stats(self, owner_id: int, game: str, wins: Collection[str]) -> GameStats:
        params = {"owner_id": owner_id, "game": game}
        rows = self.db.all(SELECT_GAME_STATS, params)
        finished = sum(int(row["finished"]) for row in rows)
        keys = [row["best_key"] for row in rows if row["best_key"] is not None]
        best_score, best_text = None, None
        if keys:
            best = self.db.one(SELECT_BEST, {**params, "key": max(keys)})
            assert best is not None
            best_score, best_text = json.loads(best["score"]), said(best["score_text"])
        points = sum(int(row["points"]) for row in rows)
        return GameStats(
            game=game, finished=finished,
            wins=sum(int(row["finished"]) for row in rows if row["outcome"] in wins),
            best_score=best_score, best_text=best_text,
            average_points=points / finished if finished else None,
            dailies=sum(int(row["dailies"]) for row in rows),
            hinted=sum(int(row["hinted"]) for row in rows),
        )

    def prior_best(
        self, owner_id: int, game: str, variant: str, run_id: int, finished_at: str
    ) -> PriorBest:
        params = {"owner_id": owner_id, "game": game, "variant": variant, "run_id": run_id,
                  "finished_at": finished_at}
        kept = self.db.one(SELECT_PRIOR_RUNS, params)
        if kept is not None and kept["prior_runs"] is not None:
            runs = int(kept["prior_runs"])
        else:
            counted = self.db.one(SELECT_PRIOR_COUNT, params)
            assert counted is not None  # an aggregate always answers one row
            runs = int(counted["runs"])
        best = self.db.one(SELECT_PRIOR_BEST, params)
        if best is None:
            return PriorBest(runs, None, None)
        return PriorBest(runs, best["score_key"], said(best["score_text"]))

    def streaks(self, owner_id: int, game: str) -> list[Streak]:
        rows = self.db.all(SELECT_STREAKS, {"owner_id": owner_id, "game": game})
        return [Streak(row["first"], row["last"], int(row["length"])) for row in rows]

    def daily_marks(
        self, owner_id: int, game: str, since: str, wins: Collection[str]
    ) -> list[DayMark]:
        params = {"owner_id": owner_id, "game": game, "since": since}
        return [
            DayMark(row["day"], row["status"], row["outcome"], row["outcome"] in wins,
                    said(row["score_text"]))
            for row in self.db.all(SELECT_DAILY_MARKS, params)
        ]

    def daily_scores(self, owner_id: int, game: str) -> list[list[int]]:
        rows = self.db.all(SELECT_DAILY_SCORES, {"owner_id": owner_id, "game": game})
        return [json.loads(row["score"]) for row in rows]
