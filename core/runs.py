"""Runs: starting, reading and playing them, one transaction per operation.

Every write takes the clicker's user id and the version of the run the clicker's board
showed, and checks both inside the one transaction that writes: ``act``, ``undo``,
``resign`` and ``abandon`` (which resigns and starts anew atomically). A board that is out
of date gets ``StaleBoard`` with the run as it is now, and nothing is written.

The log of moves is the truth; the stored state is a cache of it. A state that no longer
loads is rebuilt by replaying the moves, and a finished run is ranked only when replaying its
moves from the deal gives exactly the state stored.

Choices where the rules left room:

- Resigning ends a run with status ``resigned``, outcome ``lost`` and its score so far.
- Undo is for practice runs still being played: it replays all moves but the last and
  removes that move from the log (practice runs are never ranked).
- "Newest first" for unfinished runs means most recently played first.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any

from core.checks import check_game, check_id, check_optional_id, check_run_id, check_variant
from core.context import Context
from core.errors import (
    N_,
    BadRequest,
    BrokenRun,
    CannotUndo,
    IllegalMove,
    Message,
    NotYourRun,
    RunNotFound,
    RunOver,
    StaleBoard,
)
from core.model import Run, RunKind, RunStatus
from rules import GAMES, Game, IllegalAction, replay
from rules.deal import check_seed
from rules.words import dump_text, load_text
from store.base import Conflict, NewRun, PriorBest, RunChange, RunRow, Tx
from store.texts import speak_with

log = logging.getLogger(__name__)

# Score texts, pars' and turning points' sentences are kept as their messages, so that they
# are said in each reader's language when read back; the store may not import the engines,
# so the core hands it their codec (store/texts.py).
speak_with(dump_text, load_text)

#: Decides whether a run that ends now ranks (besides replaying to its state): the daily's
#: window. ``(run, now) -> bool``.
Eligibility = Callable[[Run, str], bool]


def always(run: Run, now: str) -> bool:
    return True


@dataclasses.dataclass(frozen=True)
class PracticeStart:
    """What ``/play`` gets: the player's unfinished practice run of the game, or the run
    dealt just now (``created``)."""

    run: Run
    created: bool


class _NeedsRepair(Exception):
    """Raised inside a read transaction: loading needs a rebuild, which must be written."""


class Runs:
    """Runs and moves. ``eligible`` says whether a finishing run may rank (see ``core.daily``)."""

    def __init__(self, ctx: Context, eligible: Eligibility = always) -> None:
        self._ctx = ctx
        self._eligible = eligible

    # ----- starting -----------------------------------------------------------------------

    async def start(
        self,
        owner_id: int,
        game: str,
        variant: str | None = None,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        seed: int | None = None,
        deck: Sequence[str] | None = None,
        day: str | None = None,
        kind: RunKind = RunKind.PRACTICE,
    ) -> Run:
        """Start a run: a random deal, the deal of ``seed``, or ``deck`` (top first).

        ``day`` records the day whose deal this is (a past daily's deal practised). Raises
        ``BadRequest`` for an unknown game or variant, or a bad seed or deck.
        """
        new = self.deal(
            owner_id, game, variant, guild_id=guild_id, channel_id=channel_id, seed=seed,
            deck=deck, day=day, kind=kind,
        )
        return self._ctx.known.put(await self._ctx.store.write(insert_run, *new))

    async def open_practice(
        self,
        owner_id: int,
        game: str,
        variant: str | None = None,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> PracticeStart:
        """``/play``: the player's unfinished practice run of ``game`` (the most recently
        played), or else a new random deal, in one write transaction."""
        engine = check_game(game)
        check_variant(engine, variant)  # a bad option is refused before the write

        def deal() -> tuple[NewRun, Any]:
            # Dealt inside the transaction, and only when no run is found (a shuffle, no
            # I/O): a resumed run costs no deal and uses up no seed.
            return self.deal(owner_id, engine.key, variant, guild_id=guild_id,
                             channel_id=channel_id)

        started: PracticeStart = await self._ctx.store.write(
            _open_practice_tx, check_id(owner_id, "user"), engine.key, deal)
        self._ctx.known.put(started.run)
        return started

    def deal(
        self,
        owner_id: int,
        game: str,
        variant: str | None = None,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        seed: int | None = None,
        deck: Sequence[str] | None = None,
        day: str | None = None,
        kind: RunKind = RunKind.PRACTICE,
    ) -> tuple[NewRun, Any]:
        """The row and engine state of a new run, not yet stored (checked, dealt now)."""
        engine = check_game(game)
        variant = check_variant(engine, variant)
        owner_id = check_id(owner_id, "user")
        guild_id = check_optional_id(guild_id, "server")
        channel_id = check_optional_id(channel_id, "channel")
        if seed is None:
            seed = self._ctx.random_seed()
        try:
            state = engine.new(check_seed(seed), variant, deck)
        except ValueError as exc:
            raise BadRequest(N_("That deal cannot be dealt: {why}."), why=str(exc)) from None
        view = engine.view(state)
        over = bool(view["over"])
        now = self._ctx.now()
        row = NewRun(
            owner_id=owner_id, guild_id=guild_id, channel_id=channel_id, game=engine.key,
            variant=variant, seed=seed, deck=None if deck is None else tuple(deck),
            kind=kind.value, day=day, status=(RunStatus.OVER if over else RunStatus.PLAYING).value,
            outcome=view["outcome"], score=list(view["score"]), state=engine.dump(state),
            ranked=over,  # ended before any move: the deal is its own replay
            rules=engine.rules_tag, now=now, finished_at=now if over else None,
            score_text=view["score_text"], points=_points(engine, view["score"]),
        )
        return row, state

    def redeal(
        self,
        dealt: tuple[NewRun, Any],
        owner_id: int,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> tuple[NewRun, Any]:
        """The same deal as ``dealt`` (:meth:`deal`'s result) dealt now to ``owner_id``: its
        row made theirs, its engine state shared (states are immutable). The daily deals each
        day's deal once (``core.daily``)."""
        row, state = dealt
        now = self._ctx.now()
        return dataclasses.replace(
            row, owner_id=check_id(owner_id, "user"),
            guild_id=check_optional_id(guild_id, "server"),
            channel_id=check_optional_id(channel_id, "channel"),
            now=now, finished_at=None if row.finished_at is None else now,
        ), state

    # ----- reading ------------------------------------------------------------------------

    async def get(self, run_id: int) -> Run:
        """The run; ``RunNotFound`` if there is none."""
        run_id = check_run_id(run_id)
        try:
            try:
                run = await self._ctx.store.read(get_run, run_id, False)
            except _NeedsRepair:
                run = await self._ctx.store.write(get_run, run_id, True)
        except (RunNotFound, BrokenRun):
            # Gone or broken under this process (an edit that bypassed the bot): what it knew
            # of the run is no longer to be trusted, not even by the next write.
            self._ctx.known.forget(run_id)
            raise
        return self._ctx.known.put(run)

    async def shown(self, run_id: int, version: int) -> Run:
        """The run, for a board's step that writes nothing (a two-step board's first step, the
        question before resigning): the run as this process last saw it committed when that
        is the ``version`` the board showed, else as read (``get``).

        Only another process's write since can make the first answer out of date: the board
        then offers its step on a version already gone, and the step's write, which checks
        the version in its own transaction, refuses it as a stale board."""
        known = self._ctx.known.at(check_run_id(run_id), version)
        return known if known is not None else await self.get(run_id)

    async def version(self, run_id: int) -> int:
        """The run's version (its write count) alone, without loading its state;
        ``RunNotFound`` if there is no such run."""
        return await self._ctx.store.read(_version_tx, check_run_id(run_id))

    async def unfinished(self, owner_id: int, game: str | None = None) -> list[Run]:
        """The player's runs still being played (of ``game`` if given), most recently played
        first."""
        owner_id = check_id(owner_id, "user")
        try:
            return await self._ctx.store.read(_unfinished_tx, owner_id, game, False)
        except _NeedsRepair:
            return await self._ctx.store.write(_unfinished_tx, owner_id, game, True)

    async def moves(self, run_id: int) -> list[str]:
        """The run's actions in order (the log); ``RunNotFound``."""
        return await self._ctx.store.read(_moves_tx, check_run_id(run_id))

    # ----- playing ------------------------------------------------------------------------

    async def act(self, run_id: int, user_id: int, version: int, action: str) -> Run:
        """Apply one action to the run as the board at ``version`` showed it; the new run.

        Raises ``RunNotFound``, ``NotYourRun``, ``RunOver``, ``StaleBoard`` (the run is no
        longer at ``version``) or ``IllegalMove`` (with the engine's reason); a refusal writes
        nothing. The move row and the new state are committed together, durably.
        """
        run_id = check_run_id(run_id)
        return self._ended(await self._ctx.store.write(
            self._act_tx, run_id, user_id, version, action, self._ctx.now(),
            self._ctx.known.at(run_id, version),
        ))

    async def resign(self, run_id: int, user_id: int, version: int) -> Run:
        """End the run as lost, with its score so far."""
        run_id = check_run_id(run_id)
        return self._ended(await self._ctx.store.write(
            self._resign_tx, run_id, user_id, version, self._ctx.now(),
            self._ctx.known.at(run_id, version),
        ))

    async def undo(self, run_id: int, user_id: int, version: int) -> Run:
        """Take back the last move of a practice run: replay all moves but the last.

        Raises ``CannotUndo`` for another kind of run or a run without moves.
        """
        run_id = check_run_id(run_id)
        return self._ctx.known.put(await self._ctx.store.write(
            self._undo_tx, run_id, user_id, version, self._ctx.now(),
            self._ctx.known.at(run_id, version),
        ))

    async def abandon(
        self, run_id: int, user_id: int, version: int, variant: str | None = None
    ) -> Run:
        """Resign the unfinished run and start a new practice run of its game in ``variant``
        (its own when None), in one transaction: both happen, or neither. The new run."""
        run_id = check_run_id(run_id)
        new = await self._ctx.store.write(
            self._abandon_tx, run_id, user_id, version, variant, self._ctx.now(),
            self._ctx.known.at(run_id, version),
        )
        self._ctx.known.forget(run_id)  # resigned in that write: its row is one version on
        return self._ctx.known.put(new)

    async def mark_hinted(self, run_id: int, user_id: int, version: int) -> Run:
        """Record that the player asked for a hint on this run (shown in stats)."""
        run_id = check_run_id(run_id)
        return self._ctx.known.put(await self._ctx.store.write(
            self._hinted_tx, run_id, user_id, version, self._ctx.now(),
            self._ctx.known.at(run_id, version),
        ))

    def _ended(self, written: tuple[Run, PriorBest | None]) -> Run:
        """The run a committed move or resignation left, remembered with, when it ended the
        run, the player's best before it as that write read it."""
        run, prior = written
        if prior is not None:
            self._ctx.known.put_prior_best(run, prior)
        return self._ctx.known.put(run)

    # ----- transactions -------------------------------------------------------------------

    def _act_tx(
        self, tx: Tx, run_id: int, user_id: int, version: int, action: str, now: str,
        known: Run | None,
    ) -> tuple[Run, PriorBest | None]:
        run = _as_shown(tx, run_id, user_id, version, known)
        try:
            state = run.engine.apply(run.state, action)
        except IllegalAction as exc:
            raise IllegalMove(run, str(exc)) from None
        number = run.moves + 1
        try:
            tx.append_move(run.id, number, action, now)
        except Conflict:
            # The move number is taken although the run row said otherwise: treat as stale.
            raise StaleBoard(run) from None
        return _with_prior_best(tx, self._save(tx, run, state, number, now))

    def _resign_tx(self, tx: Tx, run_id: int, user_id: int, version: int, now: str,
                   known: Run | None) -> tuple[Run, PriorBest | None]:
        run = _as_shown(tx, run_id, user_id, version, known)
        return _with_prior_best(tx, self._finish(tx, run, RunStatus.RESIGNED, now))

    def _undo_tx(self, tx: Tx, run_id: int, user_id: int, version: int, now: str,
                 known: Run | None) -> Run:
        run = _as_shown(tx, run_id, user_id, version, known)
        if run.kind is not RunKind.PRACTICE:
            raise CannotUndo(run, N_("Only practice runs can be undone: every move here counts."))
        if run.moves == 0:
            raise CannotUndo(run, N_("There is no move to undo yet."))
        actions = tx.actions(run.id)[: run.moves - 1]
        state = replay(run.game, run.variant, run.seed, actions, run.deck)
        tx.delete_move(run.id, run.moves)
        return self._save(tx, run, state, run.moves - 1, now)

    def _abandon_tx(
        self, tx: Tx, run_id: int, user_id: int, version: int, variant: str | None, now: str,
        known: Run | None,
    ) -> Run:
        run = _as_shown(tx, run_id, user_id, version, known)
        # Dealt inside the transaction (a shuffle, no I/O): a bad variant refuses before
        # anything is written, and the run cannot change between the check and the write.
        new = self.deal(
            user_id, run.game, variant or run.variant, guild_id=run.guild_id,
            channel_id=run.channel_id,
        )
        self._finish(tx, run, RunStatus.RESIGNED, now)
        return insert_run(tx, *new)

    def _hinted_tx(self, tx: Tx, run_id: int, user_id: int, version: int, now: str,
                   known: Run | None) -> Run:
        run = _as_shown(tx, run_id, user_id, version, known)
        if run.hinted:
            return run
        saved = run.evolve(hinted=True, version=run.version + 1)
        _update(tx, saved, run.version, run.engine.dump(run.state), run.view, now)
        return saved

    # ----- helpers of the transactions ----------------------------------------------------

    def _save(self, tx: Tx, run: Run, state: Any, moves: int, now: str) -> Run:
        """Write ``state`` as the run's state after ``moves`` moves (the log already says so)."""
        engine = run.engine
        dump = engine.dump(state)
        view = engine.view(state)
        over = bool(view["over"])
        saved = run.evolve(
            state=state,
            moves=moves,
            status=RunStatus.OVER if over else RunStatus.PLAYING,
            outcome=view["outcome"],
            score=list(view["score"]),
            version=run.version + 1,
            finished_at=now if over else None,
            updated_at=now,
        )
        if over:
            saved = saved.evolve(ranked=self._ranks(tx, saved, dump, now))
        _update(tx, saved, run.version, dump, view, now)
        saved.__dict__["view"] = view  # Run.view, worked out already (a cached property)
        return saved

    def _finish(self, tx: Tx, run: Run, status: RunStatus, now: str) -> Run:
        """End the run as it stands (``give_up``); it ranks if its window allows and its moves
        replay to it."""
        return give_up(
            tx, run, now,
            ranks=lambda saved: self._ranks(tx, saved, run.engine.dump(run.state), now),
        )

    def _ranks(self, tx: Tx, run: Run, dump: dict[str, Any], now: str) -> bool:
        return self._eligible(run, now) and verified(
            run.engine, run.variant, run.seed, tx.actions(run.id), run.deck, dump, run.id
        )


# ----- transactions shared with the other concerns ------------------------------------------


def insert_run(tx: Tx, new: NewRun, state: Any) -> Run:
    """Store a dealt run (``Runs.deal``) and return it, as stored: one statement, whose row
    comes back with it. ``Conflict`` if a unique key (one daily per player) forbids it."""
    return Run.from_row(tx.insert_run(new), state)


def _with_prior_best(tx: Tx, run: Run) -> tuple[Run, PriorBest | None]:
    """``run`` and, if this write ended it, the player's best before it: its result card's
    first fact, read here on the write's connection rather than in a read of its own after."""
    if not run.over:
        return run, None
    assert run.finished_at is not None
    return run, tx.prior_best(run.owner_id, run.game, run.variant, run.id, run.finished_at)


def give_up(tx: Tx, run: Run, now: str, *, ranks: Callable[[Run], bool]) -> Run:
    """Write the run ended as it stands: resigned, lost, with the score the game gives a run
    given up there (``Game.resigned``: never more than playing on could bring). ``ranks``
    says, of the ended run, whether it ranks. The run must be as read in this transaction."""
    score, text = run.engine.resigned(run.state)
    saved = run.evolve(
        status=RunStatus.RESIGNED, outcome="lost", score=list(score),
        version=run.version + 1, updated_at=now, finished_at=now,
    )
    saved = saved.evolve(ranked=ranks(saved))
    _update(tx, saved, run.version, run.engine.dump(run.state), {"score_text": text}, now)
    return saved


def get_run(tx: Tx, run_id: int, repair: bool) -> Run:
    row = tx.run(run_id)
    if row is None:
        raise RunNotFound(run_id)
    return load(tx, row, repair=repair)


def load(tx: Tx, row: RunRow, *, repair: bool) -> Run:
    """The run of ``row``, its state loaded, or rebuilt by replaying its moves.

    A rebuilt state is written back, so only a write transaction may ``repair``; a read
    transaction raises ``_NeedsRepair`` and the caller retries in a write transaction.
    """
    engine = GAMES.get(row.game)
    if engine is None:
        log.error("run %s: game %r is not installed", row.id, row.game)
        raise BrokenRun(row.id)
    if row.rules != engine.rules_tag:
        log.warning("run %s: dealt under rules %s, this bot has %s", row.id, row.rules,
                    engine.rules_tag)
        raise BrokenRun(row.id, Message(
            N_("This run was dealt under older {game} rules ({rules}) that this version of the "
               "bot no longer plays, so it cannot be resumed."),
            {"game": engine.title, "rules": row.rules},
        ))
    try:
        state = engine.load(row.state)
    except ValueError as exc:
        if not repair:
            raise _NeedsRepair from exc
        state = _rebuild(tx, engine, row, exc)
    return Run.from_row(row, state)


def verified(
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
        log.warning("run %s: its %d moves do not replay (%s); not ranked", run_id, len(actions),
                    exc)
        return False
    if replayed != dump:
        log.warning("run %s: replaying its %d moves gives another result than the one stored; "
                    "not ranked", run_id, len(actions))
        return False
    return True


def _as_shown(tx: Tx, run_id: int, user_id: int, version: int, known: Run | None) -> Run:
    """The run, if it is the clicker's, still being played, and at the board's version.

    ``known``: the run as this process last saw it committed at ``version``
    (``core.known``); while the row is still at that version (one integer read, which on
    PostgreSQL locks the row as reading it whole would) it is the row, and the row is not
    read and decoded again."""
    if known is not None and known.id == run_id and tx.run_version(run_id) == known.version:
        run = known
    else:
        run = get_run(tx, run_id, True)
    if run.owner_id != user_id:
        raise NotYourRun(run)
    if run.over:
        raise RunOver(run)
    if run.version != version:
        raise StaleBoard(run)
    return run


def _update(
    tx: Tx, run: Run, expected: int, dump: dict[str, Any], view: dict[str, Any], now: str
) -> None:
    change = RunChange(
        id=run.id, expected=expected, state=dump, moves=run.moves, score=list(run.score),
        status=run.status.value, outcome=run.outcome, ranked=run.ranked, now=now,
        finished_at=run.finished_at, hinted=run.hinted, score_text=view["score_text"],
        points=_points(run.engine, run.score),
    )
    if not tx.update_run(change):  # cannot happen in one write transaction; never overwrite
        raise StaleBoard(get_run(tx, run.id, True))


def _points(engine: Game[Any], score: Sequence[int]) -> int:
    index, _ = engine.stat
    return int(score[index]) if index < len(score) else 0


def _unfinished_tx(tx: Tx, owner_id: int, game: str | None, repair: bool) -> list[Run]:
    return [load(tx, row, repair=repair) for row in tx.unfinished(owner_id, game)]


def _open_practice_tx(
    tx: Tx, owner_id: int, game: str, deal: Callable[[], tuple[NewRun, Any]]
) -> PracticeStart:
    for run in _unfinished_tx(tx, owner_id, game, True):
        if run.kind is RunKind.PRACTICE:
            return PracticeStart(run, created=False)
    return PracticeStart(insert_run(tx, *deal()), created=True)


def _moves_tx(tx: Tx, run_id: int) -> list[str]:
    if tx.run(run_id) is None:
        raise RunNotFound(run_id)
    return tx.actions(run_id)


def _rebuild(tx: Tx, engine: Game[Any], row: RunRow, why: Exception) -> Any:
    """Replay the run's logged moves from its deal, and store the result as its state."""
    actions = tx.actions(row.id)[: row.moves]
    try:
        if len(actions) != row.moves:
            raise ValueError(f"the log holds {len(actions)} moves, the run says {row.moves}")
        state = replay(engine.key, row.variant, row.seed, actions, row.deck)
    except ValueError as exc:  # IllegalAction included: the log no longer replays
        log.error("run %s: cannot rebuild its state (%s) by replay: %s", row.id, why, exc)
        raise BrokenRun(row.id) from exc
    tx.update_state(row.id, row.version, engine.dump(state))
    log.info("run %s: stored state not loadable (%s); rebuilt from %d moves", row.id, why,
             row.moves)
    return state


def _version_tx(tx: Tx, run_id: int) -> int:
    version = tx.run_version(run_id)
    if version is None:
        raise RunNotFound(run_id)
    return version
