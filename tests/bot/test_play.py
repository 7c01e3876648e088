"""Playing through Discord: /play, whole runs by clicking, and the controls around a board."""

from __future__ import annotations

import random
import re

import discord
import pytest

from bot.boards.common import outcome_heading
from bot.games import BOARDS
from rules import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_whole_run_by_clicking_ends_on_the_final_board(world, error_logs, game):
    board = await world.play(world.alice, game)
    assert not board.ephemeral
    assert GAMES[game].title in board.embeds[0].title
    assert world.moves(board), "a new board offers actions"
    run = (await world.core.runs.unfinished(world.alice.id, game))[0]

    final = await world.play_to_the_end(world.alice, board, random.Random(game))

    run = await world.core.runs.get(run.id)
    assert run.status == "over"
    assert final.id == board.id, "every click edited the board in place"
    embed = final.embeds[0]
    assert embed.title == outcome_heading(run.view, BOARDS[run.game].headings)
    # The score is said once, on the card's first line.
    assert world.description(final).split("\n")[0] == f"**{run.view['score_text']}**"
    # Once: not in the footer or a field again (the engine's own ▸ lines may tell the end).
    assert run.view["score_text"] not in embed.footer.text
    assert all(run.view["score_text"] not in f.value for f in embed.fields)
    assert all(f.name not in ("Health", "Sickness", "Room", "Reserve", "Hand")
               for f in embed.fields)
    title = GAMES[game].title
    assert [b["label"] for b in world.buttons(final)] == [f"Practice {title}", "Stats"]
    assert len(await world.core.runs.moves(run.id)) == run.moves > 0


async def test_play_again_starts_a_new_run_of_the_same_game_and_variant(world, error_logs):
    board = await world.play(world.alice, "donsol", variant="hard")
    final = await world.play_to_the_end(world.alice, board, random.Random(1))
    first = int(world.control(final, "again")["custom_id"].split(":")[2])

    again = await world.click(world.alice, final, world.control(final, "again")["custom_id"])

    new = again.response
    assert new.id != final.id, "the finished board stays as it was"
    assert world.message(final).embeds[0].title == final.embeds[0].title
    runs = await world.core.runs.unfinished(world.alice.id, "donsol")
    assert [(r.variant, r.kind) for r in runs] == [("hard", "practice")]
    assert runs[0].id != first
    assert f"run #{runs[0].id}" in new.embeds[0].title
    assert world.control(final, "again")["label"] == "Practice Donsol"


async def test_play_with_an_unfinished_run_offers_resume_or_abandon(world, error_logs):
    board = await world.play(world.alice, "donsol")
    await world.click(world.alice, board, world.moves(board)[0]["custom_id"])
    (run,) = await world.core.runs.unfinished(world.alice.id, "donsol")

    offer = await world.play(world.alice, "donsol", variant="easy")
    # One line about the run, not its board: no fields, no events, no prompt.
    line = world.description(offer).splitlines()[0]
    assert re.fullmatch(
        rf"\*\*Donsol\*\* \(normal, practice\) · move 1 · {re.escape(run.view['score_text'])}"
        r" · started <t:\d+:R>(, last played <t:\d+:R>)?", line), line
    assert offer.embeds[0].title == "Your unfinished Donsol run"
    assert not offer.embeds[0].fields and "▸" not in world.description(offer)
    assert run.view["prompt"] not in world.description(offer)
    assert [b["label"] for b in world.buttons(offer)] == ["Resume", "Abandon and start anew"]
    assert not world.moves(offer), "the offer is not a board to play on"

    resumed = (await world.click(world.alice, offer, world.control(offer, "resume")["custom_id"]))
    assert resumed.response.id == offer.id
    assert f"run #{run.id}" in resumed.response.embeds[0].title
    assert all(f"dd.m:{run.id}:1:" in b["custom_id"] for b in world.moves(resumed.response))

    offer = await world.play(world.alice, "donsol", variant="easy")
    fresh = await world.click(world.alice, offer, world.control(offer, "abandon")["custom_id"])
    (new,) = await world.core.runs.unfinished(world.alice.id, "donsol")
    assert new.id != run.id and new.variant == "easy"
    assert (await world.core.runs.get(run.id)).status == "resigned"
    assert f"run #{new.id}" in fresh.response.embeds[0].title


async def test_private_boards_are_ephemeral_and_still_playable(world, error_logs):
    board = await world.play(world.alice, "donsol", private=True)
    assert board.ephemeral
    result = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])
    assert result.response.ephemeral
    assert "move 1" in result.response.embeds[0].footer.text


async def test_a_variant_the_game_does_not_have_is_refused(world, error_logs):
    # The variant option lists every game's variants: pick one Donsol does not have.
    other = next(v for g in GAMES.values() for v in g.variants if v not in GAMES["donsol"].variants)
    refused = await world.slash(world.alice, "play", game="donsol", variant=other)
    assert refused.ephemeral
    assert refused.response.content == (
        f"Donsol has no {other!r} variant: choose normal, easy or hard, "
        "or leave the variant out to play normal."
    )
    assert await world.core.runs.unfinished(world.alice.id) == []


async def test_every_variant_of_every_game_is_a_choice(world, error_logs):
    for key, game in GAMES.items():
        for variant in game.variants:
            board = await world.play(world.alice, key, variant=variant)
            assert f"· {variant} ·" in board.embeds[0].title
            await world.click(world.alice, board, world.control(board, "resign")["custom_id"])
            confirm = world.message(board)
            await world.click(world.alice, confirm, world.control(confirm, "confirm")["custom_id"])


async def test_undo_takes_back_the_last_move_of_a_practice_run(world, error_logs):
    board = await world.play(world.alice, "donsol")
    assert "undo" not in str(world.buttons(board)), "nothing to undo before the first move"
    before = board.embeds[0].to_dict()["fields"]
    played = (await world.click(world.alice, board, world.moves(board)[0]["custom_id"])).response
    run = (await world.core.runs.unfinished(world.alice.id))[0]
    assert run.moves == 1

    undone = (await world.click(world.alice, played, world.control(played, "undo")["custom_id"]))
    assert (await world.core.runs.get(run.id)).moves == 0
    assert undone.response.embeds[0].to_dict()["fields"] == before
    assert await world.core.runs.moves(run.id) == []


async def test_resigning_asks_first_and_keep_playing_changes_nothing(world, error_logs):
    board = await world.play(world.alice, "donsol")
    (run,) = await world.core.runs.unfinished(world.alice.id)

    asked = await world.click(world.alice, board, world.control(board, "resign")["custom_id"])
    assert "Resign this run?" in world.description(asked.response)
    assert not world.moves(asked.response)
    back = await world.click(world.alice, asked.response,
                             world.control(asked.response, "board")["custom_id"])
    assert world.moves(back.response)
    assert (await world.core.runs.get(run.id)).status == "playing"

    asked = await world.click(world.alice, back.response,
                              world.control(back.response, "resign")["custom_id"])
    done = await world.click(world.alice, asked.response,
                             world.control(asked.response, "confirm")["custom_id"])
    assert (await world.core.runs.get(run.id)).status == "resigned"
    card = done.response.embeds[0]
    # Said and scored: the title, and the score it ranks with (Donsol's: no HP).
    assert card.title == "🏳️ Resigned at move 0"
    assert world.description(done.response) == "**resigned after 0/54 cards**"
    assert card.colour == discord.Colour.dark_grey()
    assert [b["label"] for b in world.buttons(done.response)] == ["Practice Donsol", "Stats"]


async def test_games_lists_unfinished_runs_and_brings_a_board_back(world, error_logs):
    empty = await world.slash(world.alice, "games")
    assert empty.ephemeral and "no unfinished runs" in empty.response.content

    await world.play(world.alice, "donsol")
    other = sorted(GAMES)[-1]
    await world.play(world.alice, other)
    listed = (await world.slash(world.alice, "games")).response
    assert listed.ephemeral
    assert listed.content.count("practice") == 2
    shows = [b for b in world.buttons(listed) if b["custom_id"].startswith("dd.c:show:")]
    assert [b["label"] for b in shows] == [f"1. {GAMES[other].title}", "2. Donsol"]

    shown = await world.click(world.alice, listed, shows[1]["custom_id"])
    assert not shown.ephemeral
    board = shown.response
    assert board.id != listed.id and board.embeds[0].title.startswith("Donsol")
    played = await world.click(world.alice, board, world.moves(board)[0]["custom_id"])
    assert "move 1" in played.response.embeds[0].footer.text


async def test_play_works_in_direct_messages(world, error_logs):
    carol = world.env.create_user("carol")
    result = await world.slash(carol, "play", game="donsol")
    board = result.response
    assert board.embeds[0].title.startswith("Donsol")
    played = await world.click(carol, board, world.moves(board)[0]["custom_id"])
    assert "move 1" in played.response.embeds[0].footer.text
    (run,) = await world.core.runs.unfinished(carol.id)
    assert run.guild_id is None
