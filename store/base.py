"""What every storage backend provides: the rows it hands up, and the transaction interface.

The core runs each operation as one transaction: a plain function ``fn(tx, *args)`` that a
backend runs on its own worker thread (see :meth:`Store.read` and :meth:`Store.write`). ``tx``
offers named queries only; the core never sees SQL, a driver's row type or its errors. A
backend turns a unique-key violation into :class:`Conflict` and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Conflict(Exception):
    """A write broke a uniqueness rule: the row it would add exists already."""


@dataclass(frozen=True)
class RunRow:
    """One stored run, decoded: JSON columns are Python values, the seed an int."""

    id: int
    owner_id: int
    guild_id: int | None
    channel_id: int | None
    game: str
    variant: str
    seed: int
    deck: tuple[str, ...] | None
    kind: str
    day: str | None
    status: str
    outcome: str | None
    score: list[int]
    state: dict[str, Any]
    moves: int
    version: int
    ranked: bool
    rules: str
    created_at: str
    updated_at: str
    finished_at: str | None
    hinted: bool = False


@dataclass(frozen=True)
class NewRun:
    """What inserting a run needs; the store adds the id, ``moves = 0`` and ``version = 0``."""

    owner_id: int
    guild_id: int | None
    channel_id: int | None
    game: str
    variant: str
    seed: int
    deck: tuple[str, ...] | None
    kind: str
    day: str | None
    status: str
    outcome: str | None
    score: list[int]
    state: dict[str, Any]
    ranked: bool
    rules: str
    now: str
    finished_at: str | None
    score_text: str = ""
    points: int = 0


@dataclass(frozen=True)
class RunChange:
    """A run's new standing after a write; applied only if the run is still at ``expected``
    (its version), and the version then goes up by one."""

    id: int
    expected: int
    state: dict[str, Any]
    moves: int
    score: list[int]
    status: str
    outcome: str | None
    ranked: bool
    now: str
    finished_at: str | None
    hinted: bool = False
    score_text: str = ""
    points: int = 0


@dataclass(frozen=True)
class BoardFilter:
    """Which runs a day's board holds: the ranked dailies of a game, variant and day, of one
    server (``guild_id``) or all, from accounts no newer than ``max_owner_id`` (a Discord id
    encodes its creation time, so "accounts at least N days old" is an id bound)."""

    game: str
    variant: str
    day: str
    guild_id: int | None = None
    max_owner_id: int | None = None


@dataclass(frozen=True)
class BoardLine:
    """One line of a board: its rank (shared among equal scores) and the run it shows."""

    rank: int
    run_id: int
    owner_id: int
    name: str
    score: list[int]
    score_text: str
    status: str
    outcome: str | None


@dataclass(frozen=True)
class GameStats:
    """A player's finished runs of one game: counts, best and average."""

    game: str
    finished: int
    wins: int
    best_score: list[int] | None
    best_text: str | None
    average_points: float | None
    dailies: int
    hinted: int = 0


@dataclass(frozen=True)
class Streak:
    """A run of consecutive UTC days with a finished daily: first and last day, and length."""

    first: str
    last: str
    length: int


@dataclass(frozen=True)
class DayMark:
    """A finished daily of one day, for the last-14-days row."""

    day: str
    status: str
    outcome: str | None
    won: bool
    score_text: str


@dataclass(frozen=True)
class NewChallenge:
    """What inserting a challenge needs; the store adds the id (no card yet, not closed)."""

    owner_id: int
    opponent_id: int | None
    guild_id: int | None
    channel_id: int | None
    game: str
    variant: str
    seed: int
    created_at: str
    deadline: str


@dataclass(frozen=True)
class ChallengeRow:
    """One stored challenge."""

    id: int
    owner_id: int
    opponent_id: int | None
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    game: str
    variant: str
    seed: int
    created_at: str
    deadline: str
    closed_at: str | None


@dataclass(frozen=True)
class ChallengeEntry:
    """One player's run of a challenge, as its card lists it."""

    owner_id: int
    name: str
    run_id: int
    status: str
    outcome: str | None
    score: list[int]
    score_text: str
    unfinished: bool


@dataclass(frozen=True)
class ChallengeStats:
    """A player's challenges of one game: how many they played, and how many they won."""

    played: int
    won: int


@dataclass(frozen=True)
class SeriesRow:
    """One stored series."""

    id: int
    owner_id: int
    game: str
    variant: str
    length: int
    created_at: str


@dataclass(frozen=True)
class SeriesEntry:
    """One run of a series, in order."""

    number: int
    run_id: int
    status: str
    outcome: str | None
    points: int
    score_text: str


@dataclass(frozen=True)
class SeriesBest:
    """A player's best total over their finished series of one length."""

    length: int
    best: int
    played: int


@dataclass(frozen=True)
class WeekFilter:
    """Which runs a week's board adds up: the ranked dailies of a game and variant from
    ``first`` to ``last`` (days, inclusive), of one server or all (as :class:`BoardFilter`)."""

    game: str
    variant: str
    first: str
    last: str
    guild_id: int | None = None
    max_owner_id: int | None = None


@dataclass(frozen=True)
class WeekLine:
    """One player's line on a week's board: their points added up over the days played."""

    rank: int
    owner_id: int
    name: str
    total: int
    days: int


@dataclass(frozen=True)
class ParRow:
    """The par of one day's deal: the solver's best score (a lower bound unless ``exact``)
    and the line reaching it."""

    game: str
    variant: str
    day: str
    rules: str
    score: list[int]
    score_text: str
    won: bool
    exact: bool
    actions: list[str]
    nodes: int
    seconds: float
    solved_at: str


@dataclass(frozen=True)
class ParRecord:
    """A player's finished dailies of one game on days with a par, and how many of them
    scored at least the par."""

    played: int
    reached: int


@dataclass(frozen=True)
class TurnRow:
    """A run's turning point: the 1-based move after which its best reachable score fell
    the most (None: it never fell), and the sentence saying so."""

    run_id: int
    step: int | None
    text: str
    nodes: int
    computed_at: str


class Tx(Protocol):
    """The named queries of one transaction (all synchronous: they run on the store's thread)."""

    def run(self, run_id: int) -> RunRow | None: ...
    def run_version(self, run_id: int) -> int | None: ...
    def unfinished(self, owner_id: int, game: str | None) -> list[RunRow]: ...
    def daily_run(self, owner_id: int, game: str, variant: str, day: str) -> RunRow | None: ...
    def insert_run(self, run: NewRun) -> int: ...
    def update_run(self, change: RunChange) -> bool: ...
    def update_state(self, run_id: int, version: int, state: dict[str, Any]) -> bool: ...
    def append_move(self, run_id: int, number: int, action: str, at: str) -> None: ...
    def actions(self, run_id: int) -> list[str]: ...
    def delete_move(self, run_id: int, number: int) -> None: ...
    def meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...
    def add_meta(self, key: str, value: str) -> str: ...
    def guild_settings(self, guild_id: int) -> dict[str, str]: ...
    def set_guild_setting(self, guild_id: int, key: str, value: str) -> None: ...
    def guilds_with_setting(self, key: str) -> list[tuple[int, str]]: ...
    def player_settings(self, user_id: int) -> dict[str, str]: ...
    def set_player_setting(self, user_id: int, key: str, value: str) -> None: ...
    def set_player_name(self, user_id: int, name: str, now: str) -> None: ...
    # Boards, stats and streaks.
    def board(self, where: BoardFilter, limit: int, offset: int) -> list[BoardLine]: ...
    def board_size(self, where: BoardFilter) -> int: ...
    def board_line(self, where: BoardFilter, owner_id: int) -> BoardLine | None: ...
    def game_stats(self, owner_id: int, game: str) -> GameStats: ...
    def streaks(self, owner_id: int, game: str) -> list[Streak]: ...
    def daily_marks(self, owner_id: int, game: str, since: str) -> list[DayMark]: ...
    # The daily post.
    def claim_post(self, guild_id: int, day: str, now: str) -> bool: ...
    def finish_post(
        self, guild_id: int, day: str, status: str, channel_id: int | None,
        message_id: int | None, note: str | None, now: str,
    ) -> None: ...
    def post_status(self, guild_id: int, day: str) -> str | None: ...
    # Challenges.
    def insert_challenge(self, challenge: NewChallenge) -> int: ...
    def challenge(self, challenge_id: int) -> ChallengeRow | None: ...
    def set_challenge_card(self, challenge_id: int, channel_id: int, message_id: int) -> None: ...
    def close_challenge(self, challenge_id: int, now: str) -> bool: ...
    def due_challenges(self, now: str, limit: int) -> list[int]: ...
    def open_challenges(self, user_id: int, limit: int) -> list[ChallengeRow]: ...
    def insert_challenge_run(self, challenge_id: int, owner_id: int, run_id: int) -> None: ...
    def challenge_run(self, challenge_id: int, owner_id: int) -> int | None: ...
    def challenge_of_run(self, run_id: int) -> int | None: ...
    def challenge_entries(self, challenge_id: int) -> list[ChallengeEntry]: ...
    def mark_unfinished(self, challenge_id: int, owner_id: int) -> None: ...
    def challenge_stats(self, owner_id: int, game: str) -> ChallengeStats: ...
    # Series.
    def insert_series(self, owner_id: int, game: str, variant: str, length: int,
                      now: str) -> int: ...
    def series(self, series_id: int) -> SeriesRow | None: ...
    def open_series(self, owner_id: int, game: str) -> SeriesRow | None: ...
    def insert_series_run(self, series_id: int, number: int, run_id: int) -> None: ...
    def series_of_run(self, run_id: int) -> tuple[int, int] | None: ...
    def series_entries(self, series_id: int) -> list[SeriesEntry]: ...
    def series_best(self, owner_id: int, game: str) -> list[SeriesBest]: ...
    # The week's board (daily points added up over a week).
    def week_page(
        self, where: WeekFilter, limit: int, offset: int, viewer_id: int | None
    ) -> tuple[list[WeekLine], WeekLine | None, int]: ...
    # Par (the solver's best score of a closed day's deal) and replays' turning points.
    def par(self, game: str, variant: str, day: str) -> ParRow | None: ...
    def insert_par(self, par: ParRow) -> bool: ...
    def board_reached(self, where: BoardFilter, score: list[int]) -> int: ...
    def par_record(self, owner_id: int, game: str) -> ParRecord: ...
    def turn(self, run_id: int) -> TurnRow | None: ...
    def insert_turn(self, turn: TurnRow) -> None: ...


class Store(Protocol):
    """A database: transactions in, results out. Open with the backend's ``open``."""

    async def read(self, fn: Callable[..., T], *args: Any, replica: bool = False) -> T:
        """Run ``fn(tx, *args)`` in a read transaction (one consistent snapshot); with
        ``replica``, on the read replica when the backend has one (a little behind)."""
        ...

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(tx, *args)`` in a write transaction, committed durably when it returns;
        if ``fn`` raises, nothing it wrote stays and the exception propagates."""
        ...

    async def migrate(self) -> int:
        """Apply pending migrations; return the schema version."""
        ...

    async def close(self) -> None: ...
