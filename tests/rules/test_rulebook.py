"""The rules texts: one per registered game, the same words in the docs, /rules and the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import GAMES
from rules.rulebook import (
    DISCORD_DESCRIPTION_MAX,
    blocks,
    discord_text,
    plain,
    source,
    terminal_text,
    title,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
END_OF_RULES = "<!-- end of the rules text"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_registered_game_has_its_rules_text(key: str) -> None:
    text = source(key)
    assert title(key) == GAMES[key].title
    for variant in GAMES[key].variants:
        assert f"**{variant}**" in text
    assert "## " in text and len(text) > 1000


def test_a_game_without_rules_text_is_named_in_the_error() -> None:
    with pytest.raises(LookupError, match="'chess'"):
        source("chess")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_discord_text_fits_one_embed(key: str) -> None:
    text = discord_text(key)
    embed_title = f"{GAMES[key].title}: the rules"
    assert len(text) <= DISCORD_DESCRIPTION_MAX
    assert len(text) + len(embed_title) <= 6000
    assert "##" not in text and "\n- " not in text  # Markdown headings and dashes converted
    assert GAMES[key].title in text.splitlines()[0]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_docs_page_opens_with_the_rules_text_word_for_word(key: str) -> None:
    page = (DOCS / "games" / f"{key}.md").read_text(encoding="utf-8")
    assert END_OF_RULES in page, f"docs/games/{key}.md lacks the end-of-rules marker"
    rules_part = page[: page.index(END_OF_RULES)].rstrip("\n") + "\n"
    assert rules_part == source(key), (
        f"docs/games/{key}.md must open with rules/{key}/rules.md word for word"
    )


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_block_reaches_discord_and_the_terminal_whole(key: str) -> None:
    discord = discord_text(key)
    terminal = " ".join(terminal_text(key).split())  # wrapping only changes the spacing
    for block in blocks(key):
        assert block.text in discord
        assert " ".join(plain(block.text).split()) in terminal
    assert "**" not in terminal_text(key)


def test_the_terminal_text_is_wrapped_and_plain() -> None:
    text = terminal_text("donsol", width=60)
    assert text.splitlines()[0] == "DONSOL"
    assert all(len(line) <= 60 for line in text.splitlines())
    assert "The cards\n─────────\n  • ♥ Potions heal their value" in text
    assert "• normal: not if you came into this room by escaping." in text
