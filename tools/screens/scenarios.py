"""The screens a player meets, produced by the real bot in simcord's offline Discord.

:func:`capture_all` starts the bot (card emoji and table pictures on, as in production) on a
new SQLite file, in a virtual guild with a #games channel and a few players, on a fixed fake
clock and daily secret, and plays one story through slash commands and clicks: a few days of
dailies, practice runs of every game, the controls around a board, the reading commands, a
challenge, and, once the day has closed, a replay and /verify. Each answer worth looking at is
captured as it stands once the bot's background work is done (the picture worker has drawn
and attached the table), as a :class:`tools.screens.render.Message`.

Moves are chosen by the game's own hint (``rules.hints``, a small budget and a fixed rng), and
found by their action, not by a button's place, so a board whose buttons move keeps the same
story; the same code gives the same screens.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import simcord

from bot.client import DungeonBot, create_bot
from core.model import Run
from rules.hints import hint
from tools.screens.render import Message
from tools.screens.trial import as_layout

#: Thursday 3 December 2026, noon UTC: the story starts two days before "today".
START = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
DAILY_SECRET = "dungeon deck screens"
FIRST_SEED = 20_261_203
#: Search nodes per chosen move (a fraction of a second each).
HINT_BUDGET = 1500
#: How long the story's bot waits for a board's table picture (a click waits 0.25 s).
PICTURE_WAIT = 10.0


@dataclass
class Screen:
    """One captured answer: its file name, a caption, and what it shows."""

    name: str
    title: str
    about: str
    message: Message


class Clock:
    """The bot's clock: it moves only when the story says so."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def chosen(run: Run, rng: random.Random, samples: int = 4) -> Any:
    """The game's hint for the story's next move, worked out on a thread: searching on the
    event loop would hold it for seconds on a busy machine, and simcord then meets its
    real-time fallbacks mid-search and cannot settle."""
    return await asyncio.to_thread(hint, run.game, run.state, rng=rng, budget=HINT_BUDGET,
                                   samples=samples)


class Story:
    """The bot in simcord, its players, and how an answer becomes a :class:`Screen`."""

    def __init__(self, env: simcord.Env, bot: DungeonBot, clock: Clock) -> None:
        self.env = env
        self.bot = bot
        self.clock = clock
        self.guild = env.create_guild("Dungeon Hall")
        self.channel = self.guild.create_text_channel("games")
        self.alice = self.guild.add_member(env.create_user("alice"))
        self.bob = self.guild.add_member(env.create_user("bob"))
        #: Players who only play dailies, straight through the core.
        self.others = [self.guild.add_member(env.create_user(name))
                       for name in ("carol", "dave", "erin", "frank")]
        self.screens: list[Screen] = []
        self.names: dict[int, str] = {self.channel.id: "games"}
        for member in (self.alice, self.bob, *self.others):
            self.names[member.id] = member.name

    # ----- doing ------------------------------------------------------------------------

    async def settle(self) -> None:
        """Wait for the emoji sync, the picture worker's start and every table picture."""
        if self.bot._emoji_task is not None:
            await self.bot._emoji_task
        if self.bot.table_pictures.warming is not None:
            await self.bot.table_pictures.warming
        while self.bot.table_pictures._tasks:
            await asyncio.gather(*self.bot.table_pictures._tasks)

    async def slash(self, actor: Any, name: str, **options: Any) -> simcord.InteractionResult:
        result = await actor.slash(self.channel, name, **options)
        assert result.acknowledged, f"/{name} was not answered"
        await self.settle()
        return result

    async def click(self, actor: Any, message: Any, custom_id: str) -> Any:
        """Click a button; the message the click answered with (edited or new)."""
        result = await actor.click(message, custom_id=custom_id)
        assert result.acknowledged, f"the click on {custom_id!r} was not answered"
        await self.settle()
        return result.response

    @staticmethod
    def buttons(message: Any) -> list[dict[str, Any]]:
        return [c for row in message.components for c in row.get("components", [])
                if c.get("type") == 2]

    def button(self, message: Any, test: Callable[[dict[str, Any]], bool]) -> str:
        found = [b["custom_id"] for b in self.buttons(message) if test(b)]
        assert found, f"no such button among {[b.get('label') for b in self.buttons(message)]}"
        return found[0]

    def control(self, message: Any, verb: str) -> str:
        return self.button(message, lambda b: b.get("custom_id", "").startswith(f"dd.c:{verb}:"))

    def with_id(self, message: Any, prefix: str, suffix: str = "") -> str:
        """The button whose custom id starts with ``prefix`` and ends with ``suffix`` (by id,
        not label, so the story plays the same in every language)."""
        return self.button(message, lambda b: b.get("custom_id", "").startswith(prefix)
                           and b["custom_id"].endswith(suffix))

    async def run_of(self, message: Any) -> Run:
        """The run whose moves the board ``message`` offers."""
        ids = [b["custom_id"] for b in self.buttons(message)
               if b.get("custom_id", "").startswith(("dd.m:", "dd.c:resign:"))]
        run_id = int(ids[0].split(":")[1] if ids[0].startswith("dd.m:") else ids[0].split(":")[2])
        return await self.bot.core.runs.get(run_id)

    async def run_of_finished(self, message: Any) -> Run:
        """The run whose result card ``message`` is (its Practice button names it)."""
        custom_id = self.control(message, "again")
        return await self.bot.core.runs.get(int(custom_id.split(":")[2]))

    async def play(self, actor: Any, board: Any, moves: int | None, seed: int) -> Any:
        """Play ``moves`` hinted moves on ``board`` (None: to the end); the last board."""
        rng = random.Random(seed)
        for _ in itertools.count() if moves is None else range(moves):
            if not any(b["custom_id"].startswith(("dd.m:", "dd.c:pick:"))
                       and not b.get("disabled") for b in self.buttons(board)):
                break
            run = await self.run_of(board)
            action = (await chosen(run, rng)).action
            board = await self.pick(actor, board, action)
            board = await self.click(actor, board, self.button(
                board, lambda b, a=action: b.get("custom_id", "").endswith(f":{a}")))
        return board

    async def pick(self, actor: Any, board: Any, action: str) -> Any:
        """On a two-step board, click the first step that leads to ``action`` (its card);
        the board offering the move."""
        if any(b.get("custom_id", "").endswith(f":{action}") for b in self.buttons(board)):
            return board
        words = action.split(" ")[1:]
        return await self.click(actor, board, self.button(
            board, lambda b: b.get("custom_id", "").startswith("dd.c:pick:")
            and b["custom_id"].rsplit(":", 1)[-1] in words))

    async def daily_through_core(self, member: Any, game: str, seed: int) -> Run:
        """A daily played to the end without Discord (random legal moves)."""
        await self.bot.core.rankings.remember_name(member.id, member.name)
        started = await self.bot.core.daily.start(member.id, game, guild_id=self.guild.id)
        run, rng = started.run, random.Random(seed)
        while not run.over:
            run = await self.bot.core.runs.act(run.id, member.id, run.version,
                                               rng.choice(run.actions))
        return run

    # ----- keeping ----------------------------------------------------------------------

    async def keep(self, name: str, title: str, about: str, message: Any, *,
                   user: str | None = None, command: str | None = None) -> None:
        """Capture ``message`` as Discord holds it now (after its picture was attached)."""
        await self.settle()
        stored = simcord.ResponseMessage(
            self.env, self.env.backend.get_message(message.channel_id, message.id))
        files = {a.filename: await a.read() for a in stored.attachments}
        self.screens.append(Screen(name, title, about, Message(
            content=stored.content, embeds=[e.to_dict() for e in stored.embeds],
            components=stored.components, attachments=files, ephemeral=stored.ephemeral,
            user=user, command=command, at=self.clock.now, names=dict(self.names),
        )))


async def story(s: Story) -> None:
    """Everything the screens show, in the order it happens."""
    alice, bob = s.alice, s.bob
    # Thursday and Friday: a few players' dailies, for the week's board and alice's streak.
    for day in range(2):
        for i, member in enumerate([*s.others, alice]):
            await s.daily_through_core(member, "donsol", 100 * day + i)
        s.clock.now += timedelta(days=1)
    # Saturday 5 December, noon: "today".
    for i, member in enumerate(s.others[:3]):
        await s.daily_through_core(member, "donsol", 300 + i)

    daily = (await s.slash(alice, "daily", game="donsol")).response
    daily_run = await s.run_of(daily)
    daily = await s.play(alice, daily, None, 7)
    await s.keep("donsol-daily-result", "Donsol daily, finished",
                 "The result card of today's Donsol daily: the outcome, the score once, what "
                 "it means (first run, the standing here and worldwide, the streak), the share "
                 "line, and Share, Practice Donsol and Stats.",
                 daily, user="alice", command="daily")
    shared = await s.click(alice, daily, s.control(daily, "share"))
    await s.keep("share-line", "The share line in the channel",
                 "What Share posts in the channel where the daily was played (no results "
                 "channel set): the player, the deal, the score, a square per room, the legend "
                 "of the squares shown and the invitation.",
                 shared, user="alice", command="daily")

    asked = await s.slash(alice, "leaderboard", game="donsol")
    await s.keep("leaderboard-day", "/leaderboard (today)",
                 "Today's Donsol board on this server: four players, no line marked (everyone "
                 "reads the same board), and Play today's deal.",
                 asked.response, user="alice", command="leaderboard")
    await s.keep("leaderboard-yours", "/leaderboard: your place",
                 "What only alice is told after the public board: her own place on it.",
                 asked.followups[0], user="alice", command="leaderboard")
    board = (await s.slash(alice, "leaderboard", game="donsol", day="week")).response
    await s.keep("leaderboard-week", "/leaderboard day:week",
                 "This week's daily points (Monday to Sunday) from three days of dailies.",
                 board, user="alice", command="leaderboard")
    frank = s.others[3]  # played Thursday and Friday, not today
    prefs = (await s.slash(frank, "preferences", reminders="on",
                           **{"global-board": "off"})).response
    await s.keep("preferences", "/preferences",
                 "frank keeps his name off everyone's boards and asks for streak reminders "
                 "(only he sees it).", prefs, user="frank", command="preferences")
    board = (await s.slash(alice, "leaderboard", game="donsol", day="week",
                           scope="global")).response
    await s.keep("leaderboard-week-global", "/leaderboard day:week scope:global",
                 "Everyone's week: frank chose global-board:off, so this board lists him as "
                 "\"a player\", at his own rank (this server's board still names him).",
                 board, user="alice", command="leaderboard")

    donsol = (await s.slash(alice, "play", game="donsol")).response
    donsol = await s.play(alice, donsol, 6, 1)
    await s.keep("donsol-board", "Donsol, mid-game",
                 "A practice Donsol run six moves in: what the last move did, one status line "
                 "(health, shield, cards left), the table picture, and one button per move.",
                 donsol, user="alice", command="play")
    # The components-v2 trial: the same board, both ways (tools/screens/trial.py).
    shown = s.screens[-1]
    s.screens.append(dataclasses.replace(
        shown, name="trial-embed", title="Trial: the board as an embed",
        about="The mid-game Donsol board as the bot sends it: an embed with its picture."))
    s.screens.append(dataclasses.replace(
        shown, name="trial-v2", title="Trial: the board as components v2",
        about="The same board as a components-v2 message (Container, TextDisplay, "
        "MediaGallery, action rows), built with discord.py's LayoutView.",
        message=as_layout(shown.message)))
    asked = await s.click(alice, donsol, s.control(donsol, "resign"))
    await s.keep("resign-confirm", "Resign: asked first",
                 "Resign asks before it ends the run; Keep playing brings the board back.",
                 asked, user="alice", command="play")
    donsol = await s.click(alice, asked, s.control(asked, "board"))
    refused = await s.click(bob, donsol, s.button(
        donsol, lambda b: b["custom_id"].startswith("dd.m:") and not b.get("disabled")))
    await s.keep("refusal", "Another player's board",
                 "What bob sees when he clicks a move on alice's board (only he sees it).",
                 refused)

    tomb = (await s.slash(alice, "play", game="tomb")).response
    tomb = await s.play(alice, tomb, 8, 2)
    await s.keep("tomb-board", "Tomb of Four Kings, mid-game",
                 "A practice Tomb of Four Kings run eight moves in.",
                 tomb, user="alice", command="play")

    clear = (await s.slash(alice, "play", game="clear")).response
    await s.keep("clear-start", "Clear the Dungeon, the start",
                 "A new Clear the Dungeon board, before the first move: a button per card.",
                 clear, user="alice", command="play")
    clear = await s.play(alice, clear, 6, 3)
    await s.keep("clear-mid", "Clear the Dungeon, mid-game",
                 "The same Clear the Dungeon run six moves in.",
                 clear, user="alice", command="play")
    run = await s.run_of(clear)
    action = (await chosen(run, random.Random(3))).action
    clear = await s.pick(alice, clear, action)
    await s.keep("clear-pick", "Clear the Dungeon, where the card goes",
                 "After a card's button: only that card's targets, and Back.",
                 clear, user="alice", command="play")
    clear = await s.click(alice, clear, s.control(clear, "hint"))
    await s.keep("hint-marked", "A hint, its move marked",
                 "After Hint: the suggested card's button carries 💡 on this board only.",
                 clear, user="alice", command="play")

    scoundrel = (await s.slash(alice, "play", game="scoundrel")).response
    scoundrel = await s.play(alice, scoundrel, 5, 4)
    await s.keep("scoundrel-board", "Scoundrel, mid-game",
                 "A practice Scoundrel run five moves in.",
                 scoundrel, user="alice", command="play")

    listed = (await s.slash(alice, "games")).response
    await s.keep("games", "/games",
                 "alice's unfinished runs, each with a button that brings its board back.",
                 listed, user="alice", command="games")
    offer = (await s.slash(alice, "play", game="donsol")).response
    await s.keep("play-offer", "/play with an unfinished run",
                 "/play offers to resume the unfinished Donsol run or to abandon it.",
                 offer, user="alice", command="play")

    await s.bot.core.ratings.run_due(s.clock.now)  # Thursday's and Friday's boards rated
    stats = (await s.slash(alice, "stats")).response
    await s.keep("stats", "/stats", "alice's record: runs, wins, best scores and streaks; the "
                 "strip starts at her first daily, a week a row; her rating from Thursday's and "
                 "Friday's boards and its change this month; and her card: a histogram of her "
                 "daily scores, her last 12 weeks of days played, frozen or missed, and her "
                 "rating's trend.", stats, user="alice", command="stats")
    shown = (await s.slash(alice, "help")).response
    await s.keep("help", "/help", "A short introduction and the topics to open, privately.",
                 shown, user="alice", command="help")
    shown = await s.click(alice, shown, s.with_id(shown, "dd.hp:daily"))
    await s.keep("help-daily", "/help: the daily",
                 "One topic opened: how the daily works, and its commands with their options "
                 "as Discord shows them.", shown, user="alice", command="help")
    shown = (await s.slash(alice, "rules", game="donsol")).response
    await s.keep("rules-donsol", "/rules donsol", "Donsol's rulebook, privately.", shown,
                 user="alice", command="rules")

    result = await s.slash(alice, "challenge", game="tomb")
    card = result.response
    await s.keep("challenge-board", "A challenge board",
                 "alice's own board of her challenge, sent privately under the card: card "
                 "faces, the table picture and when the challenge closes.",
                 result.followups[0], user="alice", command="challenge")
    bobs = await s.click(bob, card, s.with_id(card, "dd.ch:acc:"))
    bobs = await s.play(bob, bobs, None, 5)
    await s.keep("challenge-board-finished", "A finished challenge board",
                 "bob's board once his run is over: his rank in the challenge so far.",
                 bobs, user="bob", command="challenge")
    await s.keep("challenge-card", "A challenge card",
                 "alice's public challenge after bob accepted and finished his run; alice is "
                 "still playing.", card, user="alice", command="challenge")

    # Result cards of practice runs: three played to the end by the hints, one resigned.
    for name, board, seed in (("clear", clear, 3), ("scoundrel", scoundrel, 4),
                              ("donsol", donsol, 1)):
        board = await s.play(alice, board, None, seed)
        run = await s.run_of_finished(board)
        await s.keep(f"result-{name}", f"Result card: {run.title}, {run.outcome}",
                     f"A practice {run.title} run played to the end by the hints: "
                     f"{run.view['score_text']}.", board, user="alice", command="play")
    asked = await s.click(alice, tomb, s.control(tomb, "resign"))
    resigned = await s.click(alice, asked, s.control(asked, "confirm"))
    await s.keep("result-resigned", "Result card: resigned",
                 "The Tomb of Four Kings run resigned eight moves in: said, and scored with "
                 "what a resigned Tomb run ranks with.", resigned, user="alice", command="play")

    # Saturday, 23:00: the deal's last hour; frank has not played today.
    s.clock.now = datetime(2026, 12, 5, 23, 0, 30, tzinfo=UTC)
    await s.bot.get_cog("ReminderLoop").run_due(s.clock.now)
    (dm,) = [m for m in frank.user.dm_channel.history() if m.author.bot]
    await s.keep("reminder", "A streak reminder",
                 "The direct message frank gets at 23:00 UTC: his Donsol streak is at risk.",
                 SimpleNamespace(channel_id=dm.channel.id, id=dm.id))

    # Sunday 6 December, 02:00: Saturday's boards have closed.
    s.clock.now = datetime(2026, 12, 6, 2, 0, tzinfo=UTC)
    s.bot.core.replays.budget_per_step = 300
    replay = (await s.slash(bob, "replay", run=daily_run.id)).response
    for _ in range(3):
        replay = await s.click(bob, replay, s.with_id(replay, "dd.rp:", ":n"))
    await s.keep("replay-step", "A replay step",
                 "bob replays alice's finished daily once the day has closed: move 3 and "
                 "what it did.", replay, user="bob", command="replay")
    shown = (await s.slash(alice, "verify", game="donsol", day="yesterday",
                           run=daily_run.id)).response
    await s.keep("verify", "/verify",
                 "Yesterday's deal checked: the seed, its commitment, the command that "
                 "re-deals it, and the run's moves as a file.",
                 shown, user="alice", command="verify")
    # Saturday's par (a small budget: a bound, as a cut-short search gives) and its look back.
    s.bot.core.par.budget_nodes, s.bot.core.par.days = 3000, 1
    await s.bot.core.par.run_due()
    daily = (await s.slash(alice, "daily", game="donsol")).response
    await s.keep("daily-yesterday", "/daily the day after",
                 "Sunday's Donsol daily opens with Saturday's look back: alice's score against "
                 "par, her percentile among the day's ranked players, the day's best and the "
                 "turning point bob's replay worked out.", daily, user="alice", command="daily")
    shown = (await s.slash(alice, "stats", game="donsol", day="yesterday")).response
    await s.keep("stats-day", "/stats game:donsol day:yesterday",
                 "Saturday's look back in full, with the par and the turning point's sentence.",
                 shown, user="alice", command="stats")


async def capture_all(folder: Path | None = None, language: str | None = None) -> list[Screen]:
    """Play the story on a new database (in ``folder``, else a temporary one); the screens.

    ``language`` (an offered code, ``fr``): the server's ``/settings language`` and every
    player's ``/preferences language`` are set to it before the story starts, so every
    screen, public or private, speaks it."""
    with tempfile.TemporaryDirectory(prefix="screens-") as scratch:
        path = Path(folder or scratch) / "dungeon-deck.sqlite3"
        clock = Clock(START)
        seeds = itertools.count(FIRST_SEED)
        bot = create_bot(path, daily_secret=DAILY_SECRET, clock=clock,
                         random_seed=lambda: next(seeds), pictures=True, card_emoji=True,
                         solve_par=False, rate_days=False, remind=False)
        # Every screenshot shows its picture, however busy the machine: the story waits for
        # each drawing far longer than a click does (a click sends a late picture's board as
        # text). A wait shorter than the drawing would also have simcord's virtual clock
        # race the real worker process.
        bot.table_pictures.wait = PICTURE_WAIT
        async with simcord.run(bot) as env:
            s = Story(env, bot, clock)
            if language is not None:
                await bot.core.settings.change_guild(s.guild.id, language=language)
                for member in (s.alice, s.bob, *s.others):
                    await bot.core.settings.set_player(member.id, "language", language)
            await s.settle()
            await story(s)
            return s.screens
