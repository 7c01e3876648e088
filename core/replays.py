"""Replays: any finished ranked daily of a closed day, step by step, with its turning point.

- **Who may replay what.** A daily run once its day is closed (01:00 UTC the day after) and
  the run is finished: ranked runs by anyone, an unranked one only by its player. Never an
  open day's run, so nobody replays today's deal; never another kind of run.
- **Steps.** Step 0 is the deal; step ``k`` is the table after the ``k``-th move, with that
  move (as its button read) and its events. The states are replayed from the seed and the
  logged moves, through the engine.
- **Turning point.** The move after which the player's best reachable score fell the most:
  ``rules.solver.best_along`` (perfect information, :data:`TURN_BUDGET_PER_STEP` nodes a
  step) then ``turning_point`` and ``turning_text``. It is worked out in the ``interactive``
  worker process the first time the run is replayed, and kept in the database.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from core.context import Context
from core.daily import closes_at, day_number
from core.errors import N_, Refusal
from core.model import Run, RunKind
from core.runs import Runs
from core.workers import INTERACTIVE, Workers
from rules import GAMES, native
from rules.solver import best_along, turning_point, turning_text
from rules.words import Phrase
from store.base import TurnRow, Tx

log = logging.getLogger(__name__)

#: Nodes per step of a run for its turning point (a run of 60 moves: about 5 s on one core).
TURN_BUDGET_PER_STEP = 1_200
#: Native nodes a step's budget node buys where the game has a native search: a fifth of a
#: par's scale for Donsol and Scoundrel (50), under a third of Clear's (35), still ten times
#: the nodes the reference search visits; the first /replay then waits less than it did
#: before the native searches (README, "Hints and turning points").
TURN_NATIVE_SCALE = 10


class ReplayRefused(Refusal):
    """A run that cannot be replayed (yet), with the reason in one sentence."""


@dataclass(frozen=True)
class Step:
    """One step of a replay: the public view of the table, the move that led there (None at
    step 0) with its label, and the run's turning point."""

    run: Run
    number: int  # 0: the deal
    total: int  # the run's moves
    view: dict[str, Any]
    action: str | None
    label: str | None
    turn: TurnRow | None

    @property
    def is_turning_point(self) -> bool:
        return self.turn is not None and self.turn.step == self.number


def compute_turn(
    game: str, variant: str, seed: int, deck: list[str] | None, actions: list[str],
    budget_per_step: int,
) -> tuple[int | None, str, int]:
    """``(step, sentence, nodes)`` of a transcript's turning point (in a worker process);
    ``step`` is 1-based, None when the best reachable never fell."""
    bests = best_along(game, variant, seed, actions, deck,
                       budget_nodes_per_step=native.budget_for(game, budget_per_step,
                                                               TURN_NATIVE_SCALE))
    nodes = sum(b.nodes for b in bests)
    where = turning_point(bests)
    if where is None:
        never = Phrase(N_("No move cost anything: the best reachable stayed {score} to the end."),
                       score=bests[0].text)
        return None, never, nodes
    engine = GAMES[game]
    state = engine.new(seed, variant, deck)
    for action in actions[:where]:
        state = engine.apply(state, action)
    label = engine.label(engine.view(state), actions[where])
    return where + 1, turning_text(label, bests[where], bests[where + 1]), nodes


class Replays:
    """Replaying finished dailies of closed days."""

    def __init__(
        self,
        ctx: Context,
        runs: Runs,
        workers: Workers,
        *,
        budget_per_step: int = TURN_BUDGET_PER_STEP,
    ) -> None:
        self._ctx = ctx
        self._runs = runs
        self._workers = workers
        self.budget_per_step = budget_per_step
        #: Turning points being worked out, by run: asked again meanwhile (the viewer's next
        #: step), the same work is awaited, not queued again in the worker every hint waits on.
        self._turning: dict[int, asyncio.Future[TurnRow]] = {}

    async def check(self, run_id: int, viewer_id: int) -> Run:
        """The run, if ``viewer_id`` may replay it now; else ``ReplayRefused`` saying why
        (``RunNotFound`` for no such run)."""
        run = await self._runs.get(run_id)
        if run.kind is not RunKind.DAILY:
            raise ReplayRefused(N_("Run #{run} is not a daily: only dailies can be replayed."),
                                run=run.id)
        assert run.day is not None
        name = f"{run.title} #{day_number(run.day)}"
        closes = closes_at(run.day)
        if self._ctx.clock() < closes:
            raise ReplayRefused(
                N_("{name} is still open: its runs can be replayed once its boards close, at "
                   "{when}, so nobody replays today's deal."),
                name=name, when=f"{closes:%Y-%m-%d %H:%M} UTC",
            )
        if not run.over:
            raise ReplayRefused(N_("Run #{run} is not finished, so there is nothing to replay."),
                                run=run.id)
        if not run.ranked and run.owner_id != viewer_id:
            raise ReplayRefused(
                N_("Run #{run} is not ranked on {name}'s board: only its player can replay it."),
                run=run.id, name=name,
            )
        return run

    async def step(self, run_id: int, viewer_id: int, number: int) -> Step:
        """Step ``number`` (clamped to the run's moves) of a run the viewer may replay."""
        run = await self.check(run_id, viewer_id)
        moves = await self._runs.moves(run.id)
        actions = moves[: run.moves]
        number = max(0, min(int(number), len(actions)))
        engine = run.engine
        state = engine.new(run.seed, run.variant, run.deck)
        before = state
        for action in actions[:number]:
            before, state = state, engine.apply(state, action)
        action = actions[number - 1] if number else None
        label = engine.label(engine.view(before), action) if action is not None else None
        turn = await self._ctx.store.read(_turn_tx, run.id)
        return Step(run, number, len(actions), engine.view(state), action, label, turn)

    async def turn(self, run_id: int, viewer_id: int) -> TurnRow:
        """The run's turning point: kept, or worked out now (in the worker) and kept."""
        run = await self.check(run_id, viewer_id)
        store = self._ctx.store
        kept = await store.read(_turn_tx, run.id)
        if kept is not None:
            return kept
        pending = self._turning.get(run.id)
        if pending is None:
            pending = asyncio.ensure_future(self._work_out(run))
            self._turning[run.id] = pending
            pending.add_done_callback(lambda _: self._turning.pop(run.id, None))
        # Shielded: a viewer who leaves does not cancel the work others wait for.
        return await asyncio.shield(pending)

    async def _work_out(self, run: Run) -> TurnRow:
        store = self._ctx.store
        actions = (await self._runs.moves(run.id))[: run.moves]
        step, text, nodes = await self._workers.run(
            INTERACTIVE, compute_turn, run.game, run.variant, run.seed,
            None if run.deck is None else list(run.deck), actions, self.budget_per_step,
        )
        row = TurnRow(run.id, step, text, nodes, self._ctx.now())
        log.info("run %s: turning point %s (%d nodes)", run.id, step, nodes)
        return await store.write(_insert_turn_tx, row)


def _turn_tx(tx: Tx, run_id: int) -> TurnRow | None:
    return tx.turn(run_id)


def _insert_turn_tx(tx: Tx, row: TurnRow) -> TurnRow:
    tx.insert_turn(row)
    kept = tx.turn(row.run_id)
    assert kept is not None
    return kept
