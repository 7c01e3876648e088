"""The daily: one deal per game, variant and UTC day for every player in the world.

- **Seeds.** A day's seed is ``HMAC-SHA256(secret, "<game>/<variant>/<YYYY-MM-DD>")``'s first
  8 bytes (``rules.deal.daily_seed``); its commitment (SHA-256 of the seed) is public from the
  start, the seed itself only once the day is closed.
- **Day numbers.** Per game, 2026-12-01 is #1.
- **The day's life.** Day D's deal opens at D 00:00 UTC. A run of it may be finished until
  D+1 01:00 UTC and still rank; at 01:00 the day closes, its boards are final and its seed is
  revealed. Runs unfinished then can still be played to the end, unranked. No seed is
  revealed while a run of its deal can still rank.
- **One run per player, game, variant and day**, across every server and DM (a unique key in
  the store); asking again brings the same run back.
- **Rules versions.** The first daily of a day pins the game's rules version for that day. A
  bot upgraded mid-day with other rules refuses that day's daily with a clear sentence
  instead of mixing versions on one board; the new rules reach the daily from the next day.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from core.checks import check_day, check_game, check_id, check_variant
from core.context import Context
from core.errors import N_, AlreadyPlayed, BadRequest
from core.model import Run, RunKind, RunStatus
from core.names import keep_name, listed_as
from core.recap import run_result_line
from core.runs import Runs, insert_run, load
from rules.deal import commitment, daily_seed
from store.base import Conflict, NewRun, Tx

#: Day #1 of every game's daily.
EPOCH = date(2026, 12, 1)
#: How long after midnight a run of the day before may still be finished and rank.
GRACE = timedelta(hours=1)
SECRET_KEY = "daily_secret"
#: The meta key that records where a run's share line was posted (``share:<run id>``).
SHARE_KEY = "share:{run_id}"


def day_number(day: str) -> int:
    """The day's number: 2026-12-01 is #1."""
    return (date.fromisoformat(day) - EPOCH).days + 1


def day_of_number(number: int) -> str:
    return (EPOCH + timedelta(days=number - 1)).isoformat()


def day_before(day: str) -> str:
    """The day before ``day`` (``YYYY-MM-DD``)."""
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


def opens_at(day: str) -> datetime:
    """When the day's deal opens (00:00 UTC)."""
    return datetime.combine(date.fromisoformat(day), time(0), tzinfo=UTC)


def closes_at(day: str) -> datetime:
    """When the day's boards become final and its seed is revealed (01:00 UTC the day after)."""
    return opens_at(day) + timedelta(days=1) + GRACE


def next_deal_at(today: str) -> datetime:
    """When the next day's deal opens."""
    return opens_at(today) + timedelta(days=1)


def ranking_window(run: Run, now: str) -> bool:
    """Whether a run ending at ``now`` may rank (its replay is checked besides).

    A daily ranks only if it ends before its day closes (resigned ones too: they appear on
    the board as resigned, with their score so far). A resigned practice run never ranks.
    """
    if run.kind is RunKind.DAILY:
        assert run.day is not None
        return datetime.fromisoformat(now) < closes_at(run.day)
    return run.status is not RunStatus.RESIGNED


@dataclass(frozen=True)
class DailyStart:
    """What ``/daily`` gets: the run, whether it was dealt just now, and the id of the
    player's daily of the same game and variant the day before (None: they had none), which
    the look back it opens with starts from (``core.lookback``)."""

    run: Run
    created: bool
    yesterday: int | None = None


class Daily:
    """Daily seeds, commitments and runs."""

    def __init__(self, ctx: Context, runs: Runs, secret: str | None = None) -> None:
        if secret is not None and not secret:
            raise ValueError("the daily secret must not be empty")
        self._ctx = ctx
        self._runs = runs
        self._secret = secret
        #: Today's deals as dealt, by game, variant, day and rules: the same for every player.
        self._dealt: dict[tuple[str, str, str, str], tuple[NewRun, object]] = {}
        #: The day's rules keys seen pinned, and to which rules (a pin never changes once
        #: made): a start under those rules asks the database no more.
        self._pinned: set[tuple[str, str]] = set()

    async def secret(self) -> str:
        """The secret daily seeds derive from: given at start, or generated once and kept in
        the database."""
        if self._secret is None:
            fresh = secrets.token_hex(32)
            self._secret = await self._ctx.store.write(_add_meta, SECRET_KEY, fresh)
        return self._secret

    def today(self) -> str:
        return self._ctx.today()

    def is_closed(self, day: str) -> bool:
        return self._ctx.clock() >= closes_at(check_day(day))

    async def seed(self, game: str, variant: str | None, day: str) -> int:
        """The day's seed, whether revealed or not (for the core's own use)."""
        engine = check_game(game)
        return daily_seed(await self.secret(), engine.key, check_variant(engine, variant),
                          check_day(day))

    async def commitment(self, game: str, variant: str | None, day: str) -> str:
        """The day's commitment: public from the start."""
        return commitment(await self.seed(game, variant, day))

    async def revealed_seed(self, game: str, variant: str | None, day: str) -> int:
        """The day's seed once the day is closed; ``BadRequest`` saying when, before."""
        day = check_day(day)
        if not self.is_closed(day):
            when = closes_at(day).strftime("%Y-%m-%d %H:%M UTC")
            raise BadRequest(
                N_("The seed of {day} is revealed when its boards close, at {when}: runs of "
                   "that deal can still rank until then."), day=day, when=when,
            )
        return await self.seed(game, variant, day)

    async def start(
        self,
        owner_id: int,
        game: str,
        variant: str | None = None,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        name: str | None = None,
    ) -> DailyStart:
        """Today's run of ``game``: the one the player has, or a new one on today's deal.

        ``name`` (the player's, as the boards list them) is kept in the same transaction,
        which also finds their daily of the day before (``DailyStart.yesterday``): a start is
        one durable commit."""
        engine = check_game(game)
        variant = check_variant(engine, variant)
        day = self.today()
        key = (engine.key, variant, day, engine.rules_tag)
        dealt = self._dealt.get(key)
        if dealt is None:
            seed = daily_seed(await self.secret(), engine.key, variant, day)
            new = self._runs.deal(
                owner_id, engine.key, variant, guild_id=guild_id, channel_id=channel_id,
                seed=seed, day=day, kind=RunKind.DAILY,
            )
            if any(kept[2] != day for kept in self._dealt):
                self._dealt.clear()  # only today's deals are kept
                self._pinned.clear()
            self._dealt[key] = new
        else:
            new = self._runs.redeal(dealt, owner_id, guild_id=guild_id, channel_id=channel_id)
        named = None if name is None else listed_as(new[0].owner_id, name)
        pin = (f"rules:{engine.key}:{day}", new[0].rules)
        started = await self._ctx.store.write(
            _start_tx, new, None if pin in self._pinned else pin[0], named)
        if started.created:  # its rules were pinned, or found so
            self._pinned.add(pin)
        self._ctx.known.put(started.run)
        return started

    async def start_new(
        self,
        owner_id: int,
        game: str,
        variant: str | None = None,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Run:
        """Start today's daily; ``AlreadyPlayed`` (with the run) if the player has one."""
        started = await self.start(
            owner_id, game, variant, guild_id=guild_id, channel_id=channel_id
        )
        if not started.created:
            raise AlreadyPlayed(started.run)
        return started.run

    async def played(self, owner_id: int, game: str, variant: str | None = None,
                     day: str | None = None) -> int | None:
        """The id of the player's daily of that game, variant and day (today by default),
        finished or not; None when they have not started it. Reads only: nothing is dealt."""
        return (await self.played_each(owner_id, [(game, variant)], day))[0]

    async def played_each(self, owner_id: int, games: Sequence[tuple[str, str | None]],
                          day: str | None = None) -> list[int | None]:
        """:meth:`played` for several ``(game, variant)`` pairs at once, in one read."""
        asked = []
        for game, variant in games:
            engine = check_game(game)
            asked.append((engine.key, check_variant(engine, variant)))
        day = self.today() if day is None else check_day(day)
        return await self._ctx.store.read(_daily_runs_tx, check_id(owner_id, "user"), asked, day)

    async def practise(
        self,
        owner_id: int,
        game: str,
        variant: str | None,
        day: str,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Run:
        """A practice run on a closed day's deal: unranked, apart from the daily and streaks."""
        seed = await self.revealed_seed(game, variant, day)
        return await self._runs.start(
            owner_id, game, variant, guild_id=guild_id, channel_id=channel_id, seed=seed,
            day=check_day(day),
        )

    async def result_line(self, run: Run, player: str | None = None) -> str:
        """The run's public, spoiler-free share line (``core.recap``): ``player``'s name, the
        game and day number, outcome and score, one square per room, turn or hand, the
        legend of those squares and the invitation to play the deal."""
        assert run.day is not None
        moves = await self._runs.moves(run.id)
        return await asyncio.to_thread(
            run_result_line, run.game, run.variant, day_number(run.day), run.seed, moves,
            deck=run.deck, resigned=run.status is RunStatus.RESIGNED, player=player,
        )

    async def claim_share(self, run: Run, where: str) -> str | None:
        """Record that ``run``'s share line goes to ``where`` (a channel mention), at most
        once per run: None when this claim is the first, else where it went before. Claimed
        before posting, as the daily post is: a line is lost rather than posted twice."""
        # A token of this claim's own: of two clicks at once, only the one whose value was
        # stored wins (the insert is "if absent" in both databases).
        mine = f"{where}\n{secrets.token_hex(8)}"
        stored = await self._ctx.store.write(_add_meta, SHARE_KEY.format(run_id=run.id), mine)
        return None if stored == mine else stored.split("\n")[0]


def _start_tx(tx: Tx, new: tuple[NewRun, object], rules_key: str | None,
              name: str | None) -> DailyStart:
    """Today's daily of the player of ``new``, or ``new`` stored. ``rules_key``: the meta key
    that pins the day's rules, to pin or check (None: known to hold ``new``'s rules)."""
    row, state = new
    assert row.day is not None
    if name is not None:
        keep_name(tx, row.owner_id, name, row.now)  # queued: it goes with the next statement
    existing, yesterday = tx.daily_and_before(row.owner_id, row.game, row.variant, row.day,
                                              day_before(row.day))
    if existing is not None:
        return DailyStart(load(tx, existing, repair=True), created=False, yesterday=yesterday)
    pinned = row.rules if rules_key is None else tx.add_meta(rules_key, row.rules)
    if pinned != row.rules:
        raise BadRequest(
            N_("Today's {game} daily is played under rules {rules}, which this version of "
               "the bot no longer has; the daily returns with the new rules tomorrow."),
            game=row.game, rules=pinned,
        )
    try:
        return DailyStart(insert_run(tx, row, state), created=True, yesterday=yesterday)
    except Conflict:  # pragma: no cover - the check above runs in the same write transaction
        existing = tx.daily_run(row.owner_id, row.game, row.variant, row.day)
        assert existing is not None
        return DailyStart(load(tx, existing, repair=True), created=False, yesterday=yesterday)


def _daily_runs_tx(tx: Tx, owner_id: int, games: list[tuple[str, str]], day: str,
                   ) -> list[int | None]:
    runs = [tx.daily_run(owner_id, game, variant, day) for game, variant in games]
    return [None if row is None else row.id for row in runs]


def _add_meta(tx: Tx, key: str, value: str) -> str:
    return tx.add_meta(key, value)

