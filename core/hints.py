"""Hints for practice runs: a good move chosen from what the player can know, and why.

The move is ``rules.hints.hint``'s: it samples the order of the cards the player has not seen
(it never reads the real one) and scores each legal move over those worlds with the solver.
It runs in the ``interactive`` worker process with a budget of about a second
(:data:`HINT_BUDGET`), and its random draws are seeded by the run and its move count, so the
same position always gets the same hint.

Only practice runs get hints: a daily, a challenge or a series is played unaided. A run that
got a hint is marked ``hinted`` (``Runs.mark_hinted``, which also bumps its version: the board
shown must be redrawn with the new one).
"""

from __future__ import annotations

import random
from typing import Any

from core.errors import N_, NotYourRun, Refusal, RunOver, StaleBoard
from core.model import Run, RunKind
from core.runs import Runs
from core.workers import INTERACTIVE, Workers
from rules import GAMES
from rules.hints import DEFAULT_BUDGET, DEFAULT_SAMPLES, Hint, hint

#: Search nodes per hint: about a second on one core.
HINT_BUDGET = DEFAULT_BUDGET
HINT_SAMPLES = DEFAULT_SAMPLES
PRACTICE_ONLY = N_("Hints are for practice runs only: dailies, challenges and series are "
                   "played unaided.")


def compute_hint(
    game: str, dump: dict[str, Any], rng_seed: str, budget: int, samples: int
) -> Hint:
    """The hint for the stored state ``dump`` (in a worker process)."""
    engine = GAMES[game]
    return hint(game, engine.load(dump), rng=random.Random(rng_seed), budget=budget,
                samples=samples)


class Hints:
    """Hints on practice runs."""

    def __init__(
        self,
        runs: Runs,
        workers: Workers,
        *,
        budget: int = HINT_BUDGET,
        samples: int = HINT_SAMPLES,
    ) -> None:
        self._runs = runs
        self._workers = workers
        self.budget = budget
        self.samples = samples

    async def check(self, run_id: int, user_id: int, version: int) -> Run:
        """The run, if its board at ``version`` may ask for a hint: raises ``NotYourRun``,
        ``RunOver``, ``StaleBoard``, or a ``Refusal`` for a run that is not practice."""
        run = await self._runs.get(run_id)
        if run.owner_id != user_id:
            raise NotYourRun(run)
        if run.over:
            raise RunOver(run)
        if run.kind is not RunKind.PRACTICE:
            raise Refusal(PRACTICE_ONLY)
        if run.version != version:
            raise StaleBoard(run)
        return run

    async def suggest(self, run_id: int, user_id: int, version: int) -> tuple[Run, Hint]:
        """A hint for the run as the board at ``version`` showed it, and the run marked
        hinted (its new version); refusals as :meth:`check`."""
        run = await self.check(run_id, user_id, version)
        found = await self._workers.run(
            INTERACTIVE, compute_hint, run.game, run.engine.dump(run.state),
            f"hint:{run.id}:{run.moves}", self.budget, self.samples,
        )
        # Checked again in the write: a move made meanwhile makes this board stale.
        marked = await self._runs.mark_hinted(run.id, user_id, version)
        return marked, found
