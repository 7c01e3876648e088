"""Fixtures for the bot's end-to-end tests: the real bot on a fresh SQLite file in tmp_path,
driven through discord.py's own code by simcord's virtual Discord.

``world`` gives a guild with a #games channel, two players (alice and bob) and helpers that
read buttons from a message's components and click them the way a player would.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.client import DungeonBot, create_bot

#: Deals are random in production; here each new run gets the next of these seeds.
FIRST_SEED = 20_261_129
#: Far more clicks than any run takes; a run that needs more is stuck in a loop.
MAX_CLICKS = 600


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "dungeon-deck.sqlite3"


@pytest.fixture
async def make_bot(db_path: Path) -> AsyncIterator[Callable[..., DungeonBot]]:
    """``make_bot(**options)``: a new bot on the test's database file; closed at teardown."""
    made: list[DungeonBot] = []
    seeds = itertools.count(FIRST_SEED)

    def make(**options: Any) -> DungeonBot:
        options.setdefault("daily_secret", "test secret")
        # Card emoji and table pictures have tests of their own (test_faces.py); elsewhere
        # they would only add uploads and picture edits to every transcript.
        options.setdefault("pictures", False)
        options.setdefault("card_emoji", False)
        # The par loop solves for minutes in a worker process; tests run its passes themselves.
        options.setdefault("solve_par", False)
        # The rating loop too (it never ends, which a test waiting for every task to end
        # would wait on); tests run its passes themselves.
        options.setdefault("rate_days", False)
        options.setdefault("remind", False)  # the reminder loop too
        options.setdefault("random_seed", lambda: next(seeds))
        bot = create_bot(db_path, **options)
        made.append(bot)
        return bot

    yield make
    for bot in made:
        core = getattr(bot, "core", None)
        if core is not None:
            await core.close()


@pytest.fixture
def simcord_bot(make_bot: Callable[..., DungeonBot]) -> DungeonBot:
    return make_bot()


class World:
    """A guild, a channel and two members, and what a player does with boards."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.guild = env.create_guild("Dungeon Hall")
        self.channel = self.guild.create_text_channel("games")
        self.alice = self.guild.add_member(env.create_user("alice"))
        self.bob = self.guild.add_member(env.create_user("bob"))

    @property
    def core(self) -> Any:
        bot = self.env.bot
        assert isinstance(bot, DungeonBot)
        return bot.core

    async def slash(self, actor: Any, name: str, **options: Any) -> simcord.InteractionResult:
        """Run a slash command (in #games for a member); it must be answered."""
        if isinstance(actor, simcord.MemberActor):
            result = await actor.slash(self.channel, name, **options)
        else:
            result = await actor.slash(name, **options)
        assert result.acknowledged, f"/{name} was not answered"
        return result

    async def play(self, actor: Any, game: str, **options: Any) -> simcord.ResponseMessage:
        """/play: the board message."""
        result = await self.slash(actor, "play", game=game, **options)
        assert result.response is not None
        return result.response

    async def click(self, actor: Any, message: Any, custom_id: str) -> simcord.InteractionResult:
        """Click the button with ``custom_id``; the click must be answered."""
        result = await actor.click(message, custom_id=custom_id)
        assert result.acknowledged, f"click on {custom_id!r} was not answered"
        return result

    async def play_to_the_end(self, actor: Any, board: Any, rng: random.Random) -> Any:
        """Click random enabled action buttons of ``board`` until none is left; the last
        board. Every click must edit the board (no refusal on the way)."""
        for _ in range(MAX_CLICKS):
            choices = self.moves(board)
            if not choices:
                return board
            result = await self.click(actor, board, rng.choice(choices)["custom_id"])
            assert not result.ephemeral, result.response.content
            board = result.response
        raise AssertionError(f"the run did not end within {MAX_CLICKS} clicks")

    def message(self, message: Any) -> simcord.ResponseMessage:
        """The current state of ``message`` as Discord holds it."""
        stored = self.env.backend.get_message(message.channel_id, message.id)
        return simcord.ResponseMessage(self.env, stored)

    @staticmethod
    def buttons(message: Any) -> list[dict[str, Any]]:
        """Every button of a message, as Discord stores them (rows flattened, in order)."""
        return [
            child
            for row in message.components
            for child in row.get("components", [])
            if child.get("type") == discord.ComponentType.button.value
        ]

    @staticmethod
    def moves(message: Any) -> list[dict[str, Any]]:
        """The enabled buttons that play a move (``dd.m:...``) or lead to one (a two-step
        board's first step, ``dd.c:pick:...``)."""
        return [
            b for b in World.buttons(message)
            if b["custom_id"].startswith(("dd.m:", "dd.c:pick:")) and not b.get("disabled")
        ]

    @staticmethod
    def control(message: Any, verb: str) -> dict[str, Any]:
        """The control button ``verb`` (custom id ``dd.c:<verb>:...``)."""
        found = [b for b in World.buttons(message) if b["custom_id"].startswith(f"dd.c:{verb}:")]
        ids = [b["custom_id"] for b in World.buttons(message)]
        assert len(found) == 1, f"no single {verb!r} control among {ids}"
        return found[0]

    @staticmethod
    def description(message: Any) -> str:
        return message.embeds[0].description or ""


@pytest.fixture
async def world(simcord_env: simcord.Env) -> World:
    return World(simcord_env)
