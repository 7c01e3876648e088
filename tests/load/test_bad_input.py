"""Bad input through the payload path the bot really uses (the stand-in's gateway and REST,
the bot process unmodified): random and near-miss custom ids, slash command options of the
wrong type or outside the choices, control characters and very long unicode.

Each gets a clear ephemeral answer, an unchanged board, or is ignored; never an error id or
a traceback in the log; and the ``runs`` and ``moves`` tables stay byte-for-byte unchanged.
Forged ids are made by altering ids read off real boards (and the first release's format,
for old-format ids), never by building the bot's current format.
"""

from __future__ import annotations

import asyncio
import copy
import re
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bench._standin import payloads as p
from bench._standin.ids import parse_move
from bench._standin.players import command_options, moves_on, playable_on
from rules import GAMES

ALICE, BOB = 501, 502
#: User, channel, role, mentionable and attachment options: discord.py hands a value of
#: another type to the command as it is.
SNOWFLAKE_TYPES = (6, 7, 8, 9, 11)
OPTION_TYPES = (p.OPTION_STRING, p.OPTION_INTEGER, p.OPTION_BOOLEAN, p.OPTION_NUMBER)
PREFIXES = ("", "d", "dd", "dd.", "dd:", "dd.x", "DD.m", "dd.mm", "ddm", "dd.c", "dd.m.", "xx",
            "ddc", "dd.m:dd.m")

nasty_text = st.lists(
    st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from(
        ["\x00", "\n", "\r", "\t", "\x1b[31m", "\u202e", "\u200b", "\ufeff", "🃏", "̸"]),
    max_size=40,
).map("".join)
long_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)),
                    min_size=101, max_size=600).map(lambda s: s * 8)


@dataclass(repr=False)
class World:
    """Alice's three runs one move in, Bob's finished run, and the tables as they were."""

    boards: dict[str, int]  # game -> Alice's board message id
    old: dict[str, dict[str, Any]]  # game -> that board before its first move
    actions: dict[str, list[str]]  # game -> actions seen on its boards
    legal: set[tuple[int, int, str]]  # (run, version, action) Alice may play now
    real_ids: list[str]
    finished: int  # Bob's finished board
    finished_run: int
    tables: Any


@pytest.fixture(scope="module")
def world(live_bot) -> World:
    discord = live_bot.discord
    boards, old, actions = {}, {}, {}
    for game in GAMES:
        while game not in boards:  # until a run survives its first move (Donsol's joker)
            started = live_bot.send(lambda g=game: discord.command(
                ALICE, "play", command_options(discord.commands["play"], g)), 5)
            assert started.message_id and not started.ephemeral
            board = started.message_id
            first = _moves_shown(live_bot, board)
            actions[game] = [parse_move(i).action for i in first]
            old[game] = copy.deepcopy(discord.messages[board])
            clicked = live_bot.send(lambda b=board, i=first[-1]: discord.click(ALICE, b, i), 5)
            assert clicked.answered_at and not clicked.ephemeral
            if then := _moves_shown(live_bot, board):
                actions[game] += [parse_move(i).action for i in then]
                boards[game] = board
    finished = live_bot.send(lambda: discord.command(
        BOB, "play", command_options(discord.commands["play"], "donsol")), 5).message_id
    finished_run = parse_move(_live_moves(discord.messages[finished])[0]).run_id
    while moves := _live_moves(discord.messages[finished]):
        live_bot.send(lambda i=moves[0]: discord.click(BOB, finished, i), 5)
    legal = {parse_move(i)[:3] for b in boards.values()
             for i in _live_moves(discord.messages[b])}
    # Move buttons only: a control clicked as it is (Undo, Play again) does what it says.
    real_ids = sorted({i for m in boards.values() for i in _live_moves(discord.messages[m])}
                      | {i for m in old.values() for i in _live_moves(m)})
    return World(boards, old, actions, legal, real_ids, finished, finished_run,
                 live_bot.tables())


def _live_moves(message: dict[str, Any]) -> list[str]:
    return moves_on(message, lambda i: parse_move(i) is not None)


def _moves_shown(live_bot, board: int) -> list[str]:
    """The board's moves; on a two-step board's first step (Clear's "which card?") Alice
    chooses the first card first, a click that only redraws."""
    discord = live_bot.discord
    message = discord.messages[board]
    if not _live_moves(message) and (steps := playable_on(message, lambda i: False)):
        live_bot.send(lambda: discord.click(ALICE, board, steps[0]), 5)
    return _live_moves(discord.messages[board])


def _plays_a_legal_move(world: World, user: int, custom_id: str) -> bool:
    """Whether the id would, read leniently, name a move Alice may play: not bad input.
    (Old-format ids count too: they are the current format of the bot's first release.)"""
    m = re.fullmatch(r"dd(?:\.m)?:0*([0-9]+):0*([0-9]+):(.*)", custom_id, re.S)
    return user == ALICE and bool(m) and (int(m[1]), int(m[2]), m[3]) in world.legal


@st.composite
def forged_ids(draw: st.DrawFn, world: World) -> str:
    real = draw(st.sampled_from(world.real_ids))
    how = draw(st.sampled_from(["prefix", "number", "action", "other game", "legacy",
                                "garbage", "long", "cut", "as is"]))
    if how == "prefix":
        return draw(st.sampled_from(PREFIXES)) + real.split(":", 1)[-1]
    if how == "number":
        groups = list(re.finditer(r"[0-9]+", real)) or [re.search(r"$", real)]
        g = draw(st.sampled_from(groups))
        number = draw(st.integers(-(10**40), 10**40) | st.sampled_from([0, -1, 2**63, 2**64]))
        return real[: g.start()] + str(number) + real[g.end():]
    if how in ("action", "other game"):
        move = parse_move(real)
        if how == "action":
            action = draw(st.from_regex(r"[a-z]{1,12}( [0-9A-Za-z]{1,4}){0,4}", fullmatch=True)
                          | nasty_text)
        else:
            action = draw(st.sampled_from([a for acts in world.actions.values() for a in acts]))
        return real[: len(real) - len(move.action)] + action
    if how == "legacy":  # the first release's ids: dd:<run>:<move>:<action>, ddc:<verb>:<run>:<n>
        move = parse_move(real)
        if draw(st.booleans()):
            # Bob's finished run, or none: on Alice's runs these are her controls to the
            # first release (undo, confirm), and "again" starts a run; not bad input.
            verb = draw(st.sampled_from(["undo", "resign", "confirm", "board"]))
            run = draw(st.sampled_from([world.finished_run, 10**6 + draw(st.integers(0, 99))]))
            return f"ddc:{verb}:{run}:{draw(st.integers(0, 99))}"
        return f"dd:{move.run_id}:{move.version}:{move.action}"
    if how == "garbage":
        return draw(st.sampled_from(["", "dd", "dd.m:", "x"])) + draw(nasty_text)
    if how == "long":
        return draw(st.sampled_from(["dd.m:", "dd:", ""])) + draw(long_text)
    if how == "cut":
        return real[: draw(st.integers(0, max(0, len(real) - 1)))]
    return real  # as it is, clicked by someone else or on a finished run


def check_answer(live_bot, world: World, record) -> None:
    """The one answer (if any) is a calm ephemeral note or the board as it was."""
    assert record.refused == []
    if record.answered_at is None:
        return  # ignored: allowed
    assert "error id" not in record.text, record.text
    kind = record.response["type"]
    if kind == p.UPDATE_MESSAGE:  # a stale or old-format board brought up to date
        assert record.message_id == record.source_message
    else:
        assert kind == p.CHANNEL_MESSAGE and record.ephemeral, record.response
        assert record.text.strip()
    assert live_bot.tables() == world.tables


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_forged_and_near_miss_custom_ids_change_nothing(live_bot, world, data):
    discord = live_bot.discord
    custom_id = data.draw(forged_ids(world), label="custom_id")
    user = data.draw(st.sampled_from([ALICE, ALICE, BOB]), label="user")
    assume(not _plays_a_legal_move(world, user, custom_id))
    where = data.draw(st.sampled_from([*GAMES, "old", "finished"]), label="board")
    if where == "old":
        game = data.draw(st.sampled_from(list(GAMES)))
        board, shown = world.boards[game], world.old[game]
    elif where == "finished":
        board, shown = world.finished, None
    else:
        board, shown = world.boards[where], None
    wait = 1.0 if custom_id.startswith("dd") else 0.1  # a late answer is checked at the end

    record = live_bot.send(lambda: discord.click(user, board, custom_id, message=shown), wait)

    check_answer(live_bot, world, record)
    for game, message_id in world.boards.items():  # every board still offers what it did
        ids = {parse_move(i)[:3] for i in _live_moves(discord.messages[message_id])}
        assert ids <= world.legal, game


#: One of every kind of button the bot sends, ``{n}`` standing for one of its numbers
#: (leaderboard pages, replays, challenges, series, controls, moves, the first release's).
EVERY_KIND = (
    "dd.lb:donsol:normal:2026-01-01:s:{n}:0", "dd.lb:tomb:normal:w2026-11-30:g:0:{n}",
    "dd.rp:{n}:0:o", "dd.rp:1:{n}:n", "dd.ch:acc:{n}", "dd.ch:close:{n}",
    "dd.se:next:{n}:1", "dd.se:next:1:{n}", "dd.se:new:{n}", "dd.c:undo:{n}:0:",
    "dd.c:show:{n}:0:p", "dd.c:abandon:1:{n}:hard", "dd.m:{n}:0:escape", "dd:{n}:0:escape",
    "ddc:undo:{n}:0",
)
#: Numbers no button carries: other scripts' digits (``str.isdigit`` accepts them), past a
#: 64-bit column, signed, spaced, empty.
bad_numbers = st.one_of(
    st.text(st.characters(categories=("Nd", "No")).filter(lambda c: not "0" <= c <= "9"),
            min_size=1, max_size=3).flatmap(
        lambda odd: st.sampled_from(["", "1", "12"]).map(lambda d: d + odd)),
    st.integers(2**63, 10**19 - 1).map(str),
    st.integers(-(10**19), -1).map(str),
    st.sampled_from(["", " 1", "1 ", "+1", "0x1", "1e3", "1_000", "９"]),
)


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_forged_ids_of_every_kind_of_button_change_nothing(live_bot, world, data):
    discord = live_bot.discord
    template = data.draw(st.sampled_from(EVERY_KIND), label="kind")
    custom_id = template.format(n=data.draw(bad_numbers, label="number"))
    user = data.draw(st.sampled_from([ALICE, BOB]), label="user")
    board = data.draw(st.sampled_from([*world.boards.values(), world.finished]), label="board")

    record = live_bot.send(lambda: discord.click(user, board, custom_id), 1.0)

    check_answer(live_bot, world, record)
    assert live_bot.answered(record), custom_id
    assert "damaged" in record.text, (custom_id, record.text)


VALUES = {
    p.OPTION_STRING: lambda choices: st.one_of(
        nasty_text, long_text, st.sampled_from([*choices, *GAMES, "", " "]),
        st.sampled_from(choices).map(lambda c: f" {c.upper()} "),
        st.sampled_from(choices).map(lambda c: c + "\x00")),
    p.OPTION_INTEGER: lambda choices: st.integers(-(2**53), 2**53),
    p.OPTION_BOOLEAN: lambda choices: st.booleans(),
    p.OPTION_NUMBER: lambda choices: st.floats(allow_nan=False, allow_infinity=False,
                                               width=32) | st.integers(-(2**53), 2**53),
}


@st.composite
def bad_commands(draw: st.DrawFn, commands: dict[str, dict[str, Any]]) -> tuple[str, list]:
    name = draw(st.sampled_from(sorted(commands)))
    schema = commands[name].get("options") or []
    options: list[dict[str, Any]] = []
    for option in schema:
        if not draw(st.booleans()) and not option.get("required"):
            continue
        # The type field always matches the value (Discord checks that much); it need not
        # be the type the command declares, nor the value one of its choices.
        kind = draw(st.sampled_from(OPTION_TYPES))
        choices = [str(c["value"]) for c in option.get("choices") or []] or ["donsol"]
        value = draw(VALUES[kind](choices))
        options.append({"name": option["name"], "type": kind, "value": value})
    if draw(st.booleans()):  # an option the command does not have
        kind = draw(st.sampled_from(OPTION_TYPES))
        options.append({"name": draw(st.from_regex(r"[a-z_]{1,20}", fullmatch=True)),
                        "type": kind, "value": draw(VALUES[kind](["x"]))})
    return name, options


def _valid(schema: dict[str, Any], options: list[dict[str, Any]]) -> bool:
    """Whether the invocation may be valid, read leniently: discord.py drops options the
    command does not declare, a choice may be matched ignoring case and spaces, and plain
    free text or a modest number may be what the command expects."""
    declared = {o["name"]: o for o in schema.get("options") or []}
    given = {o["name"]: o for o in options if o["name"] in declared}
    if any(o.get("required") and n not in given for n, o in declared.items()):
        return False
    for name, option in given.items():
        spec, value = declared[name], option["value"]
        expected = {3: str, 4: int, 5: bool, 10: (int, float)}.get(spec["type"], str)
        if not isinstance(value, expected) or (spec["type"] == 4 and isinstance(value, bool)):
            return False
        choices = [str(c["value"]).strip().lower() for c in spec.get("choices") or []]
        if choices and str(value).strip().lower() not in choices:
            return False
        if not choices and spec["type"] == p.OPTION_STRING and not _plain(value):
            return False  # free text with control characters, or long: bad input
        if not choices and spec["type"] == p.OPTION_INTEGER and not 0 <= value <= 10**6:
            return False  # a negative or huge count or id: bad input
    return True


def _plain(text: str) -> bool:
    return len(text) <= 40 and text.isprintable() and text.isascii()


@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_slash_commands_with_bad_options_change_nothing(live_bot, world, data):
    discord = live_bot.discord
    name, options = data.draw(bad_commands(discord.commands), label="command")
    assume(not _valid(discord.commands[name], options))  # only bad input: a valid one may
    # rightly start a run (/play, /daily, /challenge, /series...)
    user = data.draw(st.sampled_from([ALICE, BOB, 503]), label="user")

    record = live_bot.send(lambda: discord.command(user, name, options), 2.0)

    check_answer(live_bot, world, record)


def test_nothing_was_logged_as_an_error_and_nothing_answered_twice(live_bot, world):
    live_bot.call(asyncio.sleep(3.2))  # any late answer has come by now
    records = list(live_bot.discord.interactions.values())
    assert len(records) > 200
    assert [r.refused for r in records if r.refused] == []
    assert [r.text for r in records if "error id" in r.text] == []
    log = live_bot.bot.log_text()
    assert [line for line in log.splitlines() if "ERROR" in line] == []
    assert "Traceback" not in log
    assert live_bot.tables() == world.tables


# Options of the wrong kind, or outside the choices: refused in one sentence, nothing started.

@pytest.mark.parametrize(("kind", "value"), [(p.OPTION_STRING, "chess"), (p.OPTION_INTEGER, 7)])
def test_rules_with_a_game_outside_the_choices_is_refused_calmly(live_bot, world, kind, value):
    discord = live_bot.discord
    record = live_bot.send(lambda: discord.command(
        ALICE, "rules", [{"name": "game", "type": kind, "value": value}]), 2.0)

    assert live_bot.answered(record)
    assert record.ephemeral
    assert "error id" not in record.text, record.text


@pytest.mark.parametrize("option", [
    {"name": "private", "type": p.OPTION_STRING, "value": "yes"},
    {"name": "private", "type": p.OPTION_INTEGER, "value": 1},
    {"name": "day", "type": p.OPTION_INTEGER, "value": 20261130},
])
def test_play_with_an_option_of_the_wrong_type_is_refused_and_starts_nothing(
        live_bot, world, option):
    discord = live_bot.discord
    if option["name"] not in {o["name"] for o in discord.commands["play"]["options"]}:
        pytest.fail(f"/play has no {option['name']} option any more: update this test")
    game = {"name": "game", "type": p.OPTION_STRING, "value": "tomb"}
    before = live_bot.tables()
    record = live_bot.send(lambda: discord.command(503, "play", [game, option]), 2.0)

    assert live_bot.answered(record)
    assert "error id" not in record.text, record.text
    assert record.ephemeral
    assert live_bot.tables() == before


def test_a_user_option_of_the_wrong_type_is_refused_calmly(live_bot, world):
    discord = live_bot.discord
    found = [(name, o["name"]) for name, c in sorted(discord.commands.items())
             for o in c.get("options") or [] if o.get("type") in SNOWFLAKE_TYPES]
    if not found:
        pytest.skip("no command takes a user, channel or role option")
    for name, option in found:
        record = live_bot.send(lambda n=name, o=option: discord.command(
            ALICE, n, [{"name": o, "type": p.OPTION_STRING, "value": "someone"}]), 2.0)

        assert live_bot.answered(record)
        assert "error id" not in record.text, (name, record.text)
        assert record.ephemeral
