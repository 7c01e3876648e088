"""Skill ratings: each player's rating per game and variant, the days rated, who played in
which server, and the rating board (global or a server's), a page at a time.

A closed day is rated in one write transaction: :meth:`RatingsSql.mark_rated` first claims
the day in ``rated_days`` (its key makes a second claim a :class:`Conflict`, so two
processes rate a day once) and checks that it follows the last day rated, then the day's
players' ratings are written. The rating board is ordered by the rating shown (an integer),
equal ratings sharing a rank and listed by name, read like the day's board (``store.boards``):
the page's first and last rating from the index, a count of the players above, then the band.
Everyone's board walks ``ratings_board``; a server's walks ``rating_members_board``, its
members' rows, which carry each member's rating (written with the rating, in the same
transaction: :meth:`RatingsSql.put_ratings`), so neither reads or sorts a whole board.
Without an account-age bound, a board's count per rating is kept by triggers on both tables
(``rating_counts``, migration 0013): a page's first and last rating, the count above it, the
board's size and a line's rank are sums over those counts, not walks of the board's lines.

``rating_history`` (migration 0012) keeps each player's rating after every rated day they
played, written by :meth:`RatingsSql.put_history` in the transaction that rates the day: a
player's trend reads it by its key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from store.boards import count_edges, shown_name
from store.dialect import Conflict, Db, Query, Row


@dataclass(frozen=True)
class DayResult:
    """A ranked daily of the day being rated: its player, score (as ``score_key``), server,
    and the player's rating before the day (None: a first rated day)."""

    owner_id: int
    score_key: str
    guild_id: int | None
    mu: float | None
    sigma: float | None
    days: int


@dataclass(frozen=True)
class RatingRow:
    """One player's stored rating in a game and variant."""

    game: str
    variant: str
    owner_id: int
    mu: float
    sigma: float
    rating: int  # the readable scale (core.skill.shown), what the board orders by
    days: int  # rated days played
    last_day: str


@dataclass(frozen=True)
class RatingFilter:
    """Which ratings a rating board holds: a game and variant, one server's players (those
    with a rated daily played there) or all, from accounts no newer than ``max_owner_id``."""

    game: str
    variant: str
    guild_id: int | None = None
    max_owner_id: int | None = None


@dataclass(frozen=True)
class RatingLine:
    """One line of a rating board."""

    rank: int
    owner_id: int
    name: str
    rating: int
    days: int
    hidden: bool = False  # as store.boards.BoardLine.hidden


class Ratings(Protocol):
    """The queries of ratings."""

    def last_rated_day(self, game: str, variant: str) -> str | None: ...
    def next_ranked_day(self, game: str, variant: str, after: str) -> str | None: ...
    def day_results(self, game: str, variant: str, day: str) -> list[DayResult]: ...
    def mark_rated(
        self, game: str, variant: str, day: str, previous: str | None, players: int, at: str
    ) -> None: ...
    def put_ratings(self, rows: list[RatingRow]) -> None: ...
    def put_history(self, rows: list[RatingRow]) -> None: ...
    def rating_history(
        self, game: str, variant: str, owner_id: int, since: str
    ) -> list[tuple[str, int]]: ...
    def rating_before(self, game: str, variant: str, owner_id: int, day: str) -> int | None: ...
    def add_members(self, game: str, variant: str, members: set[tuple[int, int]]) -> None: ...
    def forget_ratings(self, game: str, variant: str) -> None: ...
    def rating(self, game: str, variant: str, owner_id: int) -> RatingRow | None: ...
    def all_ratings(self, game: str, variant: str) -> list[RatingRow]: ...
    def rating_page(self, where: RatingFilter, limit: int, offset: int) -> list[RatingLine]: ...
    def rating_size(self, where: RatingFilter) -> int: ...
    def rating_line(self, where: RatingFilter, owner_id: int) -> RatingLine | None: ...


SELECT_LAST_RATED = Query.both(
    "SELECT max(day) AS day FROM rated_days WHERE game = {game} AND variant = {variant}"
)
# The runs_board index: the first day after `after` with a ranked daily.
SELECT_NEXT_DAY = Query.both("""
    SELECT min(day) AS day FROM runs
    WHERE kind = 'daily' AND ranked = 1 AND game = {game} AND variant = {variant}
      AND day > {after}
""")
SELECT_DAY_RESULTS = Query.both("""
    SELECT r.owner_id, r.score_key, r.guild_id, g.mu, g.sigma, coalesce(g.days, 0) AS days
    FROM runs AS r
    LEFT JOIN ratings AS g
           ON g.game = r.game AND g.variant = r.variant AND g.owner_id = r.owner_id
    WHERE r.kind = 'daily' AND r.ranked = 1 AND r.game = {game} AND r.variant = {variant}
      AND r.day = {day}
    ORDER BY r.score_key DESC, r.owner_id
""")
INSERT_RATED_DAY = Query.both("""
    INSERT INTO rated_days (game, variant, day, players, rated_at)
    VALUES ({game}, {variant}, {day}, {players}, {at})
    ON CONFLICT DO NOTHING
""")
#: A first rating takes the name it is listed by from ``players`` (migration 0014; the
#: players' triggers keep it after).
UPSERT_RATING = Query.both("""
    INSERT INTO ratings (game, variant, owner_id, mu, sigma, rating, days, last_day, name_key)
    VALUES ({game}, {variant}, {owner_id}, {mu}, {sigma}, {rating}, {days}, {last_day},
            coalesce((SELECT CASE WHEN p.hidden = 1 THEN '' ELSE lower(p.name) END
                      FROM players AS p WHERE p.user_id = {owner_id}), ''))
    ON CONFLICT (game, variant, owner_id) DO UPDATE SET
        mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating,
        days = excluded.days, last_day = excluded.last_day
""")
#: A new rating carried to the player's memberships (a server's board orders by it).
UPDATE_MEMBER_RATING = Query.both("""
    UPDATE rating_members SET rating = {rating}
    WHERE game = {game} AND variant = {variant} AND owner_id = {owner_id}
""")
#: A membership gets the rating as it stands (put_ratings runs first in the same write).
INSERT_MEMBER = Query.both("""
    INSERT INTO rating_members (guild_id, game, variant, owner_id, rating, name_key)
    SELECT {guild_id}, r.game, r.variant, r.owner_id, r.rating,
           coalesce((SELECT lower(p.name) FROM players AS p WHERE p.user_id = r.owner_id), '')
    FROM ratings AS r
    WHERE r.game = {game} AND r.variant = {variant} AND r.owner_id = {owner_id}
    ON CONFLICT DO NOTHING
""")
#: A player's rating after one rated day (each row's ``last_day``); the day's claim in
#: rated_days, made first in the same write, makes it once.
INSERT_HISTORY = Query.both("""
    INSERT INTO rating_history (game, variant, owner_id, day, mu, sigma, rating)
    VALUES ({game}, {variant}, {owner_id}, {last_day}, {mu}, {sigma}, {rating})
""")
SELECT_HISTORY = Query.both("""
    SELECT day, rating FROM rating_history
    WHERE game = {game} AND variant = {variant} AND owner_id = {owner_id} AND day >= {since}
    ORDER BY day
""")
SELECT_RATING_BEFORE = Query.both("""
    SELECT rating FROM rating_history
    WHERE game = {game} AND variant = {variant} AND owner_id = {owner_id} AND day < {day}
    ORDER BY day DESC LIMIT 1
""")
FORGET = tuple(
    Query.both(f"DELETE FROM {table} WHERE game = {{game}} AND variant = {{variant}}")
    for table in ("ratings", "rated_days", "rating_members", "rating_history")
)
_COLUMNS = "game, variant, owner_id, mu, sigma, rating, days, last_day"
SELECT_RATING = Query.both(f"""
    SELECT {_COLUMNS} FROM ratings
    WHERE game = {{game}} AND variant = {{variant}} AND owner_id = {{owner_id}}
""")
SELECT_ALL_RATINGS = Query.both(f"""
    SELECT {_COLUMNS} FROM ratings WHERE game = {{game}} AND variant = {{variant}}
    ORDER BY owner_id
""")


def _scope(alias: str, guild: bool, age: bool) -> tuple[str, str, str]:
    """The FROM and WHERE of a rating board's scope, ``alias`` naming the table whose
    ``rating`` and ``owner_id`` the board reads, and the expression of the player's rated
    days. Everyone's board is ``ratings`` (``ratings_board``); a server's is its members'
    ``rating_members`` rows, which carry the rating (``rating_members_board``), joined to
    ``ratings`` only for the days of the lines shown."""
    g = alias
    if guild:
        source = (f"rating_members AS {g} JOIN ratings AS {g}d ON {g}d.game = {g}.game"
                  f" AND {g}d.variant = {g}.variant AND {g}d.owner_id = {g}.owner_id")
        where = (f"{g}.guild_id = {{guild_id}} AND {g}.game = {{game}}"
                 f" AND {g}.variant = {{variant}}")
        days = f"{g}d.days"
    else:
        source = f"ratings AS {g}"
        where = f"{g}.game = {{game}} AND {g}.variant = {{variant}}"
        days = f"{g}.days"
    if age:
        where += f" AND {g}.owner_id <= {{max_owner_id}}"
    return source, where, days


@dataclass(frozen=True)
class RatingStatements:
    """A rating board's statements in one scope (as ``store.boards.BoardStatements``)."""

    keys: Query
    above: Query
    band: Query
    size: Query
    line: Query
    counts: Query | None = None


def _line(guild: bool, age: bool, above: Callable[[str], str]) -> Query:
    """The viewer's own line on a rating board; ``above(rating)`` counts the players above
    the SQL expression ``rating``.

    Everyone's board reads the player's row by its key (``ratings``' primary key). A server's
    finds its member's row through the player: the player's memberships in the game and
    variant (``rating_members_player``: one per server played in), set apart as a
    ``MATERIALIZED`` CTE, then the server's among them. With the server in the same search,
    PostgreSQL's generic plan (the store runs its statements prepared, and after five runs
    PostgreSQL may keep a plan made without the values) takes a server for a thousandth of the
    table and reads the row from the board index, which holds the rating, but has the player
    only after the rating and the name: it walks the server's whole board for one player (2.5
    ms for the 31,660 members of the largest server at 10,000,000 runs, where the key takes
    0.03 ms). Without the server in the CTE's search, no index that leads with the server (the
    board's, the primary key) can narrow it: no plan walks a board.
    """
    name, hidden = shown_name(not guild)
    if not guild:
        _, where, days = _scope("b", guild, age)
        return Query.both(f"""
            SELECT 1 + ({above("b.rating")}) AS rank, b.owner_id, {name} AS name, b.rating,
                   {days} AS days, {hidden} AS hidden
            FROM ratings AS b LEFT JOIN players AS p ON p.user_id = b.owner_id
            WHERE {where} AND b.owner_id = {{owner_id}}
        """)
    bound = " AND member.owner_id <= {max_owner_id}" if age else ""
    # (The CTE is not named b: SQLite's plan scans its few rows, and the bench's plan check
    # takes a SCAN of b for a walk of a whole board.)
    return Query.both(f"""
        WITH member AS MATERIALIZED (
            SELECT m.guild_id, m.owner_id, m.rating FROM rating_members AS m
            WHERE m.game = {{game}} AND m.variant = {{variant}} AND m.owner_id = {{owner_id}}
        )
        SELECT 1 + ({above("member.rating")}) AS rank, member.owner_id, {name} AS name,
               member.rating, d.days, {hidden} AS hidden
        FROM member JOIN ratings AS d ON d.game = {{game}} AND d.variant = {{variant}}
             AND d.owner_id = member.owner_id
        LEFT JOIN players AS p ON p.user_id = member.owner_id
        WHERE member.guild_id = {{guild_id}}{bound}
    """)


def _rating_statements(guild: bool, age: bool) -> RatingStatements:
    # Ranks, sizes and the page's keys need no days: read from the index alone.
    src, where = f"{'rating_members' if guild else 'ratings'} AS g", _scope("g", guild, age)[1]
    bsrc, bwhere, days = _scope("b", guild, age)
    name, hidden = shown_name(not guild)
    statements = RatingStatements(
        keys=Query.both(f"""
            SELECT g.rating FROM {src} WHERE {where}
            ORDER BY g.rating DESC LIMIT {{limit}} OFFSET {{offset}}
        """),
        above=Query.both(
            f"SELECT count(*) AS n FROM {src} WHERE {where} AND g.rating > {{top}}"
        ),
        band=Query.both(f"""
            SELECT {{above}} + rank() OVER (ORDER BY b.rating DESC) AS rank, b.owner_id,
                   {name} AS name, b.rating, {days} AS days, {hidden} AS hidden
            FROM {bsrc} LEFT JOIN players AS p ON p.user_id = b.owner_id
            WHERE {bwhere} AND b.rating BETWEEN {{bottom}} AND {{top}}
            ORDER BY b.rating DESC, lower({name}), b.owner_id
            LIMIT {{limit}} OFFSET {{skip}}
        """),
        size=Query.both(f"SELECT count(*) AS n FROM {src} WHERE {where}"),
        line=_line(guild, age, lambda rating: (
            f"SELECT count(*) FROM {src} WHERE {where} AND g.rating > {rating}")),
    )
    if age:
        return statements
    # Unbound, the board's count per rating is kept (rating_counts, migration 0013): a
    # page's edges, the size and a line's rank are sums over it, as a day board's are, and
    # the page is a walk of the board index, tie groups in name order (name_key, migration
    # 0014), to its first line; only its own lines read their days and names. Ranks come
    # from the counts; the caller puts the page's lines in order (the index's order).
    c = ("c.game = {game} AND c.variant = {variant} AND c.guild_id = "
         + ("{guild_id}" if guild else "0"))
    keyed = "rating_members" if guild else "ratings"
    return dataclasses.replace(
        statements,
        band=Query.both(f"""
            WITH page AS (
                SELECT g.owner_id, g.rating, g.name_key FROM {keyed} AS g
                WHERE {where} AND g.rating BETWEEN {{bottom}} AND {{top}}
                ORDER BY g.rating DESC, g.name_key, g.owner_id
                LIMIT {{limit}} OFFSET {{skip}}
            )
            SELECT 0 AS rank, page.owner_id, {name} AS name, page.rating, d.days,
                   {hidden} AS hidden, page.name_key
            FROM page JOIN ratings AS d ON d.game = {{game}} AND d.variant = {{variant}}
                 AND d.owner_id = page.owner_id
            LEFT JOIN players AS p ON p.user_id = page.owner_id
        """),
        counts=Query.both(f"""
            SELECT c.rating AS key, c.n FROM rating_counts AS c WHERE {c}
            ORDER BY c.rating DESC
        """),
        size=Query.both(f"SELECT coalesce(sum(c.n), 0) AS n FROM rating_counts AS c WHERE {c}"),
        line=_line(guild, age, lambda rating: (
            f"SELECT coalesce(sum(c.n), 0) FROM rating_counts AS c WHERE {c}"
            f" AND c.rating > {rating}")),
    )


#: By (a server's board, with a minimum account age).
RATING_STATEMENTS = {
    (guild, age): _rating_statements(guild, age) for guild in (False, True) for age in (False, True)
}


def _params(where: RatingFilter) -> dict[str, object]:
    return {"game": where.game, "variant": where.variant, "guild_id": where.guild_id,
            "max_owner_id": where.max_owner_id}


def _statements(where: RatingFilter) -> RatingStatements:
    return RATING_STATEMENTS[where.guild_id is not None, where.max_owner_id is not None]


class RatingsSql:
    """:class:`Ratings` over a :class:`~store.dialect.Db`."""

    db: Db

    def last_rated_day(self, game: str, variant: str) -> str | None:
        row = self.db.one(SELECT_LAST_RATED, {"game": game, "variant": variant})
        return None if row is None else row["day"]

    def next_ranked_day(self, game: str, variant: str, after: str) -> str | None:
        row = self.db.one(SELECT_NEXT_DAY, {"game": game, "variant": variant, "after": after})
        return None if row is None else row["day"]

    def day_results(self, game: str, variant: str, day: str) -> list[DayResult]:
        rows = self.db.all(SELECT_DAY_RESULTS, {"game": game, "variant": variant, "day": day})
        return [
            DayResult(row["owner_id"], row["score_key"], row["guild_id"],
                      None if row["mu"] is None else float(row["mu"]),
                      None if row["sigma"] is None else float(row["sigma"]), int(row["days"]))
            for row in rows
        ]

    def mark_rated(
        self, game: str, variant: str, day: str, previous: str | None, players: int, at: str
    ) -> None:
        """Claim ``day`` as rated, after ``previous`` (the last day rated when the day was
        read); :class:`Conflict` when it is rated already or another day was rated since."""
        if self.last_rated_day(game, variant) != previous:
            raise Conflict(f"{game} {variant}: another day was rated since {previous}")
        params = {"game": game, "variant": variant, "day": day, "players": players, "at": at}
        if self.db.change(INSERT_RATED_DAY, params) != 1:
            raise Conflict(f"{game} {variant} {day} is rated already")

    def put_ratings(self, rows: list[RatingRow]) -> None:
        for r in rows:
            self.db.change(UPSERT_RATING, {
                "game": r.game, "variant": r.variant, "owner_id": r.owner_id, "mu": r.mu,
                "sigma": r.sigma, "rating": r.rating, "days": r.days, "last_day": r.last_day,
            })
            self.db.change(UPDATE_MEMBER_RATING, {"game": r.game, "variant": r.variant,
                                                  "owner_id": r.owner_id, "rating": r.rating})

    def put_history(self, rows: list[RatingRow]) -> None:
        """Each row's rating as it stood after its ``last_day`` (the day just rated)."""
        for r in rows:
            self.db.change(INSERT_HISTORY, {
                "game": r.game, "variant": r.variant, "owner_id": r.owner_id,
                "last_day": r.last_day, "mu": r.mu, "sigma": r.sigma, "rating": r.rating,
            })

    def rating_history(
        self, game: str, variant: str, owner_id: int, since: str
    ) -> list[tuple[str, int]]:
        """``(day, rating)`` after each rated day of the player's from ``since``, oldest first."""
        rows = self.db.all(SELECT_HISTORY, {"game": game, "variant": variant,
                                            "owner_id": owner_id, "since": since})
        return [(row["day"], int(row["rating"])) for row in rows]

    def rating_before(self, game: str, variant: str, owner_id: int, day: str) -> int | None:
        """The player's rating as it stood before ``day`` (None: not rated before it)."""
        row = self.db.one(SELECT_RATING_BEFORE, {"game": game, "variant": variant,
                                                 "owner_id": owner_id, "day": day})
        return None if row is None else int(row["rating"])

    def add_members(self, game: str, variant: str, members: set[tuple[int, int]]) -> None:
        for guild_id, owner_id in sorted(members):
            self.db.change(INSERT_MEMBER, {"guild_id": guild_id, "game": game,
                                           "variant": variant, "owner_id": owner_id})

    def forget_ratings(self, game: str, variant: str) -> None:
        for query in FORGET:
            self.db.change(query, {"game": game, "variant": variant})

    def rating(self, game: str, variant: str, owner_id: int) -> RatingRow | None:
        row = self.db.one(SELECT_RATING, {"game": game, "variant": variant,
                                          "owner_id": owner_id})
        return None if row is None else _rating_row(row)

    def all_ratings(self, game: str, variant: str) -> list[RatingRow]:
        return [_rating_row(row) for row in self.db.all(
            SELECT_ALL_RATINGS, {"game": game, "variant": variant}
        )]

    def rating_page(self, where: RatingFilter, limit: int, offset: int) -> list[RatingLine]:
        queries, params = _statements(where), _params(where)
        if queries.counts is not None:
            return self._counted_page(queries, params, limit, offset)
        keys = [int(row["rating"]) for row in self.db.all(
            queries.keys, {**params, "limit": limit, "offset": offset}
        )]
        if not keys:
            return []
        top, bottom = keys[0], keys[-1]
        row = self.db.one(queries.above, {**params, "top": top})
        above = 0 if row is None else int(row["n"])
        band = {**params, "above": above, "top": top, "bottom": bottom, "limit": limit,
                "skip": offset - above}
        return [_rating_line(row) for row in self.db.all(queries.band, band)]

    def _counted_page(self, queries: RatingStatements, params: dict[str, object], limit: int,
                      offset: int) -> list[RatingLine]:
        """A page of an unbound board: its edges and ranks from the kept counts, its lines
        from one walk of the board index."""
        assert queries.counts is not None
        counts = self.db.all(queries.counts, params)
        edges = count_edges(counts, limit, offset)
        if edges is None:
            return []
        top, bottom, above = edges
        ranks: dict[int, int] = {}
        seen = 0
        for row in counts:  # best first: a rating's rank is 1 + the players above it
            ranks[int(row["key"])] = seen + 1
            seen += int(row["n"])
        band = {**params, "top": top, "bottom": bottom, "limit": limit, "skip": offset - above}
        rows = sorted(self.db.all(queries.band, band),
                      key=lambda r: (-int(r["rating"]), r["name_key"], r["owner_id"]))
        return [dataclasses.replace(_rating_line(row), rank=ranks[int(row["rating"])])
                for row in rows]

    def rating_size(self, where: RatingFilter) -> int:
        row = self.db.one(_statements(where).size, _params(where))
        return 0 if row is None else int(row["n"])

    def rating_line(self, where: RatingFilter, owner_id: int) -> RatingLine | None:
        row = self.db.one(_statements(where).line, {**_params(where), "owner_id": owner_id})
        return None if row is None else _rating_line(row)


def _rating_row(row: Row) -> RatingRow:
    return RatingRow(
        game=row["game"], variant=row["variant"], owner_id=row["owner_id"],
        mu=float(row["mu"]), sigma=float(row["sigma"]), rating=int(row["rating"]),
        days=int(row["days"]), last_day=row["last_day"],
    )


def _rating_line(row: Row) -> RatingLine:
    return RatingLine(rank=int(row["rank"]), owner_id=row["owner_id"], name=row["name"],
                      rating=int(row["rating"]), days=int(row["days"]),
                      hidden=bool(row["hidden"]))
