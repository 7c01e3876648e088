"""The adapter's languages: gettext catalogs (``bot/locale``), whose language a message speaks,
and the slash commands' translator. See docs/languages.md.

- :class:`Catalogs` loads ``bot/locale/<lang>/LC_MESSAGES/messages.mo`` (or, when the ``.mo``
  is missing or older than its ``.po``, the ``.po`` compiled in memory). A language is
  *offered* only when its catalog translates every message of ``messages.pot``: a language
  with one message missing is not offered at all, so a reader gets English rather than a mix
  of two languages within one message.
- :class:`Language` is one offered language: ``gettext``/``ngettext``/``pgettext``,
  :meth:`Language.render` for the core's :class:`~core.errors.Message` (a refusal), and
  Babel's locale-aware numbers, dates and lists.
- :func:`reader_language` (an ephemeral answer: the reader's ``/preferences language``, else
  Discord's ``interaction.locale``) and :func:`server_language` (a public message: the
  server's ``/settings language``, else Discord's ``guild_locale``).
- :class:`CommandTranslator` gives Discord the commands' descriptions, option names and
  choice names in each offered language (``tree.set_translator``).
"""

from __future__ import annotations

import gettext
import hashlib
import io
import logging
import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from babel import Locale, UnknownLocaleError
from babel.dates import format_date
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from discord import app_commands

from core.errors import N_, Message
from rules.words import said

if TYPE_CHECKING:
    from bot.client import DungeonBot

log = logging.getLogger(__name__)

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"
#: The language the source strings are written in.
SOURCE = "en"
#: The value of ``/preferences language`` and ``/settings language`` that follows Discord.
AUTO = "auto"
#: The gettext contexts of slash-command strings (names must obey Discord's name rules).
OPTION_NAME = "option name"
CHOICE_NAME = "choice name"
#: Discord's rule for a command or option name in any language (lowercase where it has case).
NAME_RULE = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
#: Discord's lengths: descriptions 100, choice names 100.
DESCRIPTION_LIMIT = 100
CHOICE_NAME_LIMIT = 100


def _(text: str) -> str:
    """Mark a bot string for extraction where it is defined (translated where it is shown,
    as ``N_``); kept apart from ``N_`` only for the reader of the code: same behaviour."""
    return N_(text)


def fields(text: str) -> set[str]:
    """The ``{name}`` fields of a template (what a translation must keep, no more, no less)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


class Language:
    """One language's words: a gettext catalog and Babel's locale data."""

    def __init__(self, code: str, translations: gettext.NullTranslations) -> None:
        self.code = code
        self.translations = translations
        try:
            self.locale = Locale.parse(code.replace("-", "_"))
        except (UnknownLocaleError, ValueError):
            self.locale = Locale.parse(SOURCE)

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def gettext(self, text: str) -> str:
        return self.translations.gettext(text)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self.translations.ngettext(singular, plural, count)

    def pgettext(self, context: str, text: str) -> str:
        return self.translations.pgettext(context, text)

    def lookup(self, singular: str, plural: str | None, count: int | None) -> str:
        if plural is None:
            return self.gettext(singular)
        return self.ngettext(singular, plural, 1 if count is None else count)

    def render(self, message: Message | str) -> str:
        """A message, an engine's :class:`~rules.words.Phrase` (a ``str`` remembering its
        message) or a marked template without fields, in this language."""
        return said(message, self.lookup)

    def format(self, template: str, /, **params: object) -> str:
        """``template`` translated, then its fields filled (a :class:`Message` param too)."""
        return self.render(Message(template, params))

    def number(self, value: float) -> str:
        return format_decimal(value, locale=self.locale)

    def day(self, value: date, form: str = "long") -> str:
        return format_date(value, format=form, locale=self.locale)

    def list(self, items: Sequence[str], style: str = "standard") -> str:
        return format_list(list(items), style=style, locale=self.locale)

    @property
    def name(self) -> str:
        """The language's own name (``Français``), as a chooser shows it."""
        shown = self.locale.get_display_name(self.locale) or self.code
        return shown[:1].upper() + shown[1:]


ENGLISH = Language(SOURCE, gettext.NullTranslations())


class Catalogs:
    """Every offered language, loaded from ``directory`` (see the module's docstring)."""

    def __init__(self, directory: Path = LOCALE_DIR) -> None:
        self.directory = directory
        self.languages: dict[str, Language] = {SOURCE: ENGLISH}
        self.refused: dict[str, list[str]] = {}
        template = directory / f"{DOMAIN}.pot"
        wanted = _ids(template) if template.exists() else set()
        digest = hashlib.sha256()
        for folder in sorted(p for p in directory.iterdir() if p.is_dir()):
            code = folder.name.replace("_", "-")
            translations = _load(folder / "LC_MESSAGES")
            if translations is None:
                continue
            missing = sorted(key for key in wanted if not _has(translations, key))
            if missing:
                self.refused[code] = missing
                log.warning("language %s not offered: %d of %d messages untranslated (%s...)",
                            code, len(missing), len(wanted), missing[0][:60])
                continue
            self.languages[code] = Language(code, translations)
            # A plural message's keys are (msgid, n) tuples beside the str ones: sort by repr.
            entries = sorted(translations._catalog.items(), key=repr)
            digest.update(code.encode() + repr(entries).encode())
        #: Changes whenever an offered language or a translation does (the commands' sync).
        self.digest = digest.hexdigest()

    def add(self, language: Language) -> None:
        """Offer one more language (the tests' pseudo-locale)."""
        self.languages[language.code] = language

    @property
    def codes(self) -> list[str]:
        return list(self.languages)

    def resolve(self, tag: str | None) -> Language:
        """The offered language for a Discord locale or a stored choice (``pt-BR``, ``fr``,
        ``es-419``): the exact one, else its base language, else English."""
        if not tag or tag == AUTO:
            return ENGLISH
        if tag in self.languages:
            return self.languages[tag]
        base = tag.split("-")[0].split("_")[0]
        return self.languages.get(base, ENGLISH)

    def known(self, tag: str | None) -> bool:
        """Whether ``tag`` names an offered language itself (a stored choice must)."""
        return tag in self.languages


def _ids(template: Path) -> set[str]:
    """The catalog keys of every message of the template, as gettext stores them."""
    with template.open("rb") as f:
        catalog = read_po(f)
    keys = set()
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        keys.add(f"{message.context}\x04{msgid}" if message.context else msgid)
    return keys


def _has(translations: gettext.GNUTranslations, key: str) -> bool:
    found = translations._catalog.get(key)  # type: ignore[attr-defined]
    if found is None:
        found = translations._catalog.get((key, 0))  # type: ignore[attr-defined]
    return bool(found)


def _load(folder: Path) -> gettext.GNUTranslations | None:
    """A compiled catalog; its ``.po`` compiled in memory when the ``.mo`` is missing or
    older (a fresh checkout before ``make``; fuzzy entries count as untranslated either way)."""
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    if not po.exists():
        return None
    with po.open("rb") as f:
        catalog = read_po(f)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@cache
def catalogs() -> Catalogs:
    """The catalogs shipped with the bot, loaded once."""
    return Catalogs()


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
    books = catalogs()
    if chosen.player is not None and books.known(chosen.player):
        return books.languages[chosen.player]
    return books.resolve(str(interaction.locale))


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


# ----- the pseudo-locale ----------------------------------------------------------------------

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
#: What a pseudo-translation keeps as it is: fields, Discord markup (mentions, timestamps),
#: code spans (command names), links.
_KEEP = re.compile(r"(\{[^{}]*\}|<[^<>]*>|`[^`]*`|https?://\S+)")


def pseudo(text: str) -> str:
    """``text`` with every letter accented and the whole in brackets: ``⟦Ŕûĺéš⟧``."""
    parts = _KEEP.split(text)
    return "⟦" + "".join(p if i % 2 else p.translate(_ACCENTED)
                         for i, p in enumerate(parts)) + "⟧"


class Pseudo(gettext.NullTranslations):
    """The pseudo-locale ``en-XA``: every message of the template accented and bracketed, so
    a screen run through it shows in plain English each string that escaped the catalogs (a
    string never marked, or marked but not passed through a translation). Never offered to
    players: tests add it (``Catalogs.add``)."""

    def __init__(self, known: set[str]) -> None:
        super().__init__()
        self._known = known

    def gettext(self, message: str) -> str:
        return pseudo(message) if message in self._known else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        chosen = msgid1 if n == 1 else msgid2
        return pseudo(chosen) if msgid1 in self._known else chosen

    def pgettext(self, context: str, message: str) -> str:
        if f"{context}\x04{message}" not in self._known:
            return message
        if context == OPTION_NAME:  # names keep Discord's rules: lowercase, no spaces
            return message + "-xa"
        return pseudo(message)


PSEUDO_CODE = "en-XA"


def pseudo_language(directory: Path = LOCALE_DIR) -> Language:
    """The pseudo-locale over the template's messages."""
    return Language(PSEUDO_CODE, Pseudo(_ids(directory / f"{DOMAIN}.pot")))
