"""The rules texts in every language: found by language with an English fallback, the same in
``docs/games/<code>/``, and agreeing with the English text on every number and card code."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from rules import GAMES
from rules.rulebook import (
    DISCORD_DESCRIPTION_MAX,
    discord_text,
    file_name,
    language,
    languages,
    source,
    terminal_text,
    text,
    title,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
END_OF_RULES = "<!-- end of the rules text"
#: Each game's translated texts: (key, code), English left out.
TRANSLATED = [(key, code) for key in sorted(GAMES) for code in languages(key)[1:]]

#: What a text's numbers and card codes are, the same in every language (docs/languages.md):
#: a number (``21``, ``10`` in ``10♦``), a suit (``♥``), the joker or another emoji (``🃏``),
#: a rank letter on its own (``J``, ``Q``, ``K``; ``A`` unless a word follows it, as the
#: English article does: "A potion" is no Ace, "J Q K A 11" and "K and A," hold one).
_TOKEN = re.compile(
    r"\d+"
    r"|[♥♦♣♠]"
    r"|[\U0001F000-\U0001FAFF\u2600-\u27BF]"
    r"|(?<![\w'’])[JQK](?![\w'’])"
    r"|(?<![\w'’])A(?![\w'’])(?!\s+[^\W\d_])"
)


def codes(markdown: str) -> Counter[str]:
    """The numbers and card codes of a text, counted."""
    return Counter(_TOKEN.findall(markdown))


def headings(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("#")]


def test_the_codes_are_numbers_suits_emoji_and_ranks_not_articles() -> None:
    found = codes("A potion heals 2 to 10♦, J Q K A 11; the red J, Q, K and A. 🃏 K, A♠ a A")
    assert found == Counter({"A": 4, "K": 3, "J": 2, "Q": 2, "10": 1, "2": 1, "11": 1,
                             "♦": 1, "♠": 1, "🃏": 1})
    assert codes("Roi 10, Valet 0, As 1, das Ass, À 0 PV") == Counter(
        {"10": 1, "0": 2, "1": 1})


def test_a_changed_number_or_card_code_is_told_apart() -> None:
    english = source("donsol")
    assert codes(english) != codes(english.replace("21 HP", "20 HP", 1))
    assert codes(english) != codes(english.replace("J Q K A 11", "J Q K 11", 1))
    assert codes(english) != codes(english.replace("♣ ♠", "♣", 1))


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_is_written_in_french_and_german(key: str) -> None:
    assert {"en", "fr", "de"} <= set(languages(key))
    assert languages(key)[0] == "en"


@pytest.mark.parametrize(("key", "code"), TRANSLATED)
def test_each_translation_has_the_english_numbers_card_codes_and_headings(key, code) -> None:
    english, translated = source(key), source(key, code)
    assert translated != english
    missing = codes(english) - codes(translated)
    extra = codes(translated) - codes(english)
    assert not missing and not extra, (
        f"{file_name(code)} of {key}: missing {dict(missing)}, extra {dict(extra)}")
    assert len(headings(translated)) == len(headings(english))
    # The game's title is a name, and the variants are the engines' words: kept as they are.
    assert title(key, code) == title(key) == GAMES[key].title
    for variant in GAMES[key].variants:
        assert f"**{variant}**" in translated


@pytest.mark.parametrize(("key", "code"), TRANSLATED)
def test_each_translation_fits_one_embed_and_the_terminal(key, code) -> None:
    shown = discord_text(key, code)
    assert len(shown) <= DISCORD_DESCRIPTION_MAX
    assert "##" not in shown and "\n- " not in shown
    assert all(len(line) <= 78 for line in terminal_text(key, lang=code).splitlines())


@pytest.mark.parametrize(("key", "code"), TRANSLATED)
def test_each_translation_has_its_docs_page_word_for_word(key, code) -> None:
    page = (DOCS / code / f"{key}.md").read_text(encoding="utf-8")
    assert END_OF_RULES in page, f"docs/games/{code}/{key}.md lacks the end-of-rules marker"
    assert page[: page.index(END_OF_RULES)].rstrip("\n") + "\n" == source(key, code)


def test_the_docs_list_every_language_of_the_rules() -> None:
    readme = (DOCS / "README.md").read_text(encoding="utf-8")
    for key, code in TRANSLATED:
        assert f"- **{code}** " in readme
        assert f"]({code}/{key}.md)" in readme


def test_a_language_without_its_text_reads_english_and_a_region_its_base_language() -> None:
    assert language("donsol", "ja") == "en"
    assert text("donsol", "ja") == source("donsol") == text("donsol")
    assert language("donsol", "fr-CA") == "fr" and language("donsol", "fr_FR") == "fr"
    assert language("donsol", "FR") == "fr"
    assert text("donsol", "fr").startswith("# Donsol\n")
    assert "Potions" not in text("donsol", "de") and "Tränke" in text("donsol", "de")
    assert terminal_text("donsol", lang="fr").splitlines()[0] == "DONSOL"


def test_a_game_without_rules_text_is_named_in_any_language() -> None:
    with pytest.raises(LookupError, match="'chess'"):
        text("chess", "fr")
    with pytest.raises(LookupError, match="'chess'"):
        language("chess", "de")
