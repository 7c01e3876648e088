"""Whose language a message speaks, end to end through simcord and discord.py: a French player
in a German server gets French help, refusals and error sentences; the server's public daily
post is German, then French once ``/settings language:fr``; ``/preferences language:en``
brings the player back to English. The pseudo-locale runs the same screens: no English word
of them survives, and nothing passes Discord's limits.
"""

from __future__ import annotations

import re
import sys

import discord
import pytest
import simcord
import simcord.interactions as interactions

from bot import i18n
from tests.bot.pseudo import english_words
from tests.bot.raw import FakeDiscord
from tests.bot.test_posts import AT_NOON, POST_TIME, poster_of, posts_in
from tests.core.conftest import Clock

#: Each user's Discord language (``interaction.locale``); en-US for anyone else.
LOCALES: dict[int, str] = {}


@pytest.fixture(autouse=True)
def discord_languages(monkeypatch):
    """simcord sends every interaction as en-US: here each user's own locale, and the
    server's preferred locale as ``guild_locale``, as Discord does."""
    original = interactions.base_payload

    def base_payload(backend, **kwargs):
        record, payload = original(backend, **kwargs)
        payload["locale"] = LOCALES.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(interactions, "base_payload", base_payload)
    LOCALES.clear()
    yield
    LOCALES.clear()


@pytest.fixture
def clock() -> Clock:
    return Clock(AT_NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


class Hall:
    """A German server (Discord's server language: de) with a French player and an admin."""

    def __init__(self, env: simcord.Env) -> None:
        self.guild = env.create_guild("Kartenhalle", preferred_locale="de")
        self.channel = self.guild.create_text_channel("spiele")
        self.results = self.guild.create_text_channel("ergebnisse")
        self.amelie = self.guild.add_member(env.create_user("amelie"))
        role = self.guild.create_role("admins",
                                      permissions=discord.Permissions(manage_guild=True))
        self.admin = self.guild.add_member(env.create_user("karl"), roles=[role])
        LOCALES[self.amelie.id] = "fr"
        LOCALES[self.admin.id] = "de"

    async def slash(self, actor, name, **options):
        result = await actor.slash(self.channel, name, **options)
        assert result.acknowledged
        return result


@pytest.fixture
def hall(simcord_env) -> Hall:
    return Hall(simcord_env)


async def test_a_french_player_in_a_german_server(hall, world, clock, error_logs):
    helped = (await hall.slash(hall.amelie, "help")).response
    assert helped.ephemeral
    assert helped.embeds[0].description.startswith(
        "Dungeon Deck distribue des jeux de cartes de donjon en solitaire")
    labels = [b["label"] for b in world.buttons(helped)]
    assert labels[:3] == ["Introduction", "Jouer", "La quotidienne"]
    topic = (await world.click(hall.amelie, helped, world.buttons(helped)[1]["custom_id"]))
    text = topic.response.embeds[0].description
    assert topic.response.embeds[0].title == "Dungeon Deck · Jouer"
    assert "**/play**: Lancer une partie d'entraînement, ou reprendre celle en cours." in text
    assert "• `game`: Le jeu auquel jouer" in text

    refused = await hall.slash(hall.amelie, "stats", game="donsol", day="#0")
    assert refused.ephemeral
    assert refused.response.content == (
        "Il n'y a pas de jour n° 0 : les quotidiennes commencent au n° 1 (2026-12-01).")

    # The server's public daily post speaks the server's language: German.
    await hall.slash(hall.admin, "settings", **{"results-channel": hall.results})
    await poster_of(world).run_due(clock())
    (post,) = posts_in(hall.results)
    assert post.embeds[0].title == "Tagesspiel Nr. 14 · 2026-12-14"
    assert post.embeds[0].fields[0].name == "Die heutigen Blätter"

    # /settings language:fr: the next post is French.
    changed = await hall.slash(hall.admin, "settings", language="fr")
    assert "- `language`: Français (fr)" in changed.response.content
    clock.now = POST_TIME
    await poster_of(world).run_due(clock())
    _, french = posts_in(hall.results)
    assert french.embeds[0].title == "Quotidienne n° 15 · 2026-12-15"
    assert french.embeds[0].fields[0].name == "Les donnes du jour"

    # /preferences language:en: her own answers are English again, whatever Discord says.
    await hall.slash(hall.amelie, "preferences", language="en")
    again = await hall.slash(hall.amelie, "stats", game="donsol", day="#0")
    assert again.response.content == (
        "There is no day #0: the dailies start at #1 (2026-12-01).")
    await hall.slash(hall.amelie, "preferences", language="auto")
    assert (await hall.slash(hall.amelie, "stats", game="donsol", day="#0")
            ).response.content.startswith("Il n'y a pas de jour")


async def test_an_unsupported_locale_gets_english_whole(hall, world, error_logs):
    LOCALES[hall.amelie.id] = "ja"
    refused = await hall.slash(hall.amelie, "stats", game="donsol", day="#0")
    assert refused.response.content == (
        "There is no day #0: the dailies start at #1 (2026-12-01).")


async def test_a_modified_client_cannot_store_an_unknown_language(make_bot, error_logs):
    fake, bot = FakeDiscord(), make_bot()
    await fake.attach(bot)
    try:
        asked = fake.command(bot, 1001, "preferences", language="xx")
        await fake.settle()
        offered = ", ".join(["auto", *i18n.catalogs().codes])  # every shipped language
        assert {"en", "de", "fr", "pt-BR"} <= set(i18n.catalogs().codes)
        assert fake.response(asked)["data"]["content"] == (
            f"language is one of {offered}; nothing was changed.")
        assert "language" not in await bot.core.settings.player(1001)
    finally:
        await bot.http.close()


async def test_an_unexpected_error_is_told_in_the_readers_language(
        hall, world, monkeypatch, error_logs):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    # load_extension executed the cog's module afresh: patch the one the cog runs in.
    cog = world.env.bot.get_cog("Info")
    monkeypatch.setattr(sys.modules[type(cog).__module__], "help_embed", broken)
    answer = await hall.slash(hall.amelie, "help")
    assert re.fullmatch(
        r"Quelque chose s'est mal passé de mon côté \(erreur `[0-9a-f]{6}`\) ; rien n'a été "
        r"changé\. Réessayez dans un instant\.", answer.response.content)
    error_logs.clear()
    (recorded,) = world.env.errors  # simcord saw the command fail too: expected here
    assert isinstance(recorded.__cause__ or recorded.original, RuntimeError)


# ----- the pseudo-locale ----------------------------------------------------------------------


@pytest.fixture
def pseudo_player(hall, monkeypatch):
    books = i18n.Catalogs()
    books.add(i18n.pseudo_language())
    monkeypatch.setattr(i18n, "catalogs", lambda: books)
    LOCALES[hall.amelie.id] = i18n.PSEUDO_CODE
    return hall.amelie


async def test_the_pseudo_locale_leaves_no_english_word_in_the_slice(
        hall, world, pseudo_player, error_logs):
    helped = (await hall.slash(pseudo_player, "help")).response
    screens = [helped]
    for button in world.buttons(helped)[1:]:
        screens.append((await world.click(pseudo_player, helped, button["custom_id"])).response)
    for screen in screens:
        embed = screen.embeds[0]
        assert len(embed.description) <= 4096 and len(embed) <= 6000
        words = english_words(f"{embed.title}\n{embed.description}")
        assert words == [], words
        for button in world.buttons(screen):
            assert len(button["label"]) <= 80
            assert english_words(button["label"]) == []
    for options in ({"game": "donsol", "day": "#0"}, {"game": "donsol", "day": "2999-01-01"}):
        refused = await hall.slash(pseudo_player, "stats", **options)
        assert refused.response.content.startswith("⟦")
        assert english_words(refused.response.content) == []
