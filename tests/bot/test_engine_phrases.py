"""The engines' words in a player's language: every sentence a game says is a Phrase whose
template is in the catalogs, and it reads in French (and German) as a French (German) player
expects, while its English stays the English str every caller already uses."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from language import DOMAIN, LOCALE_DIR, _ids, catalogs, pseudo_language
from rules import GAMES, plugin
from rules.cards import long_name
from rules.hints import hint
from rules.words import Message, Phrase
from tests.bot.pseudo import english_words

FRENCH = catalogs().resolve("fr")
GERMAN = catalogs().resolve("de")
TEMPLATE_IDS = _ids(LOCALE_DIR / f"{DOMAIN}.pot")
#: View keys whose values are data, not words: the game's key, the variant and outcome words,
#: card codes, and the engines' state words (``pending``, ``phase``).
DATA_KEYS = {
    "game", "variant", "outcome", "room", "slain", "torches", "turn", "shield_monsters",
    "monster", "attack", "reserve", "weapon", "shield", "encounter", "last_card", "hp_card",
    "pending", "phase", "hand",
}
#: Discord's limit on a button label, in every language.
LABEL_LIMIT = 80


def test_the_languages_are_offered() -> None:
    assert FRENCH.code == "fr" and GERMAN.code == "de"


# ----- one game's words in French -----------------------------------------------------------


def test_donsol_in_french() -> None:
    game = GAMES["donsol"]
    state = game.new(0)  # room 3♦ J♣ 8♣ 4♥
    view = game.view(state)
    assert FRENCH.render(view["events"][0]) == (
        "Vous entrez dans le donjon. La première salle : 3♦ J♣ 8♣ 4♥.")
    assert FRENCH.render(game.label(view, "take JC")) == "Combattre J♣ (11)"
    assert FRENCH.render(game.refusal(state, "take QS")) == "Q♠ n'est pas dans cette salle."
    after = game.apply(state, "take 3D")
    assert FRENCH.render(after.events[0]) == "Vous prenez 3♦ comme bouclier (3)."
    assert FRENCH.render(game.view(after)["score_text"]) == "1/54 cartes, 21 PV"
    assert GERMAN.render(game.view(after)["score_text"]) == "1/54 Karten, 21 LP"
    assert FRENCH.render(game.outcome_text("dead")) == "mort"
    assert FRENCH.render(game.variant_name("hard")) == "difficile"


def test_scoundrel_in_french() -> None:
    game = GAMES["scoundrel"]
    state = game.new(4)  # room 4♥ Q♠ 7♠ 6♠
    view = game.view(state)
    assert FRENCH.render(game.label(view, "fist QS")) == "Q♠ à mains nues (−12 PV)"
    assert FRENCH.render(game.refusal(state, "take QS")) == (
        "QS est un monstre : « fist QS » à mains nues.")
    after = game.apply(state, "take 4H")
    assert FRENCH.render(after.events[0]) == (
        "Vous buvez 4♥ en pleine santé : elle ne soigne rien.")
    assert FRENCH.render(game.view(after)["avoid_reason"]) == (
        "Vous avez commencé cette salle : affrontez-en le reste.")
    assert FRENCH.render(game.view(after)["score_text"]) == "20 PV, 208 en monstres restants"


def test_clear_in_french() -> None:
    game = GAMES["clear"]
    state = game.new(1)
    view = game.view(state)
    put = next(a for a in game.actions(state) if a.startswith("put "))
    card = put.split(" ")[1]
    assert re.fullmatch(r"\S+ → \S+", FRENCH.render(game.label(view, put)))
    assert FRENCH.render(game.label(view, f"reserve {card}")).endswith(" → réserve")
    assert FRENCH.render(game.refusal(state, "put 5H 9")) in (
        "Il n'y a pas de pile 9 : les piles sont numérotées de 1 à 4.",
        "5♥ n'est pas dans votre main.",
    )
    assert FRENCH.render(game.refusal(state, "reserve KS")) == (
        "K♠ est un monstre, pas une carte de force.")
    assert FRENCH.render(game.view(state)["score_text"]) == "0 sur 12 monstres"
    assert FRENCH.render(view["events"][1]).startswith("Votre première main : ")
    assert FRENCH.render(view["piles"][0]["needs"]).startswith("1re carte : ")


def test_tomb_in_french() -> None:
    game = GAMES["tomb"]
    state = game.new(3)
    view = game.view(state)
    assert FRENCH.render(view["events"][0]) == (
        "Le tombeau s'ouvre devant vous : 44 cartes, quatre torches, 9 points de vie.")
    assert FRENCH.render(game.label(view, "flip")) == "Entrer dans le tombeau"
    assert FRENCH.render(game.refusal(state, "retreat")) == (
        "Vous n'êtes pas encore entré dans le tombeau : retournez la première carte.")
    assert FRENCH.render(view["score_text"]) == "0 Roi, 0 point"
    assert GERMAN.render(view["score_text"]) == "0 Könige, 0 Punkte"
    assert FRENCH.render(game.outcome_text("lost_in_dark")) == "perdu dans le noir"
    after = game.apply(state, "flip")
    assert FRENCH.render(after.events[0]) == "Vous entrez dans le tombeau : tour 1."


def test_long_card_names_in_french_and_german() -> None:
    assert long_name("QS") == "Queen of Spades"
    assert FRENCH.render(long_name("QS")) == "Dame de pique"
    assert GERMAN.render(long_name("QS")) == "Pik-Dame"
    assert FRENCH.render(long_name("10H")) == "10 de cœur"
    assert FRENCH.render(long_name("RJ")) == "joker rouge"


def test_a_hint_reason_in_french() -> None:
    # The reason for escaping the first room of deal 0 (its cost is read off the room's
    # cards), said as a hint says it; which move a hint picks is the search's business.
    game = GAMES["donsol"]
    start = game.new(0)
    reason = plugin("donsol").hints.reason(start, "escape", start)
    assert reason == "escape: clearing this room costs at least 9 HP"
    assert FRENCH.render(reason) == "fuir : vider cette salle coûte au moins 9 PV"
    assert GERMAN.render(reason) == "fliehen: Diesen Raum zu leeren kostet mindestens 9 LP"
    found = hint("donsol", start, rng=random.Random(1), budget=300, samples=2)
    assert FRENCH.render(found.reason) != found.reason  # whatever it chose, it is said in French


# ----- every sentence of random games -------------------------------------------------------


def _messages(value: Any) -> Iterator[Message]:
    """Every message inside ``value`` (a phrase, a message, or containers of them), fields
    included."""
    if isinstance(value, Phrase):
        value = value.message
    if isinstance(value, Message):
        yield value
        for field in value.params.values():
            yield from _messages(field)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _messages(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _messages(item)


def _words(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every str of a view that a player reads, with the key it came under."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, item in value.items():
            if k not in DATA_KEYS:
                yield from _words(item, k)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _words(item, key)


def _has_words(template: str) -> bool:
    """Whether a template says anything outside its fields (a pure joining template such as
    ``{p0}\\n{p1}`` is not in the catalogs: a lookup gives it back as it is)."""
    return bool(re.search(r"[A-Za-z]", re.sub(r"\{[^{}]*\}", "", template)))


#: Moves no game accepts everywhere: their refusals are sentences too.
PROBES = ("take ZZ", "put 5H 9", "put AS 1", "reserve KS", "fist 2H", "fight 3S", "skill JH",
          "skill JS", "drop KS", "leave 2D", "retreat", "flip", "escape", "avoid", "dodge",
          "endure", "discard", "nonsense x", "")


def _played(key: str, moves: int = 300) -> Iterator[tuple[str, Any]]:
    """``(what, text)`` for every sentence random games of ``key`` show in ``moves`` moves:
    view words, labels, refusals, boards, outcome and resigned texts, hints' reasons."""
    game = GAMES[key]
    rng = random.Random(key)
    played = 0
    seed = 0
    while played < moves:
        state = game.new(seed, game.variants[seed % len(game.variants)])
        seed += 1
        while True:
            view = game.view(state)
            for where, text in _words(view):
                yield f"view[{where}]", text
            yield "board", game.text(state)
            yield "resigned", game.resigned(state)[1]
            legal = game.actions(state)
            if not legal:
                yield "outcome", game.outcome_text(state.outcome)
                break
            for action in legal:
                yield f"label {action}", game.label(view, action)
            for probe in PROBES:
                if not game.is_legal(state, probe):
                    yield f"refusal {probe!r}", game.refusal(state, probe)
            if played % 10 == 0:  # a hint's reason now and then (a search each)
                found = hint(key, state, rng=random.Random(played), budget=120, samples=2)
                yield "hint", found.reason
            state = game.apply(state, rng.choice(legal))
            played += 1


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_sentence_of_a_random_game_is_a_phrase_in_the_catalogs(key: str) -> None:
    pseudo = pseudo_language()
    missing: set[str] = set()
    for what, text in _played(key):
        assert isinstance(text, Phrase), f"{key} {what}: {text!r} is not a Phrase"
        for message in _messages(text):
            if _has_words(message.template) and message.template not in TEMPLATE_IDS:
                missing.add(message.template)
        if what.startswith("label"):
            for language in (FRENCH, GERMAN, pseudo):
                assert len(language.render(text)) <= LABEL_LIMIT, (key, what, text)
        if what.startswith(("view", "label", "outcome", "resigned")):
            # Nothing English is left once said in the pseudo-locale (card codes and the
            # player's typed moves aside).
            assert not english_words(pseudo.render(text)), (key, what, pseudo.render(text))
    assert not missing, f"{key}: templates not in the catalogs: {sorted(missing)}"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_recap_legend_word_is_translated(key: str) -> None:
    from rules import plugin

    for _, word in plugin(key).recap.legend:
        assert isinstance(word, Phrase) and word.message.template in TEMPLATE_IDS
        assert FRENCH.render(word) != word or word in ("standard",)


def test_the_stats_unit_is_counted_in_the_readers_language() -> None:
    donsol, clear = GAMES["donsol"], GAMES["clear"]
    assert donsol.stat_text(12) == "12 cards" and donsol.stat_text(1) == "1 card"
    assert FRENCH.render(donsol.stat_text(12)) == "12 cartes"
    assert FRENCH.render(clear.stat_text(1)) == "1 monstre vaincu"
    assert GERMAN.render(donsol.stat_text(3.5, GERMAN.number(3.5))) == "3,5 Karten"
