"""Series: a player's N deals in a row, their points added up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from store.dialect import Conflict, Db, Query, Row
from store.texts import said


@dataclass(frozen=True)
class SeriesRow:
    """One stored series."""

    id: int
    owner_id: int
    game: str
    variant: str
    length: int
    created_at: str


@dataclass(frozen=True)
class SeriesEntry:
    """One run of a series, in order."""

    number: int
    run_id: int
    status: str
    outcome: str | None
    points: int
    score_text: str


@dataclass(frozen=True)
class SeriesBest:
    """A player's best total over their finished series of one length."""

    length: int
    best: int
    played: int


class Series(Protocol):
    """The queries of series."""

    def insert_series(self, owner_id: int, game: str, variant: str, length: int,
                      now: str) -> int: ...
    def series(self, series_id: int) -> SeriesRow | None: ...
    def open_series(self, owner_id: int, game: str) -> SeriesRow | None: ...
    def insert_series_run(self, series_id: int, number: int, run_id: int) -> None: ...
    def series_of_run(self, run_id: int) -> tuple[int, int] | None: ...
    def series_entries(self, series_id: int) -> list[SeriesEntry]: ...
    def series_best(self, owner_id: int, game: str) -> list[SeriesBest]: ...


_COLUMNS = "s.id, s.owner_id, s.game, s.variant, s.length, s.created_at"
INSERT_SERIES = Query.both("""
    INSERT INTO series (owner_id, game, variant, length, created_at)
    VALUES ({owner_id}, {game}, {variant}, {length}, {now})
    RETURNING id
""")
SELECT_SERIES = Query.both(f"SELECT {_COLUMNS} FROM series AS s WHERE s.id = {{id}}")
# The player's series still going: not all its runs dealt, or one still being played.
SELECT_OPEN_SERIES = Query.both(f"""
    SELECT {_COLUMNS} FROM series AS s
    WHERE s.owner_id = {{owner_id}} AND s.game = {{game}} AND (
        (SELECT count(*) FROM series_runs AS sr WHERE sr.series_id = s.id) < s.length
        OR EXISTS (SELECT 1 FROM series_runs AS sr JOIN runs AS r ON r.id = sr.run_id
                   WHERE sr.series_id = s.id AND r.status = 'playing'))
    ORDER BY s.id DESC LIMIT 1
""")
INSERT_SERIES_RUN = Query.both("""
    INSERT INTO series_runs (series_id, number, run_id) VALUES ({series_id}, {number}, {run_id})
    ON CONFLICT DO NOTHING
""")
SELECT_SERIES_OF_RUN = Query.both(
    "SELECT series_id, number FROM series_runs WHERE run_id = {run_id}"
)
SELECT_SERIES_ENTRIES = Query.both("""
    SELECT sr.number, sr.run_id, r.status, r.outcome, r.points, r.score_text
    FROM series_runs AS sr JOIN runs AS r ON r.id = sr.run_id
    WHERE sr.series_id = {series_id} ORDER BY sr.number
""")
# A run counts its points only if it ended with the player out alive (status 'over' and the
# engine's score; a death or getting lost scores 0 already); a resigned run counts 0.
SELECT_SERIES_BEST = Query.both("""
    SELECT s.length AS length, max(t.total) AS best, count(*) AS played
    FROM series AS s JOIN (
        SELECT sr.series_id,
               sum(CASE WHEN r.status = 'over' THEN r.points ELSE 0 END) AS total,
               count(*) AS dealt,
               sum(CASE WHEN r.status = 'playing' THEN 1 ELSE 0 END) AS playing
        FROM series_runs AS sr
        JOIN series AS o ON o.id = sr.series_id
        JOIN runs AS r ON r.id = sr.run_id
        WHERE o.owner_id = {owner_id} AND o.game = {game}
        GROUP BY sr.series_id
    ) AS t ON t.series_id = s.id
    WHERE t.dealt = s.length AND t.playing = 0
    GROUP BY s.length ORDER BY s.length
""")


class SeriesSql:
    """:class:`Series` over a :class:`~store.dialect.Db`."""

    db: Db

    def insert_series(self, owner_id: int, game: str, variant: str, length: int,
                      now: str) -> int:
        row = self.db.one(INSERT_SERIES, {
            "owner_id": owner_id, "game": game, "variant": variant, "length": length,
            "now": now,
        })
        assert row is not None
        return int(row["id"])

    def series(self, series_id: int) -> SeriesRow | None:
        row = self.db.one(SELECT_SERIES, {"id": series_id})
        return None if row is None else _series_row(row)

    def open_series(self, owner_id: int, game: str) -> SeriesRow | None:
        row = self.db.one(SELECT_OPEN_SERIES, {"owner_id": owner_id, "game": game})
        return None if row is None else _series_row(row)

    def insert_series_run(self, series_id: int, number: int, run_id: int) -> None:
        params = {"series_id": series_id, "number": number, "run_id": run_id}
        if self.db.change(INSERT_SERIES_RUN, params) != 1:
            raise Conflict(f"series {series_id} has a run {number} already")

    def series_of_run(self, run_id: int) -> tuple[int, int] | None:
        row = self.db.one(SELECT_SERIES_OF_RUN, {"run_id": run_id})
        return None if row is None else (row["series_id"], row["number"])

    def series_entries(self, series_id: int) -> list[SeriesEntry]:
        rows = self.db.all(SELECT_SERIES_ENTRIES, {"series_id": series_id})
        return [
            SeriesEntry(number=row["number"], run_id=row["run_id"], status=row["status"],
                        outcome=row["outcome"], points=row["points"],
                        score_text=said(row["score_text"]))
            for row in rows
        ]

    def series_best(self, owner_id: int, game: str) -> list[SeriesBest]:
        rows = self.db.all(SELECT_SERIES_BEST, {"owner_id": owner_id, "game": game})
        return [SeriesBest(int(row["length"]), int(row["best"]), int(row["played"]))
                for row in rows]


def _series_row(row: Row) -> SeriesRow:
    return SeriesRow(
        id=row["id"], owner_id=row["owner_id"], game=row["game"], variant=row["variant"],
        length=row["length"], created_at=row["created_at"],
    )
