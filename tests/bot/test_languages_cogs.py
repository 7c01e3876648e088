"""Whose language /rules, challenges, series, replays, /settings and /preferences speak, end
to end through simcord: a French player in a German server reads French rules, a French list
of her challenges and French settings, while the challenge card posted in the channel is
German; a replay posted in a French server is French whoever pages it. The pseudo-locale over
the same screens leaves no English word of theirs, within Discord's limits."""

from __future__ import annotations

import re
from datetime import timedelta

import discord
import pytest

from bot import challenge_screens as views
from bot import i18n
from bot.boards.rulebook import rulebook
from bot.cogs.settings import CANNOT_POST, OptionRefused, _days, _join
from core.challenges import Card, CardLine, Challenge
from core.daily import closes_at
from core.errors import Message
from core.series import SeriesView
from rules.rulebook import source
from store.series import SeriesEntry
from tests.bot.conftest import World
from tests.bot.pseudo import english_words
from tests.bot.test_daily import NOON, play_daily_through_core
from tests.bot.test_languages import LOCALES, discord_languages  # noqa: F401 (a fixture)
from tests.core.conftest import Clock

DAY = NOON.date().isoformat()
#: Words that stay as they are in every language: option names and values as the commands
#: take them, the game's variant, the server's and players' names.
KEPT = {"results", "channel", "min", "account", "age", "daily", "post", "pictures", "champion",
        "role", "language", "global", "board", "reminders", "off", "auto", "UTC", "standard",
        "normal", "Kartenhalle", "amelie", "karl", "python", "rules", "deal", "variant", "seed",
        "verbose"}


def foreign(text: str) -> list[str]:
    """The plain English words of ``text`` that are not kept in every language."""
    return [w for w in english_words(text) if w not in KEPT and w.lower() not in KEPT]


class GermanHall(World):
    """A German server (Discord's server language: de) with amelie, who reads French, karl,
    who reads German, and an admin who reads French."""

    def __init__(self, env) -> None:
        self.env = env
        self.guild = env.create_guild("Kartenhalle", preferred_locale="de")
        self.channel = self.guild.create_text_channel("spiele")
        self.alice = self.guild.add_member(env.create_user("amelie"))
        self.bob = self.guild.add_member(env.create_user("karl"))
        role = self.guild.create_role("admins",
                                      permissions=discord.Permissions(manage_guild=True))
        self.admin = self.guild.add_member(env.create_user("odile"), roles=[role])
        LOCALES[self.alice.id] = "fr"
        LOCALES[self.bob.id] = "de"
        LOCALES[self.admin.id] = "fr"


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


@pytest.fixture
def world(simcord_env) -> GermanHall:
    return GermanHall(simcord_env)


@pytest.fixture
def pseudo(monkeypatch):
    """Every reader of the pseudo-locale: the template's messages accented and bracketed."""
    books = i18n.Catalogs()
    books.add(i18n.pseudo_language())
    monkeypatch.setattr(i18n, "catalogs", lambda: books)
    return books.languages[i18n.PSEUDO_CODE]


def labels(message) -> list[str]:
    return [b.get("label", "") for b in World.buttons(message)]


def labelled(message, label: str) -> str:
    (found,) = [b["custom_id"] for b in World.buttons(message) if b.get("label") == label]
    return found


def shown(message) -> str:
    """Everything an embed shows, fields and footer included."""
    embed = message.embeds[0]
    return "\n".join([embed.title or "", embed.description or "",
                      *(f"{f.name}\n{f.value}" for f in embed.fields),
                      embed.footer.text or ""])


def within_limits(message) -> None:
    for embed in message.embeds:
        assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
        assert len(embed) <= 6000
        for f in embed.fields:
            assert len(f.name) <= 256 and len(f.value) <= 1024
    assert all(len(label) <= 80 for label in labels(message))
    assert len(message.content or "") <= 2000


# ----- /rules -----------------------------------------------------------------------------


async def test_a_french_player_reads_the_french_rules_and_a_japanese_one_the_english(
        world, error_logs):
    result = await world.slash(world.alice, "rules", game="donsol")
    assert result.ephemeral
    (embed,) = result.response.embeds
    assert embed.title == "Donsol : les règles"
    assert embed.description == rulebook("donsol", "fr")[1]
    assert embed.description.startswith("**Donsol** : videz un donjon de 54 cartes")
    assert "• **normal** : pas si vous êtes entré dans cette salle en fuyant." in (
        embed.description)

    german = (await world.slash(world.bob, "rules", game="tomb")).response.embeds[0]
    assert german.title == "Tomb of Four Kings: die Regeln"
    assert "**Aufbau**" in german.description

    # No text in the reader's language: English whole, its title too (never a mix).
    LOCALES[world.alice.id] = "ja"
    english = (await world.slash(world.alice, "rules", game="clear")).response.embeds[0]
    assert english.title == "Clear the Dungeon: the rules"
    assert english.description == rulebook("clear")[1]


async def test_the_pseudo_locale_reads_the_english_rules_whole(world, pseudo, error_logs):
    LOCALES[world.alice.id] = i18n.PSEUDO_CODE
    embed = (await world.slash(world.alice, "rules", game="scoundrel")).response.embeds[0]
    assert embed.title == "Scoundrel: the rules"  # no pseudo text: English, title included
    assert embed.description == rulebook("scoundrel")[1]
    assert source("scoundrel", i18n.PSEUDO_CODE) == source("scoundrel")


# ----- challenges -------------------------------------------------------------------------


async def test_the_card_speaks_the_servers_german_and_the_french_challengers_answers_french(
        world, error_logs):
    result = await world.slash(world.alice, "challenge", game="tomb")
    card = result.response
    assert not result.ephemeral
    text = shown(card)
    assert card.embeds[0].title == "⚔️ Herausforderung Nr. 1 · Tomb of Four Kings · standard"
    assert f"<@{world.alice.id}> fordert alle hier heraus: dasselbe Blatt" in text
    assert "Offen bis **<t:" in text and "**Spieler**" in text
    assert "amelie** — spielt noch" in text
    assert card.embeds[0].footer.text == (
        "Der Seed des Blatts wird aufgedeckt, wenn die Herausforderung schließt.")
    assert labels(card) == ["Annehmen", "Schließen"]

    # Her own list is French; the card a German player's Accept refreshes stays German.
    mine = (await world.slash(world.alice, "challenges")).response
    assert mine.content.startswith("Vos défis ouverts :\n**1.** Défi n° 1 · Tomb of Four Kings"
                                   " (standard) · votre partie : coup 0 · se termine <t:")
    assert labels(mine) == ["1. Plateau", "1. Carte"]
    accepted = await world.click(world.bob, card, labelled(card, "Annehmen"))
    assert accepted.ephemeral
    now = shown(world.message(card))
    assert "karl** — spielt noch" in now and "amelie** — spielt noch" in now
    theirs = (await world.slash(world.bob, "challenges")).response
    assert theirs.content.startswith("Deine offenen Herausforderungen:")

    # Closed by its French challenger: the card, still German, shows the seed.
    await world.click(world.alice, card, labelled(card, "Schließen"))
    closed = world.message(card)
    assert "**Geschlossen** <t:" in shown(closed) and labels(closed) == []
    deal = {f.name: f.value for f in closed.embeds[0].fields}["Blatt"]
    assert re.match(r"Seed `\d+`\. Zum Prüfen oder Nachspielen:\n```\npython -m rules", deal)
    empty = (await world.slash(world.alice, "challenges")).response
    assert empty.content == (
        "Vous n'avez aucun défi ouvert. Lancez-en un avec `/challenge`.")


async def test_the_pseudo_locale_leaves_no_english_word_on_the_card_or_the_list(
        world, pseudo, error_logs):
    await world.core.settings.change_guild(world.guild.id, language=i18n.PSEUDO_CODE)
    LOCALES[world.alice.id] = i18n.PSEUDO_CODE
    result = await world.slash(world.alice, "challenge", game="tomb", opponent=world.bob.user)
    card = result.response
    mine = (await world.slash(world.alice, "challenges")).response
    await world.click(world.alice, card, World.buttons(card)[1]["custom_id"])  # Close
    closed = world.message(card)
    # A run's score text is the engine's words (its phrase, once runs store phrases).
    engines = [line.score_text for line in (await world.core.challenges.card(1)).lines]
    for message in (card, mine, closed):
        within_limits(message)
        text = "\n".join([message.content or "", *(
            [shown(message)] if message.embeds else []), *labels(message)])
        for words in engines:
            text = text.replace(words, "")
        words = foreign(text)
        assert words == [], (words, shown(message) if message.embeds else message.content)


# ----- series (what a series adds to its boards) --------------------------------------------


def a_series(finished: bool) -> tuple[SeriesView, object]:
    """A series of two Tomb runs, the first out alive with 27 points; ``finished``: the
    second dead too. With the series' last run, over."""
    entries = [SeriesEntry(number=1, run_id=11, status="over", outcome="escaped", points=27,
                           score_text="1 King, 27 points")]
    if finished:
        entries.append(SeriesEntry(number=2, run_id=12, status="lost", outcome="dead",
                                   points=0, score_text="dead — 0"))
    series = SeriesView(id=5, owner_id=1, game="tomb", variant="standard", length=2,
                        entries=entries)

    class Last:
        id, over = entries[-1].run_id, True

    return series, Last()


def test_a_series_field_and_its_buttons_speak_the_boards_language() -> None:
    fr = i18n.catalogs().languages["fr"]
    from bot.buttons import ButtonRows

    series, run = a_series(finished=False)
    embed = discord.Embed()
    views.series_field(embed, series, run, fr)  # type: ignore[arg-type]
    (field,) = embed.fields
    assert field.name == "Série · partie 1 sur 2"
    assert field.value.startswith("Total pour l'instant : **27** points (1: 27). Mourir")
    rows = ButtonRows()
    views.series_buttons(rows, series, run, fr)  # type: ignore[arg-type]
    assert [b.label or "" for b in rows.buttons] == ["Partie suivante"]

    done, run = a_series(finished=True)
    embed = discord.Embed()
    views.series_field(embed, done, run, fr)  # type: ignore[arg-type]
    assert embed.fields[0].name == "Série de 2 terminée · total 27 points"
    rows = ButtonRows()
    views.series_buttons(rows, done, run, fr)  # type: ignore[arg-type]
    assert [b.label or "" for b in rows.buttons] == ["Nouvelle série de 2"]


def test_the_pseudo_locale_leaves_no_english_word_in_a_series_or_a_challenge_field(
        pseudo) -> None:
    from bot.buttons import ButtonRows

    for finished in (False, True):
        series, run = a_series(finished)
        embed, rows = discord.Embed(), ButtonRows()
        views.series_field(embed, series, run, pseudo)  # type: ignore[arg-type]
        views.series_buttons(rows, series, run, pseudo)  # type: ignore[arg-type]
        # The runs' score texts are the engines' words (their phrases, once stored).
        text = "\n".join(f"{f.name}\n{f.value}" for f in embed.fields)
        text = text.replace("1 King, 27 points", "").replace("dead", "")
        assert foreign(text) == [] and foreign(" ".join(b.label or "" for b in rows.buttons)) == []
        assert all(len(f.value) <= 1024 for f in embed.fields)
    challenge = Challenge(id=3, owner_id=1, opponent_id=None, guild_id=None, channel_id=None,
                          message_id=None, game="tomb", variant="standard",
                          created_at="2026-12-05T12:00:00Z",
                          deadline="2026-12-06T12:00:00Z", closed_at=None, seed=9)
    line = CardLine(rank=1, owner_id=1, name="amelie", run_id=12, status="won",
                    outcome="escaped", score=[1], score_text="", unfinished=False)
    embed = discord.Embed()

    class Run:
        id, over = 12, True

    views.challenge_field(embed, challenge, Card(challenge, [line]), Run(),  # type: ignore[arg-type]
                          pseudo)
    assert foreign("\n".join(f"{f.name}\n{f.value}" for f in embed.fields)) == []


# ----- replays ----------------------------------------------------------------------------


async def test_a_replay_posted_in_a_french_server_is_french_whoever_pages_it(
        world, clock, error_logs):
    await world.core.settings.change_guild(world.guild.id, language="fr")
    run = await play_daily_through_core(world, world.alice.id, 3)
    moves = await world.core.runs.moves(run.id)
    clock.now = closes_at(DAY) + timedelta(minutes=1)
    world.core.replays.budget_per_step = 300

    result = await world.slash(world.bob, "replay", run=run.id)
    assert not result.ephemeral
    first = result.response
    assert World.description(first).startswith(
        f"*🎞️ Revoir la partie n° {run.id} : la donne, avant le premier coup.")
    assert first.embeds[0].footer.text.startswith(f"Étape 0 sur {len(moves)} · score final ")
    assert labels(first)[:4] == ["Début", "Précédent", "Suivant", "Fin"]
    # karl reads German, but the message is the server's: it stays French.
    step1 = (await world.click(world.bob, first, labelled(first, "Suivant"))).response
    assert World.description(step1).startswith(f"*🎞️ Coup 1 sur {len(moves)} : ")
    assert step1.embeds[0].footer.text.startswith(f"Étape 1 sur {len(moves)}")
    turn = [b for b in World.buttons(step1) if b.get("label") == "Tournant"]
    assert len(turn) == 1  # this run (seed 3) has a turning point


async def test_the_pseudo_locale_leaves_no_english_word_in_a_replays_own_words(
        world, clock, pseudo, error_logs):
    await world.core.settings.change_guild(world.guild.id, language=i18n.PSEUDO_CODE)
    run = await play_daily_through_core(world, world.alice.id, 3)
    clock.now = closes_at(DAY) + timedelta(minutes=1)
    world.core.replays.budget_per_step = 300
    first = (await world.slash(world.bob, "replay", run=run.id)).response
    within_limits(first)
    notice = World.description(first).splitlines()[0]
    assert notice.startswith("*🎞️ ⟦") and foreign(notice) == []
    footer = first.embeds[0].footer.text
    # The final score is the engine's words (a phrase once runs store them).
    assert foreign(footer.replace(run.view["score_text"], "")) == []
    assert all(foreign(label) == [] for label in labels(first))


# ----- /settings and /preferences -----------------------------------------------------------


async def test_settings_and_preferences_answer_a_french_reader_in_french(world, error_logs):
    shown_now = (await world.slash(world.admin, "settings")).response.content
    assert shown_now == "\n".join([
        "Les réglages de **Kartenhalle** :",
        "- `results-channel`: non défini (les lignes de résultat et la publication quotidienne)",
        "- `min-account-age`: 0 jour (les comptes plus récents ne sont pas classés sur le "
        "classement de ce serveur)",
        "- `daily-post`: `on`, dès qu'un salon de résultats est choisi",
        "- `pictures`: `on` (images de la table sur les plateaux)",
        "- `champion-role`: non défini (donné chaque mois au champion de chaque jeu de ce "
        "serveur)",
        "- `language`: `auto` (la langue Discord du serveur) (les messages publics du serveur)",
    ])
    results = world.guild.create_text_channel("ergebnisse")
    changed = (await world.slash(world.admin, "settings", **{
        "results-channel": results, "min-account-age": 3})).response.content
    assert changed.startswith(
        "Modifié : `results-channel`, `min-account-age`. Les réglages de **Kartenhalle** :")
    assert "- `min-account-age`: 3 jours (" in changed
    assert f"- `daily-post`: `on` (à 01:00 UTC dans <#{results.id}>)" in changed

    prefs = (await world.slash(world.alice, "preferences")).response.content
    assert prefs.splitlines() == [
        "Vos préférences :",
        "- `pictures`: `on` (images de la table sur vos plateaux)",
        "- `global-board`: `on` (votre nom sur les classements globaux)",
        "- `reminders`: `off` (aucun message privé)",
        "- `language`: `auto` (les réponses que vous seul voyez ; `auto` : votre langue "
        "Discord)",
    ]
    now = (await world.slash(world.alice, "preferences", reminders="on",
                             **{"global-board": "off"})).response.content
    assert now.startswith("Vos préférences sont désormais :\n")
    assert "- `reminders`: `on` (un message privé à <t:" in now
    assert "« un joueur »" in now
    # language:de: the answer to that very command is German.
    german = (await world.slash(world.alice, "preferences", language="de")).response.content
    assert german.startswith("Deine Einstellungen sind jetzt:\n")


def test_a_refused_option_is_said_in_the_readers_language() -> None:
    with pytest.raises(OptionRefused) as refused:
        _days(4000)
    fr = i18n.catalogs().languages["fr"]
    assert fr.render(refused.value.message) == (
        "min-account-age est un nombre entier de jours de 0 à 3650 ; rien n'a été changé.")
    assert str(refused.value) == (
        "min-account-age is a whole number of days from 0 to 3650; nothing was changed.")


def test_the_missing_permissions_are_named_as_discord_names_them_in_french() -> None:
    fr = i18n.catalogs().languages["fr"]
    missing = _join(["View Channel", "Send Messages", "Embed Links"])
    assert str(missing) == "View Channel, Send Messages and Embed Links"
    assert fr.render(Message(CANNOT_POST, {"channel": "<#7>", "permissions": missing})) == (
        "Je ne peux pas publier dans <#7> : il m'y faut Voir le salon, Envoyer des messages et "
        "Intégrer des liens. Rien n'a été changé ; donnez-moi ces permissions dans ce salon et "
        "choisissez-le de nouveau.")


async def test_the_pseudo_locale_leaves_no_english_word_in_settings_or_preferences(
        world, pseudo, error_logs):
    LOCALES[world.admin.id] = LOCALES[world.alice.id] = i18n.PSEUDO_CODE
    results = world.guild.create_text_channel("ergebnisse")
    answers = [
        await world.slash(world.admin, "settings"),
        await world.slash(world.admin, "settings", **{"results-channel": results,
                                                      "min-account-age": 1}),
        await world.slash(world.alice, "preferences"),
        await world.slash(world.alice, "preferences", reminders="on",
                          **{"global-board": "off"}),
    ]
    for answer in answers:
        text = answer.response.content
        assert len(text) <= 2000
        assert "⟦" in text and foreign(text) == [], foreign(text)
