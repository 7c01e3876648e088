"""Every screen the bot draws, in another language: the screens story (``tools/screens``: the
daily, boards of every game, result cards, leaderboards, stats, help, rules, challenges,
replays, preferences, the reminder...) played with the server and every player set to the
pseudo-locale leaves no English word on any screen and keeps Discord's limits; played in
each shipped language it draws every screen without an error.

The pseudo-locale accents and brackets every translated message, so a word still in plain
English is one the code forgot to mark or to say in the reader's language.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from bot import i18n
from rules.rulebook import discord_text
from tests.bot.pseudo import english_words
from tools.screens.scenarios import Screen, capture_all

#: Names the story gives its server, channel and players: theirs, in every language.
NAMES = {"alice", "bob", "carol", "dave", "erin", "frank", "hall", "games"}
#: Discord's limits (embeds and components).
LIMITS = {"title": 256, "description": 4096, "field name": 256, "field value": 1024,
          "footer": 2048, "author": 256, "label": 80, "content": 2000, "option": 100}


def texts(screen: Screen) -> list[tuple[str, str]]:
    """Every text a player reads on a screen, each with the limit it is held to."""
    message = screen.message
    found = [("content", message.content)] if message.content else []
    for embed in message.embeds:
        found += [("title", embed.get("title") or ""), ("description", embed.get("description")
                                                        or "")]
        for field in embed.get("fields", []):
            found += [("field name", field["name"]), ("field value", field["value"])]
        found += [("footer", (embed.get("footer") or {}).get("text", "")),
                  ("author", (embed.get("author") or {}).get("name", ""))]
    for row in message.components:
        for item in row.get("components", []):
            if item.get("label"):
                found.append(("label", item["label"]))
            for option in item.get("options", []):
                found += [("option", option.get("label", "")),
                          ("option", option.get("description") or "")]
            if item.get("placeholder"):
                found.append(("option", item["placeholder"]))
    return [(kind, text) for kind, text in found if text]


def untranslated(text: str) -> list[str]:
    return [w for w in english_words(text) if w.lower() not in NAMES]


def play_story(monkeypatch: pytest.MonkeyPatch, code: str) -> list[Screen]:
    books = i18n.Catalogs()
    if code == i18n.PSEUDO_CODE:
        books.add(i18n.pseudo_language())
    monkeypatch.setattr(i18n, "catalogs", lambda: books)
    assert books.known(code), f"{code} is not offered: {books.refused.get(code, [])[:3]}"
    return asyncio.run(capture_all(language=code))


def test_no_english_word_survives_on_any_screen_in_the_pseudo_locale(monkeypatch, caplog):
    screens = play_story(monkeypatch, i18n.PSEUDO_CODE)
    assert len(screens) >= 30
    left: dict[str, list[str]] = {}
    for screen in screens:
        if screen.name.startswith("rules-"):
            # A rules text is a whole text per language (rules/<key>/rules.<code>.md); the
            # pseudo-locale has none, so /rules is English whole, as for any language
            # without its text. Each shipped language's is checked below.
            continue
        for kind, text in texts(screen):
            assert len(text) <= LIMITS[kind], (screen.name, kind, len(text), text[:80])
            if words := untranslated(text):
                left.setdefault(screen.name, []).append(f"{kind}: {' '.join(words)}")
        if screen.message.embeds:
            total = sum(len(text) for kind, text in texts(screen) if kind not in
                        ("label", "option", "content"))
            assert total <= 6000, (screen.name, total)
    assert left == {}, "\n".join(f"{name}: {lines}" for name, lines in left.items())
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


@pytest.mark.parametrize("code", [c for c in i18n.catalogs().codes if c != i18n.SOURCE])
def test_every_screen_is_drawn_in_each_shipped_language(monkeypatch, caplog, code):
    screens = play_story(monkeypatch, code)
    english = {s.name: s for s in play_story(monkeypatch, i18n.SOURCE)} if code == "fr" else {}
    assert len(screens) >= 30
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    for screen in screens:
        for kind, text in texts(screen):
            assert len(text) <= LIMITS[kind], (screen.name, kind, len(text), text[:80])
    rules = [s for s in screens if s.name.startswith("rules-")]
    assert rules and all(s.message.embeds[0]["description"].startswith(
        discord_text("donsol", code)[:200]) for s in rules)
    if english:  # one language compared whole: no screen reads as its English self
        same = [s.name for s in screens if _words(s) and _words(s) == _words(english[s.name])]
        assert same == []


def _words(screen: Screen) -> list[str]:
    return [w for _, text in texts(screen) for w in re.findall(r"[^\W\d_]{4,}", text)
            if w.lower() not in NAMES]
