"""Clicks that must change nothing: another player's, a stale board's, and errors."""

from __future__ import annotations

import logging
import random

from bot import replies, screens


async def test_another_players_click_is_refused_and_changes_nothing(world, error_logs):
    board = await world.play(world.alice, "donsol")
    (run,) = await world.core.runs.unfinished(world.alice.id)
    before = world.message(board).embeds[0].to_dict()

    for button in [*world.moves(board), world.control(board, "resign")]:
        refused = await world.click(world.bob, board, button["custom_id"])
        assert refused.ephemeral
        assert refused.response.content == (
            f"This run belongs to <@{world.alice.id}>; start your own with `/play`."
        )

    assert world.message(board).embeds[0].to_dict() == before
    assert await world.core.runs.moves(run.id) == []
    assert (await world.core.runs.get(run.id)).status == "playing"


async def test_a_stale_click_plays_nothing_and_brings_the_board_up_to_date(world, error_logs):
    old = await world.play(world.alice, "donsol")
    listed = (await world.slash(world.alice, "games")).response
    (show,) = [b for b in world.buttons(listed) if b["custom_id"].startswith("dd.c:show:")]
    new = (await world.click(world.alice, listed, show["custom_id"])).response
    current = (await world.click(world.alice, new, world.moves(new)[0]["custom_id"])).response
    (run,) = await world.core.runs.unfinished(world.alice.id)
    log_before = await world.core.runs.moves(run.id)

    stale = await world.click(world.alice, old, world.moves(old)[-1]["custom_id"])

    assert len(log_before) == 1
    assert await world.core.runs.moves(run.id) == log_before
    redrawn = stale.response
    assert redrawn.id == old.id
    assert redrawn.embeds[0].description.startswith(
        "*That button was on an older board, so nothing was played."
    )
    assert redrawn.embeds[0].to_dict()["fields"] == current.embeds[0].to_dict()["fields"]
    assert [b["custom_id"] for b in world.moves(redrawn)] == [
        b["custom_id"] for b in world.moves(current)
    ]


async def test_a_stale_undo_or_resign_changes_nothing(world, error_logs):
    old = await world.play(world.alice, "donsol")
    played = (await world.click(world.alice, old, world.moves(old)[0]["custom_id"])).response
    # An older copy of the board: brought back from /games before the move was played.
    listed = (await world.slash(world.alice, "games")).response
    (show,) = [b for b in world.buttons(listed) if b["custom_id"].startswith("dd.c:show:")]
    copy = (await world.click(world.alice, listed, show["custom_id"])).response
    undone = await world.click(world.alice, played, world.control(played, "undo")["custom_id"])
    (run,) = await world.core.runs.unfinished(world.alice.id)
    assert run.moves == 0

    stale = await world.click(world.alice, copy, world.control(copy, "undo")["custom_id"])

    assert (await world.core.runs.get(run.id)).moves == 0
    assert "older board" in world.description(stale.response)
    assert world.moves(stale.response) == world.moves(undone.response)


async def test_a_control_of_a_finished_run_only_shows_it(world, error_logs):
    board = await world.play(world.alice, "donsol")
    listed = (await world.slash(world.alice, "games")).response
    (show,) = [b for b in world.buttons(listed) if b["custom_id"].startswith("dd.c:show:")]
    copy = (await world.click(world.alice, listed, show["custom_id"])).response
    (run,) = await world.core.runs.unfinished(world.alice.id)
    await world.play_to_the_end(world.alice, board, random.Random(3))

    late = await world.click(world.alice, copy, world.control(copy, "resign")["custom_id"])

    assert (await world.core.runs.get(run.id)).status == "over"
    assert world.description(late.response).startswith("*This run is over.*")
    assert [b["label"] for b in world.buttons(late.response)] == ["Practice Donsol", "Stats"]


async def test_an_unexpected_error_gets_an_error_id_and_changes_nothing(
    world, error_logs, monkeypatch
):
    board = await world.play(world.alice, "donsol")
    (run,) = await world.core.runs.unfinished(world.alice.id)

    async def broken(*args, **kwargs):
        raise RuntimeError("the dungeon collapsed")

    monkeypatch.setattr(world.core.runs, "act", broken)
    monkeypatch.setattr(replies, "new_error_id", lambda: "c0ffee")
    result = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])

    assert result.ephemeral
    assert result.response.content == replies.unexpected_text("c0ffee")
    assert "c0ffee" in result.response.content
    assert world.message(board).embeds[0].to_dict() == board.embeds[0].to_dict()
    monkeypatch.undo()
    assert await world.core.runs.moves(run.id) == []
    (record,) = error_logs
    assert record.levelno == logging.ERROR and record.exc_info is not None
    message = record.getMessage()
    assert "c0ffee" in message and str(world.alice.id) in message and f"run {run.id}" in message
    error_logs.clear()


async def test_an_unexpected_error_in_a_command_gets_an_error_id(
    world, error_logs, monkeypatch
):
    async def broken(*args, **kwargs):
        raise RuntimeError("no more cards")

    monkeypatch.setattr(world.core.runs, "unfinished", broken)
    monkeypatch.setattr(replies, "new_error_id", lambda: "bad123")
    result = await world.slash(world.alice, "games")

    assert result.ephemeral
    assert result.response.content == replies.unexpected_text("bad123")
    (record,) = error_logs
    assert "bad123" in record.getMessage() and "/games" in record.getMessage()
    assert "no more cards" in str(record.exc_info[1])
    error_logs.clear()
    # simcord saw the command fail too (the tree's on_error): expected here.
    (recorded,) = world.env.errors
    assert isinstance(recorded.__cause__ or recorded.original, RuntimeError)


async def test_a_value_error_from_a_renderer_is_a_bug_not_a_refusal(
    world, error_logs, monkeypatch
):
    """Only the core's refusals are answered as refusals: a ValueError raised while drawing
    the board is a bug, answered with an error id and logged with its traceback."""
    board = await world.play(world.alice, "donsol")

    def broken(*args, **kwargs):
        raise ValueError("a renderer bug")

    monkeypatch.setattr(screens, "board", broken)
    monkeypatch.setattr(replies, "new_error_id", lambda: "abc123")
    result = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])

    assert result.ephemeral
    # The move was committed before the board was drawn: the message says so.
    assert result.response.content == replies.unexpected_text("abc123", written=True)
    (record,) = error_logs
    assert record.levelno == logging.ERROR and "abc123" in record.getMessage()
    assert "a renderer bug" in str(record.exc_info[1])
    error_logs.clear()


async def test_an_answer_too_late_is_one_warning_without_traceback(caplog):
    """Under overload a click may be answered after Discord's 3 s: that is one warning line,
    no traceback and no follow-up that would fail the same way."""
    from types import SimpleNamespace

    import discord

    class Untouchable:
        def __getattr__(self, name):
            raise AssertionError(f"nothing more may be sent ({name})")

    late = discord.NotFound(SimpleNamespace(status=404, reason="Not Found"),
                            {"code": 10062, "message": "Unknown interaction"})
    interaction = SimpleNamespace(user=SimpleNamespace(id=7), command=None,
                                  data={"custom_id": "dd.m:1:0:take 3D"}, response=Untouchable(),
                                  followup=Untouchable())
    caplog.set_level(logging.INFO)
    await replies.unexpected(interaction, late, run_id=1, context="dd.m:1:0:take 3D")
    (record,) = [r for r in caplog.records if r.name == "bot.replies"]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "answered too late" in record.getMessage() and "run 1" in record.getMessage()


async def test_an_error_after_the_move_was_made_says_the_move_counts(
    world, error_logs, monkeypatch
):
    board = await world.play(world.alice, "donsol")
    (run,) = await world.core.runs.unfinished(world.alice.id)

    def broken(*args, **kwargs):
        raise RuntimeError("the board could not be drawn")

    monkeypatch.setattr(screens, "board", broken)  # the move is committed, then this fails
    monkeypatch.setattr(replies, "new_error_id", lambda: "d1ce00")
    result = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])

    assert result.ephemeral
    text = result.response.content
    assert text == replies.unexpected_text("d1ce00", written=True)
    assert "nothing was changed" not in text
    assert "d1ce00" in text and "it counts" in text and "`/games`" in text
    monkeypatch.undo()
    assert len(await world.core.runs.moves(run.id)) == 1
    (record,) = error_logs
    assert "the board could not be drawn" in str(record.exc_info[1])
    assert "d1ce00" in record.getMessage() and f"run {run.id}" in record.getMessage()
    error_logs.clear()
    again = await world.slash(world.alice, "games")
    assert f"#{run.id}" in again.response.content
