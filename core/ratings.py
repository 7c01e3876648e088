"""Skill ratings: each closed day's global board rated once, in order, and the rating board.

A player has a rating per game and variant (``core.skill``: openskill's Plackett–Luce, shown
as ``round(1000 + 40 × (μ − 3σ))``, provisional until 10 rated days). Each closed day's
global board of a game and variant is one match: every ranked daily a player, equal scores a
tie. A day with one player is no match: it is marked rated and changes nothing.

:meth:`Ratings.run_due` is one pass, modelled on the par pass (``core.par``): under
``store.singleton`` ("rate-days"), for each game and variant, the earliest closed day after
the last one rated is read, rated off the event loop (``asyncio.to_thread``: one pass over
the board, 0.07 s of CPU for 100,000 players) and written in one transaction that first
claims the day after the last one rated (``rated_days``). So a day is rated exactly once and
strictly in order whatever the number of processes and restarts: what was done is stored with
it, and a claim that finds another day rated since rolls the whole day back.

:meth:`Ratings.recompute` rebuilds every rating from the stored boards (after a rules or
rating change), in memory, and replaces the stored ones in one transaction; it gives the
same numbers as the passes did (a test checks it), since both apply :func:`rate_results` to
the same boards in the same order.

Each rated day also keeps every one of its players' new ratings (``rating_history``, in the
same transaction, and rebuilt by a recompute): a player's trend over the last
:data:`TREND_DAYS` days, and the change since the month began, come from it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from core.checks import check_game, check_id, check_variant
from core.context import Context
from core.daily import Daily, closes_at
from core.rankings import PAGE_SIZE, max_owner_id
from core.settings import GuildSettings
from core.skill import ESTABLISHED_DAYS, NEW, SCALE_BASE, competition_ranks, rate_day, shown
from rules import GAMES
from store import singleton
from store.base import Conflict, DayResult, RatingFilter, RatingLine, RatingRow, Tx

log = logging.getLogger(__name__)

LOCK = "rate-days"
#: How far back a player's rating trend goes (the stats card's 12 weeks), in days.
TREND_DAYS = 84


@dataclass(frozen=True)
class RatedDay:
    """A day a pass rated: its game, variant, day and how many players it rated."""

    game: str
    variant: str
    day: str
    players: int


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating in one variant of a game, for ``/stats``: with its trend, the
    rating after each rated day of the last :data:`TREND_DAYS` (oldest first), and its
    change since the month began (None: no rated day this month)."""

    variant: str
    rating: int
    days: int
    trend: tuple[tuple[str, int], ...] = ()
    month_change: int | None = None

    @property
    def provisional(self) -> bool:
        return self.days < ESTABLISHED_DAYS


@dataclass(frozen=True)
class RatingBoard:
    """A page of a rating board, and the viewer's own line when it is not on the page."""

    game: str
    variant: str
    guild_id: int | None
    min_account_age: int
    lines: list[RatingLine]
    size: int
    page: int
    pages: int
    own: RatingLine | None
    last_day: str | None  # the last day rated


def rate_results(game: str, variant: str, day: str, results: list[DayResult],
                 before: dict[int, RatingRow] | None = None) -> list[RatingRow]:
    """The new ratings of a day's board (``results``, best first), from each player's rating
    before it: ``before`` when given (a recompute), else what the store joined in."""
    if len(results) < 2:
        return []
    players: list[tuple[float, float]] = []
    days: list[int] = []
    for r in results:
        prior = before.get(r.owner_id) if before is not None else None
        if before is not None:
            mu, sigma, n = (NEW.mu, NEW.sigma, 0) if prior is None else (
                prior.mu, prior.sigma, prior.days)
        elif r.mu is None or r.sigma is None:
            mu, sigma, n = NEW.mu, NEW.sigma, 0
        else:
            mu, sigma, n = r.mu, r.sigma, r.days
        players.append((mu, sigma))
        days.append(n)
    new = rate_day(players, competition_ranks([r.score_key for r in results]))
    return [
        RatingRow(game, variant, r.owner_id, mu, sigma, shown(mu, sigma), n + 1, day)
        for r, (mu, sigma), n in zip(results, new, days, strict=True)
    ]


def members_of(results: list[DayResult]) -> set[tuple[int, int]]:
    """``(guild_id, owner_id)`` of each rated daily played in a server."""
    if len(results) < 2:
        return set()
    return {(r.guild_id, r.owner_id) for r in results if r.guild_id is not None}


class Ratings:
    """Rating closed days, recomputing, and the rating board."""

    def __init__(self, ctx: Context, daily: Daily) -> None:
        self._ctx = ctx
        self._daily = daily

    async def run_due(self, now: datetime | None = None) -> list[RatedDay]:
        """Rate every closed day not rated yet, oldest first; the days this pass rated."""
        now = now or self._ctx.clock()
        rated: list[RatedDay] = []
        async with singleton(self._ctx.store, LOCK) as mine:
            if not mine:
                return rated
            for game, engine in GAMES.items():
                for variant in engine.variants:
                    rated += await self._catch_up(game, variant, now)
        return rated

    async def _catch_up(self, game: str, variant: str, now: datetime) -> list[RatedDay]:
        store = self._ctx.store
        rated: list[RatedDay] = []
        while True:
            previous, day = await store.read(_due_tx, game, variant)
            if day is None or closes_at(day) > now:
                return rated
            results = await store.read(_results_tx, game, variant, day)
            rows = await asyncio.to_thread(rate_results, game, variant, day, results)
            try:
                await store.write(_apply_tx, game, variant, day, previous, rows,
                                  members_of(results), self._ctx.now())
            except Conflict as exc:  # another process rated it (or a later day) meanwhile
                log.info("ratings: %s; leaving %s %s to it", exc, game, variant)
                return rated
            log.info("ratings: %s %s %s rated (%d players)", game, variant, day, len(rows))
            rated.append(RatedDay(game, variant, day, len(rows)))

    async def recompute(self, now: datetime | None = None) -> list[RatedDay]:
        """Rebuild every rating from the stored boards of the closed days and replace the
        stored ratings with them (waiting for a pass in progress); the days rated."""
        now = now or self._ctx.clock()
        rated: list[RatedDay] = []
        async with singleton(self._ctx.store, LOCK, wait=True):
            for game, engine in GAMES.items():
                for variant in engine.variants:
                    rated += await self._rebuild(game, variant, now)
        return rated

    async def _rebuild(self, game: str, variant: str, now: datetime) -> list[RatedDay]:
        store = self._ctx.store
        ratings: dict[int, RatingRow] = {}
        history: list[RatingRow] = []
        members: set[tuple[int, int]] = set()
        days: list[RatedDay] = []
        after = ""
        while True:
            day = await store.read(_next_tx, game, variant, after)
            if day is None or closes_at(day) > now:
                break
            results = await store.read(_results_tx, game, variant, day)
            rows = await asyncio.to_thread(rate_results, game, variant, day, results, ratings)
            ratings.update((row.owner_id, row) for row in rows)
            history += rows
            members |= members_of(results)
            days.append(RatedDay(game, variant, day, len(rows)))
            after = day
        await store.write(_replace_tx, game, variant, days, list(ratings.values()), history,
                          members, self._ctx.now())
        return days

    async def of_player(self, user_id: int, game: str) -> list[PlayerRating]:
        """The player's rating in each variant of ``game`` they were rated in, with its trend
        and its change this month."""
        engine = check_game(game)
        today = date.fromisoformat(self._ctx.today())
        since = (today - timedelta(days=TREND_DAYS - 1)).isoformat()
        month = today.replace(day=1).isoformat()
        found = await self._ctx.store.read(
            _player_tx, check_id(user_id, "user"), engine.key, list(engine.variants), since,
            month, replica=True,
        )
        return [
            PlayerRating(row.variant, row.rating, row.days, tuple(trend),
                         None if row.last_day < month
                         else row.rating - (SCALE_BASE if before is None else before))
            for row, trend, before in found
        ]

    async def board(
        self,
        game: str,
        variant: str | None = None,
        *,
        guild_id: int | None = None,
        page: int = 0,
        viewer_id: int | None = None,
    ) -> RatingBoard:
        """A page of the rating board: everyone's, or a server's (the players with a rated
        daily played there, from accounts at least its minimum age today)."""
        engine = check_game(game)
        variant = check_variant(engine, variant)
        if guild_id is not None:
            check_id(guild_id, "server")
        page = max(0, int(page))
        today = self._ctx.today()
        read = self._ctx.store.read
        lines, size, own, age, last = await read(
            _board_tx, engine.key, variant, today, guild_id, page, viewer_id, replica=True
        )
        pages = max(1, -(-size // PAGE_SIZE))
        if page >= pages:
            page = pages - 1
            lines, size, own, age, last = await read(
                _board_tx, engine.key, variant, today, guild_id, page, viewer_id, replica=True
            )
        return RatingBoard(engine.key, variant, guild_id, age, lines, size, page, pages, own,
                           last)


# ----- transactions -------------------------------------------------------------------------


def _due_tx(tx: Tx, game: str, variant: str) -> tuple[str | None, str | None]:
    previous = tx.last_rated_day(game, variant)
    return previous, tx.next_ranked_day(game, variant, previous or "")


def _next_tx(tx: Tx, game: str, variant: str, after: str) -> str | None:
    return tx.next_ranked_day(game, variant, after)


def _results_tx(tx: Tx, game: str, variant: str, day: str) -> list[DayResult]:
    return tx.day_results(game, variant, day)


def _apply_tx(
    tx: Tx, game: str, variant: str, day: str, previous: str | None, rows: list[RatingRow],
    members: set[tuple[int, int]], at: str,
) -> None:
    tx.mark_rated(game, variant, day, previous, len(rows), at)
    tx.put_ratings(rows)
    tx.put_history(rows)
    tx.add_members(game, variant, members)


def _replace_tx(
    tx: Tx, game: str, variant: str, days: list[RatedDay], rows: list[RatingRow],
    history: list[RatingRow], members: set[tuple[int, int]], at: str,
) -> None:
    tx.forget_ratings(game, variant)
    previous = None
    for day in days:
        tx.mark_rated(game, variant, day.day, previous, day.players, at)
        previous = day.day
    tx.put_ratings(rows)
    tx.put_history(history)
    tx.add_members(game, variant, members)


def _player_tx(
    tx: Tx, user_id: int, game: str, variants: list[str], since: str, month: str
) -> list[tuple[RatingRow, list[tuple[str, int]], int | None]]:
    """Each rated variant's rating, its history from ``since`` and its rating before
    ``month`` (the month's first day)."""
    rows = (tx.rating(game, variant, user_id) for variant in variants)
    return [
        (row, tx.rating_history(game, row.variant, user_id, since),
         tx.rating_before(game, row.variant, user_id, month))
        for row in rows if row is not None
    ]


def _board_tx(
    tx: Tx, game: str, variant: str, today: str, guild_id: int | None, page: int,
    viewer_id: int | None,
) -> tuple[list[RatingLine], int, RatingLine | None, int, str | None]:
    age = 0
    if guild_id is not None:
        age = GuildSettings.parse(tx.guild_settings(guild_id)).min_account_age
    where = RatingFilter(game, variant, guild_id, max_owner_id(today, age))
    lines = tx.rating_page(where, PAGE_SIZE, page * PAGE_SIZE)
    own = None
    if viewer_id is not None and all(line.owner_id != viewer_id for line in lines):
        own = tx.rating_line(where, viewer_id)
    return lines, tx.rating_size(where), own, age, tx.last_rated_day(game, variant)
