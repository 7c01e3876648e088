"""The Activity on the Discord side: /table and the boards' Open table button answer with the
launch-activity response (callback type 12), and nothing of it exists while it is off.

simcord 3.2 does not know callback type 12: :func:`launches` teaches its callback route what
Discord does with it (the interaction is answered, no message is made; refused, when asked,
as Discord refuses an app without Activities), and records every callback type it is sent.
The raw harness (``tests.bot.raw``) answers type 12 the same way.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from simcord.backend import errors as simcord_errors
from simcord.http import router as simcord_router
from simcord.http.routes import interactions as simcord_interactions

from bot.buttons import GARBLED
from bot.cogs.table import NOT_IN_A_SERVER, NOT_OPENED, OPEN_TABLE, TABLE_OFF, table_id
from tests.bot.raw import EPHEMERAL, GUILD_ID, LAUNCH_ACTIVITY, FakeDiscord

ALICE = 1001


class Launches:
    """The callback types the bot sent, in order; ``refuse``: Discord will not launch."""

    def __init__(self) -> None:
        self.types: list[int] = []
        self.refuse = False


@pytest.fixture
def launches() -> Iterator[Launches]:
    seen = Launches()
    original = simcord_interactions.interaction_callback

    def callback(ctx: Any) -> Any:
        kind = ctx.body().get("type")
        if kind != LAUNCH_ACTIVITY:
            answer = original(ctx)
            seen.types.append(kind)
            return answer
        record = ctx.backend.interactions.get(ctx.int_arg("interaction_id"))
        if record is None or record.token != ctx.args["token"]:
            raise simcord_errors.unknown_interaction()
        if record.responded:
            raise simcord_errors.already_acknowledged()
        if seen.refuse:
            raise simcord_errors.invalid_form_body("This application has no Activity.")
        record.responded = True
        seen.types.append(kind)
        return {"interaction": {"id": str(record.id), "type": record.type,
                                "activity_instance_id": "i-1", "response_message_id": None,
                                "response_message_loading": False,
                                "response_message_ephemeral": False},
                "resource": {"type": kind, "activity_instance": {"id": "i-1"}}}

    routes = simcord_router._ROUTES["POST"]
    index = next(i for i, (_, handler) in enumerate(routes) if handler is original)
    routes[index] = (routes[index][0], callback)
    try:
        yield seen
    finally:
        routes[index] = (routes[index][0], original)


@pytest.fixture
def simcord_bot(make_bot: Any) -> Any:
    return make_bot(embedded_activity=True)


def table_buttons(world: Any, message: Any) -> list[dict[str, Any]]:
    return [b for b in world.buttons(message) if b["custom_id"].startswith("dd.tb:")]


async def run_state(world: Any, user_id: int) -> list[tuple[int, int, int]]:
    """Every run of a user as (id, version, moves)."""
    runs = await world.core.runs.unfinished(user_id)
    return [(r.id, r.version, r.moves) for r in runs]


async def test_table_answers_with_the_launch_response(world, launches, error_logs):
    result = await world.slash(world.alice, "table")
    assert launches.types == [LAUNCH_ACTIVITY]
    assert result.response is None  # no message: Discord opens the Activity


async def test_table_in_a_dm_says_so_in_one_sentence(world, launches, error_logs):
    result = await world.slash(world.alice.user, "table")
    assert launches.types == [4]
    assert result.ephemeral
    assert result.response.content == NOT_IN_A_SERVER


async def test_when_discord_refuses_the_player_reads_one_sentence(world, launches, caplog,
                                                                  error_logs):
    launches.refuse = True
    result = await world.slash(world.alice, "table")
    assert launches.types == [4]
    assert result.ephemeral and result.response.content == NOT_OPENED
    assert "Discord refused to launch the Activity" in caplog.text
    assert "Traceback" not in caplog.text


async def test_boards_carry_open_table_and_it_launches(world, launches, error_logs):
    board = await world.play(world.alice, "donsol")
    (found,) = table_buttons(world, board)
    run_id = int(found["custom_id"].split(":")[1])
    assert found["label"] == OPEN_TABLE
    assert found["custom_id"] == table_id(run_id)
    before = await run_state(world, world.alice.id)
    assert before[0][0] == run_id
    launches.types.clear()
    await world.click(world.alice, board, found["custom_id"])
    assert launches.types == [LAUNCH_ACTIVITY]
    assert await run_state(world, world.alice.id) == before
    # After a move the redrawn board still offers it, in the controls' row.
    move = world.moves(world.message(board))[0]
    moved = (await world.click(world.alice, board, move["custom_id"])).response
    (again,) = table_buttons(world, moved)
    assert again["custom_id"] == table_id(run_id)
    rows = [[c["custom_id"] for c in row["components"]] for row in moved.components]
    assert again["custom_id"] in rows[-1]


async def test_a_finished_board_offers_it_too(world, launches, error_logs):
    board = await world.play(world.alice, "donsol")
    last = await world.play_to_the_end(world.alice, board, random.Random(5))
    assert len(table_buttons(world, last)) == 1


async def test_someone_elses_open_table_changes_nothing_of_theirs(world, launches, error_logs):
    board = await world.play(world.alice, "donsol")
    (found,) = table_buttons(world, board)
    before = await run_state(world, world.alice.id)
    shown = world.message(board).components
    launches.types.clear()
    await world.click(world.bob, board, found["custom_id"])
    assert launches.types == [LAUNCH_ACTIVITY]  # bob's own table opens for bob
    assert await run_state(world, world.alice.id) == before
    assert await run_state(world, world.bob.id) == []
    assert world.message(board).components == shown


@pytest.mark.parametrize("forged", ["dd.tb:0", "dd.tb:abc", "dd.tb:1:2", "dd.tb:",
                                    "dd.tb:" + "9" * 19, "dd.tb:²"])
async def test_a_forged_open_table_is_refused_calmly(forged, make_bot, error_logs):
    fake = FakeDiscord()
    bot = make_bot(embedded_activity=True)
    await fake.attach(bot)
    fake.command(bot, ALICE, "play", guild_id=GUILD_ID, game="donsol")
    await fake.settle()
    message_id = list(fake.messages)[-1]
    (run,) = await bot.core.runs.unfinished(ALICE)
    clicked = fake.click(bot, ALICE, message_id, forged, guild_id=GUILD_ID)
    await fake.settle()
    answer = fake.response(clicked)
    assert answer["type"] == 4 and answer["data"]["flags"] == EPHEMERAL
    assert answer["data"]["content"] == GARBLED
    (after,) = await bot.core.runs.unfinished(ALICE)
    assert (after.version, after.moves) == (run.version, run.moves)
    await bot.http.close()


async def test_open_table_on_a_board_posted_before_a_restart_still_launches(
        make_bot, error_logs):
    fake = FakeDiscord()
    first = make_bot(embedded_activity=True)
    await fake.attach(first)
    fake.command(first, ALICE, "play", guild_id=GUILD_ID, game="donsol")
    await fake.settle()
    message_id = list(fake.messages)[-1]
    (custom_id,) = [c["custom_id"] for row in fake.messages[message_id]["components"]
                    for c in row["components"] if c["custom_id"].startswith("dd.tb:")]
    await first.http.close()
    await first.core.close()

    second = make_bot(embedded_activity=True)  # a new process on the same database
    await fake.attach(second)
    clicked = fake.click(second, ALICE, message_id, custom_id, guild_id=GUILD_ID)
    await fake.settle()
    assert fake.response(clicked)["type"] == LAUNCH_ACTIVITY
    await second.http.close()
    await second.core.close()

    # The Activity turned off since: the button says so, and nothing changes.
    third = make_bot()
    await fake.attach(third)
    (before,) = await third.core.runs.unfinished(ALICE)
    clicked = fake.click(third, ALICE, message_id, custom_id, guild_id=GUILD_ID)
    await fake.settle()
    answer = fake.response(clicked)
    assert answer["type"] == 4 and answer["data"]["flags"] == EPHEMERAL
    assert answer["data"]["content"] == TABLE_OFF
    (after,) = await third.core.runs.unfinished(ALICE)
    assert after.version == before.version
    await third.http.close()


async def test_off_there_is_no_table_and_boards_and_commands_are_as_before(
        world, make_bot, launches, error_logs):
    """The Activity adds /table and one button, nothing else; off, neither exists: the same
    run's board at the same version, drawn by a bot with it on and one with it off."""
    def synced() -> dict[str, dict[str, Any]]:
        return {name: c for (name, _), c in world.env.backend.commands[None].items()}

    def shown(rows: list[dict[str, Any]]) -> list[list[tuple[str, str, str]]]:
        return [[(c.get("label", ""), c["custom_id"], str(c.get("emoji")))
                 for c in row["components"] if not c["custom_id"].startswith("dd.tb:")]
                for row in rows]

    on_commands = synced()
    on_board = await world.play(world.alice, "donsol")
    assert len(table_buttons(world, on_board)) == 1

    await world.env.restart_bot(make_bot())  # ACTIVITY unset: off
    off_commands = synced()
    assert "table" in on_commands and "table" not in off_commands
    assert {k: v for k, v in on_commands.items() if k != "table"} == off_commands
    listed = (await world.slash(world.alice, "games")).response
    (show,) = [b for b in world.buttons(listed) if b["custom_id"].startswith("dd.c:show:")]
    off_board = (await world.click(world.alice, listed, show["custom_id"])).response
    assert table_buttons(world, off_board) == []
    assert "dd.tb:" not in str(off_board.components)
    assert shown(off_board.components) == shown(on_board.components)
    assert LAUNCH_ACTIVITY not in launches.types


async def test_help_explains_table_when_it_is_on(world, error_logs):
    intro = await world.slash(world.alice, "help")
    (play,) = [b for b in world.buttons(intro.response) if b["custom_id"] == "dd.hp:play"]
    topic = (await world.click(world.alice, intro.response, play["custom_id"])).response
    assert "**/table**: Open the table: play Dungeon Deck's games by touching the cards." in (
        topic.embeds[0].description)


async def test_a_board_whose_control_row_is_full_keeps_its_buttons(world, error_logs):
    """Open table takes a free place in the controls' row, never one a board needs."""
    import discord

    from bot import screens
    from bot.buttons import ButtonRows, button
    from bot.cogs.table import Table

    await world.play(world.alice, "donsol")
    (run,) = await world.core.runs.unfinished(world.alice.id)
    rows = ButtonRows()
    for i in range(5):
        rows.add(button(f"dd.c:stats:{run.id}:{i}:", label=str(i), row=screens.CONTROL_ROW))
    full = screens.Screen(discord.Embed(), rows, run)
    await Table(world.env.bot).dress(run, full)
    assert [b.custom_id for b in rows.buttons] == [
        f"dd.c:stats:{run.id}:{i}:" for i in range(5)]
    room = screens.Screen(discord.Embed(), ButtonRows(), run)
    await Table(world.env.bot).dress(run, room)
    assert [(b.custom_id, b.row) for b in room.buttons.buttons] == [
        (table_id(run.id), screens.CONTROL_ROW)]
