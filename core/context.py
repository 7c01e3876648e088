"""What every concern of the core shares: the store, the clock, the source of fresh seeds and
the runs last seen committed."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from core.clock import Clock, system_clock, timestamp, utc_day
from core.known import KnownRuns
from store.base import Store


def random_seed() -> int:
    return secrets.randbits(64)


@dataclass
class Context:
    store: Store
    clock: Clock = system_clock
    random_seed: Callable[[], int] = field(default=random_seed)
    #: The runs this process last saw committed, by id (``core.known``).
    known: KnownRuns = field(default_factory=KnownRuns)

    def now(self) -> str:
        """The current moment as stored (ISO 8601 UTC)."""
        return timestamp(self.clock())

    def today(self) -> str:
        """The current UTC day, ``YYYY-MM-DD``."""
        return utc_day(self.clock()).isoformat()
