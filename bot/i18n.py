"""The Discord adapter's side of the languages: whose language a message speaks, and the slash
commands' translator. The catalogs and :class:`~language.Language` themselves are the
project's translation layer, :mod:`language` (re-exported here for the adapter's modules).
See docs/languages.md.

- :func:`reader_language` (an ephemeral answer: the reader's ``/preferences language``, else
  Discord's ``interaction.locale``) and :func:`server_language` (a public message: the
  server's ``/settings language``, else Discord's ``guild_locale``).
- :class:`CommandTranslator` gives Discord the commands' descriptions, option names and
  choice names in each offered language (``tree.set_translator``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from core.errors import N_
from language import (
    AUTO,
    CHOICE_NAME,
    DOMAIN,
    ENGLISH,
    LOCALE_DIR,
    OPTION_NAME,
    PSEUDO_CODE,
    SOURCE,
    Catalogs,
    Language,
    catalogs,
    fields,
    for_reader,
    pseudo,
    pseudo_language,
)

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

#: Discord's rule for a command or option name in any language (lowercase where it has case).
NAME_RULE = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
#: Discord's lengths: descriptions 100, choice names 100.
DESCRIPTION_LIMIT = 100
CHOICE_NAME_LIMIT = 100


def _(text: str) -> str:
    """Mark a bot string for extraction where it is defined (translated where it is shown,
    as ``N_``); kept apart from ``N_`` only for the reader of the code: same behaviour."""
    return N_(text)


# ----- whose language -------------------------------------------------------------------------


@dataclass(frozen=True)
class Choices:
    """The stored language choices that decide a message's language."""

    player: str | None  # /preferences language (None: auto)
    server: str | None  # /settings language (None: auto)


async def reader_language(bot: DungeonBot, interaction: discord.Interaction[Any]) -> Language:
    """An ephemeral answer's language: the reader's ``/preferences language``, else their
    Discord language."""
    chosen = await _choices(bot, interaction.guild_id, interaction.user.id)
    return for_reader(chosen.player, str(interaction.locale), catalogs())


async def server_language(bot: DungeonBot, guild: discord.Guild | None,
                          interaction: discord.Interaction[Any] | None = None) -> Language:
    """A public message's language: the server's ``/settings language``, else the server's
    Discord language (``guild_locale``; the guild's preferred locale outside an interaction).
    A DM has no server: the reader's language then."""
    books = catalogs()
    if guild is None:
        return await reader_language(bot, interaction) if interaction else ENGLISH
    if interaction is not None:  # a click on a public board: the choices cached a minute
        language = (await _choices(bot, guild.id, interaction.user.id)).server
    else:
        language = (await bot.core.settings.guild(guild.id)).language
    if language is not None and books.known(language):
        return books.languages[language]
    locale = interaction.guild_locale if interaction is not None else None
    return books.resolve(str(locale or guild.preferred_locale))


async def _choices(bot: DungeonBot, guild_id: int | None, user_id: int) -> Choices:
    core = getattr(bot, "core", None)
    if core is None:
        return Choices(None, None)
    player, server = await core.settings.languages(guild_id, user_id)
    return Choices(player, server)


async def notice_language(interaction: discord.Interaction[Any]) -> Language:
    """The reader's language for a notice, from anywhere that has only the interaction."""
    from bot.client import DungeonBot  # the client imports this module

    bot = interaction.client
    if not isinstance(bot, DungeonBot):
        return catalogs().resolve(str(interaction.locale))
    return await reader_language(bot, interaction)


# ----- slash commands -------------------------------------------------------------------------


class CommandTranslator(app_commands.Translator):
    """The commands' descriptions, option names and choice names in each offered language.

    Command names stay English in every language: every message, help page and shared
    screenshot quotes them (``/daily``), and a player typing one they read must find it.
    A string no catalog translates gives None: Discord shows the English one.
    """

    def __init__(self, books: Catalogs | None = None) -> None:
        super().__init__()
        self._books = books

    @property
    def books(self) -> Catalogs:
        return self._books or catalogs()

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        return self.translated(string, str(locale), context.location)

    def translated(self, string: app_commands.locale_str, locale: str,
                   location: app_commands.TranslationContextLocation) -> str | None:
        where = app_commands.TranslationContextLocation
        if location in (where.command_name, where.group_name) or string.extras.get("verbatim"):
            return None
        # Discord's own locale (``es-ES``, ``es-419``, ``pt-BR``): its language, else its base
        # language's (Spanish for both Spanish locales), as every answer resolves it.
        language = self.books.resolve(locale)
        if language is ENGLISH:
            return None
        context = _CONTEXTS.get(location)
        text = (language.pgettext(context, string.message) if context
                else language.gettext(string.message))
        if text == string.message:
            return None
        if len(text) > (CHOICE_NAME_LIMIT if context == CHOICE_NAME else DESCRIPTION_LIMIT) or (
                context == OPTION_NAME and not (NAME_RULE.match(text) and text == text.lower())):
            # Discord would refuse the whole sync: this one string stays English instead.
            log.warning("%s translation of %r breaks Discord's rules: %r", locale,
                        string.message, text)
            return None
        return text


_CONTEXTS = {
    app_commands.TranslationContextLocation.parameter_name: OPTION_NAME,
    app_commands.TranslationContextLocation.choice_name: CHOICE_NAME,
}


@dataclass(frozen=True)
class CommandString:
    """A string of the command tree a translator is asked for, and where it appears."""

    text: str
    location: app_commands.TranslationContextLocation
    command: str

    @property
    def context(self) -> str | None:
        return _CONTEXTS.get(self.location)


class _Collector(app_commands.Translator):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[CommandString] = []
        self._command = ""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is discord.Locale.american_english and not string.extras.get("verbatim"):
            data = context.data
            command = getattr(data, "qualified_name", None) or getattr(
                getattr(data, "command", None), "qualified_name", self._command)
            self._command = command
            self.found.append(CommandString(string.message, context.location, command))
        return None


async def command_strings(tree: app_commands.CommandTree[Any]) -> list[CommandString]:
    """Every string of the tree's commands that Discord shows and a catalog translates (the
    commands' names are left out: they stay English)."""
    collector = _Collector()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, collector)
    where = app_commands.TranslationContextLocation
    return [s for s in collector.found if s.location not in (where.command_name, where.group_name)]


def language_choices(codes: Iterable[str]) -> list[app_commands.Choice[str]]:
    """``auto`` and each offered language, by its own name (never translated)."""
    books = catalogs()
    shown = [app_commands.Choice(name=app_commands.locale_str(_("auto (Discord's language)")),
                                 value=AUTO)]
    shown += [app_commands.Choice(name=app_commands.locale_str(books.languages[c].name,
                                                               verbatim=True), value=c)
              for c in codes]
    return shown


__all__ = [
    "AUTO", "CHOICE_NAME", "DOMAIN", "ENGLISH", "LOCALE_DIR", "OPTION_NAME", "PSEUDO_CODE",
    "SOURCE", "Catalogs", "CommandTranslator", "Language", "catalogs", "fields", "pseudo",
    "pseudo_language", "reader_language", "server_language",
]
