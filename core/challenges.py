"""Challenges between friends: one fresh deal that several players each play once.

- **Making one.** ``create`` deals a fresh seed and starts the challenger's own run of it in
  the same transaction: the challenger plays too, from the start.
- **Accepting.** Anyone (or, when the challenge names an opponent, only that player) gets
  their own run of exactly that deal, once: a unique key (challenge, player) makes a second
  accept bring the same run back. A late accept (the deadline passed, or the challenge was
  closed) is refused with a clear sentence.
- **The card** lists every player: finished runs ranked by the game's score, compared as
  lists, higher first, equal scores sharing a rank and listed by name; runs still being
  played below. The seed is never handed out while anyone can still play the deal: only a
  closed challenge reveals it.
- **Closing.** At the stored deadline (``close_due``, run by the bot every ~30 s and on
  start-up, so a deadline that passed during a restart closes the card when it comes back),
  or by the challenger (``close``). A run still being played then is finished as it stands
  (resigned, its score so far, marked unfinished on the card), one transaction per run with
  the run's version checked: a move that lands first counts, a move after is refused as the
  run is over.
- **Stats.** A challenge run is a run of its game (``RunKind.CHALLENGE``), never a daily, so
  it never touches the daily boards or streaks. A player *won* a challenge when it is closed,
  someone else played it too, and nobody scored higher (a shared first place is a win).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from core.checks import check_game, check_id, check_optional_id, check_variant
from core.clock import parse_timestamp, timestamp
from core.context import Context
from core.errors import N_, Refusal
from core.model import Run, RunKind, RunStatus
from core.runs import Runs, give_up, insert_run, load
from rules import GAMES
from store.base import (
    ChallengeEntry,
    ChallengeRow,
    NewChallenge,
    NewRun,
    Tx,
)

#: How long a challenge stays open, in hours: the default and the bounds.
DEFAULT_HOURS = 24
MIN_HOURS, MAX_HOURS = 1, 72
#: Challenges closed per pass of ``close_due`` (the rest wait for the next pass).
CLOSE_BATCH = 100
#: How many open challenges ``/challenges`` lists.
OPEN_LISTED = 20


class ChallengeNotFound(Refusal):
    def __init__(self, challenge_id: object) -> None:
        super().__init__(N_("That challenge does not exist (any more)."))
        self.challenge_id = challenge_id


class ChallengeClosed(Refusal):
    """Accepting after the deadline or the challenger's close."""

    def __init__(self) -> None:
        super().__init__(N_("This challenge is closed: its deal can no longer be accepted."))


class NotForYou(Refusal):
    """The challenge names another opponent."""

    def __init__(self, opponent_id: int) -> None:
        super().__init__(N_("This challenge is for <@{opponent}> only."), opponent=opponent_id)
        self.opponent_id = opponent_id


class NotChallenger(Refusal):
    def __init__(self) -> None:
        super().__init__(N_("Only the player who made this challenge can close it."))


@dataclass(frozen=True)
class Challenge:
    """A challenge as stored. ``seed`` is for the core's own use; show ``revealed_seed``."""

    id: int
    owner_id: int
    opponent_id: int | None
    guild_id: int | None
    channel_id: int | None
    message_id: int | None
    game: str
    variant: str
    created_at: str
    deadline: str
    closed_at: str | None
    seed: int = dataclasses.field(repr=False)

    @classmethod
    def from_row(cls, row: ChallengeRow) -> Challenge:
        return cls(**dataclasses.asdict(row))

    @property
    def closed(self) -> bool:
        return self.closed_at is not None

    @property
    def revealed_seed(self) -> int | None:
        """The deal's seed once the challenge is closed (nobody can play it any more)."""
        return self.seed if self.closed else None

    @property
    def title(self) -> str:
        return GAMES[self.game].title


@dataclass(frozen=True)
class CardLine:
    """One player on a challenge's card: ``rank`` is None while their run is being played."""

    rank: int | None
    owner_id: int
    name: str
    run_id: int
    status: str
    outcome: str | None
    score: list[int]
    score_text: str
    unfinished: bool

    @property
    def playing(self) -> bool:
        return self.status == RunStatus.PLAYING.value


@dataclass(frozen=True)
class Card:
    """What a challenge's card shows: the challenge and its players, best first."""

    challenge: Challenge
    lines: list[CardLine]

    @property
    def finished(self) -> list[CardLine]:
        return [line for line in self.lines if not line.playing]


@dataclass(frozen=True)
class Accepted:
    """What accepting gives: the player's run of the deal, and whether it was dealt now."""

    challenge: Challenge
    run: Run
    created: bool


@dataclass(frozen=True)
class OpenChallenge:
    """One of a player's open challenges, with their run of it (None: not accepted yet)."""

    challenge: Challenge
    run: Run | None


def rank_lines(entries: list[ChallengeEntry]) -> list[CardLine]:
    """The card's lines: finished runs by score (the store's order: score, then name) with
    shared ranks (1, 2, 2, 4), then the runs still being played."""
    lines: list[CardLine] = []
    finished = [e for e in entries if e.status != RunStatus.PLAYING.value]
    playing = [e for e in entries if e.status == RunStatus.PLAYING.value]
    rank, previous = 0, None
    for position, entry in enumerate(finished, start=1):
        if entry.score != previous:
            rank, previous = position, entry.score
        lines.append(CardLine(rank, **dataclasses.asdict(entry)))
    lines += [CardLine(None, **dataclasses.asdict(entry)) for entry in playing]
    return lines


class Challenges:
    """Making, accepting, showing and closing challenges."""

    def __init__(self, ctx: Context, runs: Runs) -> None:
        self._ctx = ctx
        self._runs = runs

    async def create(
        self,
        owner_id: int,
        game: str,
        variant: str | None = None,
        *,
        opponent_id: int | None = None,
        hours: int = DEFAULT_HOURS,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> tuple[Challenge, Run]:
        """A new challenge on a fresh deal, and the challenger's own run of it."""
        engine = check_game(game)
        variant = check_variant(engine, variant)
        owner_id = check_id(owner_id, "user")
        opponent_id = check_optional_id(opponent_id, "user")
        if opponent_id == owner_id:
            raise Refusal(
                N_("Challenge someone else, or leave the opponent out to let anyone in."))
        if isinstance(hours, bool) or not isinstance(hours, int) or not (
            MIN_HOURS <= hours <= MAX_HOURS
        ):
            raise Refusal(N_("A challenge stays open {least} to {most} hours."),
                          least=MIN_HOURS, most=MAX_HOURS)
        seed = self._ctx.random_seed()
        now = self._ctx.clock()
        new = NewChallenge(
            owner_id=owner_id, opponent_id=opponent_id, guild_id=guild_id,
            channel_id=channel_id, game=engine.key, variant=variant, seed=seed,
            created_at=timestamp(now), deadline=timestamp(now + timedelta(hours=hours)),
        )
        dealt = self._runs.deal(
            owner_id, engine.key, variant, guild_id=guild_id, channel_id=channel_id, seed=seed,
            kind=RunKind.CHALLENGE,
        )
        return await self._ctx.store.write(_create_tx, new, dealt)

    async def set_card(self, challenge_id: int, channel_id: int, message_id: int) -> None:
        """Remember where the challenge's card is, so it can be edited as players finish."""
        await self._ctx.store.write(_set_card_tx, challenge_id, channel_id, message_id)

    async def get(self, challenge_id: int) -> Challenge:
        return await self._ctx.store.read(_get_tx, challenge_id)

    async def card(self, challenge_id: int) -> Card:
        """The challenge's card as it stands."""
        return await self._ctx.store.read(_card_tx, challenge_id)

    async def of_run(self, run_id: int) -> int | None:
        """The challenge a run belongs to, if any."""
        return await self._ctx.store.read(_of_run_tx, run_id)

    async def accept(
        self,
        challenge_id: int,
        user_id: int,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Accepted:
        """The player's run of the challenge's deal: dealt now, or the one they have.

        Raises ``ChallengeNotFound``, ``ChallengeClosed`` (too late) or ``NotForYou``.
        """
        user_id = check_id(user_id, "user")
        return await self._ctx.store.write(
            self._accept_tx, challenge_id, user_id, guild_id, channel_id, self._ctx.now()
        )

    async def open_for(self, user_id: int) -> list[OpenChallenge]:
        """The player's open challenges (made, accepted, or naming them), soonest to close
        first, each with the player's run of it."""
        return await self._ctx.store.write(
            _open_tx, check_id(user_id, "user"), self._ctx.now()
        )

    async def close(self, challenge_id: int, user_id: int) -> tuple[Card, bool]:
        """The challenger closes the challenge now; the final card, and whether this call
        closed it (False: it was closed already). ``NotChallenger`` for anyone else."""
        challenge = await self.get(challenge_id)
        if challenge.owner_id != user_id:
            raise NotChallenger()
        closed = await self._close(challenge_id)
        return await self.card(challenge_id), closed

    async def close_due(self) -> list[Card]:
        """Close every open challenge whose deadline has passed; their final cards."""
        due = await self._ctx.store.read(_due_tx, self._ctx.now(), CLOSE_BATCH)
        cards = []
        for challenge_id in due:
            if await self._close(challenge_id):
                cards.append(await self.card(challenge_id))
        return cards

    # ----- closing ------------------------------------------------------------------------

    async def _close(self, challenge_id: int) -> bool:
        """Finish the runs still being played, one transaction each, then close; True if
        this call closed the challenge. Runs accepted in between are finished by the closing
        transaction itself, so a closed challenge never has a run still being played."""
        card = await self.card(challenge_id)
        if card.challenge.closed:
            return False
        for line in card.lines:
            if line.playing:
                await self._ctx.store.write(
                    _finish_unfinished_tx, challenge_id, line.run_id, self._ctx.now()
                )
        return await self._ctx.store.write(_close_tx, challenge_id, self._ctx.now())

    # ----- transactions -------------------------------------------------------------------

    def _accept_tx(
        self, tx: Tx, challenge_id: int, user_id: int, guild_id: int | None,
        channel_id: int | None, now: str,
    ) -> Accepted:
        challenge = _challenge(tx, challenge_id)
        existing = tx.challenge_run(challenge_id, user_id)
        if existing is not None:
            return Accepted(challenge, _load(tx, existing), created=False)
        if challenge.closed or parse_timestamp(now) >= parse_timestamp(challenge.deadline):
            raise ChallengeClosed()
        if challenge.opponent_id is not None and user_id not in (
            challenge.owner_id, challenge.opponent_id
        ):
            raise NotForYou(challenge.opponent_id)
        row, state = self._runs.deal(
            user_id, challenge.game, challenge.variant, guild_id=guild_id,
            channel_id=channel_id, seed=challenge.seed, kind=RunKind.CHALLENGE,
        )
        first = tx.challenge_run(challenge_id, challenge.owner_id)
        owner_run = tx.run(first) if first is not None else None
        if owner_run is not None and owner_run.rules != row.rules:
            raise Refusal(
                N_("This challenge was dealt under other {game} rules ({rules}) than this "
                   "version of the bot plays, so it cannot be accepted any more."),
                game=challenge.title, rules=owner_run.rules,
            )
        run = insert_run(tx, row, state)
        tx.insert_challenge_run(challenge_id, user_id, run.id)
        return Accepted(challenge, run, created=True)


def _challenge(tx: Tx, challenge_id: int) -> Challenge:
    if isinstance(challenge_id, bool) or not isinstance(challenge_id, int):
        raise ChallengeNotFound(challenge_id)
    row = tx.challenge(challenge_id)
    if row is None:
        raise ChallengeNotFound(challenge_id)
    return Challenge.from_row(row)


def _load(tx: Tx, run_id: int) -> Run:
    row = tx.run(run_id)
    assert row is not None  # challenge_runs.run_id references runs
    return load(tx, row, repair=True)


def _create_tx(tx: Tx, new: NewChallenge, dealt: tuple[NewRun, Any]) -> tuple[Challenge, Run]:
    challenge_id = tx.insert_challenge(new)
    run = insert_run(tx, *dealt)
    tx.insert_challenge_run(challenge_id, new.owner_id, run.id)
    return _challenge(tx, challenge_id), run


def _set_card_tx(tx: Tx, challenge_id: int, channel_id: int, message_id: int) -> None:
    _challenge(tx, challenge_id)
    tx.set_challenge_card(challenge_id, channel_id, message_id)


def _get_tx(tx: Tx, challenge_id: int) -> Challenge:
    return _challenge(tx, challenge_id)


def _card_tx(tx: Tx, challenge_id: int) -> Card:
    challenge = _challenge(tx, challenge_id)
    return Card(challenge, rank_lines(tx.challenge_entries(challenge_id)))


def _of_run_tx(tx: Tx, run_id: int) -> int | None:
    return tx.challenge_of_run(run_id)


def _due_tx(tx: Tx, now: str, limit: int) -> list[int]:
    return tx.due_challenges(now, limit)


def _open_tx(tx: Tx, user_id: int, now: str) -> list[OpenChallenge]:
    moment = parse_timestamp(now)
    found = []
    for row in tx.open_challenges(user_id, OPEN_LISTED):
        if parse_timestamp(row.deadline) <= moment:
            continue  # due: the next closing pass closes it
        run_id = tx.challenge_run(row.id, user_id)
        found.append(OpenChallenge(
            Challenge.from_row(row), None if run_id is None else _load(tx, run_id)
        ))
    return found


def _finish_unfinished_tx(tx: Tx, challenge_id: int, run_id: int, now: str) -> None:
    """Finish the run as it stands if it is still being played (read and written in this one
    transaction: the version it was read at is the one the write expects)."""
    row = tx.run(run_id)
    if row is None or row.status != RunStatus.PLAYING.value:
        return  # finished by its player meanwhile: that result stands
    run = load(tx, row, repair=True)
    give_up(tx, run, now, ranks=lambda _: False)  # a challenge's card ranks it, no board
    tx.mark_unfinished(challenge_id, run.owner_id)


def _close_tx(tx: Tx, challenge_id: int, now: str) -> bool:
    if not tx.close_challenge(challenge_id, now):
        return False
    for entry in tx.challenge_entries(challenge_id):
        if entry.status == RunStatus.PLAYING.value:  # accepted while the others were finished
            _finish_unfinished_tx(tx, challenge_id, entry.run_id, now)
    return True
