"""Pars (the solver's best score of a closed day's deal) and replays' turning points."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

from store.dialect import Db, Query
from store.runs import score_key, to_json
from store.texts import said, stored


@dataclass(frozen=True)
class ParRow:
    """The par of one day's deal: the solver's best score (a lower bound unless ``exact``)
    and the line reaching it."""

    game: str
    variant: str
    day: str
    rules: str
    score: list[int]
    score_text: str
    won: bool
    exact: bool
    actions: list[str]
    nodes: int
    seconds: float
    solved_at: str


@dataclass(frozen=True)
class ParRecord:
    """A player's finished dailies of one game on days with a par, and how many of them
    scored at least the par."""

    played: int
    reached: int


@dataclass(frozen=True)
class TurnRow:
    """A run's turning point: the 1-based move after which its best reachable score fell
    the most (None: it never fell), and the sentence saying so."""

    run_id: int
    step: int | None
    text: str
    nodes: int
    computed_at: str


class Pars(Protocol):
    """The queries of pars and turning points."""

    def par(self, game: str, variant: str, day: str) -> ParRow | None: ...
    def insert_par(self, par: ParRow) -> bool: ...
    def par_record(self, owner_id: int, game: str) -> ParRecord: ...
    def turn(self, run_id: int) -> TurnRow | None: ...
    def insert_turn(self, turn: TurnRow) -> None: ...


SELECT_PAR = Query.both("""
    SELECT game, variant, day, rules, score, score_text, won, exact, actions, nodes, seconds,
           solved_at
    FROM pars WHERE game = {game} AND variant = {variant} AND day = {day}
""")
INSERT_PAR = Query.both("""
    INSERT INTO pars (game, variant, day, rules, score, score_key, score_text, won, exact,
                      actions, nodes, seconds, solved_at)
    VALUES ({game}, {variant}, {day}, {rules}, {score}, {score_key}, {score_text}, {won},
            {exact}, {actions}, {nodes}, {seconds}, {solved_at})
    ON CONFLICT DO NOTHING
""")
# A player's finished dailies on days with a par, and those that scored at least the par.
SELECT_PAR_RECORD = Query.both("""
    SELECT count(*) AS played,
           coalesce(sum(CASE WHEN r.score_key >= p.score_key THEN 1 ELSE 0 END), 0) AS reached
    FROM runs AS r
    JOIN pars AS p ON p.game = r.game AND p.variant = r.variant AND p.day = r.day
    WHERE r.kind = 'daily' AND r.owner_id = {owner_id} AND r.game = {game}
      AND r.status <> 'playing'
""")
SELECT_TURN = Query.both(
    "SELECT run_id, step, text, nodes, computed_at FROM run_turns WHERE run_id = {run_id}"
)
INSERT_TURN = Query.both("""
    INSERT INTO run_turns (run_id, step, text, nodes, computed_at)
    VALUES ({run_id}, {step}, {text}, {nodes}, {computed_at})
    ON CONFLICT DO NOTHING
""")


class ParsSql:
    """:class:`Pars` over a :class:`~store.dialect.Db`."""

    db: Db

    def par(self, game: str, variant: str, day: str) -> ParRow | None:
        row = self.db.one(SELECT_PAR, {"game": game, "variant": variant, "day": day})
        if row is None:
            return None
        return ParRow(
            game=row["game"], variant=row["variant"], day=row["day"], rules=row["rules"],
            score=json.loads(row["score"]), score_text=said(row["score_text"]),
            won=bool(row["won"]), exact=bool(row["exact"]), actions=json.loads(row["actions"]),
            nodes=row["nodes"], seconds=float(row["seconds"]), solved_at=row["solved_at"],
        )

    def insert_par(self, par: ParRow) -> bool:
        params = {
            "game": par.game, "variant": par.variant, "day": par.day, "rules": par.rules,
            "score": to_json(par.score), "score_key": score_key(par.score),
            "score_text": stored(par.score_text), "won": int(par.won), "exact": int(par.exact),
            "actions": to_json(par.actions), "nodes": par.nodes, "seconds": par.seconds,
            "solved_at": par.solved_at,
        }
        return self.db.change(INSERT_PAR, params) == 1

    def par_record(self, owner_id: int, game: str) -> ParRecord:
        row = self.db.one(SELECT_PAR_RECORD, {"owner_id": owner_id, "game": game})
        assert row is not None
        return ParRecord(played=int(row["played"]), reached=int(row["reached"]))

    def turn(self, run_id: int) -> TurnRow | None:
        row = self.db.one(SELECT_TURN, {"run_id": run_id})
        if row is None:
            return None
        return TurnRow(run_id=row["run_id"], step=row["step"], text=said(row["text"]),
                       nodes=row["nodes"], computed_at=row["computed_at"])

    def insert_turn(self, turn: TurnRow) -> None:
        self.db.change(INSERT_TURN, {
            "run_id": turn.run_id, "step": turn.step, "text": stored(turn.text),
            "nodes": turn.nodes, "computed_at": turn.computed_at,
        })
