"""The daily's own screens in each reader's language, end to end through simcord: a French
player's /stats, look back, streak reminder and own place under a board are French, while a
public board (/leaderboard of each kind, /verify) speaks the server's language; a German
server's daily post and champions post are German. The pseudo-locale runs every one of these
screens: no English word survives, and nothing passes Discord's limits.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import discord
import pytest

from bot import i18n
from core.daily import closes_at
from tests.bot.conftest import World
from tests.bot.pseudo import english_words
from tests.bot.test_languages import LOCALES, discord_languages  # noqa: F401 (a fixture)
from tests.bot.test_months import tomb_daily
from tests.bot.test_posts import poster_of, posts_in
from tests.core.conftest import Clock

YESTERDAY, TODAY = "2026-12-13", "2026-12-14"
NOON = datetime(2026, 12, 14, 12, 0, tzinfo=UTC)
POST_TIME = datetime(2026, 12, 15, 1, 0, 30, tzinfo=UTC)
REMINDER_HOUR = datetime(2026, 12, 14, 23, 0, 30, tzinfo=UTC)
MONTH_CLOSE = datetime(2027, 1, 1, 1, 0, 30, tzinfo=UTC)
#: Words a screen may show as they are in any language: the guild's and players' names, the
#: variants (the engines' words), and the units in a card code or a score (``HP``).
NAMES = ("Dungeon Hall", "alice", "bob", "carol", "standard", "normal", "easy", "hard")


@pytest.fixture
def clock() -> Clock:
    return Clock(NOON)


@pytest.fixture
def simcord_bot(make_bot, clock):
    return make_bot(clock=clock)


@pytest.fixture
def admin(world):
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("carol"), roles=[role])


async def two_days(world: World, clock: Clock) -> None:
    """Alice and Bob played yesterday's Tomb daily; Bob today's too (Alice has not yet)."""
    await tomb_daily(world, clock, YESTERDAY, world.alice, 3)
    await tomb_daily(world, clock, YESTERDAY, world.bob, 4)
    await tomb_daily(world, clock, TODAY, world.bob, 5)
    clock.now = NOON


def everything(message: Any) -> str:
    """Every word of a message: content, embeds (title, description, fields, footer), and
    its buttons' labels."""
    parts = [getattr(message, "content", None) or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "",
                  embed.footer.text if embed.footer else ""]
        parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    parts += [b.get("label") or "" for b in World.buttons(message)]
    return "\n".join(p for p in parts if p)


async def score_texts(world: World) -> list[str]:
    """The score texts and turning points the database stores (the engines' words, English
    until the engines' phrases reach the store): left out of the pseudo-locale's check, which
    is about this slice's own words."""
    texts = set()
    for day in (YESTERDAY, TODAY):
        for guild in (world.guild.id, None):
            board = await world.core.rankings.board("tomb", "standard", day, guild_id=guild)
            texts |= {line.score_text for line in board.lines if line.score_text}
    for user in (world.alice, world.bob):
        back = await world.core.lookback.of_day(user.id, "tomb", None, YESTERDAY)
        if back is not None and back.turn is not None:
            texts.add(back.turn.text)
    return sorted(texts, key=len, reverse=True)


def left_english(text: str, allowed: list[str]) -> list[str]:
    for kept in [*allowed, *NAMES]:
        text = text.replace(kept, " ")
    return english_words(text)


def within_limits(message: Any) -> None:
    assert len(getattr(message, "content", None) or "") <= 2000
    for embed in message.embeds:
        assert len(embed.title or "") <= 256 and len(embed.description or "") <= 4096
        assert len(embed) <= 6000 and len(embed.fields) <= 25
        assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in embed.fields)
    assert all(len(b.get("label") or "") <= 80 for b in World.buttons(message))


# ----- French and German ----------------------------------------------------------------------


async def test_a_french_players_own_answers_are_french(world, clock, error_logs):
    LOCALES[world.alice.id] = "fr"
    await two_days(world, clock)

    stats = (await world.slash(world.alice, "stats", game="tomb")).response
    assert stats.ephemeral
    (embed,) = stats.embeds
    assert embed.title == "Bilan de alice"
    (field,) = embed.fields
    assert field.name == "Tomb of Four Kings"
    assert re.match(r"Parties \*\*1\*\* · victoires \*\*\d\*\* \(\d+\s%\) · quotidiennes 1\n"
                    r"Meilleur : \*\*.+\*\* · moyenne \d+,\d points\n"
                    r"Série de quotidiennes : \*\*\d\*\* \(record 1\)\n"
                    r"Gels de série en réserve : \*\*0\*\* sur \d · jours gelés : 0\n", field.value)
    assert "Depuis la première quotidienne (2 jours) :" in field.value
    assert embed.footer.text.startswith("🟩 gagné · 🟨 sorti vivant · 🟥 perdu")

    # The server speaks English: its public board is English, her own place French.
    board = await world.slash(world.alice, "leaderboard", game="tomb", day=YESTERDAY)
    assert not board.ephemeral
    assert board.response.embeds[0].fields[0].name == "Ranked runs"
    (mine,) = board.followups
    assert mine.ephemeral and re.match(r"Vous : rang \*\*[12]\*\* sur 2 · ", mine.content)
    month = await world.slash(world.alice, "leaderboard", game="tomb", day="month")
    assert re.match(r"Vous : rang \*\*[12]\*\* sur 2 · \d+ points \(1 jour\)$",
                    month.followups[0].content)
    week = await world.slash(world.alice, "leaderboard", game="tomb", day="week")
    assert week.followups[0].content == "Vous n'avez aucune quotidienne classée sur ce classement."

    # The look back of yesterday, asked for and atop today's /daily.
    back = (await world.slash(world.alice, "stats", game="tomb", day="yesterday")).response
    (looked,) = back.embeds
    assert looked.title.startswith("Tomb of Four Kings n° ") and looked.title.endswith(
        " de alice")
    lines = looked.fields[0].value.splitlines()
    assert looked.fields[0].name == "Rétrospective"
    assert lines[0].startswith("Score : **")
    assert lines[1] == "Face au par : **par pas encore résolu**"
    assert re.fullmatch(r"Parmi 2 classés : \*\*(meilleur que \d+ %|meilleur que tous les "
                        r"autres)\*\*", lines[2])
    assert looked.footer.text.startswith("Centile : la part des autres joueurs classés")
    daily = (await world.slash(world.alice, "daily", game="tomb")).response
    text = world.description(daily)
    assert re.search(r"Hier : par pas encore résolu · meilleur que (\d+\s%|tous les autres) · "
                     r"meilleur .+ · (tournant au coup \d+|aucun coup n'a coûté quoi que ce "
                     r"soit)\n", text), text
    assert "La donne du jour est à vous : un seul essai, sans annuler. Bonne chance !" in text


async def test_a_french_server_shows_every_board_in_french(world, admin, clock, error_logs):
    LOCALES[world.bob.id] = "de"  # a German reader of the French server's boards
    await two_days(world, clock)
    await world.slash(admin, "settings", language="fr")
    clock.now = closes_at(YESTERDAY)
    await world.env.bot.get_cog("RatingLoop").run_due(clock())
    clock.now = NOON

    today = await world.slash(world.bob, "leaderboard", game="tomb")
    embed = today.response.embeds[0]
    assert re.fullmatch(r"Tomb of Four Kings n° \d+ · standard · Dungeon Hall", embed.title)
    assert embed.fields[0].name == "Classement jusqu'à"
    assert embed.fields[0].value.startswith("Ouvert : les parties peuvent être classées jusqu'à")
    assert embed.footer.text == "1 classé · page 1/1"
    assert [b["label"] for b in world.buttons(today.response)] == ["Jouer la donne du jour"]
    assert today.followups[0].content.startswith("Du: Platz **1** von 1 · ")

    closed = (await world.slash(world.bob, "leaderboard", game="tomb", day=YESTERDAY)).response
    assert closed.embeds[0].fields[0].name == "Parties classées"
    assert closed.embeds[0].fields[0].value.startswith("Définitif. Graine `")
    assert [b["label"] for b in world.buttons(closed)] == ["Revoir le rang 1", "Revoir le rang 2"]

    week = (await world.slash(world.bob, "leaderboard", game="tomb", day="week")).response
    assert week.embeds[0].title == (
        "Tomb of Four Kings · semaine du 14 décembre 2026 au 20 décembre 2026 · standard · "
        "Dungeon Hall")
    assert week.embeds[0].footer.text.startswith(
        "Les points des quotidiennes classées de chaque joueur, additionnés du lundi au dimanche")
    month = (await world.slash(world.bob, "leaderboard", game="tomb", day="month")).response
    assert month.embeds[0].title.startswith("Tomb of Four Kings · mois de décembre 2026 · ")
    assert month.embeds[0].fields[0].name == "Quotidiennes classées"
    assert month.embeds[0].fields[0].value.startswith("Ouvert : définitif le <t:")

    rating = await world.slash(world.bob, "leaderboard", game="tomb", day="rating")
    embed = rating.response.embeds[0]
    assert embed.title == "Tomb of Four Kings · cote · standard · Dungeon Hall"
    assert re.search(r"— \d+ \(1 jour, provisoire\)", embed.description)
    assert "coté jusqu'au 13 décembre 2026 · 2 cotés · page 1/1" in embed.footer.text
    assert re.match(r"Du: Platz \*\*[12]\*\* von 2 · Wertung \d+ \(1 Tag\)$",
                    rating.followups[0].content)

    verified = (await world.slash(world.bob, "verify", game="tomb", day=YESTERDAY)).response
    text = world.description(verified)
    assert verified.embeds[0].title.endswith(" · standard · 13 décembre 2026")
    assert text.startswith("Engagement : `") and "\nGraine : `" in text
    assert "Vérifiez-le vous-même (voir docs/deal.md dans le projet) :" in text


async def test_a_french_players_reminder_is_french(world, clock, error_logs):
    await tomb_daily(world, clock, YESTERDAY, world.alice, 3)
    LOCALES[world.alice.id] = "fr"
    await world.slash(world.alice, "preferences", reminders="on", language="fr")
    clock.now = REMINDER_HOUR
    await world.env.bot.get_cog("ReminderLoop").run_due(clock.now)
    (text,) = [m.content for m in world.alice.user.dm_channel.history()
               if m.author.id == world.env.bot.user.id]
    ends = int(datetime(2026, 12, 15, tzinfo=UTC).timestamp())
    assert text == (
        "🔥 Votre série **Tomb of Four Kings** de 1 jour est en danger : vous avez joué la "
        "quotidienne d'hier, pas encore celle d'aujourd'hui.\n"
        f"La donne du jour se termine à <t:{ends}:t> (<t:{ends}:R>) : `/daily` pour la jouer.\n"
        "Vous avez demandé ces rappels ; `/preferences reminders:off` les arrête.")


async def test_a_german_servers_daily_post_and_champions_are_german(
        world, admin, clock, error_logs):
    results = world.guild.create_text_channel("ergebnisse")
    champion = world.guild.create_role("Champion")
    await world.slash(admin, "settings", language="de", **{"results-channel": results,
                                                          "champion-role": champion})
    await two_days(world, clock)

    clock.now = POST_TIME
    await poster_of(world).run_due(clock())
    (post,) = posts_in(results)
    (embed,) = post.embeds
    assert embed.title == "Tagesspiel Nr. 15 · 2026-12-15"
    podium = next(f for f in embed.fields if "Tomb of Four Kings" in f.name)
    assert podium.name == "Tomb of Four Kings Nr. 14 (standard): die endgültigen Top 3"
    lines = podium.value.splitlines()
    assert re.match(r"1\. bob: ", lines[0])
    assert re.fullmatch(r"Seed `\d+` · 1 gewertet auf diesem Server", lines[-1])

    clock.now = MONTH_CLOSE
    await world.env.bot.get_cog("ChampionsLoop").poster.run_due(clock())
    (champions,) = [m for m in results.history() if m.author.bot and m.embeds
                    and m.embeds[0].title.startswith("Champions im")]
    (embed,) = champions.embeds
    assert embed.title == "Champions im Dezember 2026"
    assert embed.description.startswith("Die Bestenlisten des Monats sind endgültig (<t:")
    assert "vom 1. Dezember 2026 bis 31. Dezember 2026, addiert." in embed.description
    tomb = next(f for f in embed.fields if f.name == "Tomb of Four Kings (standard)")
    assert re.match(r"🥇 (alice|bob): \d+ \([12] Tage?\)\n🥈 (alice|bob): \d+ \([12] Tage?\)\n"
                    r"2 gewertet auf diesem Server$", tomb.value), tomb.value
    assert "(1 Tag)" in tomb.value and "(2 Tage)" in tomb.value
    role = next(f for f in embed.fields if f.name == "Champion-Rolle")
    assert role.value.startswith(f"<@&{champion.id}> geht an <@")


async def test_a_click_on_someone_elses_board_is_refused_in_the_clickers_language(
        world, error_logs):
    LOCALES[world.bob.id] = "fr"
    board = await world.play(world.alice, "donsol")
    refused = await world.click(world.bob, board, world.moves(board)[0]["custom_id"])
    assert refused.ephemeral and refused.response.content == (
        f"Cette partie appartient à <@{world.alice.id}> ; lancez la vôtre avec `/play`.")


# ----- the pseudo-locale ----------------------------------------------------------------------


@pytest.fixture
def pseudo(monkeypatch):
    books = i18n.Catalogs()
    books.add(i18n.pseudo_language())
    monkeypatch.setattr(i18n, "catalogs", lambda: books)
    return i18n.PSEUDO_CODE


async def test_the_pseudo_locale_leaves_no_english_word_on_these_screens(
        world, admin, clock, pseudo, error_logs):
    results = world.guild.create_text_channel("results")
    champion = world.guild.create_role("Champion")
    await world.slash(admin, "settings", **{"results-channel": results,
                                            "champion-role": champion})
    # The server and both players speak the pseudo-locale (stored: the choices only
    # validate offered languages, and the settings cog read them before the fixture).
    await world.core.settings.change_guild(world.guild.id, language=pseudo)
    for user in (world.alice, world.bob):
        LOCALES[user.id] = pseudo
        await world.core.settings.set_player(user.id, "language", pseudo)
        await world.core.settings.set_player(user.id, "reminders", "on")
    await two_days(world, clock)
    clock.now = closes_at(YESTERDAY)
    await world.env.bot.get_cog("RatingLoop").run_due(clock())
    clock.now = NOON

    screens = []
    for options in ({"game": "tomb"}, {"game": "tomb", "day": YESTERDAY},
                    {"game": "tomb", "day": "week"}, {"game": "tomb", "day": "month"},
                    {"game": "tomb", "day": "rating"}, {"game": "tomb", "scope": "global"}):
        shown = await world.slash(world.alice, "leaderboard", **options)
        screens += [shown.response, *shown.followups]
    stats = await world.slash(world.alice, "stats")
    screens.append(stats.response)
    looked = await world.slash(world.alice, "stats", game="tomb", day=YESTERDAY)
    screens.append(looked.response)
    for day in (TODAY, YESTERDAY):
        screens.append((await world.slash(world.alice, "verify", game="tomb", day=day)).response)
    # /daily's board is the boards' to translate: here only its notice, above the board.
    daily = (await world.slash(world.alice, "daily", game="tomb")).response
    notice = world.description(daily).split("\n\n")[0]
    assert notice.count("⟦") >= 2 and left_english(notice, await score_texts(world)) == [], notice
    # Alice has started today's daily, not finished it: her streak is at risk tonight.
    clock.now = REMINDER_HOUR
    await world.env.bot.get_cog("ReminderLoop").run_due(clock.now)
    reminders = [m for user in (world.alice, world.bob) if user.user.dm_channel
                 for m in user.user.dm_channel.history() if m.author.id == world.env.bot.user.id]
    assert reminders
    screens += reminders
    clock.now = POST_TIME
    await poster_of(world).run_due(clock())
    clock.now = MONTH_CLOSE
    await world.env.bot.get_cog("ChampionsLoop").poster.run_due(clock())
    posts = posts_in(results)
    assert len(posts) == 2
    screens += posts

    allowed = await score_texts(world)
    for screen in screens:
        within_limits(screen)
        text = everything(screen)
        assert "⟦" in text, text
        assert left_english(text, allowed) == [], text
