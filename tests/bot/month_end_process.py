"""The month's end in a process of its own, on the system clock (run under libfaketime by
``tests/bot/test_month_end_faketime.py``): ``python -m tests.bot.month_end_process DB OUT``.

December is played first through a core on an injected clock (the faked clock stands just
before 2027-01-01 01:00 UTC and cannot go back a month). Then the real bot starts in simcord
with **no injected clock**: its own loops, the daily post's and the champions', run on
``datetime.now``, which libfaketime moves, and the process watches what a server sees as
01:00 passes: the month board final, the champions posted, the role moved, and fay's /daily
opening with the 31st's look back only once the 31st has closed. What it saw goes to ``OUT``
as JSON for the test to judge.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.client import create_bot
from core import Core
from tests.core.conftest import Clock
from tests.core.test_act import play_out

SECRET = "month end secret"
#: Until when, on the faked clock, the process waits: past 01:00 and the loops' next pass
#: after it (they run every minute), so a second post would have been seen.
WATCH_UNTIL = datetime(2027, 1, 1, 1, 1, 30, tzinfo=UTC)
#: fay's first /daily waits for this (a minute before the 31st closes).
BEFORE_CLOSE = datetime(2027, 1, 1, 0, 59, tzinfo=UTC)



async def play_december(path: Path, users: dict[str, int], guild_ids: list[int]) -> None:
    """alice plays Tomb on three days in server 1 (its only player: its champion, whatever
    she scores); carol in server 2 on every day from the 23rd to the 30th (seven in a row
    earn a freeze), not the 31st; fay the 31st's in a DM (on no server's board), whose look
    back her next /daily opens with once the 31st has closed."""
    clock = Clock(datetime(2026, 12, 1, 12, tzinfo=UTC))
    async with await Core.open(path, clock=clock, daily_secret=SECRET) as core:
        plays: list[tuple[str, int | None, str]] = [
            ("alice", guild_ids[0], day) for day in ("03", "10", "17")]
        plays += [("carol", guild_ids[1], f"{d:02d}") for d in range(23, 31)]
        plays.append(("fay", None, "31"))
        for n, (who, guild_id, day) in enumerate(sorted(plays, key=lambda p: p[2])):
            clock.now = datetime.fromisoformat(f"2026-12-{day}T09:00:00+00:00")
            await core.rankings.remember_name(users[who], who)
            started = await core.daily.start(users[who], "tomb", guild_id=guild_id)
            await play_out(core, started.run, random.Random(n))


async def main(path: Path, out: Path) -> None:
    seen: dict[str, Any] = {"started_at": datetime.now(UTC).isoformat()}
    bot = create_bot(path, daily_secret=SECRET, pictures=False, card_emoji=False,
                     solve_par=False, rate_days=False, remind=False,
                     random_seed=itertools.count(1).__next__)
    async with simcord.run(bot) as env:
        guilds = [env.create_guild("Dungeon Hall"), env.create_guild("Second Hall")]
        results = [g.create_text_channel("results") for g in guilds]
        champion = guilds[0].create_role("Champion")
        admins = [g.create_role("admins", permissions=discord.Permissions(manage_guild=True))
                  for g in guilds]
        users = {name: env.create_user(name)
                 for name in ("alice", "bob", "carol", "dana", "fay")}
        # bob holds the role from November, as the bot recorded it then.
        members = {"alice": guilds[0].add_member(users["alice"]),
                   "bob": guilds[0].add_member(users["bob"], roles=[champion]),
                   "carol": guilds[1].add_member(users["carol"]),
                   "fay": guilds[1].add_member(users["fay"])}
        admin = guilds[0].add_member(users["dana"], roles=[admins[0]])
        admin2 = guilds[1].add_member(env.create_user("erin"), roles=[admins[1]])
        await bot.core.seasons.gave_role(guilds[0].id, "2026-11", [users["bob"].id])

        await play_december(path, {k: v.id for k, v in users.items()}, [g.id for g in guilds])
        await admin.slash(results[0], "settings",
                          **{"results-channel": results[0], "champion-role": champion})
        await admin2.slash(results[1], "settings", **{"results-channel": results[1]})

        async def month_board() -> str:
            answer = await members["bob"].slash(results[0], "leaderboard", game="tomb",
                                                month="2026-12")
            embed = answer.response.embeds[0]
            return {f.name: f.value for f in embed.fields}["Ranked dailies"]

        async def fays_daily() -> str:
            """fay's /daily of Tomb as she reads it (the 31st's look back opens it, or not)."""
            answer = await members["fay"].slash(results[1], "daily", game="tomb")
            message = answer.response
            return "\n".join([message.content or ""] + [
                part for e in message.embeds
                for part in [e.description or "", *(f"{f.name}\n{f.value}" for f in e.fields)]
            ])

        seen["board_before"] = await month_board()
        while datetime.now(UTC) < BEFORE_CLOSE:
            await asyncio.sleep(0.2)
        seen["daily_before"] = await fays_daily()
        seen["before_at"] = datetime.now(UTC).isoformat()
        while datetime.now(UTC) < WATCH_UNTIL:  # the faked clock, through 01:00
            await asyncio.sleep(1.0)
        seen["after_at"] = datetime.now(UTC).isoformat()
        seen["board_after"] = await month_board()
        # When fay asks (what the test's "at 01:01" means), not when the answer is back: at
        # ten times the real pace, a write's fsync held up for a few seconds by the machine
        # reads as most of a minute.
        seen["daily_after_at"] = datetime.now(UTC).isoformat()
        seen["daily_after"] = await fays_daily()
        # What the bot posted by itself (the slash answers in the channel are left out).
        posts = [[m for m in channel.history() if m.author.bot and m.embeds
                  and m.interaction_metadata is None] for channel in results]
        seen["posts"] = [[m.embeds[0].title for m in found] for found in posts]
        seen["champions"] = [
            "\n".join([m.embeds[0].description or ""]
                      + [f"{f.name}\n{f.value}" for f in m.embeds[0].fields])
            for found in posts for m in found if m.embeds[0].title.startswith("Champions")
        ]
        seen["roles"] = {
            name: champion.id in env.backend.get_member(guilds[0].id, users[name].id).role_ids
            for name in ("alice", "bob")
        }
        stats = await members["carol"].slash(results[1], "stats", game="tomb")
        embed = stats.response.embeds[0]
        seen["carol_stats"] = "\n".join(
            [embed.description or ""] + [f"{f.name}\n{f.value}" for f in embed.fields])
        record = await bot.core.rankings.record(users["carol"].id, "tomb")
        seen["carol_record"] = {"current": record.current_streak, "freezes": record.freezes,
                                "frozen": sorted(record.frozen)}
    out.write_text(json.dumps(seen, indent=1))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2])))
