"""Par: how well each closed day's deal could have been played, solved once and kept.

Once a day closes (01:00 UTC the day after) its seeds are public, and the solver
(``rules.solver``, perfect information) finds the best score each deal allows — for every
game and variant. :meth:`Pars.run_due` does one pass: each of the latest :data:`PAR_DAYS`
closed days whose deals have no par yet is solved in the ``background`` worker process (never
on the event loop), one deal at a time, with a node budget (:func:`par_budget`), and the
answer stored. A search cut short stores its best line as a lower bound ("at least …").

The bot's loop calls it every few minutes with the core's clock; a pass after a restart
catches up on the days missed. With several bot processes the pass runs under
``store.singleton`` and each deal is stored once (``ON CONFLICT DO NOTHING``), so it is
solved in one process only.

A day whose dailies were played under rules this bot no longer has is not solved (the par
would be another game's); it is logged and left without a par.

Players "reach par" with a finished daily whose score is at least the par, compared as lists
like the boards compare them (so a lower bound is reached by matching the line found).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from core.checks import check_day, check_game, check_id, check_variant
from core.clock import utc
from core.context import Context
from core.daily import Daily, closes_at
from core.rankings import Leaderboard, max_owner_id
from core.settings import GuildSettings
from core.workers import BACKGROUND, Workers
from rules import GAMES
from rules.solver import solve
from rules.words import N_, Phrase
from store import singleton
from store.base import BoardFilter, ParRecord, ParRow, Tx

log = logging.getLogger(__name__)

#: Nodes per deal, in the reference (Python) search's nodes: about 40 s on one core of this
#: machine for the Python search (15,000 nodes/s, bench/solver.py); a native search gets its
#: ``scale`` of its own nodes for each (rules/native.py). A node budget rather than seconds,
#: so every process finds the same par for a deal.
PAR_BUDGET_NODES = 600_000
#: Games whose par gets another budget than :data:`PAR_BUDGET_NODES` (same units).
PAR_BUDGET_BY_GAME: dict[str, int] = {}
#: Only the latest closed days are solved: a bot back after a long outage does not work
#: through its whole history.
PAR_DAYS = 3


@dataclass(frozen=True)
class ParStanding:
    """A day's par and how many players of a board (or of everyone) reached it."""

    par: ParRow
    reached: int
    ranked: int

    @property
    def text(self) -> str:
        """``Par: won with 14 HP (exact)``, or ``Par: at least 48/54 cards``."""
        return par_text(self.par)


def par_text(par: ParRow) -> str:
    """The par as a player reads it; a lower bound says so through the solver's own words."""
    return Phrase(N_("Par: {score} (exact)") if par.exact else N_("Par: {score}"),
                  score=par.score_text)


def par_budget(game: str) -> int:
    """The node budget of one deal's par for ``game`` (the same on every process)."""
    return PAR_BUDGET_BY_GAME.get(game, PAR_BUDGET_NODES)


def solve_deal(game: str, variant: str, seed: int, budget_nodes: int) -> dict[str, Any]:
    """Solve one deal (in a worker process): the answer as plain data."""
    start = time.process_time()
    found = solve(game, seed, variant, budget_nodes=budget_nodes)
    return {
        "score": list(found.score), "text": found.text, "won": found.won,
        "exact": found.exact, "actions": list(found.actions), "nodes": found.nodes,
        "seconds": time.process_time() - start,
    }


class Pars:
    """Solving closed days' deals, and the par on boards and in stats."""

    def __init__(
        self,
        ctx: Context,
        daily: Daily,
        workers: Workers,
        *,
        budget_nodes: int | None = None,
        days: int = PAR_DAYS,
    ) -> None:
        self._ctx = ctx
        self._daily = daily
        self._workers = workers
        self.budget_nodes = budget_nodes
        self.days = days

    def due_days(self, now: datetime) -> list[str]:
        """The latest :attr:`days` closed days at ``now``, oldest first."""
        now = utc(now)
        latest = now.date()
        while closes_at(latest.isoformat()) > now:
            latest -= timedelta(days=1)
        return [(latest - timedelta(days=k)).isoformat() for k in range(self.days - 1, -1, -1)]

    async def run_due(self, now: datetime | None = None) -> list[ParRow]:
        """Solve and store every due deal without a par; the pars stored by this pass."""
        now = now or self._ctx.clock()
        stored: list[ParRow] = []
        async with singleton(self._ctx.store, "solve-par") as mine:
            if not mine:
                return stored
            for day in self.due_days(now):
                for game, engine in GAMES.items():
                    for variant in engine.variants:
                        try:
                            par = await self._solve(game, variant, day)
                        except Exception:  # one deal's failure holds none of the others up
                            log.exception("par of %s %s %s: the solver failed; tried again "
                                          "next pass", game, variant, day)
                            continue
                        if par is not None:
                            stored.append(par)
        return stored

    async def _solve(self, game: str, variant: str, day: str) -> ParRow | None:
        store = self._ctx.store
        engine = GAMES[game]
        known, pinned = await store.read(_known_tx, game, variant, day)
        if known:
            return None
        if pinned is not None and pinned != engine.rules_tag:
            log.info("par of %s %s %s: its dailies were played under rules %s and this bot "
                     "has %s; not solved", game, variant, day, pinned, engine.rules_tag)
            return None
        seed = await self._daily.seed(game, variant, day)
        budget = self.budget_nodes if self.budget_nodes is not None else par_budget(game)
        found = await self._workers.run(BACKGROUND, solve_deal, game, variant, seed, budget)
        par = ParRow(
            game=game, variant=variant, day=day, rules=engine.rules_tag, score=found["score"],
            score_text=found["text"], won=found["won"], exact=found["exact"],
            actions=found["actions"], nodes=found["nodes"], seconds=found["seconds"],
            solved_at=self._ctx.now(),
        )
        if not await store.write(_insert_tx, par):
            return None  # another process stored it first
        log.info("par of %s %s %s: %s (%s, %d nodes, %.1f s)", game, variant, day,
                 par.score_text, "exact" if par.exact else "lower bound", par.nodes,
                 par.seconds)
        return par

    async def get(self, game: str, variant: str | None, day: str) -> ParRow | None:
        """The day's par, if solved."""
        engine = check_game(game)
        return await self._ctx.store.read(
            _par_tx, engine.key, check_variant(engine, variant), check_day(day)
        )

    async def of_day(self, game: str, variant: str | None, day: str) -> ParStanding | None:
        """The day's par and how many ranked players, worldwide, reached it (None before it is
        solved; a day still open has none)."""
        engine = check_game(game)
        variant = check_variant(engine, variant)
        day = check_day(day)
        if not self._daily.is_closed(day):
            return None
        return await self._ctx.store.read(_standing_tx, engine.key, variant, day, None)

    async def on_board(self, board: Leaderboard) -> ParStanding | None:
        """The par of a closed board's day and how many on that board reached it."""
        if not board.closed:
            return None
        return await self._ctx.store.read(
            _standing_tx, board.game, board.variant, board.day, board.guild_id
        )

    async def record(self, user_id: int, game: str) -> ParRecord:
        """How many of the player's finished dailies of ``game`` have a par, and how many of
        them reached it."""
        engine = check_game(game)
        return await self._ctx.store.read(_record_tx, check_id(user_id, "user"), engine.key)


# ----- transactions -------------------------------------------------------------------------


def _known_tx(tx: Tx, game: str, variant: str, day: str) -> tuple[bool, str | None]:
    return tx.par(game, variant, day) is not None, tx.meta(f"rules:{game}:{day}")


def _insert_tx(tx: Tx, par: ParRow) -> bool:
    return tx.insert_par(par)


def _par_tx(tx: Tx, game: str, variant: str, day: str) -> ParRow | None:
    return tx.par(game, variant, day)


def _standing_tx(
    tx: Tx, game: str, variant: str, day: str, guild_id: int | None
) -> ParStanding | None:
    par = tx.par(game, variant, day)
    if par is None:
        return None
    age = 0
    if guild_id is not None:
        age = GuildSettings.parse(tx.guild_settings(guild_id)).min_account_age
    where = BoardFilter(game, variant, day, guild_id, max_owner_id(day, age))
    return ParStanding(par, tx.board_reached(where, par.score), tx.board_size(where))


def _record_tx(tx: Tx, user_id: int, game: str) -> ParRecord:
    return tx.par_record(user_id, game)
