"""What each day taught you: a closed day's look back at a player's daily, and the stats card's
figures.

- **Never before the close.** A day's look back exists only once the day has closed (01:00
  UTC the day after, ``core.daily.closes_at``): par is solved with every card known, and the
  day's best and percentile would say how the deal plays while it can still rank.
- **Against par** (``core.par``), on the part of the score that ``/stats`` averages (the
  engine's ``stat``: cards, monsters slain, points). A score that reaches par (compared as
  lists, like the boards) is 100%. Below it, the percentage is ``100 × mine / par`` of that
  part, rounded down and at most 99% (so 100% always means par reached). When par's part is
  0 or less, or mine is negative (Scoundrel's deaths), a percentage means nothing: the gap is
  said in the stat's unit instead ("25 points below par"). A par that is only a lower bound
  (the solver was cut short) makes every percentage an upper bound: "at most 92% of par",
  "at least 25 points below par". The day's best score is a lower bound on par too, so a
  bound par is raised to it when the best is higher.
- **Percentile** among the day's global board (the ranked dailies of that game and variant):
  the share of the *other* ranked players whose score is strictly lower, rounded down: a tie
  beats nobody it ties with. An unranked run (finished after the close) is compared with
  every ranked player. Alone on the board, there is no percentile.
- **Turning point** (``core.replays``): the one kept for the run, or worked out in the
  ``interactive`` worker when asked for (``/replay``, ``/stats day:``); ``/daily`` never
  waits for it.
- **The stats card's figures**: every finished daily's stat part (the histogram), the last
  :data:`CARD_WEEKS` weeks of days played, frozen or missed, and the ratings with their trend.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from core.checks import check_day, check_game, check_id, check_variant
from core.context import Context
from core.daily import (
    EPOCH,
    Daily,
    DailyStart,
    closes_at,
    day_before,
    day_number,
    day_of_number,
)
from core.errors import N_, Phrase, Refusal
from core.freezes import walk
from core.model import Run, RunKind
from core.ratings import PlayerRating, Ratings
from core.replays import Replays
from core.runs import Runs
from rules import GAMES
from rules.engine import Game
from store.base import BoardFilter, BoardLine, ParRow, RunRow, TurnRow, Tx

log = logging.getLogger(__name__)

#: The weeks of days the stats card's calendar shows.
CARD_WEEKS = 12


class NoLookBack(Refusal):
    """A look back that cannot be shown (an open or future day, no run), in one sentence."""


def of_par(engine: Game[Any], score: Sequence[int], par: Sequence[int], *, exact: bool) -> str:
    """The score against par as a player reads it: ``92% of par``, ``at most 92% of par`` (a
    bound), ``25 points below par`` (see the module's docstring); a phrase the adapter says
    in the reader's language."""
    index, _ = engine.stat
    if list(score) >= list(par):
        return Phrase(N_("{share} of par") if exact else N_("at most {share} of par"),
                      share=percent(100))
    mine, best = score[index], par[index]
    if best > 0 and mine >= 0:
        share = min(99, 100 * mine // best)
    else:
        gap = best - mine
        if gap > 0:
            return Phrase(N_("{gap} below par") if exact
                          else N_("at least {gap} below par"), gap=engine.stat_text(gap))
        share = 99  # the stat part matches; a later part of the score fell short
    return Phrase(N_("{share} of par") if exact else N_("at most {share} of par"),
                  share=percent(share))


def percent(value: int) -> Phrase:
    """``92%`` as each language writes a percentage (``92 %`` in French). The sign is a field
    of its own so that no template holds ``% o``, which gettext's tools read as a C format."""
    return Phrase(N_("{percent}%"), percent=value)


def better_than(below: int, others: int) -> int | None:
    """The percentile: the share (%, rounded down) of ``others`` scoring strictly lower."""
    if others <= 0:
        return None
    return 100 * below // others


@dataclass(frozen=True)
class LookBack:
    """A closed day's look back at one finished daily."""

    run_id: int
    game: str
    variant: str
    day: str
    score_text: str
    par: ParRow | None
    against_par: str | None  # None while the day has no par yet
    ranked: int  # players on the day's global board
    below: int  # of them, scoring strictly lower than this run
    others: int  # the players this run is compared with
    best: BoardLine | None
    turn: TurnRow | None

    @property
    def name(self) -> str:
        return Phrase(N_("{game} #{number}"), game=GAMES[self.game].title,
                      number=day_number(self.day))

    @property
    def percentile(self) -> int | None:
        return better_than(self.below, self.others)

    @property
    def percentile_text(self) -> str:
        found = self.percentile
        if found is None:
            return Phrase(N_("the only ranked player"))
        if self.below == self.others:
            return Phrase(N_("better than everyone else"))
        return Phrase(N_("better than {share}%"), share=found)

    @property
    def best_text(self) -> str | None:
        return None if self.best is None else self.best.score_text

    @property
    def turn_text(self) -> str | None:
        """``turning point move 7``, ``no move cost anything``, or None (not worked out)."""
        if self.turn is None:
            return None
        return (Phrase(N_("turning point move {step}"), step=self.turn.step)
                if self.turn.step is not None else Phrase(N_("no move cost anything")))

    def parts(self) -> list[str]:
        """The look back's short parts, in reading order."""
        parts = [self.against_par or Phrase(N_("par not solved yet")), self.percentile_text]
        if self.best_text is not None:
            parts.append(Phrase(N_("best {score}"), score=self.best_text))
        if self.turn_text is not None:
            parts.append(self.turn_text)
        return parts

    def line(self) -> str:
        """``92% of par · better than 71% · best won with 14 HP · turning point move 7``."""
        return " · ".join(self.parts())


@dataclass(frozen=True)
class CardFigures:
    """What the stats card draws for one game: the stat part of every finished daily, the
    calendar's days (oldest first: ``played``, ``frozen`` or ``missed``; today ``today``
    unless played) and the player's ratings."""

    game: str
    unit: str
    points: list[int]
    calendar: list[tuple[str, str]]
    ratings: list[PlayerRating]

    @property
    def key(self) -> tuple[Any, ...]:
        """What the picture depends on (the cache's key)."""
        return (self.game, self.unit, tuple(self.points), tuple(self.calendar),
                tuple((r.variant, r.rating, r.days, r.trend) for r in self.ratings))


class LookBacks:
    """Closed days' look backs and the stats card's figures."""

    def __init__(
        self, ctx: Context, daily: Daily, runs: Runs, replays: Replays, ratings: Ratings
    ) -> None:
        self._ctx = ctx
        self._daily = daily
        self._runs = runs
        self._replays = replays
        self._ratings = ratings

    async def of_run(self, run: Run, *, work_out_turn: bool = False) -> LookBack | None:
        """The look back of a finished daily whose day has closed; None otherwise. The
        turning point is the kept one, or (``work_out_turn``) worked out now in the worker;
        one that cannot be worked out is left out."""
        if run.kind is not RunKind.DAILY or not run.over or run.day is None:
            return None
        if not self._daily.is_closed(run.day):
            return None
        if work_out_turn:
            try:
                await self._replays.turn(run.id, run.owner_id)
            except Exception:  # the look back is still worth showing without it
                log.warning("run %s: its turning point could not be worked out; the look "
                            "back goes without it", run.id, exc_info=True)
        return await self._ctx.store.read(_look_back_tx, run.id, run.owner_id, run.game,
                                          run.variant, run.day, run.ranked, run.score,
                                          run.view["score_text"])

    async def of_day(
        self, owner_id: int, game: str, variant: str | None, day: str
    ) -> LookBack | None:
        """The look back of the player's daily of that game, variant and day, if they
        finished it and the day has closed."""
        engine = check_game(game)
        variant = check_variant(engine, variant)
        row = await self._ctx.store.read(_daily_tx, check_id(owner_id, "user"), engine.key,
                                         variant, check_day(day))
        if row is None:
            return None
        return await self.of_run(await self._runs.get(row.id))

    async def yesterday(self, owner_id: int, game: str, variant: str | None) -> LookBack | None:
        """The look back ``/daily`` opens with: yesterday's daily of that game and variant."""
        day = (date.fromisoformat(self._ctx.today()) - timedelta(days=1)).isoformat()
        return await self.of_day(owner_id, game, variant, day)

    async def after_start(self, started: DailyStart) -> LookBack | None:
        """:meth:`yesterday` for a daily just started or brought back, from the day before's
        run its start transaction found (``DailyStart.yesterday``): no read at all when the
        player had none, or while that day is open."""
        run = started.run
        if started.yesterday is None or run.day is None:
            return None
        if not self._daily.is_closed(day_before(run.day)):
            return None
        return await self.of_run(await self._runs.get(started.yesterday))

    def resolve_day(self, text: str) -> str:
        """A day as ``/stats day:`` takes it: ``YYYY-MM-DD``, ``today``, ``yesterday``, or a
        day number (``12`` or ``#12``)."""
        word = text.strip().lower()
        if word in ("today", "yesterday"):
            today = date.fromisoformat(self._ctx.today())
            return (today - timedelta(days=1 if word == "yesterday" else 0)).isoformat()
        number = word.removeprefix("#")
        if number.isdigit():
            if not 1 <= int(number) <= 100_000:
                raise NoLookBack(N_("There is no day #{number}: the dailies start at #1 "
                                    "({first})."), number=number, first=EPOCH.isoformat())
            return day_of_number(int(number))
        day = check_day(word)
        if day < EPOCH.isoformat():
            raise NoLookBack(N_("There was no daily on {day}: the dailies start at #1 "
                                "({first})."), day=day, first=EPOCH.isoformat())
        return day

    async def runs_of_day(self, owner_id: int, game: str, day: str, *,
                          player: str | None = None) -> list[Run]:
        """``/stats day:`` — the player's finished dailies of that game and day (one per
        variant played); ``NoLookBack`` saying why there is no look back (a future or still
        open day, no finished run). ``player`` names the player (None: the one who asks)."""
        engine = check_game(game)
        day = check_day(day)
        name = f"{engine.title} #{day_number(day)}"
        if day > self._ctx.today():
            raise NoLookBack(N_("{name} ({day}) has not been dealt yet."), name=name, day=day)
        closes = closes_at(day)
        if not self._daily.is_closed(day):
            raise NoLookBack(
                N_("{name} is still open: its look back comes when its boards close, at "
                   "{when}, so nothing spoils the deal before then."),
                name=name, when=f"{closes:%Y-%m-%d %H:%M} UTC",
            )
        found = []
        for variant in engine.variants:
            row = await self._ctx.store.read(_daily_tx, check_id(owner_id, "user"), engine.key,
                                             variant, day)
            if row is not None:
                run = await self._runs.get(row.id)
                if run.over:
                    found.append(run)
        if not found:
            if player is None:
                raise NoLookBack(N_("You have no finished daily of {name}."), name=name)
            raise NoLookBack(N_("{player} has no finished daily of {name}."),
                             player=player, name=name)
        return found

    async def card(self, owner_id: int, game: str) -> CardFigures:
        """The stats card's figures for one game."""
        engine = check_game(game)
        owner_id = check_id(owner_id, "user")
        today = date.fromisoformat(self._ctx.today())
        days = CARD_WEEKS * 7
        since = (today - timedelta(days=days - 1)).isoformat()
        scores, played, islands = await self._ctx.store.read(
            _card_tx, owner_id, engine.key, since, replica=True
        )
        frozen = walk(islands, today).frozen
        calendar = []
        for k in range(days - 1, -1, -1):
            day = (today - timedelta(days=k)).isoformat()
            if day in played:
                calendar.append((day, "played"))
            elif day in frozen:
                calendar.append((day, "frozen"))
            else:
                calendar.append((day, "today" if k == 0 else "missed"))
        index, unit = engine.stat
        return CardFigures(engine.key, unit, [s[index] for s in scores], calendar,
                           await self._ratings.of_player(owner_id, engine.key))


# ----- transactions -------------------------------------------------------------------------


def _daily_tx(tx: Tx, owner_id: int, game: str, variant: str, day: str) -> RunRow | None:
    return tx.daily_run(owner_id, game, variant, day)


def _look_back_tx(
    tx: Tx, run_id: int, owner_id: int, game: str, variant: str, day: str, ranked: bool,
    score: list[int], score_text: str,
) -> LookBack:
    world = BoardFilter(game, variant, day)
    size = tx.board_size(world)
    at_least = tx.board_reached(world, score)  # this run among them when ranked
    top = tx.board(world, 1, 0)
    best = top[0] if top else None
    mine = tx.board_line(world, owner_id) if ranked else None
    if mine is not None:
        score_text = mine.score_text  # as the board reads it (a resignation says so)
    par = tx.par(game, variant, day)
    against = None
    if par is not None:
        bound = par.score
        if not par.exact and best is not None and best.score > bound:
            bound = best.score  # a player's line is a lower bound on par too
        against = of_par(GAMES[game], score, bound, exact=par.exact)
    return LookBack(
        run_id=run_id, game=game, variant=variant, day=day, score_text=score_text, par=par,
        against_par=against, ranked=size, below=size - at_least,
        others=size - 1 if ranked else size, best=best, turn=tx.turn(run_id),
    )


def _card_tx(
    tx: Tx, owner_id: int, game: str, since: str
) -> tuple[list[list[int]], set[str], list[Any]]:
    marks = tx.daily_marks(owner_id, game, since, ())
    return tx.daily_scores(owner_id, game), {m.day for m in marks}, tx.streaks(owner_id, game)
