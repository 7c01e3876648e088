"""What the core hands up: a run as stored, with its engine state loaded, and its kinds and
statuses as enums (they are ``str`` enums, so they compare equal to the stored text)."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules import GAMES, Game
from store.base import RunRow


class RunStatus(StrEnum):
    PLAYING = "playing"
    OVER = "over"
    RESIGNED = "resigned"


class RunKind(StrEnum):
    PRACTICE = "practice"
    DAILY = "daily"
    CHALLENGE = "challenge"
    SERIES = "series"


@dataclass(frozen=True)
class Run:
    """One run as stored, with its engine state loaded.

    ``version`` counts the writes to the run; a board shows the run at one version, and every
    write from that board must find the run still there.
    """

    id: int
    owner_id: int
    guild_id: int | None
    channel_id: int | None
    game: str
    variant: str
    seed: int
    deck: tuple[str, ...] | None
    kind: RunKind
    day: str | None  # "YYYY-MM-DD": the daily's day, or the past day whose deal is practised
    status: RunStatus
    outcome: str | None
    score: list[int]
    moves: int
    version: int
    ranked: bool
    rules: str
    hinted: bool
    created_at: str
    updated_at: str
    finished_at: str | None
    state: Any = dataclasses.field(repr=False)

    @classmethod
    def from_row(cls, row: RunRow, state: Any) -> Run:
        # The row's fields are the run's (tests/core/test_model.py), its enums as text and
        # its state as stored.
        values = dict(row.__dict__)
        values.update(kind=RunKind(row.kind), status=RunStatus(row.status), state=state)
        return _built(values)

    def evolve(self, **changes: Any) -> Run:
        """This run with ``changes`` (field names; ``TypeError`` for any other), as
        ``dataclasses.replace`` makes it, at a third of its cost: a click makes two."""
        if not changes.keys() <= _FIELDS:
            raise TypeError(f"not fields of a run: {sorted(changes.keys() - _FIELDS)}")
        values = dict(self.__dict__)
        values.pop("view", None)  # worked out from the old state (a cached property)
        values.update(changes)
        return _built(values)

    @property
    def engine(self) -> Game[Any]:
        return GAMES[self.game]

    @functools.cached_property
    def view(self) -> dict[str, Any]:
        """The engine's public view of the state (``Game.view``): what the board draws.
        Worked out once per run object (a state never changes; a changed run is a new
        object), so a click's board and its checks share one; read it, never change it."""
        return self.engine.view(self.state)

    @property
    def over(self) -> bool:
        return self.status is not RunStatus.PLAYING

    @property
    def actions(self) -> list[str]:
        """The legal actions now; none once the run is over or resigned."""
        return [] if self.over else self.engine.actions(self.state)

    @property
    def title(self) -> str:
        return self.engine.title


_FIELDS = frozenset(f.name for f in dataclasses.fields(Run))


def _built(values: dict[str, Any]) -> Run:
    """The run holding ``values`` (every field), made as ``copy.copy`` makes a copy: without
    the generated ``__init__``, which sets each of a frozen dataclass's 22 fields through
    ``object.__setattr__`` and cost a click about 10 µs a run."""
    run = object.__new__(Run)
    run.__dict__.update(values)
    return run
