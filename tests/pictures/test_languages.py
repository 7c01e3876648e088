"""Pictures in the player's language: a French table's labels are French, the cache keeps a
French and a German picture of one state apart, the pseudo-locale leaves no English label on
any table or on the stats card, numbers are written the language's way, the worker process
draws the same picture as the bot would, and the font has every letter of every shipped
language."""

from __future__ import annotations

import string
import unicodedata
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.dressing import TablePictures
from bot.games import BOARDS
from bot.i18n import LOCALE_DIR, PSEUDO_CODE, Language, catalogs
from bot.pictures import canvas, stats_card, table
from bot.pictures.faces import font
from bot.pictures.words import picture_language
from core.workers import PICTURES, Workers
from rules import GAMES
from tests.bot.pseudo import english_words
from tests.pictures.test_stats_card import reference_data
from tests.pictures.test_table import random_games

FRENCH = picture_language("fr")
GERMAN = picture_language("de")


def labels(view: dict[str, Any], action: str | None, language: Language) -> list[str]:
    """The words of every label a table picture of ``view`` draws in ``language``."""
    drawn = table.scene(view, action, language)
    return [label.text for label in BOARDS[view["game"]].draw(drawn).labels]


def donsol_with_a_shield() -> tuple[dict[str, Any], str]:
    """A Donsol table after a card was taken, with a shield that has blocked a monster."""
    game = GAMES["donsol"]
    for state, action in random_games("donsol", 12):
        view = game.view(state)
        if (action or "").startswith("take") and view["shield_last"] and not view["over"]:
            return view, action
    raise AssertionError("no such table in the random games")


def test_a_french_table_is_labelled_in_french() -> None:
    view, action = donsol_with_a_shield()
    english = labels(view, action, picture_language("en"))
    french = labels(view, action, FRENCH)
    hp, dungeon = f"{view['hp']}/{view['max_hp']}", view["dungeon"]
    assert f"HP {hp}" in english and f"{dungeon} left" in english and "LAST" in english
    assert f"PV {hp}" in french and "PRISE" in french
    assert f"{dungeon} restante{'s' if dungeon > 1 else ''}" in french
    assert f"se brise dès {view['shield_last']}+" in french
    assert not {"LAST", f"{dungeon} left", f"HP {hp}"} & set(french)


def test_each_games_banner_is_translated() -> None:
    for key, outcome in [("donsol", "dead"), ("tomb", "lost_in_dark"), ("clear", "stuck")]:
        kind = GAMES[key].outcomes[outcome]
        words = BOARDS[key].banners[outcome]
        t = canvas.Canvas(100, [], "de")
        t.banner({"text": words, "kind": kind}, canvas.WIDTH - 16, 50)
        assert [label.text for label in t.labels] == [GERMAN.gettext(words)] != [words]
    assert {GERMAN.gettext(w) for w in canvas.BANNER_WORDS.values()} == {
        "SIEG", "NIEDERLAGE", "LEBEND ENTKOMMEN"}


def test_the_cache_gives_a_german_picture_right_after_a_french_one() -> None:
    view, action = donsol_with_a_shield()
    cache = table.TableCache()
    french = cache.render(view, action, FRENCH)
    german = cache.render(view, action, GERMAN)
    assert german != french
    assert german == table.render_table(view, action, GERMAN)
    assert cache.render(view, action, FRENCH) == french and cache.hits == 1 and len(cache) == 2
    assert table.table_key(view, action, FRENCH) != table.table_key(view, action, GERMAN)


async def test_the_boards_pictures_are_cached_by_language() -> None:
    """How a board asks for its picture (``TablePictures.png``, with the board's language):
    a German board right after a French one of the same state gets the German picture."""
    drawn: list[str] = []

    async def run(lane: str, fn: Any, *args: Any) -> Any:
        assert lane == PICTURES
        drawn.append(args[0]["lang"])
        return fn(*args)

    bot = SimpleNamespace(core=SimpleNamespace(workers=SimpleNamespace(run=run)))
    pictures = TablePictures(bot)  # type: ignore[arg-type]
    view, action = GAMES["clear"].view(GAMES["clear"].new(77)), None
    table.CACHE._items.clear()
    french = await pictures.png(view, action, FRENCH)
    german = await pictures.png(view, action, GERMAN)
    assert german == table.render_table(view, action, GERMAN) != french
    assert await pictures.png(view, action, GERMAN) == german
    assert drawn == ["fr", "de"]  # the third came from the cache


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_pseudo_locale_leaves_no_english_label(key: str) -> None:
    pseudo = picture_language(PSEUDO_CODE)
    game = GAMES[key]
    seen = set()
    for state, action in random_games(key, 3):
        for text in labels(game.view(state), action, pseudo):
            seen.add(text)
            assert not english_words(text), text
    assert any("⟦" in text for text in seen)


def stats_texts(lang: str) -> list[tuple[str, int, tuple[int, int, int, int]]]:
    return stats_card.draw_pen(reference_data(), lang).texts


def test_the_stats_card_speaks_the_readers_language() -> None:
    french = [text for text, _, _ in stats_texts("fr")]
    assert "Cote, 12 dernières semaines" in french
    assert "60 quotidiennes · cartes" in french
    assert any(text.startswith("Cote normal ") and "(provisoire)" in text for text in french)
    german = [text for text, _, _ in stats_texts("de")]
    assert "Wertung, letzte 12 Wochen" in german
    assert "kein gewerteter Tag in diesen Wochen" in german
    for text, _, _ in stats_texts(PSEUDO_CODE):
        # The variants and units are the engines' words (translated once they are phrases).
        words = [w for w in english_words(text) if w not in {"normal", "hard", "cards",
                                                              "points", "rooms"}]
        assert not words, text


@pytest.mark.parametrize("lang", ["en", PSEUDO_CODE, "fr", "de"])
def test_the_stats_cards_texts_fit(lang: str) -> None:
    pen = stats_card.draw_pen(reference_data(), lang)
    width, height = pen.draw._image.size  # type: ignore[attr-defined]
    boxes = [box for _, _, box in pen.texts]
    for text, size, (left, top, right, bottom) in pen.texts:
        assert size >= stats_card.SMALLEST, text
        assert left >= stats_card.PAD and right <= width - stats_card.PAD, (text, left, right)
        assert top >= 0 and bottom <= height, text
    # A title's descender may touch an accent of the line under it (3 pixels), no more.
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] + 3 < b[3] and b[1] + 3 < a[3]), (
                a, b)


def test_numbers_are_written_the_languages_way() -> None:
    """A count of dailies is grouped as each language groups thousands; ratings never are
    (1040 in every language, as ratings are written)."""
    data = reference_data()[:1]
    data[0]["points"] = [10] * 1234
    texts = {lang: [text for text, _, _ in stats_card.draw_pen(data, lang).texts]
             for lang in ("en", "fr", "de")}
    assert "1,234 dailies · cards" in texts["en"]
    assert "1\u202f234 quotidiennes · cartes" in texts["fr"]
    assert "1.234 Tagesspiele · Karten" in texts["de"]
    rating = data[0]["ratings"][0][1]
    assert rating >= 1000 and all(
        any(f"normal {rating}" in text for text in found) for found in texts.values())


def test_a_cards_cache_key_has_its_language() -> None:
    data = reference_data()
    assert stats_card.card_key(data, "fr") != stats_card.card_key(data, "de")
    assert stats_card.render_card(data, "fr") != stats_card.render_card(data, "de")


async def test_the_worker_draws_a_french_table_as_the_bot_would() -> None:
    """The scene goes to the worker process with its phrases and language code; the worker
    loads the catalogs itself and draws the same French picture."""
    view, action = donsol_with_a_shield()
    drawn = table.scene(view, action, FRENCH)
    workers = Workers()
    try:
        await workers.run(PICTURES, table.warm_up)
        png = await workers.run(PICTURES, table.render_scene, drawn)
        card = await workers.run(PICTURES, stats_card.render_card, reference_data(), "fr")
    finally:
        workers.close()
    assert png == table.render_scene(drawn) != table.render_scene(table.scene(view, action))
    assert card == stats_card.render_card(reference_data(), "fr")


# ----- the font ---------------------------------------------------------------------------

#: Every letter of each shipped language's alphabet (upper and lower case are checked), the
#: Latin ones beyond a-z with their accents and ligatures.
ALPHABETS = {
    "en": string.ascii_lowercase,
    "fr": string.ascii_lowercase + "àâæçéèêëîïôœùûüÿ",
    "de": string.ascii_lowercase + "äöüß",
    "es": string.ascii_lowercase + "áéíñóúü¡¿",
    "pt_BR": string.ascii_lowercase + "áâãàçéêíóôõú",
    "ru": "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "pl": string.ascii_lowercase + "ąćęłńóśźż",
    "el": "αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ",
}
#: Marks beyond the letters that translations and labels use.
MARKS = "«»„“”‘’‹›—–…·×▲▼✓⟦⟧ \u00a0\u202f"


def missing_glyphs(text: str) -> set[str]:
    """The characters of ``text`` the shipped font has no glyph for (drawn as its
    missing-glyph box, as a character no font has is)."""
    face = font(canvas.MIN_LABEL)

    def shape(ch: str) -> tuple[tuple[int, int], bytes]:
        mask = face.getmask(ch)
        return mask.size, bytes(mask)

    nothing = shape("\U0010fffd")
    return {ch for ch in set(text) if not ch.isspace() and shape(ch) == nothing}


def test_the_font_can_tell_a_missing_glyph() -> None:
    assert missing_glyphs("日本語") == set("日本語")  # Japanese would need a CJK font
    assert not missing_glyphs("Éß")


@pytest.mark.parametrize("lang", sorted(ALPHABETS))
def test_the_font_has_every_letter_of_each_shipped_language(lang: str) -> None:
    letters = ALPHABETS[lang]
    assert not missing_glyphs(letters + letters.upper() + MARKS + string.digits)


def shipped_catalogs() -> list[Path]:
    return sorted(LOCALE_DIR.glob("*/LC_MESSAGES/messages.po"))


def test_the_font_has_every_character_of_every_shipped_translation() -> None:
    assert {"fr", "de"} <= {path.parent.parent.name for path in shipped_catalogs()}
    for path in shipped_catalogs():
        with path.open("rb") as f:
            catalog = read_po(f)
        text = "".join(
            "".join(m.string) if isinstance(m.string, tuple) else m.string
            for m in catalog if m.id)
        # Emoji and other symbols (⬜ 🔥 ❄️ and their variation selectors) are said in
        # Discord's text only, never drawn with the font; the marks a picture draws are kept.
        text = "".join(ch for ch in text if ch in MARKS
                       or unicodedata.category(ch) not in ("So", "Mn", "Cf"))
        assert not missing_glyphs(text), (path.parent.parent.name, missing_glyphs(text))
    # Every language offered has its alphabet listed above.
    assert {code.replace("-", "_") for code in catalogs().codes} <= set(ALPHABETS)
