"""The daily post: at 01:00 UTC, each server's results channel gets the day's new deals and
the final top three of the day before, once.

What is due and what it says is the core's (``core.posts``); this module sends it. A
:class:`DailyPoster` does one pass with :meth:`DailyPoster.run_due` (``now`` passed in, so
tests drive it with their own clock and never sleep); the cog's ``discord.ext.tasks`` loop,
started when the bot is ready, runs a pass at once (a post missed while the bot was down goes
out then) and every minute after, with the core's clock.

Per server, in one pass:

- the server's shard is not this process': left alone (with several shards or processes,
  each posts for the servers it holds; see :func:`holds`);
- the server is temporarily unavailable (a Discord outage): left for the next pass;
- otherwise the post is claimed in the database first, then: the bot is no longer in the
  server, the channel is gone or not a text channel, or the bot lacks View Channel, Send
  Messages or Embed Links there: *skipped* with a log line (no request is made: 403s count
  toward Discord's invalid-request limit); else sent, and marked *posted*, or *skipped* if
  Discord answers NotFound, Forbidden or any other error (logged; never retried, so a server
  that removed the bot or the channel costs one attempt a day, not one a minute).

Pacing: sends start at most :data:`POSTS_PER_SECOND` a second after a burst of
:data:`BURST` (a token bucket), with :data:`WORKERS` in flight; 1,000 servers take about
50 s, well inside Discord's global 50 requests/s, and discord.py still waits out any 429 per
route by itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands, tasks

from bot import timestamps
from bot.i18n import ENGLISH, Language, server_language
from bot.standings import number
from core.daily import closes_at, next_deal_at
from core.errors import N_, Nn_
from core.posts import POSTED, SKIPPED, DailyPost, Deal, Due, Podium, Posts, due_day

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

#: Sends started per second, at most, after the first BURST.
POSTS_PER_SECOND = 20.0
BURST = 5
#: Posts being composed or sent at once.
WORKERS = 8
#: Seconds between passes of the background task.
INTERVAL = 60.0
EMBED_COLOUR = discord.Colour.dark_gold()
FIELD_LIMIT = 1024
#: Discord's limit for a whole embed: the podiums share what the title, description, deals,
#: field names and footer leave, however many games and variants there are.
EMBED_LIMIT = 6000
NAME_LIMIT = 32
NEEDED = ("view_channel", "send_messages", "embed_links")


@dataclass(frozen=True)
class PostResult:
    """What became of one server's post in a pass."""

    guild_id: int
    day: str
    status: str  # "posted" or "skipped"
    channel_id: int | None
    message_id: int | None = None
    note: str | None = None


class Pacer:
    """A token bucket: ``burst`` waits return at once, then one every ``1/rate`` seconds.

    Concurrent waiters each reserve the next free slot, so starts never bunch up. Time is
    the event loop's (what ``asyncio.sleep`` counts in) unless ``clock`` is given.
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        *,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a pacer needs a positive rate and a burst of at least 1")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._sleep = sleep
        self._tokens = float(burst)
        self._last: float | None = None

    async def wait(self) -> None:
        now = self._clock() if self._clock else asyncio.get_running_loop().time()
        elapsed = 0.0 if self._last is None else max(0.0, now - self._last)
        self._tokens = min(float(self.burst), self._tokens + elapsed * self.rate)
        self._last = now
        self._tokens -= 1.0
        if self._tokens < 0:
            await self._sleep(-self._tokens / self.rate)


def holds(bot: discord.Client, guild_id: int) -> bool:
    """Whether this process holds the server's shard (always, for an unsharded bot)."""
    count = bot.shard_count or 1
    if count <= 1:
        return True
    shard_ids = getattr(bot, "shard_ids", None)
    if shard_ids is None:
        shard_ids = [bot.shard_id] if bot.shard_id is not None else range(count)
    return (guild_id >> 22) % count in shard_ids


class DailyPoster:
    """Sends the daily posts that are due; one pass per :meth:`run_due`."""

    def __init__(
        self,
        bot: DungeonBot,
        posts: Posts,
        *,
        rate: float = POSTS_PER_SECOND,
        burst: int = BURST,
        workers: int = WORKERS,
        pacer: Pacer | None = None,
    ) -> None:
        self.bot = bot
        self.posts = posts
        self.workers = max(1, workers)
        self.pacer = pacer or Pacer(rate, burst)
        self._pass = asyncio.Lock()

    async def run_due(self, now: datetime) -> list[PostResult]:
        """Send every post due at ``now`` that is not recorded yet; what became of each
        (servers left for a later pass are not listed), in server id order."""
        async with self._pass:  # the background task and a manual call never overlap
            day = due_day(now)
            if day is None:
                return []
            mine = [due for due in await self.posts.pending(day) if holds(self.bot, due.guild_id)]
            if not mine:
                return []
            deals = await self.posts.deals(day)
            results: list[PostResult] = []
            queue = iter(mine)
            await asyncio.gather(*(
                self._work(queue, deals, results) for _ in range(min(self.workers, len(mine)))
            ))
            return sorted(results, key=lambda r: r.guild_id)

    async def _work(
        self, queue: Iterator[Due], deals: list[Deal], results: list[PostResult]
    ) -> None:
        for due in queue:
            result = await self._post(due, deals)
            if result is not None:
                results.append(result)

    async def _post(self, due: Due, deals: list[Deal]) -> PostResult | None:
        guild = self.bot.get_guild(due.guild_id)
        if guild is not None and guild.unavailable:
            log.debug("daily post of %s: server %s is unavailable; trying again later",
                     due.day, due.guild_id)
            return None
        if not await self.posts.claim(due.guild_id, due.day):
            return None  # another pass or process has it
        try:
            if guild is None:
                return await self._skip(due, "the bot is no longer in this server")
            channel = guild.get_channel(due.channel_id)
            if channel is None:
                return await self._skip(due, "the results channel no longer exists")
            if not isinstance(channel, discord.TextChannel):
                return await self._skip(due, "the results channel is not a text channel")
            missing = missing_permissions(channel)
            if missing:
                return await self._skip(due, f"the bot lacks {', '.join(missing)} there")
            post = await self.posts.compose(due.guild_id, due.day, deals)
            language = await server_language(self.bot, guild)
            await self.pacer.wait()
            message = await channel.send(
                embed=post_embed(post, language), allowed_mentions=discord.AllowedMentions.none()
            )
        except (discord.NotFound, discord.Forbidden) as exc:
            return await self._skip(due, f"Discord answered {exc.status} ({exc.code}: {exc.text})")
        except discord.HTTPException as exc:
            log.warning("daily post of %s for server %s, channel %s failed: %s %s",
                        due.day, due.guild_id, due.channel_id, exc.status, exc.text)
            return await self._skip(due, f"Discord answered {exc.status}: {exc.text}", quiet=True)
        except Exception as exc:
            log.exception("daily post of %s for server %s, channel %s: unexpected error",
                          due.day, due.guild_id, due.channel_id)
            return await self._skip(due, f"error: {type(exc).__name__}", quiet=True)
        await self.posts.finish(due.guild_id, due.day, POSTED, channel_id=due.channel_id,
                                message_id=message.id)
        log.info("daily post of %s sent to server %s, channel %s (message %s)",
                 due.day, due.guild_id, due.channel_id, message.id)
        return PostResult(due.guild_id, due.day, POSTED, due.channel_id, message.id)

    async def _skip(self, due: Due, note: str, *, quiet: bool = False) -> PostResult:
        await self.posts.finish(due.guild_id, due.day, SKIPPED, channel_id=due.channel_id,
                                note=note[:200])
        if not quiet:
            log.info("daily post of %s skipped for server %s, channel %s: %s",
                     due.day, due.guild_id, due.channel_id, note)
        return PostResult(due.guild_id, due.day, SKIPPED, due.channel_id, note=note[:200])


def missing_permissions(channel: discord.TextChannel) -> list[str]:
    """The permissions the post needs that the bot lacks in ``channel`` (none known when the
    bot's own member is not cached: then Discord's answer decides)."""
    me = channel.guild.me
    if me is None:
        return []
    allowed = channel.permissions_for(me)
    missing = [name for name in NEEDED if not getattr(allowed, name)]
    if "send_messages" in missing and "embed_links" in missing:
        missing.remove("embed_links")  # Discord drops it with Send Messages: one fix does both
    if "view_channel" in missing:
        missing = ["view_channel"]  # likewise, nothing else counts in a channel it cannot see
    return [name.replace("_", " ").title() for name in missing]


# ----- the post ------------------------------------------------------------------------------


POST_TITLE = N_("Daily #{number} · {day}")
POST_TEXT = N_(
    "Today's deals are open until {until}; play them with `/daily`. Each commitment is the "
    "SHA-256 of the deal's seed, which is revealed when the day's boards close ({closes}).")
TODAYS_DEALS = N_("Today's deals")
CHECK_A_DEAL = N_("Check a deal: /verify game:<game> day:{day}")
TOP_THREE = N_("{game} #{number} ({variant}): final top three")


def post_embed(post: DailyPost, language: Language = ENGLISH) -> discord.Embed:
    """The post as Discord shows it, in the server's language: the new deals, then
    yesterday's podiums."""
    opens = post.day
    embed = discord.Embed(
        title=language.format(POST_TITLE, number=post.number, day=opens),
        description=language.format(POST_TEXT, until=timestamps.at(next_deal_at(opens)),
                                     closes=timestamps.at(closes_at(opens))),
        colour=EMBED_COLOUR,
    )
    deals = [deal_line(deal, language) for deal in post.deals]
    embed.add_field(name=language.gettext(TODAYS_DEALS), value=_fit(deals, "", FIELD_LIMIT),
                    inline=False)
    if not post.podiums:
        return embed
    embed.set_footer(text=language.format(CHECK_A_DEAL, day=post.podiums[0].day))
    names = [language.format(TOP_THREE, game=p.title, number=p.number,
                             variant=language.render(p.variant))
             for p in post.podiums]
    share = (EMBED_LIMIT - len(embed) - sum(map(len, names))) // len(post.podiums)
    for name, podium in zip(names, post.podiums, strict=True):
        embed.add_field(name=name, value=podium_text(podium, min(FIELD_LIMIT, share), language),
                        inline=False)
    return embed


DEAL_LINE = N_("**{game} #{number}** ({variant}): commitment `{commitment}`")


def deal_line(deal: Deal, language: Language = ENGLISH) -> str:
    return language.format(DEAL_LINE, game=deal.title, number=deal.number,
                           variant=language.render(deal.variant), commitment=deal.commitment)


SEED_RANKED = Nn_("Seed `{seed}` · {count} ranked on this server",
                  "Seed `{seed}` · {count} ranked on this server")
PODIUM_SEED = N_("Seed `{seed}`")
NOBODY_RANKED = N_("Nobody ranked on this server.")
PODIUM_LINE = N_("{rank}. {name}: {score}")
RESIGNED = N_("{score} (resigned)")


def podium_text(podium: Podium, limit: int = FIELD_LIMIT, language: Language = ENGLISH) -> str:
    """The podium's lines (as many as fit in ``limit`` characters), then always the seed."""
    if podium.lines:
        lines = [_board_line(line, language) for line in podium.lines]
        seed = language.ngettext(*SEED_RANKED, podium.size).format(
            seed=podium.seed, count=number(language, podium.size))
    else:
        lines = [language.gettext(NOBODY_RANKED)]
        seed = language.format(PODIUM_SEED, seed=podium.seed)
    return _fit(lines, seed, limit)


def _board_line(line: Any, language: Language = ENGLISH) -> str:
    name = line.name.strip()
    shown = discord.utils.escape_markdown(name[:NAME_LIMIT]) if name else f"<@{line.owner_id}>"
    score = language.render(line.score_text)
    if line.status == "resigned":
        score = language.format(RESIGNED, score=score)
    return language.format(PODIUM_LINE, rank=line.rank, name=shown, score=score)


def _fit(lines: list[str], last: str, limit: int) -> str:
    """Whole ``lines`` while they fit in ``limit`` characters with ``last`` after them."""
    more = "…"
    room = limit - len(last) - len(more) - 2
    kept: list[str] = []
    for line in lines:
        if len("\n".join([*kept, line])) > room:
            kept.append(more)
            break
        kept.append(line)
    return "\n".join([*kept, last] if last else kept)


# ----- the cog -------------------------------------------------------------------------------


class DailyPosts(commands.Cog):
    """Runs a :class:`DailyPoster` pass when the bot is ready and every minute after."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot
        self.poster = DailyPoster(bot, Posts(bot.core.ctx, bot.core.daily))

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # Started once the gateway has delivered the servers (so a missing one really is
        # gone), never awaited: start-up is not held up. on_ready comes again after a
        # reconnect; one loop is enough.
        if not self.every_minute.is_running():
            self.every_minute.start()

    async def cog_unload(self) -> None:
        self.every_minute.cancel()

    @tasks.loop(seconds=INTERVAL)
    async def every_minute(self) -> None:
        try:
            await self.poster.run_due(self.bot.core.ctx.clock())
        except Exception:  # a failed pass (the database, say) must not end the loop
            log.exception("daily posts: the pass failed; trying again in %d s", INTERVAL)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(DailyPosts(bot))
