"""The shipped catalogs (language/locale): complete, up to date, their placeholders the English
ones, and the slash commands' translations within Discord's rules.

A language missing one message is not offered at all (its readers get English, never a mix),
so these tests are what keeps a shipped language shipped.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import discord
import pytest
from babel.messages.pofile import read_po
from discord import app_commands

from bot.i18n import (
    CHOICE_NAME_LIMIT,
    DESCRIPTION_LIMIT,
    ENGLISH,
    LOCALE_DIR,
    NAME_RULE,
    Catalogs,
    CommandTranslator,
    catalogs,
    command_strings,
    fields,
    pseudo_language,
)
from core.errors import RunNotFound
from tools import catalogs as tool

SHIPPED = sorted(p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))
#: The shipped languages' codes, as Discord and bot.i18n name them: the folder pt_BR is pt-BR.
CODES = [folder.replace("_", "-") for folder in SHIPPED]


def read(path: Path):
    with path.open("rb") as f:
        return read_po(f)


def template_keys() -> set[tuple[str | None, str]]:
    return tool.keys(read(LOCALE_DIR / "messages.pot"))


def test_french_and_german_ship_and_are_offered():
    assert {"fr", "de"} <= set(SHIPPED)
    assert set(catalogs().codes) == {"en", *CODES}
    assert catalogs().refused == {}


def test_the_template_holds_every_marked_string_and_command_string_of_the_code():
    fresh = tool.keys(tool.template())
    assert fresh == template_keys(), "run make catalogs"


@pytest.mark.parametrize("code", SHIPPED)
def test_a_shipped_catalog_translates_every_message_and_nothing_stale(code):
    catalog = read(LOCALE_DIR / code / "LC_MESSAGES" / "messages.po")
    assert not catalog.fuzzy
    ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}
    assert template_keys() - ids == set(), "messages missing"
    assert ids - template_keys() == set(), "messages no longer in the code"
    assert not catalog.obsolete
    for message in catalog:
        if not message.id:
            continue
        assert "fuzzy" not in message.flags, message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"untranslated: {message.id!r}"
        singular = message.id if isinstance(message.id, str) else message.id[0]
        for text in strings:
            assert fields(text) == fields(singular), (message.id, text)


@pytest.mark.parametrize("code", SHIPPED)
def test_every_translation_keeps_discord_markup_and_code_spans(code):
    """A mention, a timestamp or a command in backticks must survive translation whole."""
    catalog = read(LOCALE_DIR / code / "LC_MESSAGES" / "messages.po")
    import re
    markup = re.compile(r"<[@#&t][^>]*>|`/[a-z-]+")
    for message in catalog:
        if message.id and isinstance(message.id, str):
            assert sorted(markup.findall(message.id)) == sorted(markup.findall(message.string)), (
                message.id)


def test_a_language_missing_one_message_is_not_offered(tmp_path):
    shutil.copy(LOCALE_DIR / "messages.pot", tmp_path / "messages.pot")
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    text = (LOCALE_DIR / "fr" / "LC_MESSAGES" / "messages.po").read_text()
    dropped = 'msgstr "Ce plateau n\'était plus à jour ; voici l\'actuel."'
    assert dropped in text
    (folder / "messages.po").write_text(text.replace(dropped, 'msgstr ""'))

    books = Catalogs(tmp_path)

    assert books.codes == ["en"]
    assert list(books.refused) == ["fr"]
    french = books.resolve("fr")
    assert french is ENGLISH
    assert french.render(RunNotFound(1).message) == (
        "That run does not exist (any more), so nothing was changed.")


def test_a_missing_or_older_compiled_catalog_is_compiled_from_its_po(tmp_path):
    shutil.copytree(LOCALE_DIR, tmp_path / "locale",
                    ignore=shutil.ignore_patterns("*.mo"))
    books = Catalogs(tmp_path / "locale")
    assert books.resolve("de").render(RunNotFound(1).message) == (
        "Diese Partie gibt es nicht (mehr), also wurde nichts geändert.")


def test_discord_locales_resolve_to_the_offered_language_or_english():
    books = catalogs()
    assert books.resolve("fr").code == "fr"
    assert books.resolve("de").code == "de"
    assert books.resolve("en-GB") is ENGLISH
    assert books.resolve("ja") is ENGLISH  # not shipped: English, whole
    assert books.resolve("es-ES").code == books.resolve("es-419").code == "es"  # Spain, Lat. Am.
    assert books.resolve(None) is ENGLISH


def test_a_brazilian_discord_locale_gets_the_catalog_of_the_folder_pt_br():
    brazilian = catalogs().resolve("pt-BR")
    assert brazilian.code == "pt-BR" and brazilian.name == "Português (Brasil)"
    assert brazilian.render(RunNotFound(1).message) == (
        "Essa partida não existe (mais), então nada foi alterado.")
    assert brazilian.number(1234.5) == "1.234,5"


@pytest.fixture
async def tree(make_bot):
    # With the Activity on: /table is one more command whose strings the catalogs hold.
    bot = make_bot(sync="never", embedded_activity=True)
    bot._connection.application_id = 1
    await bot.setup_hook()
    return bot.tree


async def test_every_command_string_is_in_the_template(tree):
    keys = template_keys()
    found = await command_strings(tree)
    assert len(found) > 100
    assert {(s.context, s.text) for s in found} <= keys


@pytest.mark.parametrize("code", [*CODES, "en-XA"])
async def test_translated_commands_obey_discords_rules(tree, code):
    books = catalogs() if code != "en-XA" else Catalogs()
    if code == "en-XA":
        books.add(pseudo_language())
    translator = CommandTranslator(books)
    where = app_commands.TranslationContextLocation
    found = await command_strings(tree)
    translated = 0
    for string in found:
        text = translator.translated(app_commands.locale_str(string.text), code,
                                     string.location)
        if text is None:
            continue
        translated += 1
        if string.location is where.parameter_name:
            assert NAME_RULE.match(text) and text == text.lower(), text
        elif string.location is where.choice_name:
            assert 1 <= len(text) <= CHOICE_NAME_LIMIT, text
        else:
            assert 1 <= len(text) <= DESCRIPTION_LIMIT, (len(text), text)
    assert translated > 60


async def test_the_synced_payload_carries_french_and_german_descriptions(tree):
    await tree.set_translator(CommandTranslator())
    (play,) = [c for c in tree.get_commands() if c.name == "play"]
    payload = await play.get_translated_payload(tree, tree.translator)
    described = payload["description_localizations"]
    assert described["fr"] == "Lancer une partie d'entraînement, ou reprendre celle en cours."
    assert described["de"] == "Eine Übungspartie starten oder zu deiner unbeendeten zurückkehren."
    assert described["pt-BR"] == "Começar uma partida de treino, ou voltar à que você não terminou."
    # Spanish is synced under both of Discord's Spanish locales (Spain and Latin America).
    assert described["es-ES"] == described["es-419"] == (
        "Empieza una partida de práctica o retoma la que tienes sin terminar.")
    assert payload["description"] not in described.values()  # no English copy anywhere
    # Every Discord locale whose language ships, none other.
    books = catalogs()
    assert set(described) == {locale.value for locale in discord.Locale
                              if books.resolve(locale.value) is not ENGLISH}
    assert payload["name_localizations"] == {}  # command names stay English
    (game,) = [o for o in payload["options"] if o["name"] == "game"]
    assert game["description_localizations"]["fr"] == "Le jeu auquel jouer"
    assert discord.Locale.french.value == "fr"
    assert discord.Locale.brazil_portuguese.value == "pt-BR"  # the catalog folder pt_BR


@pytest.mark.parametrize("code", SHIPPED)
def test_every_catalog_passes_gettexts_own_checks_so_make_compiles_it(code):
    """``pybabel compile`` (``make test`` and ``make run`` build each ``.mo`` with it) refuses a
    catalog that fails Babel's checks; a template holding ``% o`` is read as a C format and
    no translation can match it (the percent sign goes in a field: ``{percent}%``)."""
    catalog = read(LOCALE_DIR / code / "LC_MESSAGES" / "messages.po")
    assert [m.id for m in catalog if "python-format" in m.flags] == []
    assert [(m.id, errors) for m, errors in catalog.check()] == []
