"""/rules and /help: reading matter, always ephemeral. /help opens on a short introduction
with a button per topic (playing, the daily, boards, challenges, settings); each topic says how
it works and its commands, as Discord shows them to the reader, in the reader's language
(``bot.i18n``: the texts are marked here and translated when shown)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.boards.rulebook import rulebook
from bot.buttons import ButtonRows, Click, button, make_id
from bot.choices import GAME_CHOICES
from bot.i18n import ENGLISH, OPTION_NAME, Language, reader_language
from bot.standings import PERIOD_RULE, TIE_BREAK
from bot.timestamps import at
from core import Refusal
from core.checks import check_game
from core.clock import utc
from core.daily import closes_at
from core.errors import N_, Message
from rules import GAMES

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

#: What /help opens with: the bot in two sentences, and topics to open below it.
INTRO = N_(
    "Dungeon Deck deals solo dungeon card games: {games}. `/play` starts a practice run, "
    "`/daily` today's deal, the same for every player in the world.\n\n"
    "Open a topic below for how it works and its commands."
)
#: Each topic's text (its words are the docs' and the boards': see ``TIE_BREAK`` and
#: ``PERIOD_RULE``), and the commands it explains, in that order.
TOPICS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "play": (N_("Playing"), N_(
        "Start a run with `/play`, then play it to the end by clicking the buttons under the "
        "board; the board always says what just happened and what you can do next. Runs are "
        "saved after every move, so you can leave and come back (`/games`). Practice runs can "
        "be undone one move at a time."), ("play", "games", "table", "rules", "preferences",
                                           "help")),
    "daily": (N_("The daily"), N_(
        "Every UTC day each game has one deal that every player in the world gets, one "
        "attempt each (`/daily`), no undo. A run may be finished until an hour after the next "
        "deal opens (today: {closes}) and still rank; then the day's boards are final and its "
        "seed is revealed (`/verify`). Once a day is closed, its runs can be replayed move by "
        "move.\n\n{sharing}"), ("daily", "verify", "replay")),
    "boards": (N_("Boards and seasons"), N_(
        "`/leaderboard` compares this server's players or everyone's; `/stats` keeps your "
        "streaks. {tie_break} With `/preferences global-board:off` everyone's boards list you "
        "as \"a player\", at your true rank (server boards still name you); with "
        "`reminders:on` the bot sends you a direct message when a streak is at risk, in the last "
        "hour today's deal can still be started.\n\n"
        "**Weeks and months:** `/leaderboard day:week`, `day:month` and `month:YYYY-MM` (past "
        "months stay readable). {period_rule} On the 1st, once the month's last day has "
        "closed, each server's results channel gets last month's champions, the top three of "
        "each game, and with `/settings champion-role` the bot gives that role to each game's "
        "champion (taking it from last month's)."), ("leaderboard", "stats")),
    "friends": (N_("Challenges and series"), N_(
        "`/challenge` deals a fresh deal that everyone who accepts plays once, privately; its "
        "card ranks you as you finish and reveals the seed when it closes. `/series` plays "
        "Tomb of Four Kings runs back to back and adds up their points."),
        ("challenge", "challenges", "series")),
    "settings": (N_("Server settings"), N_(
        "What this server's results channel gets and how its boards rank: only members who "
        "may manage the server see this."), ("settings",)),
}
#: The custom id kind of a /help topic button (``dd.hp:<topic>``).
HELP = "hp"
#: Where a daily's share line goes (bot.results), said where /help explains the daily.
SHARING = N_(
    "A finished daily's **Share** button posts its spoiler-free line (your name, the score, "
    "a row of squares) once: in the server's results channel if one is set (which also gets "
    "every daily result by itself), else in the channel you played in; nowhere else unless "
    "you share."
)
EMBED_COLOUR = discord.Colour.dark_gold()
RULES_TITLE = N_("{game}: the rules")
NOT_YOURS = N_("Server settings are for members who may manage this server.")
INTRODUCTION = N_("Introduction")
OPTIONAL = N_("(optional)")
TOPIC_TITLE = N_("Dungeon Deck · {topic}")


def usable(command: app_commands.Command[Any, Any, Any],
           interaction: discord.Interaction[Any]) -> bool:
    """Whether the reader may use ``command`` where they asked: Discord hides a command from
    DMs when it is for servers only, and from members without its default permissions."""
    if interaction.guild_id is None:
        return not command.guild_only
    needed = command.default_permissions
    return needed is None or interaction.permissions >= needed


def commands_of(tree: app_commands.CommandTree[Any], interaction: discord.Interaction[Any],
                ) -> dict[str, app_commands.Command[Any, Any, Any]]:
    """The tree's slash commands the reader may use, by name."""
    return {c.name: c for c in tree.get_commands()
            if isinstance(c, app_commands.Command) and usable(c, interaction)}


def command_text(command: app_commands.Command[Any, Any, Any],
                 language: Language = ENGLISH) -> str:
    """``**/play**: description`` and each option as Discord shows it to this reader
    (``results-channel``, its registered name, not the Python one, in the reader's language
    as the command translator gives it), every description whole."""
    say = language.gettext
    optional = " " + say(OPTIONAL)
    lines = [f"**/{command.name}**: {say(command.description)}"]
    lines += [f"• `{language.pgettext(OPTION_NAME, p.display_name)}`"
              f"{'' if p.required else optional}: {say(p.description)}"
              for p in command.parameters]
    return "\n".join(lines)


def topics_for(commands: dict[str, Any]) -> list[str]:
    """The topics the reader may open: one whose commands they may use none of is left out."""
    return [key for key, (_, _, names) in TOPICS.items() if any(n in commands for n in names)]


def help_buttons(topics: list[str], current: str | None,
                 language: Language = ENGLISH) -> ButtonRows:
    rows = ButtonRows()
    rows.add(button(make_id(HELP, "intro"), label=language.gettext(INTRODUCTION),
                    style=(discord.ButtonStyle.primary if current is None
                           else discord.ButtonStyle.secondary), disabled=current is None))
    for key in topics:
        rows.add(button(make_id(HELP, key), label=language.gettext(TOPICS[key][0]),
                        disabled=key == current,
                        style=(discord.ButtonStyle.primary if key == current
                               else discord.ButtonStyle.secondary)))
    return rows


def help_embed(tree: app_commands.CommandTree[Any], interaction: discord.Interaction[Any],
               topic: str | None = None, *, now: datetime | None = None,
               language: Language = ENGLISH) -> tuple[discord.Embed, ButtonRows]:
    """/help: a short introduction (``topic`` None) or one topic's text and commands, with
    the buttons to open the others, in ``language``; only commands the reader may use are
    shown."""
    say = language.gettext
    commands = commands_of(tree, interaction)
    topics = topics_for(commands)
    games = ", ".join(game.title for game in GAMES.values())
    if topic is None:
        embed = discord.Embed(title="Dungeon Deck", description=say(INTRO).format(games=games),
                              colour=EMBED_COLOUR)
        return embed, help_buttons(topics, None, language)
    title, text, names = TOPICS[topic]
    today = utc(now or datetime.now(UTC)).date().isoformat()
    body = say(text).format(tie_break=say(TIE_BREAK), period_rule=say(PERIOD_RULE),
                            sharing=say(SHARING), closes=at(closes_at(today)))
    listed = [command_text(commands[n], language) for n in names if n in commands]
    embed = discord.Embed(title=language.format(TOPIC_TITLE, topic=Message(title)),
                          description="\n\n".join([body, *listed]), colour=EMBED_COLOUR)
    return embed, help_buttons(topics, topic, language)


def rules_embed(game: str, language: Language = ENGLISH) -> discord.Embed:
    """The rulebook page of ``game`` in ``language``; all English when the game has no rules
    text in that language (never an English text under a translated title)."""
    code, text = rulebook(game, language.code)
    if code == ENGLISH.code:
        language = ENGLISH
    return discord.Embed(title=language.format(RULES_TITLE, game=GAMES[game].title),
                         description=text, colour=EMBED_COLOUR)


class Info(commands.Cog):
    """Rules and help."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.clicks.register(HELP, self.on_topic)

    async def cog_unload(self) -> None:
        self.bot.clicks.unregister(HELP)

    @app_commands.command(name="rules")
    @app_commands.describe(game="The game whose rules to show")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        """The rules of a game, with its variants."""
        try:
            key = check_game(game).key
        except Refusal as exc:
            await replies.notice(interaction, exc)
            return
        language = await reader_language(self.bot, interaction)
        await interaction.response.send_message(embed=rules_embed(key, language),
                                                ephemeral=True)

    @app_commands.command(name="help")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """What this bot does, and each topic with its commands."""
        embed, rows = help_embed(self.bot.tree, interaction, now=self.bot.core.ctx.clock(),
                                 language=await reader_language(self.bot, interaction))
        await interaction.response.send_message(embed=embed, view=rows, ephemeral=True)

    async def on_topic(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """A /help topic button (``dd.hp:<topic>``, checked by ``bot.custom_ids``): the help
        message shows that topic; one the clicker may not use (settings) is refused."""
        topic = str(click.fields[0])
        key = None if topic == "intro" else topic
        if key is not None and key not in topics_for(commands_of(self.bot.tree, interaction)):
            await replies.notice(interaction, NOT_YOURS)
            return
        embed, rows = help_embed(self.bot.tree, interaction, key, now=self.bot.core.ctx.clock(),
                                 language=await reader_language(self.bot, interaction))
        await interaction.response.edit_message(embed=embed, view=rows)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Info(bot))
