"""Boards in each player's language, end to end through simcord and discord.py: in a German
server, a French player's public board is German (the server's), her private board French
(hers), and what a public board answers her alone (a refusal) French; the hint's line and the
result card speak the board's language; the share line is posted in the server's language and
handed to her in hers. The pseudo-locale runs a board of each game at its start, mid-game and
finished (the result card), through every button: no English word of the boards survives and
nothing passes Discord's limits.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import language
from bot import i18n
from tests.bot.conftest import World
from tests.bot.pseudo import english_words
from tests.bot.raw import FakeDiscord
from tests.bot.test_languages import (  # noqa: F401 (discord_languages: an autouse fixture)
    LOCALES,
    Hall,
    discord_languages,
)
from tests.bot.test_posts import AT_NOON
from tests.core.conftest import Clock

GAMES = ("donsol", "tomb", "clear", "scoundrel")
#: Players' names, which stay as they are.
NAMES = {"amelie"}
BUDGET = 3_000  # a cheaper hint than the bot's (same code path), as tests/bot/test_hints.py


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot(clock=Clock(AT_NOON))


@pytest.fixture
def hall(simcord_env) -> Hall:
    """A German server with a French player (Amélie) and a German admin (Karl)."""
    return Hall(simcord_env)


def labels(message: Any) -> list[str]:
    return [b.get("label") or "" for b in World.buttons(message)]


def field_names(message: Any) -> list[str]:
    return [f.name for f in message.embeds[0].fields]


async def play(hall: Hall, actor: Any, game: str, **options: Any) -> Any:
    result = await hall.slash(actor, "play", game=game, **options)
    assert result.response is not None
    return result.response


async def test_a_public_board_speaks_the_servers_language_a_private_one_the_players(
        hall, world, error_logs):
    public = await play(hall, hall.amelie, "donsol")
    assert not public.ephemeral
    embed = public.embeds[0]
    assert field_names(public)[:3] == ["Lebenspunkte", "Schild", "Übelkeit"]
    assert embed.author.name == "Partie von amelie"
    assert embed.title.endswith(" · Partie Nr. 1")
    assert embed.footer.text.startswith("Punktzahl: ")
    assert "Aufgeben" in labels(public) and "Tipp" in labels(public)

    private = await play(hall, hall.amelie, "scoundrel", private=True)
    assert private.ephemeral
    assert field_names(private)[:3] == ["Points de vie", "Arme", "Potions"]
    assert private.embeds[0].author.name == "Partie de amelie"
    assert "Abandonner" in labels(private) and "Indice" in labels(private)

    # A click on the public board is answered in the server's language on the board...
    move = world.moves(public)[0]["custom_id"]
    played = await world.click(hall.amelie, public, move)
    assert not played.ephemeral
    assert played.response.embeds[0].footer.text.startswith("Punktzahl: ")
    # ...and what it tells one clicker alone in theirs: Amélie on Karl's board, in French.
    karls = await play(hall, hall.admin, "donsol")
    refused = await world.click(hall.amelie, karls, world.moves(karls)[0]["custom_id"])
    assert refused.ephemeral
    assert refused.response.content == (
        f"Cette partie appartient à <@{hall.admin.id}> ; lancez la vôtre avec `/play`.")


async def test_resign_and_the_result_card_speak_the_boards_language(hall, world, error_logs):
    private = await play(hall, hall.amelie, "clear", private=True)
    asked = await world.click(hall.amelie, private,
                              world.control(private, "resign")["custom_id"])
    assert labels(asked.response) == ["Oui, abandonner", "Non, continuer"]
    assert "**Abandonner cette partie ? Elle s'arrête ici" in world.description(asked.response)
    card = (await world.click(hall.amelie, private,
                              world.control(asked.response, "confirm")["custom_id"])).response
    embed = card.embeds[0]
    assert embed.title == "🏳️ Abandon au coup 0"
    assert embed.footer.text == "partie n° 1 · coup 0"
    assert labels(card) == ["S'entraîner à Clear the Dungeon", "Statistiques"]


async def test_her_unfinished_runs_are_listed_in_her_language(hall, world, error_logs):
    await play(hall, hall.amelie, "donsol", private=True)
    listed = (await hall.slash(hall.amelie, "games")).response
    assert listed.content.startswith("Vos parties en cours (un bouton ramène son plateau) :")
    line = listed.content.splitlines()[1]
    assert line.startswith("**1.** Donsol (normal, entraînement) · coup 0 · ")
    assert line.endswith(" · partie n° 1")


async def test_a_hint_on_a_private_board_is_in_the_players_language(hall, world, error_logs):
    world.core.hints.budget = BUDGET
    private = await play(hall, hall.amelie, "donsol", private=True)
    hinted = await world.click(hall.amelie, private, world.control(private, "hint")["custom_id"])
    text = world.description(world.message(hinted.response) if not hinted.response.ephemeral
                             else hinted.response)
    assert text.startswith("*💡 Indice : **"), text
    assert " — " in text.split("\n")[0]


async def test_a_hint_on_a_public_board_is_the_servers_on_the_board_and_hers_privately(
        hall, world, error_logs):
    world.core.hints.budget = BUDGET
    public = await play(hall, hall.amelie, "donsol")
    hinted = await world.click(hall.amelie, public, world.control(public, "hint")["custom_id"])
    assert world.description(world.message(public)).startswith("*💡 Tipp: **")
    (told,) = hinted.followups
    assert told.ephemeral
    assert told.content.startswith("💡 Indice : **") and " — " in told.content
    # Karl's hint on his own board, in his language and the server's: said once, on it.
    karls = await play(hall, hall.admin, "donsol")
    his = await world.click(hall.admin, karls, world.control(karls, "hint")["custom_id"])
    assert his.followups == []
    assert world.description(world.message(karls)).startswith("*💡 Tipp: **")


async def test_a_click_on_a_public_board_reads_no_language_setting_again(
        hall, world, monkeypatch, error_logs):
    """The server's and the player's language choices are read once a minute (bot.i18n's
    cache), not once per click: the fast path stays as cheap as it was."""
    store = world.core.ctx.store
    reads: list[str] = []
    original = store.read

    async def counted(fn, *args, **kwargs):
        reads.append(fn.__name__)
        return await original(fn, *args, **kwargs)

    public = await play(hall, hall.amelie, "donsol")
    board = (await world.click(hall.amelie, public, world.moves(public)[0]["custom_id"])
             ).response
    monkeypatch.setattr(store, "read", counted)
    again = await world.click(hall.amelie, board, world.moves(board)[0]["custom_id"])
    assert " · Zug 2" in again.response.embeds[0].footer.text  # German, as the server
    assert not {"_guild", "_languages"} & set(reads), reads


async def test_a_daily_share_line_is_posted_in_the_servers_language_and_handed_in_hers(
        hall, world, error_logs):
    started = (await hall.slash(hall.amelie, "daily", game="scoundrel")).response
    assert started.ephemeral
    card = await world.play_to_the_end(hall.amelie, started, random.Random(3))
    embed = card.embeds[0]
    share = {f.name: f.value for f in embed.fields}["Votre ligne de résultat"]
    assert share.startswith("Scoundrel n° 14 · amelie\n")
    assert share.endswith("\nJouer la donne du jour : /daily")
    assert "Partager" in labels(card)
    shared = await world.click(hall.amelie, card, world.control(card, "share")["custom_id"])
    (posted,) = [m for m in hall.channel.history()
                 if m.author.bot and m.content.startswith("Scoundrel")]
    assert posted.content.startswith("Scoundrel Nr. 14 · amelie\n")
    assert posted.content.endswith("\nDas heutige Blatt spielen: /daily")
    assert shared.response is not None


async def test_a_forged_button_is_refused_in_the_players_language(make_bot, error_logs):
    """Raw payloads, as a modified client sends them: a damaged id, and a move the engine
    refuses, on a French player's board are refused in French."""
    fake, bot = FakeDiscord(), make_bot()
    await fake.attach(bot)
    try:
        fake.command(bot, 1001, "preferences", language="fr")
        await fake.settle()
        fake.command(bot, 1001, "play", game="donsol")
        await fake.settle()
        board = list(fake.messages)[-1]
        garbled = fake.click(bot, 1001, board, "dd.m:1:x:take 5D")
        illegal = fake.click(bot, 1001, board, "dd.m:1:0:take ZZ")
        await fake.settle()
        assert fake.response(garbled)["data"]["content"] == (
            "Ce bouton est abîmé ou n'est pas l'un des miens : rien n'a été changé.")
        # The engine's reason is its own words (English until the engines' phrases).
        assert fake.response(illegal)["data"]["content"].startswith(
            "Ce coup n'est pas possible : ")
    finally:
        await bot.http.close()


# ----- the pseudo-locale ----------------------------------------------------------------------


class Recording(language.Pseudo):
    """The pseudo-locale, noting each string it was asked for and does not know: the engines'
    words, which stay English until they are phrases (the engines branch)."""

    def __init__(self, known: set[str]) -> None:
        super().__init__(known)
        self.unknown: set[str] = set()

    def gettext(self, message: str) -> str:
        found = super().gettext(message)
        if found == message:
            self.unknown.add(message)
        return found


@pytest.fixture
def recording(hall, monkeypatch) -> Recording:
    pseudo = i18n.pseudo_language()
    translations = Recording(pseudo.translations._known)  # type: ignore[attr-defined]
    books = i18n.Catalogs()
    books.add(i18n.Language(i18n.PSEUDO_CODE, translations))
    monkeypatch.setattr(i18n, "catalogs", lambda: books)
    LOCALES[hall.amelie.id] = i18n.PSEUDO_CODE
    return translations


def check(screen: Any, recording: Recording, embed: Any = None) -> None:
    """No English word of the boards' own on ``screen`` (or on ``embed``, the screen's embed
    with what is not the boards' taken off), within Discord's limits."""
    # until engines merge: the engines' words (rules/) are still English; tolerate exactly
    # those the board asked the catalog for and it did not know. Once every engine word is a
    # phrase, `engine` is empty for the words of rules/ and this tolerance can go.
    engine = {w for text in recording.unknown for w in english_words(text)}
    embed = embed or screen.embeds[0]
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096 and len(embed) <= 6000
    texts = [embed.title or "", embed.description or "", embed.footer.text or "",
             embed.author.name or ""]
    for field in embed.fields:
        assert len(field.value) <= 1024 and len(field.name) <= 256
        texts += [field.name, field.value]
    for button in World.buttons(screen):
        assert len(button.get("label") or "") <= 80
        texts.append(button.get("label") or "")
    # A command quoted bare (the share line's "/daily") stays English in every language.
    texts = [re.sub(r"(?<![\w/])/[a-z-]+", " ", text) for text in texts]
    left = [w for text in texts for w in english_words(text)
            if w not in engine and w not in NAMES]
    assert left == [], (left, [t for t in texts if set(left) & set(english_words(t))])


@pytest.mark.parametrize("game", GAMES)
async def test_the_pseudo_locale_leaves_no_english_word_on_a_board(
        hall, world, recording, game, error_logs):
    world.core.hints.budget = BUDGET
    rng = random.Random(7)
    amelie = hall.amelie
    board = await play(hall, amelie, game, private=True)
    check(board, recording)
    for _ in range(3):  # mid-game, a move at a time (a two-step board's steps too)
        # Never the joker in Donsol's first room: it would end the run at once.
        moves = [m for m in world.moves(board) if not m["custom_id"].endswith(("RJ", "BJ"))]
        board = (await world.click(amelie, board, rng.choice(moves)["custom_id"])).response
        check(board, recording)
    for verb in ("hint", "undo", "resign"):
        answer = (await world.click(amelie, board, world.control(board, verb)["custom_id"])
                  ).response
        answer = answer if answer.ephemeral and answer.embeds else world.message(board)
        check(answer, recording)
        if verb == "resign":
            kept = await world.click(amelie, answer, world.control(answer, "board")["custom_id"])
            board = kept.response
        else:
            board = answer
    finished = await world.play_to_the_end(amelie, board, rng)
    check(finished, recording)
    assert {"again", "stats"} <= {b["custom_id"].split(":")[1] for b in world.buttons(finished)}
    again = await world.click(amelie, finished, world.control(finished, "again")["custom_id"])
    check(again.response, recording)
    # A resigned run's card, too.
    asked = await world.click(amelie, again.response,
                              world.control(again.response, "resign")["custom_id"])
    check(asked.response, recording)
    card = await world.click(amelie, asked.response,
                             world.control(asked.response, "confirm")["custom_id"])
    check(card.response, recording)


async def test_the_pseudo_locale_leaves_no_english_word_on_a_daily_result_card(
        hall, world, recording, error_logs):
    """A daily's card adds the share line, the player's streak, the day's standing and the
    deal's commitment: every one of them in the card's language."""
    card = await world.play_to_the_end(
        hall.amelie, (await hall.slash(hall.amelie, "daily", game="donsol")).response,
        random.Random(5))
    embed = card.embeds[0]
    assert len(embed) <= 6000
    assert not any(f.name.startswith("Deal of") for f in embed.fields)
    assert "🏅 ⟦" in embed.description or any("🏅 ⟦" in f.value for f in embed.fields)
    share = [f for f in embed.fields if "\n" in f.value and "/daily" in f.value]
    assert share and share[0].name.startswith("⟦"), [f.name for f in embed.fields]
    check(card, recording, embed)
