"""The game service: every run a player starts, kept in SQLite, played one action at a time.

Transport-free (no Discord here): the bot, the tests and the benchmarks all drive it the same
way. Engines are reached only through ``rules.GAMES``. Each operation is one transaction
(``bot/store.py``): ``act`` reads the run, checks who, when and what, applies the action and
writes the move row and the new state together, or refuses and writes nothing.

Choices where the issue left room:

- Ranked means verified: when a run ends, its logged moves are replayed from the seed (and
  deck) and the replayed state must equal the stored one. This applies to every finished run,
  practice or daily; leaderboards rank ``kind = 'daily'`` and can ignore the rest.
- Resigning ends a run with status ``resigned``, outcome ``lost`` and its score so far; a
  resigned run is never ranked.
- Undo is for practice runs that are still being played; a run that is over stays over.
- "Newest first" for unfinished runs means most recently played first.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import secrets
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from bot import store
from bot.store import Store
from rules import GAMES, Game, IllegalAction, find_game, replay
from rules.deal import check_seed, daily_seed

log = logging.getLogger(__name__)

PLAYING, OVER, RESIGNED = "playing", "over", "resigned"
PRACTICE, DAILY = "practice", "daily"
DAILY_SECRET_KEY = "daily_secret"

_SQLITE_INT_MAX = 2**63 - 1
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# ----- errors -----------------------------------------------------------------------------


class ServiceError(Exception):
    """A refusal; ``str(exc)`` is one calm sentence for the player."""


class RunNotFound(ServiceError):
    """No run has that id."""

    def __init__(self, run_id: object) -> None:
        super().__init__("That run does not exist (any more).")
        self.run_id = run_id


class NotYourRun(ServiceError):
    """Someone else's run; ``run`` names its owner."""

    def __init__(self, run: Run) -> None:
        super().__init__(f"This {run.title} run belongs to someone else.")
        self.run = run


class StaleBoard(ServiceError):
    """The board the player acted on is out of date; ``run`` is the current one."""

    def __init__(self, run: Run) -> None:
        super().__init__("That board was out of date; here is the current one.")
        self.run = run


class RunOver(ServiceError):
    """The run has ended (or was resigned)."""

    def __init__(self, run: Run) -> None:
        super().__init__(f"This {run.title} run is already over.")
        self.run = run


class IllegalMove(ServiceError):
    """The engine refused the action; ``reason`` is its explanation."""

    def __init__(self, run: Run, reason: str) -> None:
        super().__init__(reason)
        self.run = run
        self.reason = reason


class AlreadyPlayed(ServiceError):
    """The player's daily of that game, variant and day exists; ``run`` is that run."""

    def __init__(self, run: Run) -> None:
        super().__init__(f"You have already started today's {run.title} ({run.variant}) daily.")
        self.run = run


class CannotUndo(ServiceError):
    """Undo is not possible here (a daily, or no move yet)."""

    def __init__(self, run: Run, message: str) -> None:
        super().__init__(message)
        self.run = run


class BrokenRun(ServiceError):
    """The run's stored state cannot be loaded and its moves no longer replay."""

    def __init__(self, run_id: int) -> None:
        super().__init__("This run was saved by another version of the game and cannot be resumed.")
        self.run_id = run_id


class _NeedsRepair(Exception):
    """Raised inside a read transaction: loading needs a rebuild, which must be written."""


# ----- the run ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """One run as stored, with its engine state loaded."""

    id: int
    owner_id: int
    guild_id: int | None
    channel_id: int | None
    game: str
    variant: str
    seed: int
    deck: tuple[str, ...] | None
    kind: str  # "practice" | "daily"
    day: str | None  # "YYYY-MM-DD": the daily's day, or the past day whose deal is practised
    status: str  # "playing" | "over" | "resigned"
    outcome: str | None
    score: list[int]
    moves: int
    ranked: bool
    created_at: str
    updated_at: str
    finished_at: str | None
    state: Any = dataclasses.field(repr=False)

    @property
    def engine(self) -> Game[Any]:
        return GAMES[self.game]

    @property
    def view(self) -> dict[str, Any]:
        """The engine's public view of the state."""
        return self.engine.view(self.state)

    @property
    def over(self) -> bool:
        return self.status != PLAYING

    @property
    def actions(self) -> list[str]:
        """The legal actions now; none once the run is over or resigned."""
        return [] if self.over else self.engine.actions(self.state)

    @property
    def title(self) -> str:
        return self.engine.title


# ----- the service ------------------------------------------------------------------------


class GameService:
    """Runs and moves over one :class:`Store`. Open with :meth:`open`, end with :meth:`close`."""

    def __init__(
        self,
        db: Store,
        *,
        clock: Callable[[], datetime] | None = None,
        random_seed: Callable[[], int] | None = None,
        daily_secret: str | None = None,
    ) -> None:
        self._store = db
        self._clock = clock or (lambda: datetime.now(UTC))
        self._random_seed = random_seed or (lambda: secrets.randbits(64))
        if daily_secret is not None and not daily_secret:
            raise ValueError("the daily secret must not be empty")
        self._daily_secret = daily_secret

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], datetime] | None = None,
        random_seed: Callable[[], int] | None = None,
        daily_secret: str | None = None,
        synchronous: str = "FULL",
    ) -> GameService:
        """Open the database at ``path``, apply pending migrations and return the service."""
        db = await Store.open(path, synchronous=synchronous)
        try:
            await db.migrate()
            return cls(db, clock=clock, random_seed=random_seed, daily_secret=daily_secret)
        except BaseException:
            await db.close()
            raise

    async def close(self) -> None:
        await self._store.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ----- starting -----------------------------------------------------------------------

    async def start_run(
        self,
        owner_id: int,
        game: str,
        variant: str | None = None,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        seed: int | None = None,
        day: str | None = None,
        deck: Sequence[str] | None = None,
    ) -> Run:
        """Start a practice run: a random deal, the deal of ``seed``, or a past day's daily deal.

        ``deck`` deals that card order (top first) instead of a shuffle. Raises ``ValueError``
        for an unknown game or variant, a bad seed or deck, or a day that is not over yet.
        """
        engine = find_game(game)
        variant = engine.variant(variant)
        if day is not None:
            if seed is not None or deck is not None:
                raise ValueError("A past day's deal is fixed: give a day, or a seed and deck.")
            day = _check_day(day)
            if day >= self._today():
                raise ValueError(f"The daily of {day} is not over yet: only past days replay.")
            seed = daily_seed(await self.daily_secret(), engine.key, variant, day)
        elif seed is None:
            seed = self._random_seed()
        return await self._start(
            owner_id, engine, variant, seed, deck, PRACTICE, day, guild_id, channel_id
        )

    async def start_daily(
        self,
        owner_id: int,
        game: str,
        variant: str | None = None,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Run:
        """Start today's (UTC) daily; ``AlreadyPlayed`` if the player has started it before."""
        engine = find_game(game)
        variant = engine.variant(variant)
        day = self._today()
        seed = daily_seed(await self.daily_secret(), engine.key, variant, day)
        return await self._start(
            owner_id, engine, variant, seed, None, DAILY, day, guild_id, channel_id
        )

    # ----- reading ------------------------------------------------------------------------

    async def get_run(self, run_id: int) -> Run:
        """The run; ``RunNotFound`` if there is none."""
        run_id = _check_run_id(run_id)
        try:
            return await self._store.read(self._get_tx, run_id, False)
        except _NeedsRepair:
            return await self._store.write(self._get_tx, run_id, True)

    async def unfinished_runs(self, owner_id: int, game: str | None = None) -> list[Run]:
        """The player's runs still being played (of ``game`` if given), most recently played
        first."""
        owner_id = _check_id(owner_id, "user")
        try:
            return await self._store.read(self._unfinished_tx, owner_id, game, False)
        except _NeedsRepair:
            return await self._store.write(self._unfinished_tx, owner_id, game, True)

    async def moves(self, run_id: int) -> list[str]:
        """The run's actions in order (the append-only log); ``RunNotFound``."""
        return await self._store.read(_moves_tx, _check_run_id(run_id))

    # ----- playing ------------------------------------------------------------------------

    async def act(self, run_id: int, user_id: int, expected_move: int, action: str) -> Run:
        """Apply one action to the run, as move ``expected_move + 1``; return the new run.

        Raises ``RunNotFound``, ``NotYourRun``, ``RunOver``, ``StaleBoard`` (the run is not at
        ``expected_move`` moves) or ``IllegalMove`` (with the engine's reason); a refusal
        writes nothing. The move row and the new state are committed together, durably.
        """
        now = self._now()
        return await self._store.write(
            self._act_tx, _check_run_id(run_id), user_id, expected_move, action, now
        )

    async def resign(self, run_id: int, user_id: int) -> Run:
        """End the run as lost, with its score so far (not ranked)."""
        return await self._store.write(self._resign_tx, _check_run_id(run_id), user_id, self._now())

    async def undo(self, run_id: int, user_id: int) -> Run:
        """Take back the last move of a practice run: replay all moves but the last.

        Raises ``CannotUndo`` for a daily or a run without moves, ``RunOver`` once it ended.
        """
        return await self._store.write(self._undo_tx, _check_run_id(run_id), user_id, self._now())

    # ----- meta and settings --------------------------------------------------------------

    async def daily_secret(self) -> str:
        """The secret daily seeds derive from: given to :meth:`open`, or generated once and kept
        in the database."""
        if self._daily_secret is None:
            fresh = secrets.token_hex(32)
            self._daily_secret = await self._store.write(store.add_meta, DAILY_SECRET_KEY, fresh)
        return self._daily_secret

    async def get_meta(self, key: str) -> str | None:
        return await self._store.read(store.get_meta, key)

    async def set_meta(self, key: str, value: str) -> None:
        await self._store.write(store.set_meta, key, value)

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """A guild's settings (key -> value)."""
        return await self._store.read(store.guild_settings, _check_id(guild_id, "guild"))

    async def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        await self._store.write(store.set_guild_setting, _check_id(guild_id, "guild"), key, value)

    # ----- transactions (run on the database thread) --------------------------------------

    def _start_tx(
        self, conn: sqlite3.Connection, fields: dict[str, Any], state: Any, daily: bool
    ) -> Run:
        if daily:
            key = (fields["owner_id"], fields["game"], fields["variant"], fields["day"])
            existing = store.fetch_daily(conn, *key)
            if existing is not None:
                raise AlreadyPlayed(self._load(conn, existing, repair=True))
        engine = GAMES[fields["game"]]
        dump = engine.dump(state)
        view = engine.view(state)
        over = bool(view["over"])
        fields.update(
            status=OVER if over else PLAYING,
            outcome=view["outcome"],
            score=_json(view["score"]),
            state=_json(dump),
            ranked=over,  # ended before any move: the deal is its own replay
            finished_at=fields["now"] if over else None,
        )
        run_id = store.insert_run(conn, **fields)
        row = store.fetch_run(conn, run_id)
        assert row is not None
        return _to_run(row, state)

    def _get_tx(self, conn: sqlite3.Connection, run_id: int, repair: bool) -> Run:
        row = store.fetch_run(conn, run_id)
        if row is None:
            raise RunNotFound(run_id)
        return self._load(conn, row, repair=repair)

    def _unfinished_tx(
        self, conn: sqlite3.Connection, owner_id: int, game: str | None, repair: bool
    ) -> list[Run]:
        rows = store.fetch_unfinished(conn, owner_id, game)
        return [self._load(conn, row, repair=repair) for row in rows]

    def _act_tx(
        self,
        conn: sqlite3.Connection,
        run_id: int,
        user_id: int,
        expected_move: int,
        action: str,
        now: str,
    ) -> Run:
        run = self._owned_and_playing(conn, run_id, user_id)
        if run.moves != expected_move:
            raise StaleBoard(run)
        try:
            state = run.engine.apply(run.state, action)
        except IllegalAction as exc:
            raise IllegalMove(run, str(exc)) from None
        number = run.moves + 1
        try:
            store.append_move(conn, run.id, number, action, now)
        except sqlite3.IntegrityError:
            # The move number is taken although the run row said otherwise: treat as stale.
            raise StaleBoard(run) from None
        return self._save(conn, run, state, number, now)

    def _resign_tx(self, conn: sqlite3.Connection, run_id: int, user_id: int, now: str) -> Run:
        run = self._owned_and_playing(conn, run_id, user_id)
        saved = dataclasses.replace(
            run, status=RESIGNED, outcome="lost", ranked=False, updated_at=now, finished_at=now
        )
        self._update(conn, saved, run.moves, _json(run.engine.dump(run.state)))
        return saved

    def _undo_tx(self, conn: sqlite3.Connection, run_id: int, user_id: int, now: str) -> Run:
        run = self._owned_and_playing(conn, run_id, user_id)
        if run.kind != PRACTICE:
            raise CannotUndo(run, "Only practice runs can be undone: every move of a daily counts.")
        if run.moves == 0:
            raise CannotUndo(run, "There is no move to undo yet.")
        actions = store.fetch_actions(conn, run.id)[: run.moves - 1]
        state = replay(run.game, run.variant, run.seed, actions, run.deck)
        store.delete_move(conn, run.id, run.moves)
        return self._save(conn, run, state, run.moves - 1, now)

    # ----- helpers of the transactions ----------------------------------------------------

    def _owned_and_playing(self, conn: sqlite3.Connection, run_id: int, user_id: int) -> Run:
        run = self._get_tx(conn, run_id, True)
        if run.owner_id != user_id:
            raise NotYourRun(run)
        if run.over:
            raise RunOver(run)
        return run

    def _save(self, conn: sqlite3.Connection, run: Run, state: Any, moves: int, now: str) -> Run:
        """Write ``state`` as the run's state after ``moves`` moves (the log already says so)."""
        engine = run.engine
        dump = engine.dump(state)
        view = engine.view(state)
        over = bool(view["over"])
        ranked = over and _verified(
            engine, run.variant, run.seed, store.fetch_actions(conn, run.id), run.deck, dump, run.id
        )
        saved = dataclasses.replace(
            run,
            state=state,
            moves=moves,
            status=OVER if over else PLAYING,
            outcome=view["outcome"],
            score=list(view["score"]),
            ranked=ranked,
            updated_at=now,
            finished_at=now if over else None,
        )
        self._update(conn, saved, run.moves, _json(dump))
        return saved

    def _update(self, conn: sqlite3.Connection, run: Run, expected: int, state_json: str) -> None:
        changed = store.update_run(
            conn,
            id=run.id,
            expected=expected,
            state=state_json,
            moves=run.moves,
            score=_json(run.score),
            status=run.status,
            outcome=run.outcome,
            ranked=int(run.ranked),
            now=run.updated_at,
            finished_at=run.finished_at,
        )
        if not changed:  # cannot happen under BEGIN IMMEDIATE; never write over a newer move
            raise StaleBoard(self._get_tx(conn, run.id, True))

    def _load(self, conn: sqlite3.Connection, row: sqlite3.Row, *, repair: bool) -> Run:
        """The run of ``row``, its state loaded, or rebuilt by replaying its moves.

        A rebuilt state is written back, so only a write transaction may ``repair``; a read
        transaction raises ``_NeedsRepair`` and the caller retries in a write transaction.
        """
        engine = GAMES.get(row["game"])
        if engine is None:
            log.error("run %s: game %r is not installed", row["id"], row["game"])
            raise BrokenRun(row["id"])
        try:
            state = engine.load(json.loads(row["state"]))
        except ValueError as exc:
            if not repair:
                raise _NeedsRepair from exc
            state = _rebuild(conn, engine, row, exc)
        return _to_run(row, state)

    # ----- clock and starting -------------------------------------------------------------

    def _now(self) -> str:
        return _timestamp(self._clock())

    def _today(self) -> str:
        return _utc(self._clock()).date().isoformat()

    async def _start(
        self,
        owner_id: int,
        engine: Game[Any],
        variant: str,
        seed: int,
        deck: Sequence[str] | None,
        kind: str,
        day: str | None,
        guild_id: int | None,
        channel_id: int | None,
    ) -> Run:
        """Deal and store a new run (the deal is fixed now, whatever the engine does later)."""
        state = engine.new(check_seed(seed), variant, deck)
        fields = {
            "owner_id": _check_id(owner_id, "user"),
            "guild_id": None if guild_id is None else _check_id(guild_id, "guild"),
            "channel_id": None if channel_id is None else _check_id(channel_id, "channel"),
            "game": engine.key,
            "variant": variant,
            "seed": str(seed),
            "deck": None if deck is None else _json(list(deck)),
            "kind": kind,
            "day": day,
            "now": self._now(),
        }
        return await self._store.write(self._start_tx, fields, state, kind == DAILY)


# ----- helpers ----------------------------------------------------------------------------


def _moves_tx(conn: sqlite3.Connection, run_id: int) -> list[str]:
    if store.fetch_run(conn, run_id) is None:
        raise RunNotFound(run_id)
    return store.fetch_actions(conn, run_id)


def _rebuild(conn: sqlite3.Connection, engine: Game[Any], row: sqlite3.Row, why: Exception) -> Any:
    """Replay the run's logged moves from its deal, and store the result as its state."""
    run_id, moves = row["id"], row["moves"]
    actions = store.fetch_actions(conn, run_id)[:moves]
    try:
        if len(actions) != moves:
            raise ValueError(f"the log holds {len(actions)} moves, the run says {moves}")
        state = replay(engine.key, row["variant"], int(row["seed"]), actions, _deck(row["deck"]))
    except ValueError as exc:  # IllegalAction included: the log no longer replays
        log.error("run %s: cannot rebuild its state (%s) by replay: %s", run_id, why, exc)
        raise BrokenRun(run_id) from exc
    store.update_state(conn, run_id, moves, _json(engine.dump(state)))
    log.info("run %s: stored state not loadable (%s); rebuilt from %d moves", run_id, why, moves)
    return state


def _verified(
    engine: Game[Any],
    variant: str,
    seed: int,
    actions: list[str],
    deck: Sequence[str] | None,
    dump: dict[str, Any],
    run_id: int,
) -> bool:
    """True if replaying ``actions`` from the deal gives exactly ``dump``; logs a mismatch."""
    try:
        replayed = engine.dump(replay(engine.key, variant, seed, actions, deck))
    except ValueError as exc:
        log.warning(
            "run %s: its %d moves do not replay (%s); not ranked", run_id, len(actions), exc
        )
        return False
    if replayed != dump:
        log.warning(
            "run %s: replaying its %d moves gives another result than the one stored; not ranked",
            run_id,
            len(actions),
        )
        return False
    return True


def _to_run(row: sqlite3.Row, state: Any) -> Run:
    return Run(
        id=row["id"],
        owner_id=row["owner_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        variant=row["variant"],
        seed=int(row["seed"]),
        deck=_deck(row["deck"]),
        kind=row["kind"],
        day=row["day"],
        status=row["status"],
        outcome=row["outcome"],
        score=json.loads(row["score"]),
        moves=row["moves"],
        ranked=bool(row["ranked"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        state=state,
    )


def _deck(text: str | None) -> tuple[str, ...] | None:
    return None if text is None else tuple(json.loads(text))


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _utc(moment: datetime) -> datetime:
    # A naive datetime from an injected clock is taken to be UTC already.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _timestamp(moment: datetime) -> str:
    return _utc(moment).isoformat(timespec="milliseconds")


def _check_day(day: str) -> str:
    try:
        if not isinstance(day, str) or not _DAY.match(day):
            raise ValueError
        return date.fromisoformat(day).isoformat()
    except ValueError:
        raise ValueError(f"{day!r} is not a day: write it as YYYY-MM-DD.") from None


def _check_id(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _SQLITE_INT_MAX:
        raise ValueError(f"{value!r} is not a valid {what} id.")
    return value


def _check_run_id(run_id: int) -> int:
    try:
        return _check_id(run_id, "run")
    except ValueError:
        raise RunNotFound(run_id) from None
