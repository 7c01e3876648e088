"""Every time a player reads is a Discord timestamp (their own time zone, a live countdown),
never "2026-12-06 01:00 UTC": scanned over every screen of the screens story, and where
Discord does not render timestamps (titles, footers, authors, buttons) none is put."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from bot.timestamps import at, clock, countdown, localized
from tools.screens.scenarios import capture_all

#: A time in a button's label that is not an hour with its zone: a date and time, a
#: countdown (it goes stale), an hour without "UTC" (it would read as the player's clock).
LABEL_CLOCK_WORDS = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|\b\d+ h \d{2} min\b"
                               r"|\d{1,2}:\d{2}(?! UTC)")
#: A time of day in words: ``01:00 UTC``, ``13:05`` after a date, ``1 h 05 min``.
CLOCK_WORDS = re.compile(r"\d{1,2}:\d{2}(?::\d{2})? ?(?:UTC|GMT)|\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}"
                         r"|\b\d+ h \d{2} min\b")
STAMP = re.compile(r"<t:\d+(?::[tTdDfFR])?>")


def test_the_helpers_write_discord_timestamps():
    moment = datetime(2026, 12, 6, 1, 0, tzinfo=UTC)
    unix = int(moment.timestamp())
    assert countdown(moment) == f"<t:{unix}:R>"
    assert clock(moment) == f"<t:{unix}:t>"
    assert at(moment) == f"<t:{unix}:f> (<t:{unix}:R>)"
    assert clock(moment.replace(tzinfo=None)) == f"<t:{unix}:t>"  # naive is UTC


def test_a_time_the_core_words_in_utc_becomes_a_timestamp():
    unix = int(datetime(2026, 12, 6, 1, 0, tzinfo=UTC).timestamp())
    said = localized("Donsol #5 closes at 2026-12-06 01:00 UTC, so wait.")
    assert said == f"Donsol #5 closes at <t:{unix}:f> (<t:{unix}:R>), so wait."
    assert localized("No time here: 2026-12-06.") == "No time here: 2026-12-06."


def rendered(embed: dict[str, Any]) -> list[str]:
    """The parts of an embed where Discord renders timestamps."""
    return [embed.get("description") or "",
            *(f.get("value", "") for f in embed.get("fields", []))]


def unrendered(embed: dict[str, Any]) -> list[str]:
    """The parts where it shows ``<t:…>`` as it is."""
    return [embed.get("title") or "", (embed.get("footer") or {}).get("text", ""),
            (embed.get("author") or {}).get("name", ""),
            *(f.get("name", "") for f in embed.get("fields", []))]


@pytest.fixture(scope="module")
def screens():
    import asyncio
    return asyncio.run(capture_all())


def test_no_screen_of_the_story_says_a_time_in_words(screens):
    seen_stamps = 0
    for screen in screens:
        message = screen.message
        texts = [message.content or ""] + [t for e in message.embeds for t in rendered(e)]
        for text in texts:
            assert not CLOCK_WORDS.search(text), (screen.name, text)
            seen_stamps += len(STAMP.findall(text))
        for text in [t for e in message.embeds for t in unrendered(e)]:
            assert not STAMP.search(text), (screen.name, text)
            assert not CLOCK_WORDS.search(text), (screen.name, text)
        # Discord renders no timestamp in a button's label, so a time there can only be
        # words: the hour with its zone ("Replay opens 01:00 UTC"), never a countdown or a
        # date and time that would read as the player's own clock or go stale.
        for text in [c.get("label") or "" for row in message.components
                     for c in row.get("components", [])]:
            assert not STAMP.search(text), (screen.name, text)
            assert not LABEL_CLOCK_WORDS.search(text), (screen.name, text)
    assert seen_stamps >= 4  # the result's next deal, the challenge, the board, /verify
