"""/rules and /help: reading matter, always ephemeral."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.boards.rulebook import RULEBOOK
from bot.choices import GAME_CHOICES
from bot.standings import PERIOD_RULE, TIE_BREAK
from core import Refusal
from core.checks import check_game
from rules import GAMES

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

INTRO = (
    "Dungeon Deck deals solo dungeon card games: {games}. Start a run with `/play`, then play "
    "it to the end by clicking the buttons under the board; the board always says what just "
    "happened and what you can do next. Runs are saved after every move, so you can leave and "
    "come back (`/games`). Practice runs can be undone one move at a time.\n\n"
    "**The daily:** every UTC day each game has one deal that every player in the world gets, "
    "one attempt each (`/daily`), no undo. A run may be finished until 01:00 UTC the next day "
    "and still rank; then the day's boards are final and its seed is revealed (`/verify`). "
    "`/leaderboard` compares this server's players or everyone's; `/stats` keeps your streaks. "
    "{tie_break} With `/preferences global-board:off` everyone's boards list you as \"a "
    "player\", at your true rank (server boards still name you); with `reminders:on` the bot "
    "sends you a direct message at 23:00 UTC when a streak is at risk.\n\n"
    "**Weeks and months:** `/leaderboard day:week`, `day:month` and `month:YYYY-MM` (past "
    "months stay readable). {period_rule} On the 1st at 01:00 UTC each server's results channel "
    "gets last month's champions, the top three of each game, and with `/settings "
    "champion-role` the bot gives that role to each game's champion (taking it from last "
    "month's).\n\n"
    "**With friends:** `/challenge` deals a fresh deal that everyone who accepts plays once, "
    "privately; its card ranks you as you finish and reveals the seed when it closes. "
    "`/series` plays Tomb of Four Kings runs back to back and adds up their points."
)
EMBED_COLOUR = discord.Colour.dark_gold()


def help_embed(tree: app_commands.CommandTree[Any]) -> discord.Embed:
    """What the bot does, then every command of ``tree`` with its options."""
    games = ", ".join(game.title for game in GAMES.values())
    embed = discord.Embed(
        title="Dungeon Deck",
        description=INTRO.format(games=games, tie_break=TIE_BREAK, period_rule=PERIOD_RULE),
        colour=EMBED_COLOUR,
    )
    for command in sorted(tree.get_commands(), key=lambda c: c.name):
        if not isinstance(command, app_commands.Command):
            continue
        lines = [command.description]
        lines += [
            f"`{p.name}`{'' if p.required else ' (optional)'}: {p.description}"
            for p in command.parameters
        ]
        embed.add_field(name=f"/{command.name}", value="\n".join(lines)[:1024], inline=False)
    return embed


def rules_embed(game: str) -> discord.Embed:
    """The rulebook page of ``game``."""
    return discord.Embed(
        title=f"{GAMES[game].title}: the rules", description=RULEBOOK[game], colour=EMBED_COLOUR
    )


class Info(commands.Cog):
    """Rules and help."""

    def __init__(self, bot: DungeonBot) -> None:
        self.bot = bot

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
            await replies.notice(interaction, str(exc))
            return
        await interaction.response.send_message(embed=rules_embed(key), ephemeral=True)

    @app_commands.command(name="help")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """What this bot does and every command."""
        await interaction.response.send_message(embed=help_embed(self.bot.tree), ephemeral=True)


async def setup(bot: DungeonBot) -> None:
    await bot.add_cog(Info(bot))
