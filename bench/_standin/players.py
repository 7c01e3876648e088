"""Simulated players: they start runs with the bot's slash commands and click move buttons
read off their boards, as a person would, and now and then a click that must change nothing.

Every interaction a player sends becomes an :class:`Outcome` in the shared :class:`Load`, so
the benchmark can time them and the checks can hold the bot to its answers: a legit click
answered with an updated board *promised* its move (:attr:`Outcome.promised`).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench._standin import payloads as p
from bench._standin.ids import Move, is_move, is_step, parse_move
from bench._standin.server import DEADLINE, Interaction, StandIn

OTHER_USER = 1 << 40  # added to a player's id: "someone else" clicking that player's board
BAD_KINDS = ("stale", "other", "forged")


@dataclass
class Outcome:
    """One interaction a player sent, and what it was meant to be."""

    record: Interaction
    kind: str  # "start", "click", or one of BAD_KINDS
    game: str
    promised: Move | None = None


@dataclass
class Load:
    """What the players of one phase share: the stand-in, the rules of play, the outcomes."""

    discord: StandIn
    games: tuple[str, ...]
    is_move: Callable[[str], bool] = is_move
    bad_rate: float = 0.05
    outcomes: list[Outcome] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    #: The commands that start runs: ``("play",)`` plays practice runs only.
    commands: tuple[str, ...] = ("play", "daily")

    def starts(self) -> list[tuple[str, str]]:
        """(command, game) pairs a player cycles through: ``/play`` for every game, and
        ``/daily`` too when the bot has synced one (and ``commands`` has it)."""
        found = [("play", game) for game in self.games]
        if "daily" in self.commands and "daily" in self.discord.commands:
            found += [("daily", game) for game in self.games]
        return found


def command_options(schema: dict[str, Any], game: str) -> list[dict[str, Any]] | None:
    """Options for a synced command: ``game`` for its game option, the first choice for any
    other required one; None when the command cannot take ``game``."""
    options: list[dict[str, Any]] = []
    for option in schema.get("options") or []:
        choices = [c["value"] for c in option.get("choices") or []]
        if option["name"] == "game":
            if choices and game not in choices:
                return None
            value: Any = game
        elif option.get("required"):
            if not choices:
                return None
            value = choices[0]
        else:
            continue
        options.append({"name": option["name"], "type": option["type"], "value": value})
    return options


def moves_on(message: dict[str, Any], is_move_id: Callable[[str], bool]) -> list[str]:
    """The custom ids of the enabled move buttons on a board."""
    return [b["custom_id"] for b in p.buttons(message)
            if not b.get("disabled") and is_move_id(b.get("custom_id") or "")]


def playable_on(message: dict[str, Any], is_move_id: Callable[[str], bool]) -> list[str]:
    """What a player clicks next on a board: its moves, or, on a two-step board's first step
    (Clear's "which card?"), the cards to choose (such a click only redraws the board)."""
    return moves_on(message, is_move_id) or [
        b["custom_id"] for b in p.buttons(message)
        if not b.get("disabled") and is_step(b.get("custom_id") or "")
    ]


async def answered(record: Interaction) -> bool:
    """Wait for the interaction's first response (or Discord's deadline); whether it came."""
    try:
        await asyncio.wait_for(record.done.wait(), DEADLINE + 0.5)
    except TimeoutError:
        return False
    return record.answered_at is not None


async def play(load: Load, user_id: int, seed: int, pace: float | None,
               quota: int | None = None) -> None:
    """One player until ``load.stop`` (or until it has sent ``quota`` clicks): runs one after
    another, a click about every ``pace`` seconds (None: each click as soon as the last one
    is answered)."""
    rng = random.Random(seed)
    starts = load.starts()
    rng.shuffle(starts)
    dailies_done: set[str] = set()
    if pace:
        await asyncio.sleep(rng.uniform(0, pace))
    turn = 0
    left = [quota if quota is not None else -1]  # clicks still to send (-1: no end)
    while not load.stop.is_set() and left[0] != 0:
        command, game = starts[turn % len(starts)]
        turn += 1
        if command == "daily":
            if game in dailies_done:  # one daily per game a day
                continue
            dailies_done.add(game)
        board = await _start(load, user_id, command, game)
        if board is None:
            await asyncio.sleep(pace or 0.05)
            continue
        await _play_run(load, user_id, game, board, rng, pace, left)


async def _start(load: Load, user_id: int, command: str, game: str) -> int | None:
    options = command_options(load.discord.commands.get(command, {}), game)
    if options is None:
        return None
    await load.discord.wait_connected()
    record = load.discord.command(user_id, command, options)
    load.outcomes.append(Outcome(record, "start", game))
    if not await answered(record) or record.message_id is None:
        return None
    if (record.response or {}).get("type") == p.DEFERRED_CHANNEL_MESSAGE:
        for _ in range(int(DEADLINE / 0.05)):  # the board comes by editing the original
            if playable_on(load.discord.messages[record.message_id], load.is_move):
                break
            await asyncio.sleep(0.05)
    # A board may be ephemeral (a daily's, or with private:true); a refusal has no moves.
    return record.message_id if playable_on(load.discord.messages[record.message_id],
                                         load.is_move) else None


async def _play_run(load: Load, user_id: int, game: str, board: int, rng: random.Random,
                    pace: float | None, left: list[int]) -> None:
    discord = load.discord
    previous: dict[str, Any] | None = None
    failures, doubt = 0, False
    while not load.stop.is_set() and failures < 5 and left[0] != 0:
        current = discord.messages.get(board)
        if current is None or not (moves := playable_on(current, load.is_move)):
            return  # the run is over
        if pace:
            await asyncio.sleep(rng.uniform(0.5 * pace, 1.5 * pace))
            if load.stop.is_set():
                return
            current = discord.messages[board]
            moves = playable_on(current, load.is_move) or moves
        if rng.random() < load.bad_rate:
            await _bad_click(load, user_id, game, board, current, previous, moves, rng)
            continue
        await discord.wait_connected()
        current = discord.messages[board]
        moves = playable_on(current, load.is_move) or moves
        snapshot = p.copied(current)
        chosen = rng.choice(moves)
        record = discord.click(user_id, board, chosen)
        left[0] -= 1
        outcome = Outcome(record, "click", game)
        load.outcomes.append(outcome)
        ok = await answered(record)
        if ok and not record.ephemeral and (record.response or {}).get("type") == p.UPDATE_MESSAGE:
            outcome.promised = _promise(parse_move(chosen), discord.messages[board], doubt)
            previous, failures, doubt = snapshot, 0, False
        else:
            failures += 1
            doubt = doubt or not ok  # an answer was lost: the next reply may be a refresh


def _promise(clicked: Move | None, reply: dict[str, Any], doubt: bool) -> Move | None:
    """The move a click answered with ``reply`` (the updated board) promised: the clicked
    move, unless the reply may only have brought the board up to date. It may when an earlier
    answer was lost (``doubt``: the board the player clicked was out of date, and the bot's
    refresh shows the next version too), or when it shows another version."""
    if clicked is None or doubt:
        return None
    shown = [m.version for b in p.buttons(reply) if (m := parse_move(b.get("custom_id", "")))]
    return clicked if not shown or shown[0] == clicked.version + 1 else None


async def _bad_click(load: Load, user_id: int, game: str, board: int, current: dict[str, Any],
                     previous: dict[str, Any] | None, moves: list[str],
                     rng: random.Random) -> None:
    """A click that must change nothing: on an older copy of the board, by someone else, or
    with a forged id (a real one, altered)."""
    kind = rng.choice(BAD_KINDS)
    await load.discord.wait_connected()
    if kind == "stale" and previous is not None and (old := moves_on(previous, load.is_move)):
        record = load.discord.click(user_id, board, rng.choice(old), message=previous)
    elif kind == "forged":
        record = load.discord.click(user_id, board, forge(rng.choice(moves), rng))
    else:
        kind = "other"
        record = load.discord.click(user_id + OTHER_USER, board, rng.choice(moves))
    load.outcomes.append(Outcome(record, kind, game))
    await answered(record)


def forge(custom_id: str, rng: random.Random) -> str:
    """A real id altered as a modified client could: another run, a huge number, an action
    the board does not offer, or cut short."""
    how = rng.randrange(4)
    if how == 0:
        return re.sub(r"[0-9]+", lambda m: str(int(m[0]) + 1_000_000_007), custom_id, count=1)
    if how == 1:
        return re.sub(r"[0-9]+", "9" * 19, custom_id, count=1)
    if how == 2:
        return custom_id + "Z"
    return custom_id[: max(1, len(custom_id) // 2)]
