"""Rankings: a day's leaderboards, a player's standing, stats and daily streaks.

Every answer comes from indexed queries (``store``), never from loading runs into Python.

- **Boards.** A day's board holds the ranked dailies of one game and variant: replay-verified,
  on that day's deal, finished before the day closed (resigned ones included, with their score
  so far). Scores compare as lists, higher first; equal scores share a rank (1, 2, 2, 4) and
  are listed by player name — never by clock time. The server board holds the runs played in
  that server, from accounts at least its ``min-account-age`` days old on the day; the global
  board holds them all.
- **Reads** of boards and stats may go to a read replica (``DATABASE_READ_URL``); a player's
  standing right after a run ends is read from the primary, so it includes that run.
- **Week and month boards** (periods: Monday to Sunday, and calendar months, UTC) add up each
  player's ranked daily points (the engine's ``stat``) over the period's days, one game and
  variant, in a server or everyone's; equal totals share a rank, listed by name. A server's
  minimum account age applies as on the period's first day. A period's board is final once
  its last day has closed; past ones stay readable.
- **Streaks** are keyed to days, never to clock arithmetic: consecutive UTC days with a
  finished (over or resigned) daily of the game. A missed day ends a streak unless a held
  freeze stands in for it (``core.freezes``: one earned every 7 consecutive days played, at
  most 2 held); the current streak is the one that reaches today or yesterday, or reaches
  them over frozen days.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from core.checks import check_day, check_game, check_id, check_variant
from core.context import Context
from core.daily import EPOCH, Daily, closes_at, day_number, opens_at
from core.errors import N_, BadRequest, Message, Refusal
from core.freezes import walk
from core.model import Run
from core.names import keep_name, listed_as
from core.settings import GuildSettings
from rules import GAMES
from store.base import (
    BoardFilter,
    BoardLine,
    ChallengeStats,
    DayMark,
    GameStats,
    PeriodFilter,
    PeriodLine,
    PriorBest,
    SeriesBest,
    Streak,
    Tx,
)
from store.ratings import RatingLine
from store.runs import score_key

PAGE_SIZE = 10

#: How a global board lists a player who chose ``/preferences global-board:off``.
HIDDEN_NAME = N_("a player")
UNNAMED = N_("player {id}")
#: A name as it was given (never looked up in a catalog: the template is only its field).
AS_GIVEN = "{name}"
RESIGNED_SCORE = N_("{score} (resigned)")
#: How many days of dailies ``/stats`` shows at a glance.
RECENT_DAYS = 14
#: Discord ids count milliseconds since this moment (2015-01-01 UTC) in their top 42 bits.
DISCORD_EPOCH_MS = 1_420_070_400_000

#: The same sentence as ``/lookback``'s (core.lookback) for a day before the first daily.
NO_DAILY = N_("There was no daily on {day}: the dailies start at #1 ({first}).")


def max_owner_id(day: str, min_age_days: int) -> int | None:
    """The largest Discord user id of an account at least ``min_age_days`` old when ``day``
    opened; None when there is no minimum."""
    if min_age_days <= 0:
        return None
    newest = opens_at(day) - timedelta(days=min_age_days)
    ms = int(newest.timestamp() * 1000) - DISCORD_EPOCH_MS
    return -1 if ms < 0 else (ms << 22) | ((1 << 22) - 1)


@dataclass(frozen=True)
class Leaderboard:
    """One page of a day's board, and the viewer's own line when it is not on the page."""

    game: str
    variant: str
    day: str
    number: int
    guild_id: int | None  # None: the global board
    min_account_age: int
    lines: list[BoardLine]
    size: int
    page: int
    pages: int
    own: BoardLine | None
    closed: bool
    commitment: str
    seed: int | None  # revealed once the day is closed

    @property
    def scope(self) -> str:
        return "global" if self.guild_id is None else "server"


@dataclass(frozen=True)
class Standing:
    """Where a finished daily stands: its line on the server board (if played in one) and on
    the global board, with each board's size."""

    server: BoardLine | None
    server_size: int
    world: BoardLine | None
    world_size: int


@dataclass(frozen=True)
class ContestRecord:
    """A player's challenges and series in one game (apart from :class:`GameRecord`, so a
    backend without the challenge queries still answers the rest of ``/stats``)."""

    game: str
    challenges: ChallengeStats
    series_best: list[SeriesBest]  # per series length, shortest first


@dataclass(frozen=True)
class GameRecord:
    """A player's record in one game."""

    stats: GameStats
    current_streak: int
    longest_streak: int
    recent: list[tuple[str, DayMark | None]]  # the last RECENT_DAYS days, oldest first
    freezes: int = 0  # streak freezes held (core.freezes)
    frozen: frozenset[str] = frozenset()  # the days a freeze stood in for
    first_daily: str | None = None  # the day of the player's first finished daily, if any


def week_of(day: str) -> tuple[str, str]:
    """The Monday and the Sunday (UTC days) of the week holding ``day``."""
    monday = date.fromisoformat(day) - timedelta(days=date.fromisoformat(day).weekday())
    return monday.isoformat(), (monday + timedelta(days=6)).isoformat()


def month_of(day: str) -> tuple[str, str]:
    """The first and the last day of the calendar month holding ``day``."""
    first = date.fromisoformat(day).replace(day=1)
    following = (first + timedelta(days=32)).replace(day=1)
    return first.isoformat(), (following - timedelta(days=1)).isoformat()


#: Each span's first and last day, from a day in it.
SPAN_OF = {"week": week_of, "month": month_of}


@dataclass(frozen=True)
class PeriodBoard:
    """A page of a week's or a month's board: each player's daily points added up."""

    span: str  # "week" or "month"
    game: str
    variant: str
    first: str  # the Monday, or the 1st
    last: str  # the Sunday, or the month's last day
    guild_id: int | None
    min_account_age: int
    lines: list[PeriodLine]
    size: int
    page: int
    pages: int
    own: PeriodLine | None
    closed: bool  # its last day has closed: final

    @property
    def month(self) -> str:
        """``YYYY-MM`` of the period's first day."""
        return self.first[:7]


@dataclass(frozen=True)
class PersonalBest:
    """How a finished run compares with the player's earlier runs of its game and variant:
    ``runs`` finished before it, the best of them (``previous``, its score text; None for a
    first run), and whether this run beats them all (``new``; a first run is not a "new
    best": there was nothing to beat) or equals the best (``equal``)."""

    runs: int
    previous: str | None
    new: bool
    equal: bool


class Rankings:
    """Leaderboards, standings, stats and streaks."""

    def __init__(self, ctx: Context, daily: Daily) -> None:
        self._ctx = ctx
        self._daily = daily

    def resolve_day(self, text: str | None) -> str:
        """``today`` (or None), ``yesterday``, or a ``YYYY-MM-DD`` day."""
        today = date.fromisoformat(self._ctx.today())
        word = (text or "today").strip().lower()
        if word == "today":
            return today.isoformat()
        if word == "yesterday":
            return (today - timedelta(days=1)).isoformat()
        day = check_day(word)
        if day < EPOCH.isoformat():
            # Else a board of day #0 or before: "closed", its seed shown, of a deal never dealt.
            raise Refusal(NO_DAILY, day=day, first=EPOCH.isoformat())
        return day

    async def board(
        self,
        game: str,
        variant: str | None = None,
        day: str | None = None,
        *,
        guild_id: int | None = None,
        page: int = 0,
        viewer_id: int | None = None,
    ) -> Leaderboard:
        """A page of the day's board (the server's when ``guild_id`` is given)."""
        engine = check_game(game)
        variant = check_variant(engine, variant)
        day = self.resolve_day(day)
        if guild_id is not None:
            check_id(guild_id, "server")
        page = max(0, int(page))
        board, size, own, age = await self._ctx.store.read(
            _board_tx, engine.key, variant, day, guild_id, page, viewer_id, replica=True
        )
        pages = max(1, -(-size // PAGE_SIZE))
        if page >= pages:  # a page past the end (the board shrank or a forged id): the last
            page = pages - 1
            board, size, own, age = await self._ctx.store.read(
                _board_tx, engine.key, variant, day, guild_id, page, viewer_id, replica=True
            )
        closed = self._daily.is_closed(day)
        return Leaderboard(
            game=engine.key, variant=variant, day=day, number=day_number(day),
            guild_id=guild_id, min_account_age=age, lines=board, size=size, page=page,
            pages=pages, own=own, closed=closed,
            commitment=await self._daily.commitment(engine.key, variant, day),
            seed=await self._daily.seed(engine.key, variant, day) if closed else None,
        )

    async def standing(
        self, owner_id: int, game: str, variant: str, day: str, guild_id: int | None
    ) -> Standing:
        """A player's line on the day's server and global boards."""
        return await self._ctx.store.read(_standing_tx, owner_id, game, variant, day, guild_id)

    async def personal_best(self, run: Run) -> PersonalBest:
        """How the finished ``run`` compares with the owner's earlier finished runs of its game
        and variant (every kind of run): as read by the write that ended it when this process
        made that write (``core.known``), else read from the primary so that it sees them
        all."""
        assert run.finished_at is not None, "only a finished run has a personal best"
        prior = self._ctx.known.prior_best(run)  # read by the write that ended it
        if prior is None:
            prior = await self._ctx.store.read(
                _prior_best_tx, run.owner_id, run.game, run.variant, run.id, run.finished_at
            )
        mine = score_key(run.score)
        beaten = prior.best_key is not None and mine > prior.best_key
        return PersonalBest(prior.runs, prior.best_text, beaten, mine == prior.best_key)

    async def record(self, user_id: int, game: str) -> GameRecord:
        """A player's record in ``game``: stats, streaks and the last days of dailies."""
        engine = check_game(game)
        user_id = check_id(user_id, "user")
        today = date.fromisoformat(self._ctx.today())
        since = (today - timedelta(days=RECENT_DAYS - 1)).isoformat()
        # The store knows no outcome words: the engine says which ones are wins.
        wins = frozenset(word for word, kind in engine.outcomes.items() if kind == "win")
        stats, streaks, marks = await self._ctx.store.read(
            _record_tx, user_id, engine.key, since, wins, replica=True
        )
        streak = walk(streaks, today)
        by_day: dict[str, DayMark] = {}
        for mark in marks:  # several variants on one day: the best outcome shows
            if mark.day not in by_day or (mark.won and not by_day[mark.day].won):
                by_day[mark.day] = mark
        recent = [
            (day, by_day.get(day))
            for day in ((today - timedelta(days=k)).isoformat()
                        for k in range(RECENT_DAYS - 1, -1, -1))
        ]
        return GameRecord(stats, streak.current, streak.longest, recent, streak.freezes,
                          streak.frozen, min((s.first for s in streaks), default=None))

    async def records(self, user_id: int, game: str | None = None) -> list[GameRecord]:
        """The player's record in ``game``, or in every game."""
        keys = [check_game(game).key] if game is not None else list(GAMES)
        return [await self.record(user_id, key) for key in keys]

    async def contests(self, user_id: int, game: str) -> ContestRecord:
        """A player's challenges played and won, and best series total per length."""
        engine = check_game(game)
        challenges, best = await self._ctx.store.read(
            _contests_tx, check_id(user_id, "user"), engine.key, replica=True
        )
        return ContestRecord(engine.key, challenges, best)

    async def week(
        self,
        game: str,
        variant: str | None = None,
        day: str | None = None,
        *,
        guild_id: int | None = None,
        page: int = 0,
        viewer_id: int | None = None,
    ) -> PeriodBoard:
        """A page of the board of the Monday–Sunday UTC week holding ``day`` (default
        today): each player's ranked daily points added up over its days.

        A server's minimum account age applies as on the week's Monday: an account too new
        then stays off the server's week board all week.
        """
        return await self.period("week", game, variant, self.resolve_day(day),
                                 guild_id=guild_id, page=page, viewer_id=viewer_id)

    async def month(
        self,
        game: str,
        variant: str | None = None,
        month: str | None = None,
        *,
        guild_id: int | None = None,
        page: int = 0,
        viewer_id: int | None = None,
    ) -> PeriodBoard:
        """A page of the board of a calendar month (UTC; ``month`` ``YYYY-MM``, default this
        one), added up as the week's."""
        return await self.period("month", game, variant, self.resolve_month(month),
                                 guild_id=guild_id, page=page, viewer_id=viewer_id)

    def resolve_month(self, text: str | None) -> str:
        """The first day of ``YYYY-MM`` (None: this month); a month before the dailies began
        or still to come is refused."""
        this = date.fromisoformat(self._ctx.today()).replace(day=1)
        if text is None or text.strip().lower() in ("", "month", "this"):
            return this.isoformat()
        word = text.strip()
        if len(word) != 7 or word[4] != "-" or not (word[:4] + word[5:]).isdigit() or not (
            1 <= int(word[5:]) <= 12
        ):
            raise BadRequest(N_("A month is written YYYY-MM, like {month}."),
                             month=f"{this:%Y-%m}")
        first = date(int(word[:4]), int(word[5:]), 1)
        if first > this:
            raise BadRequest(N_("{month} has not begun: its board opens on {first}."),
                             month=word, first=first.isoformat())
        if first < EPOCH.replace(day=1):
            raise BadRequest(N_("The dailies began in {epoch}: there is no board for {month}."),
                             epoch=f"{EPOCH:%Y-%m}", month=word)
        return first.isoformat()

    async def period(
        self,
        span: str,
        game: str,
        variant: str | None,
        day: str,
        *,
        guild_id: int | None = None,
        page: int = 0,
        viewer_id: int | None = None,
    ) -> PeriodBoard:
        """A page of the ``span`` (``week`` or ``month``) holding ``day``."""
        engine = check_game(game)
        variant = check_variant(engine, variant)
        if span not in SPAN_OF:
            raise BadRequest(N_("A period board is a week's or a month's."))
        first, last = SPAN_OF[span](check_day(day))
        if guild_id is not None:
            check_id(guild_id, "server")
        page = max(0, int(page))
        args = (span, engine.key, variant, first, guild_id, viewer_id)
        lines, size, own, age = await self._ctx.store.read(_period_tx, *args, page,
                                                           replica=True)
        pages = max(1, -(-size // PAGE_SIZE))
        if page >= pages:
            page = pages - 1
            lines, size, own, age = await self._ctx.store.read(_period_tx, *args, page,
                                                               replica=True)
        return PeriodBoard(span, engine.key, variant, first, last, guild_id, age, lines, size,
                           page, pages, own, self._daily.is_closed(last))

    async def remember_name(self, user_id: int, name: str) -> None:
        """Keep the name a player is listed (and ordered) by on boards."""
        user_id = check_id(user_id, "user")
        await self._ctx.store.write(keep_name, user_id, listed_as(user_id, name),
                                    self._ctx.now())

    def closes_at(self, day: str) -> datetime:
        return closes_at(day)


# ----- transactions -------------------------------------------------------------------------


def _board_tx(
    tx: Tx, game: str, variant: str, day: str, guild_id: int | None, page: int,
    viewer_id: int | None,
) -> tuple[list[BoardLine], int, BoardLine | None, int]:
    age = 0
    if guild_id is not None:
        age = GuildSettings.parse(tx.guild_settings(guild_id)).min_account_age
    where = BoardFilter(game, variant, day, guild_id, max_owner_id(day, age))
    lines = tx.board(where, PAGE_SIZE, page * PAGE_SIZE)
    own = None
    if viewer_id is not None and all(line.owner_id != viewer_id for line in lines):
        own = tx.board_line(where, viewer_id)
    return lines, tx.board_size(where), own, age


def _standing_tx(
    tx: Tx, owner_id: int, game: str, variant: str, day: str, guild_id: int | None
) -> Standing:
    world = BoardFilter(game, variant, day)
    server_line, server_size = None, 0
    if guild_id is not None:
        age = GuildSettings.parse(tx.guild_settings(guild_id)).min_account_age
        server = BoardFilter(game, variant, day, guild_id, max_owner_id(day, age))
        server_line, server_size = tx.board_line(server, owner_id), tx.board_size(server)
    return Standing(server_line, server_size, tx.board_line(world, owner_id),
                    tx.board_size(world))


def _record_tx(
    tx: Tx, user_id: int, game: str, since: str, wins: frozenset[str]
) -> tuple[GameStats, list[Streak], list[DayMark]]:
    return tx.game_stats(user_id, game, wins), tx.streaks(user_id, game), tx.daily_marks(
        user_id, game, since, wins
    )


def _prior_best_tx(
    tx: Tx, owner_id: int, game: str, variant: str, run_id: int, finished_at: str
) -> PriorBest:
    return tx.prior_best(owner_id, game, variant, run_id, finished_at)


def _contests_tx(tx: Tx, user_id: int, game: str) -> tuple[ChallengeStats, list[SeriesBest]]:
    return tx.challenge_stats(user_id, game), tx.series_best(user_id, game)


def period_filter(
    tx: Tx, span: str, game: str, variant: str, first: str, guild_id: int | None
) -> tuple[PeriodFilter, int]:
    """The filter of a period's board, and the server's minimum account age (0: none)."""
    age = 0
    if guild_id is not None:
        age = GuildSettings.parse(tx.guild_settings(guild_id)).min_account_age
    return PeriodFilter(span, game, variant, first, guild_id, max_owner_id(first, age)), age


def _period_tx(
    tx: Tx, span: str, game: str, variant: str, first: str, guild_id: int | None,
    viewer_id: int | None, page: int,
) -> tuple[list[PeriodLine], int, PeriodLine | None, int]:
    where, age = period_filter(tx, span, game, variant, first, guild_id)
    lines = tx.period_page(where, PAGE_SIZE, page * PAGE_SIZE)
    own = None
    if viewer_id is not None and all(line.owner_id != viewer_id for line in lines):
        own = tx.period_line(where, viewer_id)
    return lines, tx.period_size(where), own, age


# ----- how a board line reads (every adapter says these in its reader's language) ----------


def listed_name(line: BoardLine | PeriodLine | RatingLine) -> Message:
    """The name a board line shows: "a player" for one who chose not to be named on the
    global boards, "player <id>" for one nobody knows a name for, else the kept name."""
    if line.hidden:
        return Message(HIDDEN_NAME)
    if line.name:
        return Message(AS_GIVEN, {"name": line.name})
    return Message(UNNAMED, {"id": line.owner_id})


def score_shown(line: BoardLine) -> Message | str:
    """A line's score text (the engine's phrase, else the number), and "(resigned)" after a
    resigned run's."""
    score: Message | str = line.score_text or str(line.score)
    if line.status == "resigned":
        return Message(RESIGNED_SCORE, {"score": score})
    return score
