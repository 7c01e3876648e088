"""The daily post: which one is due, what it says, and the record that it went out once.

At 01:00 UTC on day D the day before (D-1) closes, so the post of day D can say both halves:
D's new deals (day numbers and commitments) and the final top three of each server's board
for D-1, with D-1's revealed seeds. The post of day D is due from D 01:00 UTC on.

- **Only the latest due day.** A bot that was down for days posts once when it comes back,
  the post of the day it is, never a backlog of stale boards.
- **Exactly once per server and day**, recorded in ``daily_posts``: a post is *claimed* in
  the database before it is sent, then marked *posted* (with its message) or *skipped* (with
  why). A claimed post is never sent again, even if the process died while sending it: a
  post is lost rather than doubled (at most once).
- **Who gets one:** servers with a results channel and ``daily-post`` on whose post of the day
  is not recorded yet, including a server that set its channel after 01:00 (its first post
  then goes out at once, which also shows the admin that the channel works).
- **Top three** means the lines ranked 1 to 3 of the server's board (shared ranks: 1, 2, 2
  shows three lines, 1, 1, 1, 1 four), from accounts old enough for the server's
  ``min-account-age``, as on ``/leaderboard``. Each game's first variant is always shown
  (saying so when nobody ranked); its other variants only when someone ranked in them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from core.checks import check_day, check_id
from core.clock import utc
from core.context import Context
from core.daily import EPOCH, GRACE, Daily, closes_at, day_number
from core.rankings import max_owner_id
from core.settings import RESULTS_CHANNEL, GuildSettings
from rules import GAMES
from store.base import BoardFilter, BoardLine, Tx

#: How many lines a podium shows at most (ties at rank 3 could otherwise be endless).
MAX_PODIUM_LINES = 10
PODIUM_RANKS = 3

POSTED = "posted"
SKIPPED = "skipped"
CLAIMED = "claimed"


def due_day(now: datetime) -> str | None:
    """The latest day whose post is due at ``now`` (day D's is due from D 01:00 UTC), or
    None before the first day's."""
    day = (utc(now) - GRACE).date()
    return day.isoformat() if day >= EPOCH else None


def previous_day(day: str) -> str:
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


@dataclass(frozen=True)
class Deal:
    """One of the day's new deals: a game and variant, the day's number and commitment."""

    game: str
    title: str
    variant: str
    day: str
    number: int
    commitment: str


@dataclass(frozen=True)
class Podium:
    """The final top of one server's board for a closed day, with the day's revealed seed."""

    game: str
    title: str
    variant: str
    day: str
    number: int
    seed: int
    commitment: str
    lines: list[BoardLine]
    size: int  # how many ranked on that board


@dataclass(frozen=True)
class DailyPost:
    """What one server's post of ``day`` says."""

    guild_id: int
    day: str
    number: int
    deals: list[Deal]
    podiums: list[Podium]  # of the day before; empty when that day is before day #1


@dataclass(frozen=True)
class Due:
    """A server whose post of ``day`` is due and not recorded yet, and where it goes."""

    guild_id: int
    channel_id: int
    day: str


class Posts:
    """The daily post's timing, content and record."""

    def __init__(self, ctx: Context, daily: Daily) -> None:
        self._ctx = ctx
        self._daily = daily

    def due_day(self, now: datetime | None = None) -> str | None:
        """The latest day whose post is due (at ``now``, default the core's clock)."""
        return due_day(self._ctx.clock() if now is None else now)

    async def pending(self, day: str) -> list[Due]:
        """Servers with a results channel and daily-post on whose post of ``day`` is neither
        claimed, posted nor skipped yet, in server id order."""
        return await self._ctx.store.read(_pending_tx, check_day(day))

    async def deals(self, day: str) -> list[Deal]:
        """The new deals of ``day``, for every game and variant."""
        day = check_day(day)
        return [
            Deal(key, engine.title, variant, day, day_number(day),
                 await self._daily.commitment(key, variant, day))
            for key, engine in GAMES.items()
            for variant in engine.variants
        ]

    async def podiums(self, guild_id: int, day: str) -> list[Podium]:
        """The final top three of the server's boards for ``day`` (a closed day), with its
        seeds; ``BadRequest`` if the day is not closed yet (no seed is revealed early)."""
        day = check_day(day)
        boards = await self._ctx.store.read(_podium_tx, check_id(guild_id, "server"), day)
        podiums = []
        for key, variant, lines, size in boards:
            podiums.append(Podium(
                key, GAMES[key].title, variant, day, day_number(day),
                await self._daily.revealed_seed(key, variant, day),
                await self._daily.commitment(key, variant, day), lines, size,
            ))
        return podiums

    async def compose(
        self, guild_id: int, day: str, deals: list[Deal] | None = None
    ) -> DailyPost:
        """The server's post of ``day`` (``deals``: the day's, when already known)."""
        day = check_day(day)
        before = previous_day(day)
        podiums = (
            await self.podiums(guild_id, before) if date.fromisoformat(before) >= EPOCH else []
        )
        return DailyPost(guild_id, day, day_number(day),
                         deals if deals is not None else await self.deals(day), podiums)

    async def claim(self, guild_id: int, day: str) -> bool:
        """Record that the server's post of ``day`` is being sent; False if it was claimed
        (or finished) before, by this process or another."""
        return await self._ctx.store.write(
            _claim_tx, check_id(guild_id, "server"), check_day(day), self._ctx.now()
        )

    async def finish(
        self,
        guild_id: int,
        day: str,
        status: str,
        *,
        channel_id: int | None = None,
        message_id: int | None = None,
        note: str | None = None,
    ) -> None:
        """Mark a claimed post ``posted`` (with its message) or ``skipped`` (with why)."""
        if status not in (POSTED, SKIPPED):
            raise ValueError(f"a post ends posted or skipped, not {status!r}")
        await self._ctx.store.write(
            _finish_tx, check_id(guild_id, "server"), check_day(day), status, channel_id,
            message_id, note, self._ctx.now(),
        )

    async def status(self, guild_id: int, day: str) -> str | None:
        """``claimed``, ``posted``, ``skipped`` or None (nothing recorded)."""
        return await self._ctx.store.read(
            _status_tx, check_id(guild_id, "server"), check_day(day)
        )

    def closes_at(self, day: str) -> datetime:
        return closes_at(day)


# ----- transactions -------------------------------------------------------------------------


def _pending_tx(tx: Tx, day: str) -> list[Due]:
    due = []
    for guild_id, _ in tx.guilds_with_setting(RESULTS_CHANNEL):
        settings = GuildSettings.parse(tx.guild_settings(guild_id))
        if settings.results_channel is None or not settings.daily_post:
            continue
        if tx.post_status(guild_id, day) is None:
            due.append(Due(guild_id, settings.results_channel, day))
    return due


def _podium_tx(
    tx: Tx, guild_id: int, day: str
) -> list[tuple[str, str, list[BoardLine], int]]:
    age = GuildSettings.parse(tx.guild_settings(guild_id)).min_account_age
    bound = max_owner_id(day, age)
    boards = []
    for key, engine in GAMES.items():
        for index, variant in enumerate(engine.variants):
            where = BoardFilter(key, variant, day, guild_id, bound)
            lines = [
                line for line in tx.board(where, MAX_PODIUM_LINES, 0)
                if line.rank <= PODIUM_RANKS
            ]
            if lines or index == 0:
                boards.append((key, variant, lines, tx.board_size(where) if lines else 0))
    return boards


def _claim_tx(tx: Tx, guild_id: int, day: str, now: str) -> bool:
    return tx.claim_post(guild_id, day, now)


def _finish_tx(
    tx: Tx, guild_id: int, day: str, status: str, channel_id: int | None,
    message_id: int | None, note: str | None, now: str,
) -> None:
    tx.finish_post(guild_id, day, status, channel_id, message_id, note, now)


def _status_tx(tx: Tx, guild_id: int, day: str) -> str | None:
    return tx.post_status(guild_id, day)
