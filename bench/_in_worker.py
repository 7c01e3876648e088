"""What the benches run in the core's worker processes: functions of a module (never of a
bench's own ``__main__``, which a worker does not run again; see ``core.workers``)."""

from __future__ import annotations

import time
from typing import Any

from core.hints import compute_hint


def timed_hint(
    game: str, dump: dict[str, Any], rng_seed: str, budget: int, samples: int
) -> tuple[Any, float]:
    """``compute_hint`` in the worker, and the worker's CPU seconds for it."""
    start = time.process_time()
    found = compute_hint(game, dump, rng_seed, budget, samples)
    return found, time.process_time() - start
