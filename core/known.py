"""The runs this process last saw committed, each as of its version: what a click's write and a
board's first step start from instead of reading and decoding the whole row again.

A run's ``version`` goes up by one with every write to its row (``store.runs``' compare-and-
set) and never comes back, so a run read from a committed row, or returned by a committed
write, *is* that row for as long as the row stays at that version. A write that starts from
the run remembered here checks in its own transaction that the row is still at that version
(one indexed integer, ``Tx.run_version``) and reads the row only when it is not: another
process wrote, or this one forgot. Only committed runs are put here (by the core's async
methods, after the store's ``write`` or ``read`` returned), so a rolled-back write leaves
nothing behind.

One per :class:`core.context.Context`, that is per database: run ids repeat across databases.
Kept small, the least recently put first out: every entry is objects the garbage collector
walks on each full collection (at 4096 entries that cost more under load than the reads it
saved, ``bench/load.py``); 256 covers every player of a busy process's last minutes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.model import Run
    from store.base import PriorBest

LIMIT = 256


class KnownRuns:
    """Run id -> the newest committed :class:`~core.model.Run` this process has seen.

    Used on the event loop only: a transaction is handed the run it may start from as an
    argument."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._runs: dict[int, Run] = {}
        #: Run id -> (the version that ended it, the player's best before it), as read in
        #: that write: what the run's result card says (``Rankings.personal_best``).
        self._bests: dict[int, tuple[int, PriorBest]] = {}
        self._limit = limit

    def __len__(self) -> int:
        return len(self._runs)

    def get(self, run_id: int) -> Run | None:
        return self._runs.get(run_id)

    def at(self, run_id: int, version: int) -> Run | None:
        """The run as committed at ``version``, if that is the version known."""
        run = self._runs.get(run_id)
        return run if run is not None and run.version == version else None

    def put(self, run: Run) -> Run:
        """Remember ``run`` (committed) unless a newer version of it is known; returns it.
        Two writes' answers can arrive out of order, a read's can be older than a write's."""
        old = self._runs.pop(run.id, None)  # back in at the newest end
        self._keep(self._runs, run.id,
                   old if old is not None and old.version > run.version else run)
        return run

    def forget(self, run_id: int) -> None:
        self._runs.pop(run_id, None)

    def prior_best(self, run: Run) -> PriorBest | None:
        """The player's best before ``run``, as read by the write that ended it."""
        found = self._bests.get(run.id)
        return found[1] if found is not None and found[0] == run.version else None

    def put_prior_best(self, run: Run, prior: PriorBest) -> None:
        """Remember what the write that ended ``run`` (committed) read of the player's best
        before it: a finished run's never changes."""
        self._keep(self._bests, run.id, (run.version, prior))

    def _keep(self, kept: dict[int, Any], run_id: int, value: Any) -> None:
        """``kept[run_id] = value``, the least recently put entry out first when full."""
        if len(kept) >= self._limit:
            del kept[next(iter(kept))]
        kept[run_id] = value
