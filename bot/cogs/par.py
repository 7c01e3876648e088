"""The par loop: each closed day's deals solved in the background, once, and stored.

The solving is the core's (``core.par``; it runs in a worker process, never on the event
loop). Unless the bot's ``solve_par`` is off, this cog starts a task in ``cog_load`` that runs
a pass :data:`FIRST_PASS` seconds after start (so a start-up's command sync and emoji uploads
are not slowed down; a pass after a restart catches up on the days missed) and every
:data:`INTERVAL` seconds after; the task is cancelled in ``cog_unload``.
:meth:`ParLoop.run_due` is one pass, with ``now`` passed in (tests call it with their own
clock and never sleep).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING

from discord.ext import commands

from bot.background import Repeating
from store.base import ParRow

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

#: Seconds from start to the first pass, and between passes.
FIRST_PASS = 60.0
INTERVAL = 300.0


class ParLoop(commands.Cog):
    """Solves closed days' deals in the background."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot
        self._pass = asyncio.Lock()
        self._repeating = Repeating(
            "solving par", lambda: self.run_due(bot.core.ctx.clock()),
            first=FIRST_PASS, every=INTERVAL,
        )

    async def cog_load(self) -> None:
        if self.bot.solve_par:
            self._repeating.start()

    async def cog_unload(self) -> None:
        await self._repeating.stop()

    async def run_due(self, now: datetime) -> list[ParRow]:
        """One pass: solve and store the due deals that have no par yet."""
        async with self._pass:
            return await self.bot.core.par.run_due(now)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(ParLoop(bot))
