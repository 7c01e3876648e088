"""The day's and the week's boards: ranked dailies, one page at a time, and how many of a
board reached a score (the par).

A board's filter is the partial indexes' own condition, written out per scope (global, a
server, a server with a minimum account age) rather than as ``{guild_id} IS NULL OR ...``:
SQLite plans a statement before it sees the values, and only a plain ``guild_id = ...`` lets
it range-scan ``runs_guild_board``, while the global filter is answered from ``runs_board``
alone, without reading a table row. Equal scores share a rank and are listed by name, never
by time.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol

from store.dialect import Db, Query, Row
from store.runs import score_key


@dataclass(frozen=True)
class BoardFilter:
    """Which runs a day's board holds: the ranked dailies of a game, variant and day, of one
    server (``guild_id``) or all, from accounts no newer than ``max_owner_id`` (a Discord id
    encodes its creation time, so "accounts at least N days old" is an id bound)."""

    game: str
    variant: str
    day: str
    guild_id: int | None = None
    max_owner_id: int | None = None


@dataclass(frozen=True)
class BoardLine:
    """One line of a board: its rank (shared among equal scores) and the run it shows."""

    rank: int
    run_id: int
    owner_id: int
    name: str
    score: list[int]
    score_text: str
    status: str
    outcome: str | None


@dataclass(frozen=True)
class WeekFilter:
    """Which runs a week's board adds up: the ranked dailies of a game and variant from
    ``first`` to ``last`` (days, inclusive), of one server or all (as :class:`BoardFilter`)."""

    game: str
    variant: str
    first: str
    last: str
    guild_id: int | None = None
    max_owner_id: int | None = None


@dataclass(frozen=True)
class WeekLine:
    """One player's line on a week's board: their points added up over the days played."""

    rank: int
    owner_id: int
    name: str
    total: int
    days: int


class Boards(Protocol):
    """The queries of the boards."""

    def board(self, where: BoardFilter, limit: int, offset: int) -> list[BoardLine]: ...
    def board_size(self, where: BoardFilter) -> int: ...
    def board_line(self, where: BoardFilter, owner_id: int) -> BoardLine | None: ...
    def board_reached(self, where: BoardFilter, score: list[int]) -> int: ...
    def week_page(
        self, where: WeekFilter, limit: int, offset: int, viewer_id: int | None
    ) -> tuple[list[WeekLine], WeekLine | None, int]: ...


def _day_where(alias: str, guild: bool, age: bool) -> str:
    """The runs of a day's board in one scope, ``alias`` naming the runs table."""
    r = alias
    return (
        f"{r}.kind = 'daily' AND {r}.ranked = 1 AND {r}.game = {{game}}"
        f" AND {r}.variant = {{variant}} AND {r}.day = {{day}}"
        + (f" AND {r}.guild_id = {{guild_id}}" if guild else "")
        + (f" AND {r}.owner_id <= {{max_owner_id}}" if age else "")
    )


@dataclass(frozen=True)
class BoardStatements:
    """The day board's statements of one scope.

    A page is read in three steps that never touch the lines above it (a rank counted per
    line, or a window over the whole board, costs a deep page a walk of everything above it):
    ``keys`` walks the index to the page's first and last score, ``above`` counts the runs
    that score higher than the first, and ``band`` takes the runs between the two scores —
    the page plus the rest of the tie groups at its edges — ranked from that count. The board
    indexes hold the owner, so all three read the index (and ``players``) alone.
    """

    keys: Query
    above: Query
    band: Query
    size: Query
    line: Query
    reached: Query


def _board_statements(guild: bool, age: bool) -> BoardStatements:
    r, b = _day_where("r", guild, age), _day_where("b", guild, age)
    line = """
        b.id, b.owner_id, coalesce(p.name, '') AS name, b.score, b.score_text, b.status,
        b.outcome
    """
    return BoardStatements(
        keys=Query.both(f"""
            SELECT r.score_key FROM runs AS r WHERE {r}
            ORDER BY r.score_key DESC LIMIT {{limit}} OFFSET {{offset}}
        """),
        above=Query.both(
            f"SELECT count(*) AS n FROM runs AS r WHERE {r} AND r.score_key > {{key}}"
        ),
        # The band is ranked and cut from the index and the names alone; only the page's
        # own lines then read their runs.
        band=Query.both(f"""
            WITH band AS (
                SELECT b.id, b.score_key, b.owner_id, coalesce(p.name, '') AS name,
                       rank() OVER (ORDER BY b.score_key DESC) AS rank
                FROM runs AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
                WHERE {b} AND b.score_key BETWEEN {{bottom}} AND {{top}}
                ORDER BY b.score_key DESC, lower(coalesce(p.name, '')), b.owner_id
                LIMIT {{limit}} OFFSET {{skip}}
            )
            SELECT {{above}} + band.rank AS rank, b.id, b.owner_id, band.name, b.score,
                   b.score_text, b.status, b.outcome
            FROM band JOIN runs AS b ON b.id = band.id
            ORDER BY band.score_key DESC, lower(band.name), band.owner_id
        """),
        size=Query.both(f"SELECT count(*) AS n FROM runs AS r WHERE {r}"),
        line=Query.both(f"""
            SELECT 1 + (SELECT count(*) FROM runs AS r
                        WHERE {r} AND r.score_key > b.score_key) AS rank, {line}
            FROM runs AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
            WHERE {b} AND b.owner_id = {{owner_id}}
        """),
        # How many runs of the scope scored at least a score: the same partial indexes.
        reached=Query.both(
            f"SELECT count(*) AS n FROM runs AS r WHERE {r} AND r.score_key >= {{key}}"
        ),
    )


#: By (a server's board, with a minimum account age).
BOARD_STATEMENTS = {
    (guild, age): _board_statements(guild, age) for guild in (False, True) for age in (False, True)
}


def board_statements(where: BoardFilter) -> BoardStatements:
    """The statements of ``where``'s scope."""
    return BOARD_STATEMENTS[where.guild_id is not None, where.max_owner_id is not None]


@dataclass(frozen=True)
class WeekStatements:
    """A week's board in one scope: each player's points over the week's ranked dailies,
    added up. ``page`` adds the sums up once (from the ``runs_week`` indexes alone) and
    returns the page's lines, the viewer's own line and the board's size together; ``size``
    is the size alone (a page past the end)."""

    page: Query
    size: Query


def _week_statements(guild: bool, age: bool) -> WeekStatements:
    where = (
        "r.kind = 'daily' AND r.ranked = 1 AND r.game = {game} AND r.variant = {variant}"
        " AND r.day >= {first} AND r.day <= {last}"
        + (" AND r.guild_id = {guild_id}" if guild else "")
        + (" AND r.owner_id <= {max_owner_id}" if age else "")
    )
    ranked = f"""
        WITH totals AS (
            SELECT r.owner_id, sum(r.points) AS total, count(*) AS days
            FROM runs AS r WHERE {where} GROUP BY r.owner_id
        ),
        ranked AS (
            SELECT t.owner_id, coalesce(p.name, '') AS name, t.total, t.days,
                   rank() OVER (ORDER BY t.total DESC) AS rank,
                   row_number() OVER (
                       ORDER BY t.total DESC, lower(coalesce(p.name, '')), t.owner_id
                   ) AS pos,
                   count(*) OVER () AS size
            FROM totals AS t LEFT JOIN players AS p ON p.user_id = t.owner_id
        )
    """
    return WeekStatements(
        page=Query.both(f"""{ranked}
            SELECT rank, owner_id, name, total, days, pos, size FROM ranked
            WHERE (pos > {{offset}} AND pos <= {{offset}} + {{limit}}) OR owner_id = {{owner_id}}
            ORDER BY pos
        """),
        size=Query.both(f"SELECT count(DISTINCT r.owner_id) AS n FROM runs AS r WHERE {where}"),
    )


#: By (a server's board, with a minimum account age), as :data:`BOARD_STATEMENTS`.
WEEK_STATEMENTS = {
    (guild, age): _week_statements(guild, age) for guild in (False, True) for age in (False, True)
}


def week_statements(where: WeekFilter) -> WeekStatements:
    """The statements of ``where``'s scope."""
    return WEEK_STATEMENTS[where.guild_id is not None, where.max_owner_id is not None]


def board_params(where: BoardFilter) -> dict[str, Any]:
    """The parameters of a day board's filter."""
    return {
        "game": where.game, "variant": where.variant, "day": where.day,
        "guild_id": where.guild_id, "max_owner_id": where.max_owner_id,
    }


def week_params(where: WeekFilter) -> dict[str, Any]:
    """The parameters of a week board's filter."""
    return {
        "game": where.game, "variant": where.variant, "first": where.first, "last": where.last,
        "guild_id": where.guild_id, "max_owner_id": where.max_owner_id,
    }


class BoardsSql:
    """:class:`Boards` over a :class:`~store.dialect.Db`."""

    db: Db

    def board(self, where: BoardFilter, limit: int, offset: int) -> list[BoardLine]:
        queries, params = board_statements(where), board_params(where)
        keys = [row["score_key"] for row in self.db.all(
            queries.keys, {**params, "limit": limit, "offset": offset}
        )]
        if not keys:
            return []
        top, bottom = keys[0], keys[-1]
        above = _count(self.db.one(queries.above, {**params, "key": top}))
        band = {**params, "above": above, "top": top, "bottom": bottom, "limit": limit,
                "skip": offset - above}
        return [_board_line(row) for row in self.db.all(queries.band, band)]

    def board_size(self, where: BoardFilter) -> int:
        return _count(self.db.one(board_statements(where).size, board_params(where)))

    def board_line(self, where: BoardFilter, owner_id: int) -> BoardLine | None:
        params = {**board_params(where), "owner_id": owner_id}
        row = self.db.one(board_statements(where).line, params)
        return None if row is None else _board_line(row)

    def board_reached(self, where: BoardFilter, score: list[int]) -> int:
        params = {**board_params(where), "key": score_key(score)}
        return _count(self.db.one(board_statements(where).reached, params))

    def week_page(
        self, where: WeekFilter, limit: int, offset: int, viewer_id: int | None
    ) -> tuple[list[WeekLine], WeekLine | None, int]:
        queries = week_statements(where)
        params = {**week_params(where), "limit": limit, "offset": offset,
                  "owner_id": -1 if viewer_id is None else viewer_id}
        rows = self.db.all(queries.page, params)
        lines = [_week_line(row) for row in rows if offset < row["pos"] <= offset + limit]
        own = next((_week_line(row) for row in rows if not offset < row["pos"] <= offset + limit
                    and row["owner_id"] == viewer_id), None)
        if rows:
            return lines, own, int(rows[0]["size"])
        # Past the end and no line of the viewer's: the size alone.
        return [], None, _count(self.db.one(queries.size, week_params(where)))


def _count(row: Row | None) -> int:
    assert row is not None  # a count(*) always has its row
    return int(row["n"])


def _board_line(row: Row) -> BoardLine:
    return BoardLine(
        rank=int(row["rank"]), run_id=row["id"], owner_id=row["owner_id"], name=row["name"],
        score=json.loads(row["score"]), score_text=row["score_text"], status=row["status"],
        outcome=row["outcome"],
    )


def _week_line(row: Row) -> WeekLine:
    return WeekLine(rank=int(row["rank"]), owner_id=row["owner_id"], name=row["name"],
                    total=int(row["total"]), days=int(row["days"]))
