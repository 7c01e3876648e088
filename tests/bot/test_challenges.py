"""Challenges through discord.py (simcord): /challenge posts a public card and the
challenger's private board; Accept gives each player their own private run of the same deal;
the card is edited as players finish and reveals the seed only once closed; the deadline
closes it, also after a restart; /challenges lists what is open."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

from tests.bot.conftest import World
from tests.core.conftest import Clock

NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b|\b[RB]J\b|[♠♥♦♣🃏]")


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


def card_text(message) -> str:
    embed = message.embeds[0]
    return "\n".join([embed.title or "", embed.description or "",
                      *(f"{f.name}\n{f.value}" for f in embed.fields),
                      embed.footer.text or ""])


def labelled(world: World, message, label: str) -> str:
    (found,) = [b["custom_id"] for b in world.buttons(message) if b.get("label") == label]
    return found


async def challenge(world: World, actor, **options):
    result = await world.slash(actor, "challenge", **options)
    card = result.response
    assert not result.ephemeral, "the card is public"
    (board,) = result.followups
    assert board.ephemeral, "the challenger's board is private"
    return card, board


async def test_two_players_accept_get_the_same_deal_and_the_card_follows_them(
    world, error_logs
):
    card, alices_board = await challenge(world, world.alice, game="tomb")
    text = card_text(card)
    assert "Challenge #1 · Tomb of Four Kings" in text and "anyone here" in text
    assert "seed is revealed when the challenge closes" in text
    assert "Challenge #1" in {f.name for f in alices_board.embeds[0].fields}

    accepted = await world.click(world.bob, card, labelled(world, card, "Accept"))
    assert accepted.ephemeral
    bobs_board = accepted.response
    (alices,) = await world.core.runs.unfinished(world.alice.id)
    (bobs,) = await world.core.runs.unfinished(world.bob.id)
    assert bobs.seed == alices.seed and bobs.view == alices.view
    assert world.description(bobs_board).split("\n\n", 1)[1] == world.description(
        alices_board).split("\n\n", 1)[1]  # the same table, below each one's own notice
    now = world.message(card)
    assert "bob** — still playing" in card_text(now) and "alice** — still playing" in card_text(now)

    again = await world.click(world.bob, card, labelled(world, card, "Accept"))
    assert "already" in world.description(again.response)
    assert len(await world.core.runs.unfinished(world.bob.id)) == 1  # no second run

    await world.play_to_the_end(world.bob, bobs_board, random.Random(1))
    after_bob = card_text(world.message(card))
    assert re.search(r"`#  1` \*\*bob\*\*", after_bob), after_bob
    assert "alice** — still playing" in after_bob
    assert str(alices.seed) not in after_bob
    assert not CARD_CODE.search(after_bob), after_bob

    await world.play_to_the_end(world.alice, alices_board, random.Random(2))
    both = card_text(world.message(card))
    assert "still playing" not in both and str(alices.seed) not in both  # still open
    finished = {r.owner_id: r for r in [await world.core.runs.get(alices.id),
                                          await world.core.runs.get(bobs.id)]}
    first = max(finished.values(), key=lambda r: r.score)
    first_name = "alice" if first.owner_id == world.alice.id else "bob"
    assert re.search(rf"`#  1` \*\*{first_name}\*\*", both), both

    refused = await world.click(world.bob, card, labelled(world, card, "Close"))
    assert refused.ephemeral and "Only the player who made" in refused.response.content
    closed = await world.click(world.alice, card, labelled(world, card, "Close"))
    final = card_text(closed.response)
    assert "Closed" in final and f"Seed `{alices.seed}`" in final
    assert f"python -m rules deal tomb --variant standard --seed {alices.seed}" in final
    assert world.buttons(world.message(card)) == []

    stats = (await world.slash(world.alice, "stats", game="tomb")).response
    won = int(finished[world.alice.id].score == first.score)
    assert f"Challenges: played **1** · won **{won}**" in stats.embeds[0].fields[0].value


async def test_three_players_a_named_opponent_and_a_late_click(world, clock, error_logs):
    carol = world.guild.add_member(world.env.create_user("carol"))
    card, _ = await challenge(world, world.alice, game="donsol", opponent=world.bob, hours=2)
    assert f"<@{world.bob.id}>" in card_text(card)
    refused = await world.click(carol, card, labelled(world, card, "Accept"))
    assert refused.ephemeral and "only" in refused.response.content
    assert await world.core.runs.unfinished(carol.id) == []
    await world.click(world.bob, card, labelled(world, card, "Accept"))

    open_card, _ = await challenge(world, world.bob, game="clear", hours=1)
    await world.click(world.alice, open_card, labelled(world, open_card, "Accept"))
    await world.click(carol, open_card, labelled(world, open_card, "Accept"))
    seeds = {run.seed for user in (world.alice, world.bob, carol)
             for run in await world.core.runs.unfinished(user.id) if run.game == "clear"}
    assert len(seeds) == 1  # three players, one deal

    clock.advance(hours=1, minutes=1)
    late = await world.click(world.alice, open_card, labelled(world, open_card, "Accept"))
    assert "already" in world.description(late.response)  # her own run comes back
    dave = world.guild.add_member(world.env.create_user("dave"))
    too_late = await world.click(dave, open_card, labelled(world, open_card, "Accept"))
    assert too_late.ephemeral and "closed" in too_late.response.content
    closed = card_text(world.message(open_card))  # the late click closed it at once
    assert "Closed" in closed and "unfinished" in closed and "Seed `" in closed


async def test_a_deadline_that_passed_during_a_restart_closes_the_card_on_start(
    world, make_bot, clock, error_logs
):
    card, board = await challenge(world, world.alice, game="donsol", hours=1)
    (run,) = await world.core.runs.unfinished(world.alice.id)
    clock.advance(hours=2)  # the bot is down when the deadline passes
    await world.env.restart_bot(make_bot(clock=clock))
    await world.env.settle()  # the first closing pass, right after ready
    final = card_text(world.message(card))
    assert "Closed" in final and f"Seed `{run.seed}`" in final and "unfinished" in final
    move = world.moves(board)[0]["custom_id"]
    after = await world.click(world.alice, board, move)
    assert "This run is over" in world.description(after.response)


async def test_challenges_lists_open_ones_with_their_boards(world, error_logs):
    await challenge(world, world.alice, game="donsol")
    await challenge(world, world.bob, game="tomb", opponent=world.alice)
    listed = await world.slash(world.alice, "challenges")
    assert listed.ephemeral
    text = listed.response.content
    assert "Challenge #1" in text and "Challenge #2 · Tomb of Four Kings" in text
    assert "not accepted yet" in text
    labels = [b.get("label") for b in world.buttons(listed.response)]
    assert labels[:2] == ["1. Board", "1. Card"] and "2. Accept" in labels
    shown = await world.click(world.alice, listed.response,
                              labelled(world, listed.response, "1. Board"))
    assert shown.ephemeral and "Challenge #1" in {f.name for f in shown.response.embeds[0].fields}
    accepted = await world.click(world.alice, listed.response,
                                 labelled(world, listed.response, "2. Accept"))
    assert accepted.ephemeral and "Challenge accepted" in world.description(accepted.response)
    none = await world.slash(world.bob, "challenges")
    assert "Challenge #2" in none.response.content and "Challenge #1" not in none.response.content


async def test_a_deleted_card_is_left_alone(world, caplog, error_logs):
    card, _ = await challenge(world, world.alice, game="donsol", opponent=world.bob)
    await world.env.bot.get_partial_messageable(card.channel_id).get_partial_message(
        card.id).delete()
    listed = (await world.slash(world.bob, "challenges")).response
    assert [b.get("label") for b in world.buttons(listed)] == ["1. Accept", "1. Card"]
    result = await world.click(world.bob, listed, labelled(world, listed, "1. Accept"))
    assert result.ephemeral and "Challenge accepted" in world.description(result.response)
    assert "its card (message" in caplog.text and "is gone" in caplog.text


async def test_a_finished_challenge_board_shows_the_rank_and_the_card_is_neutral(
    world, error_logs
):
    import discord

    card, alices_board = await challenge(world, world.alice, game="tomb")
    assert card.embeds[0].colour == discord.Colour.dark_gold()  # not a loss's red
    bobs_board = (await world.click(world.bob, card, labelled(world, card, "Accept"))).response
    last = await world.play_to_the_end(world.bob, bobs_board, random.Random(1))
    field = {f.name: f.value for f in world.message(last).embeds[0].fields}["Challenge #1"]
    assert field.startswith("You are **#1** of 1 who finished so far (1 still playing).")
    last = await world.play_to_the_end(world.alice, alices_board, random.Random(2))
    field = {f.name: f.value for f in world.message(last).embeds[0].fields}["Challenge #1"]
    assert re.match(r"You are \*\*#[12]\*\* of 2 who finished so far\.", field), field
    assert "<t:" in field and "UTC" not in field  # the deadline as a Discord timestamp
