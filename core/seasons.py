"""Seasons: each month's champions, posted once per server at the month's close, and who
holds the champion role.

A month closes with its last day: at 01:00 UTC on the 1st of the next month (``closes_at`` of
its last day), the same moment as that day's daily post. From then on its boards are final.

- **Only the latest closed month.** A bot that was down over a month's close closes it once
  when it comes back (as long as no later month has closed since), never a backlog.
- **Exactly once per server and month**, recorded in ``month_closes`` like the daily post:
  *claimed* in the database before anything is sent or any role changes hands, then *posted*
  or *skipped*. Two processes closing the same month: one claim wins, the other does nothing.
- **Who:** servers with a results channel and ``daily-post`` on (they get the post), and
  servers with a ``champion-role`` (their champions get the role), whichever they have.
- **Champions** are the lines ranked 1 to 3 of the server's month board of each game and
  variant (shared ranks: 1, 2, 2 shows three lines), from accounts old enough for the server's
  ``min-account-age`` on the 1st. Each game's first variant is always shown (saying so when
  nobody ranked); its other variants when someone ranked in them. The champion of a game, who
  gets the role, is whoever ranks 1 on its first variant's board (all of them on a shared 1).
- **The role** is taken from last month's holders (as recorded here: the bot reads no member
  lists) who are not champions again, and given to this month's; who was given it is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from core.checks import check_id
from core.clock import utc
from core.context import Context
from core.daily import EPOCH, GRACE
from core.errors import N_, BadRequest
from core.rankings import month_of, period_filter
from core.settings import CHAMPION_ROLE, RESULTS_CHANNEL, GuildSettings
from rules import GAMES
from store.base import PeriodLine, Tx

#: Ranks shown per board, and lines at most (ties at rank 3 could otherwise be endless).
CHAMPION_RANKS = 3
MAX_LINES = 10

POSTED = "posted"
SKIPPED = "skipped"


def closed_month(now: datetime) -> str | None:
    """The latest month (``YYYY-MM``) closed at ``now``, or None before the first one."""
    day = (utc(now) - GRACE).date()
    last = day.replace(day=1) - timedelta(days=1)
    return last.strftime("%Y-%m") if last >= EPOCH else None


def check_month(month: str) -> str:
    """``YYYY-MM``, else ``BadRequest``."""
    try:
        date.fromisoformat(f"{month}-01")
    except (TypeError, ValueError):
        raise BadRequest(N_("{month} is not a month (YYYY-MM)."), month=repr(month)[:40]) from None
    if len(month) != 7:
        raise BadRequest(N_("{month} is not a month (YYYY-MM)."), month=repr(month)[:40])
    return month


@dataclass(frozen=True)
class Champions:
    """The final top of one server's month board of a game and variant."""

    game: str
    title: str
    variant: str
    lines: list[PeriodLine]
    size: int  # how many players ranked on it


@dataclass(frozen=True)
class MonthClose:
    """What one server's month close does: the boards it shows, who gets the champion role
    (the champions of each game) and who held it for the month before."""

    guild_id: int
    month: str
    first: str
    last: str
    boards: list[Champions]
    champions: list[int]
    previous: list[int]


@dataclass(frozen=True)
class DueClose:
    """A server whose close of ``month`` is due and not recorded: where its post goes (None:
    no post) and its champion role (None: none)."""

    guild_id: int
    month: str
    channel_id: int | None
    role_id: int | None


class Seasons:
    """The month's close: when, for whom, what it says, and its record."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    def closed_month(self, now: datetime | None = None) -> str | None:
        return closed_month(self._ctx.clock() if now is None else now)

    async def pending(self, month: str) -> list[DueClose]:
        """Servers with a post or a role to give for ``month`` and no record of its close."""
        return await self._ctx.store.read(_pending_tx, check_month(month))

    async def compose(self, guild_id: int, month: str) -> MonthClose:
        """The server's champions of ``month``."""
        first, last = month_of(f"{check_month(month)}-01")
        return await self._ctx.store.read(_compose_tx, check_id(guild_id, "server"), month,
                                          first, last)

    async def claim(self, guild_id: int, month: str) -> bool:
        """Record that the server's close of ``month`` is under way; False if it was claimed
        (or finished) before, by this process or another."""
        return await self._ctx.store.write(
            _claim_tx, check_id(guild_id, "server"), check_month(month), self._ctx.now()
        )

    async def gave_role(self, guild_id: int, month: str, user_ids: list[int]) -> None:
        """Record who holds the champion role for ``month``."""
        await self._ctx.store.write(_holders_tx, check_id(guild_id, "server"),
                                    check_month(month), [check_id(u, "user") for u in user_ids])

    async def finish(
        self, guild_id: int, month: str, status: str, *, channel_id: int | None = None,
        message_id: int | None = None, note: str | None = None,
    ) -> None:
        """Mark a claimed close ``posted`` (with its message) or ``skipped`` (with why)."""
        if status not in (POSTED, SKIPPED):
            raise ValueError(f"a month's close ends posted or skipped, not {status!r}")
        await self._ctx.store.write(
            _finish_tx, check_id(guild_id, "server"), check_month(month), status, channel_id,
            message_id, note, self._ctx.now(),
        )

    async def status(self, guild_id: int, month: str) -> str | None:
        """``claimed``, ``posted``, ``skipped`` or None (nothing recorded)."""
        return await self._ctx.store.read(_status_tx, check_id(guild_id, "server"),
                                          check_month(month))


# ----- transactions -------------------------------------------------------------------------


def previous_month(month: str) -> str:
    return (date.fromisoformat(f"{month}-01") - timedelta(days=1)).strftime("%Y-%m")


def _pending_tx(tx: Tx, month: str) -> list[DueClose]:
    servers = {g for g, _ in tx.guilds_with_setting(RESULTS_CHANNEL)}
    servers |= {g for g, _ in tx.guilds_with_setting(CHAMPION_ROLE)}
    due = []
    for guild_id in sorted(servers):
        settings = GuildSettings.parse(tx.guild_settings(guild_id))
        channel = settings.results_channel if settings.daily_post else None
        if (channel or settings.champion_role) and tx.close_status(guild_id, month) is None:
            due.append(DueClose(guild_id, month, channel, settings.champion_role))
    return due


def _compose_tx(tx: Tx, guild_id: int, month: str, first: str, last: str) -> MonthClose:
    boards, champions = [], []
    for key, engine in GAMES.items():
        for index, variant in enumerate(engine.variants):
            where, _ = period_filter(tx, "month", key, variant, first, guild_id)
            lines = [line for line in tx.period_page(where, MAX_LINES, 0)
                     if line.rank <= CHAMPION_RANKS]
            if index == 0:
                champions += [line.owner_id for line in lines if line.rank == 1]
            if lines or index == 0:
                boards.append(Champions(key, engine.title, variant, lines,
                                        tx.period_size(where) if lines else 0))
    previous = tx.champion_holders(guild_id, previous_month(month))
    return MonthClose(guild_id, month, first, last, boards, sorted(set(champions)), previous)


def _claim_tx(tx: Tx, guild_id: int, month: str, now: str) -> bool:
    return tx.claim_close(guild_id, month, now)


def _holders_tx(tx: Tx, guild_id: int, month: str, user_ids: list[int]) -> None:
    for user_id in user_ids:
        tx.add_champion_holder(guild_id, month, user_id)


def _finish_tx(
    tx: Tx, guild_id: int, month: str, status: str, channel_id: int | None,
    message_id: int | None, note: str | None, now: str,
) -> None:
    tx.finish_close(guild_id, month, status, channel_id, message_id, note, now)


def _status_tx(tx: Tx, guild_id: int, month: str) -> str | None:
    return tx.close_status(guild_id, month)
