"""The translation layer both adapters speak through: gettext catalogs
(``language/locale``) and each offered language's words, numbers, dates and lists.

- :class:`Catalogs` loads ``language/locale/<lang>/LC_MESSAGES/messages.mo`` (or, when the
  ``.mo`` is missing or older than its ``.po``, the ``.po`` compiled in memory). A language is
  *offered* only when its catalog translates every message of ``messages.pot``: a language
  with one message missing is not offered at all, so a reader gets English rather than a mix
  of two languages within one message.
- :class:`Language` is one offered language: ``gettext``/``ngettext``/``pgettext``,
  :meth:`Language.render` for a :class:`~rules.words.Message` (a refusal) or an engine's
  :class:`~rules.words.Phrase`, and Babel's locale-aware numbers, dates and lists.
- :func:`for_reader`: the language a reader is answered in, from their stored choice and
  their client's locale (the Discord adapter, ``bot.i18n``, and the Activity's, ``web``,
  both decide by it).
- The pseudo-locale ``en-XA`` (:func:`pseudo_language`), for the tests.

Nothing here knows Discord: the slash commands' translator is ``bot.i18n``'s. See
docs/languages.md.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import logging
import re
import string
from collections.abc import Sequence
from datetime import date
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.dates import format_date
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from rules.words import Message, said

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
    """The catalogs shipped with the project, loaded once."""
    return Catalogs()


def for_reader(chosen: str | None, locale: str | None, books: Catalogs | None = None
               ) -> Language:
    """A reader's language among ``books`` (the shipped catalogs by default): their stored
    choice (``/preferences language``) when it is an offered language, else their client's
    locale (``fr``, ``es-419``: its base language), else English."""
    books = books or catalogs()
    if chosen is not None and books.known(chosen):
        return books.languages[chosen]
    return books.resolve(locale)


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
