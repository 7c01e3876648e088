"""The day's boards (ranked dailies) and the period boards (a week's or a month's daily
points per player), one page at a time, and how many of a board reached a score (the par).

A board's filter is the partial indexes' own condition, written out per scope (global, a
server, a server with a minimum account age) rather than as ``{guild_id} IS NULL OR ...``:
SQLite plans a statement before it sees the values, and only a plain ``guild_id = ...`` lets
it range-scan ``runs_guild_board``, while the global filter is answered from ``runs_board``
alone, without reading a table row. Equal scores share a rank and are listed by name, never
by time.

On the global boards a player who chose ``/preferences global-board:off`` (``players.hidden``,
migration 0010) keeps their line and their rank, without their name: the line comes back
with an empty name and ``hidden`` set, and sorts among its ties as an empty name. Server
boards list everyone by name. The flag is read from the ``players`` row each line already
joins for its name, so no board reads anything more.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, Protocol

from store.dialect import Db, Query, Row
from store.runs import score_key
from store.texts import said


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
    hidden: bool = False  # on a global board, of a player who chose not to be named there


#: The spans a period board adds points up over.
SPANS = ("week", "month")


@dataclass(frozen=True)
class PeriodFilter:
    """Which totals a period's board ranks: each player's points over the ranked dailies of a
    game and variant in the ``span`` (``week`` or ``month``) starting on ``first`` (the Monday,
    or the 1st), of one server or all, from accounts no newer than ``max_owner_id`` (as
    :class:`BoardFilter`)."""

    span: str
    game: str
    variant: str
    first: str
    guild_id: int | None = None
    max_owner_id: int | None = None


@dataclass(frozen=True)
class PeriodLine:
    """One player's line on a period's board: their points added up over the days played."""

    rank: int
    owner_id: int
    name: str
    total: int
    days: int
    hidden: bool = False  # as BoardLine.hidden


class Boards(Protocol):
    """The queries of the boards."""

    def board(self, where: BoardFilter, limit: int, offset: int) -> list[BoardLine]: ...
    def board_size(self, where: BoardFilter) -> int: ...
    def board_line(self, where: BoardFilter, owner_id: int) -> BoardLine | None: ...
    def board_reached(self, where: BoardFilter, score: list[int]) -> int: ...
    def period_page(self, where: PeriodFilter, limit: int, offset: int) -> list[PeriodLine]: ...
    def period_size(self, where: PeriodFilter) -> int: ...
    def period_line(self, where: PeriodFilter, owner_id: int) -> PeriodLine | None: ...


def shown_name(everyone: bool) -> tuple[str, str]:
    """The name a line is shown and ordered by, and whether it is hidden, as two SQL
    expressions over ``players AS p``: on everyone's boards (``everyone``) a hidden player's
    name is left out."""
    if everyone:
        return "CASE WHEN p.hidden = 1 THEN '' ELSE coalesce(p.name, '') END", (
            "coalesce(p.hidden, 0)")
    return "coalesce(p.name, '')", "0"


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

    Without an account-age bound, a board's count per score is kept (``board_counts``,
    migration 0011): ``counts`` lists them, best first, and the page's first and last score
    and the count above it are found in that list (a few hundred scores) instead of by
    ``keys`` and ``above`` walking the page's lines; ``size``, ``line`` and ``reached`` add
    the counts up too. A bound board (a server's, with a minimum account age) has ``counts``
    None and reads its runs.
    """

    keys: Query
    above: Query
    band: Query
    size: Query
    line: Query
    reached: Query
    counts: Query | None = None


def _day_counts(alias: str, guild: bool) -> str:
    """The kept counts of a day's board in one scope (everyone's is guild 0)."""
    c = alias
    return (
        f"{c}.game = {{game}} AND {c}.variant = {{variant}} AND {c}.day = {{day}}"
        f" AND {c}.guild_id = {'{guild_id}' if guild else '0'}"
    )


def _board_statements(guild: bool, age: bool) -> BoardStatements:
    r, b = _day_where("r", guild, age), _day_where("b", guild, age)
    name, hidden = shown_name(not guild)
    line = f"""
        b.id, b.owner_id, {name} AS name, b.score, b.score_text, b.status, b.outcome,
        {hidden} AS hidden
    """
    statements = BoardStatements(
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
                SELECT b.id, b.score_key, b.owner_id, {name} AS name, {hidden} AS hidden,
                       rank() OVER (ORDER BY b.score_key DESC) AS rank
                FROM runs AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
                WHERE {b} AND b.score_key BETWEEN {{bottom}} AND {{top}}
                ORDER BY b.score_key DESC, lower({name}), b.owner_id
                LIMIT {{limit}} OFFSET {{skip}}
            )
            SELECT {{above}} + band.rank AS rank, b.id, b.owner_id, band.name, b.score,
                   b.score_text, b.status, b.outcome, band.hidden
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
    if age:
        return statements
    c = _day_counts("c", guild)
    return dataclasses.replace(
        statements,
        counts=Query.both(f"""
            SELECT c.score_key AS key, c.n FROM board_counts AS c WHERE {c}
            ORDER BY c.score_key DESC
        """),
        size=Query.both(f"SELECT coalesce(sum(c.n), 0) AS n FROM board_counts AS c WHERE {c}"),
        line=Query.both(f"""
            SELECT 1 + (SELECT coalesce(sum(c.n), 0) FROM board_counts AS c
                        WHERE {c} AND c.score_key > b.score_key) AS rank, {line}
            FROM runs AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
            WHERE {b} AND b.owner_id = {{owner_id}}
        """),
        reached=Query.both(
            f"SELECT coalesce(sum(c.n), 0) AS n FROM board_counts AS c"
            f" WHERE {c} AND c.score_key >= {{key}}"
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
class PeriodStatements:
    """A period board's statements in one scope (with or without an account-age bound), read
    like the day board's (:class:`BoardStatements`: ``keys``, ``above``, ``band``) from
    ``period_points``, where the runs' triggers keep each player's total (migration 0008):
    a page costs one walk of ``period_points_board`` to its totals, not a sum of the
    period's runs. Everyone's board is the rows of ``guild_id`` 0. Without an account-age
    bound, the count per total is kept too (``period_counts``, migration 0011) and read as
    the day board's ``counts``."""

    keys: Query
    above: Query
    band: Query
    size: Query
    line: Query
    counts: Query | None = None


def _period_statements(age: bool, everyone: bool) -> PeriodStatements:
    def where(alias: str) -> str:
        t = alias
        return (
            f"{t}.span = {{span}} AND {t}.first = {{first}} AND {t}.game = {{game}}"
            f" AND {t}.variant = {{variant}} AND {t}.guild_id = {{guild_id}}"
            + (f" AND {t}.owner_id <= {{max_owner_id}}" if age else "")
        )

    t, b = where("t"), where("b")
    name, hidden = shown_name(everyone)
    statements = PeriodStatements(
        keys=Query.both(f"""
            SELECT t.total FROM period_points AS t WHERE {t}
            ORDER BY t.total DESC LIMIT {{limit}} OFFSET {{offset}}
        """),
        above=Query.both(
            f"SELECT count(*) AS n FROM period_points AS t WHERE {t} AND t.total > {{key}}"
        ),
        band=Query.both(f"""
            SELECT {{above}} + rank() OVER (ORDER BY b.total DESC) AS rank, b.owner_id,
                   {name} AS name, b.total, b.days, {hidden} AS hidden
            FROM period_points AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
            WHERE {b} AND b.total BETWEEN {{bottom}} AND {{top}}
            ORDER BY b.total DESC, lower({name}), b.owner_id
            LIMIT {{limit}} OFFSET {{skip}}
        """),
        size=Query.both(f"SELECT count(*) AS n FROM period_points AS t WHERE {t}"),
        line=Query.both(f"""
            SELECT 1 + (SELECT count(*) FROM period_points AS t
                        WHERE {t} AND t.total > b.total) AS rank,
                   b.owner_id, {name} AS name, b.total, b.days, {hidden} AS hidden
            FROM period_points AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
            WHERE {b} AND b.owner_id = {{owner_id}}
        """),
    )
    if age:
        return statements
    c = (
        "c.span = {span} AND c.first = {first} AND c.game = {game}"
        " AND c.variant = {variant} AND c.guild_id = {guild_id}"
    )
    return dataclasses.replace(
        statements,
        counts=Query.both(f"""
            SELECT c.total AS key, c.n FROM period_counts AS c WHERE {c}
            ORDER BY c.total DESC
        """),
        size=Query.both(f"SELECT coalesce(sum(c.n), 0) AS n FROM period_counts AS c WHERE {c}"),
        line=Query.both(f"""
            SELECT 1 + (SELECT coalesce(sum(c.n), 0) FROM period_counts AS c
                        WHERE {c} AND c.total > b.total) AS rank,
                   b.owner_id, {name} AS name, b.total, b.days, {hidden} AS hidden
            FROM period_points AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
            WHERE {b} AND b.owner_id = {{owner_id}}
        """),
    )


#: By (a minimum account age, everyone's board).
PERIOD_STATEMENTS = {
    (age, everyone): _period_statements(age, everyone)
    for age in (False, True) for everyone in (False, True)
}


def period_statements(where: PeriodFilter) -> PeriodStatements:
    """The statements of ``where``'s scope."""
    return PERIOD_STATEMENTS[where.max_owner_id is not None, where.guild_id is None]


def board_params(where: BoardFilter) -> dict[str, Any]:
    """The parameters of a day board's filter."""
    return {
        "game": where.game, "variant": where.variant, "day": where.day,
        "guild_id": where.guild_id, "max_owner_id": where.max_owner_id,
    }


def period_params(where: PeriodFilter) -> dict[str, Any]:
    """The parameters of a period board's filter (everyone's board is guild 0)."""
    return {
        "span": where.span, "first": where.first, "game": where.game,
        "variant": where.variant, "guild_id": where.guild_id or 0,
        "max_owner_id": where.max_owner_id,
    }


class BoardsSql:
    """:class:`Boards` over a :class:`~store.dialect.Db`."""

    db: Db

    def board(self, where: BoardFilter, limit: int, offset: int) -> list[BoardLine]:
        rows = self._page(board_statements(where), board_params(where), "score_key", limit,
                          offset)
        return [_board_line(row) for row in rows]

    def board_size(self, where: BoardFilter) -> int:
        return _count(self.db.one(board_statements(where).size, board_params(where)))

    def board_line(self, where: BoardFilter, owner_id: int) -> BoardLine | None:
        params = {**board_params(where), "owner_id": owner_id}
        row = self.db.one(board_statements(where).line, params)
        return None if row is None else _board_line(row)

    def board_reached(self, where: BoardFilter, score: list[int]) -> int:
        params = {**board_params(where), "key": score_key(score)}
        return _count(self.db.one(board_statements(where).reached, params))

    def period_page(self, where: PeriodFilter, limit: int, offset: int) -> list[PeriodLine]:
        rows = self._page(period_statements(where), period_params(where), "total", limit,
                          offset)
        return [_period_line(row) for row in rows]

    def _page(self, queries: Any, params: dict[str, Any], key: str, limit: int,
              offset: int) -> list[Any]:
        """A page in three indexed steps: the page's sort keys, how many rank above its
        first, then the band of rows between its first and last key (ties at the edges
        included, so equal scores share a rank). With kept counts, the first two steps are
        one read of the board's count per key."""
        counts: Query | None = getattr(queries, "counts", None)
        if counts is not None:
            edges = count_edges(self.db.all(counts, params), limit, offset)
            if edges is None:
                return []
            top, bottom, above = edges
        else:
            keys = [row[key] for row in self.db.all(
                queries.keys, {**params, "limit": limit, "offset": offset}
            )]
            if not keys:
                return []
            top, bottom = keys[0], keys[-1]
            above = _count(self.db.one(queries.above, {**params, "key": top}))
        band = {**params, "above": above, "top": top, "bottom": bottom, "limit": limit,
                "skip": offset - above}
        return self.db.all(queries.band, band)

    def period_size(self, where: PeriodFilter) -> int:
        return _count(self.db.one(period_statements(where).size, period_params(where)))

    def period_line(self, where: PeriodFilter, owner_id: int) -> PeriodLine | None:
        params = {**period_params(where), "owner_id": owner_id}
        row = self.db.one(period_statements(where).line, params)
        return None if row is None else _period_line(row)


def count_edges(counts: list[Row], limit: int, offset: int) -> tuple[Any, Any, int] | None:
    """From a board's count per key (best first): the keys of the lines at ``offset`` and
    ``offset + limit - 1`` (or the last line), and how many lines score above the first;
    None past the board's end."""
    seen, top, above = 0, None, 0
    for row in counts:
        n = int(row["n"])
        if top is None and seen + n > offset:
            top, above = row["key"], seen
        seen += n
        if top is not None and seen >= offset + limit:
            return top, row["key"], above
    if top is None:
        return None
    return top, counts[-1]["key"], above


def _count(row: Row | None) -> int:
    assert row is not None  # a count(*) always has its row
    return int(row["n"])


def _board_line(row: Row) -> BoardLine:
    return BoardLine(
        rank=int(row["rank"]), run_id=row["id"], owner_id=row["owner_id"], name=row["name"],
        score=json.loads(row["score"]), score_text=said(row["score_text"]), status=row["status"],
        outcome=row["outcome"], hidden=bool(row["hidden"]),
    )


def _period_line(row: Row) -> PeriodLine:
    return PeriodLine(rank=int(row["rank"]), owner_id=row["owner_id"], name=row["name"],
                    total=int(row["total"]), days=int(row["days"]), hidden=bool(row["hidden"]))
