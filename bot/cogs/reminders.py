"""Streak reminders by direct message, in the last hour of the day's deal, to the players who
asked for them (``/preferences reminders:on``).

Who is due and the once-only record are the core's (``core.reminders``); this module sends.
Unless the bot's ``remind`` is off (tests, benches), the cog runs a pass :data:`FIRST_PASS`
seconds after start and every :data:`INTERVAL` seconds after (``bot.background.Repeating``);
:meth:`ReminderLoop.run_due` is one pass with ``now`` passed in (tests call it with their
clock). Per player, in one pass: the reminder is claimed (another process that claimed it
first sends it; one that claimed it and died loses it, never doubles it), the preference is
read again (off since the list was made: skipped, nothing sent), then the message is sent:
*sent*, or *skipped* with one log line when Discord refuses it (the player allows no DMs
from the bot: ``Forbidden``; or the account is gone).

Pacing: sends start at most :data:`SENDS_PER_SECOND` a second after a burst of
:data:`BURST` (the daily post's token bucket), one at a time and awaited, so the event loop
keeps answering interactions; opening a DM channel and sending are two requests, well under
Discord's global 50 a second, and discord.py waits out any 429 by itself.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot import i18n, replies
from bot.background import Repeating
from bot.cogs.posts import Pacer
from bot.i18n import ENGLISH, Language
from core.errors import N_, Nn_
from core.reminders import SENT, SKIPPED, Reminder, Reminders

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

#: Seconds from start to the first pass, and between passes.
FIRST_PASS = 20.0
INTERVAL = 60.0
#: Sends started per second, at most, after the first BURST.
SENDS_PER_SECOND = 4.0
BURST = 4


@dataclass(frozen=True)
class ReminderResult:
    """What became of one player's reminder in a pass."""

    user_id: int
    status: str
    note: str | None = None


AT_RISK = Nn_("🔥 Your **{game}** streak of {count} day is at risk: you played yesterday's "
              "daily, not today's yet.",
              "🔥 Your **{game}** streak of {count} days is at risk: you played yesterday's "
              "daily, not today's yet.")
A_FREEZE_HELD = N_("You hold a freeze, which would cover today; playing keeps it.")
# Every form keeps {count} (a language may use the singular form for 21, say).
FREEZES_HELD = Nn_("You hold {count} freeze, which would cover today; playing keeps it.",
                   "You hold {count} freezes, which would cover today; playing keeps it.")
ENDS = N_("Today's deal ends {time} ({countdown}): `/daily` to play it.")
ASKED = N_("You asked for these reminders; `/preferences reminders:off` stops them.")


def reminder_text(reminder: Reminder, language: Language = ENGLISH) -> str:
    """The direct message, in ``language``: each streak at risk, when today's deal ends, how
    to stop these."""
    ends = int(reminder.ends_at.timestamp())
    lines = []
    for streak in reminder.streaks:
        line = language.ngettext(*AT_RISK, streak.length).format(
            game=streak.title, count=streak.length)
        if streak.freezes:
            line += " " + (language.gettext(A_FREEZE_HELD) if streak.freezes == 1 else
                           language.ngettext(*FREEZES_HELD, streak.freezes).format(
                               count=streak.freezes))
        lines.append(line)
    lines.append(language.format(ENDS, time=f"<t:{ends}:t>", countdown=f"<t:{ends}:R>"))
    lines.append(language.gettext(ASKED))
    return "\n".join(lines)


class ReminderLoop(commands.Cog):
    """Sends the day's streak reminders in the background."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot
        self.reminders = Reminders(bot.core.ctx)
        self.pacer = Pacer(SENDS_PER_SECOND, BURST)
        self._pass = asyncio.Lock()
        self._repeating = Repeating(
            "streak reminders", lambda: self.run_due(bot.core.ctx.clock()),
            first=FIRST_PASS, every=INTERVAL,
        )

    async def cog_load(self) -> None:
        if self.bot.remind:
            self._repeating.start()

    async def cog_unload(self) -> None:
        await self._repeating.stop()

    async def run_due(self, now: datetime) -> list[ReminderResult]:
        """One pass: the reminders due at ``now``, each sent once (what became of each this
        process claimed)."""
        async with self._pass:
            results = []
            for reminder in await self.reminders.due(now):
                result = await self._remind(reminder)
                if result is not None:
                    results.append(result)
            return results

    async def _remind(self, reminder: Reminder) -> ReminderResult | None:
        user_id, day = reminder.user_id, reminder.day
        if not await self.reminders.claim(user_id, day):
            return None  # another pass or process has it
        if not await self.reminders.wanted(user_id):
            return await self._finish(reminder, SKIPPED, "reminders turned off")
        await self.pacer.wait()
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            language = await self._language(user_id)
            await user.send(reminder_text(reminder, language),
                            allowed_mentions=replies.NO_MENTIONS)
        except discord.Forbidden:
            log.info("streak reminder to user %s skipped: they cannot be messaged", user_id)
            return await self._finish(reminder, SKIPPED, "cannot be messaged")
        except discord.NotFound:
            log.info("streak reminder to user %s skipped: no such user", user_id)
            return await self._finish(reminder, SKIPPED, "no such user")
        except discord.HTTPException as exc:
            log.warning("streak reminder to user %s skipped: Discord answered %s %s",
                        user_id, exc.status, exc.code)
            return await self._finish(reminder, SKIPPED, f"Discord {exc.status}")
        return await self._finish(reminder, SENT, None)

    async def _language(self, user_id: int) -> Language:
        """A DM's language: the player's ``/preferences language`` (a direct message outside
        any interaction has no Discord locale to follow), else English."""
        chosen, _ = await self.bot.core.settings.languages(None, user_id)
        books = i18n.catalogs()
        return books.languages[chosen] if chosen and books.known(chosen) else ENGLISH

    async def _finish(self, reminder: Reminder, status: str, note: str | None
                      ) -> ReminderResult:
        await self.reminders.finish(reminder.user_id, reminder.day, status, note)
        return ReminderResult(reminder.user_id, status, note)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(ReminderLoop(bot))
