"""An engine's sentence is a Phrase: the English ``str`` every caller already uses, which
remembers its template and fields so that an adapter can say it in another language."""

from __future__ import annotations

import json
import pickle

from rules.words import N_, Message, Phrase, dump_text, load_text, said


def _french(singular: str, plural: str | None, count: int | None) -> str:
    words = {"You drink {card} and heal {n} HP.": "Tu bois {card} et regagnes {n} PV.",
             "Queen": "Dame", "{count} card": "{count} carte", "{count} cards": "{count} cartes"}
    chosen = singular if plural is None or count == 1 else plural
    return words.get(chosen, chosen)


def test_a_phrase_is_its_english_sentence_and_says_itself_in_another_language() -> None:
    phrase = Phrase(N_("You drink {card} and heal {n} HP."), card=Phrase(N_("Queen")), n=3)
    assert phrase == "You drink Queen and heal 3 HP."
    assert said(phrase, _french) == "Tu bois Dame et regagnes 3 PV."
    # a phrase inside a core message is said in the message's language too
    assert Message("{what}", {"what": phrase}).render(_french) == "Tu bois Dame et regagnes 3 PV."


def test_plural_phrases_choose_their_form() -> None:
    many = Phrase(N_("{count} card"), plural="{count} cards", count=3)
    assert many == "3 cards"
    assert said(many, _french) == "3 cartes"
    assert said(Phrase(N_("{count} card"), plural="{count} cards", count=1), _french) == "1 carte"


def test_a_phrase_survives_json_and_pickle_with_its_fields() -> None:
    phrase = Phrase(N_("You drink {card} and heal {n} HP."), card=Phrase(N_("Queen")), n=3)
    for back in (load_text(json.loads(json.dumps(dump_text(phrase)))),
                 pickle.loads(pickle.dumps(phrase))):
        assert isinstance(back, Phrase) and back == phrase
        assert said(back, _french) == "Tu bois Dame et regagnes 3 PV."
    assert load_text(dump_text("plain")) == "plain"



def test_every_games_events_survive_its_dump_with_their_messages() -> None:
    import random

    from rules import GAMES

    for key, game in GAMES.items():
        rng = random.Random(key)
        state = game.new(7)
        for _ in range(12):
            if not game.actions(state):
                break
            state = game.apply(state, rng.choice(game.actions(state)))
            back = game.load(json.loads(json.dumps(game.dump(state))))
            assert back == state and game.dump(back) == game.dump(state)
            assert all(isinstance(e, Phrase) for e in back.events)
            assert [e.message for e in back.events] == [e.message for e in state.events]
        assert game.dump(state)["engine"] == f"{key}/2"  # format 1 kept the events as English


def test_a_sentence_said_later_is_made_the_phrase_it_stands_for() -> None:
    from rules.words import counted_later, later, made

    drink = made(later(N_("You drink {card} and heal {n} HP."), card=Phrase(N_("Queen")), n=3))
    assert isinstance(drink, Phrase) and drink == "You drink Queen and heal 3 HP."
    assert said(drink, _french) == "Tu bois Dame et regagnes 3 PV."
    cards = made(counted_later((N_("{count} card"), "{count} cards"), 3))
    assert cards == "3 cards" and said(cards, _french) == "3 cartes"
    # a field said later is made too, in the same language
    nested = made(later("{what}", what=counted_later((N_("{count} card"), "{count} cards"), 1)))
    assert nested == "1 card" and said(nested, _french) == "1 carte"
    assert made(drink) is drink


def test_a_states_events_read_as_phrases_before_and_after_anyone_reads_them() -> None:
    """The engines keep their events as templates and fields until they are read: a state
    whose events nobody has read yet equals, hashes, prints, pickles and copies as the state
    loaded from its dump, whose events are phrases."""
    import dataclasses
    import random

    from rules import GAMES

    for key, game in GAMES.items():
        rng = random.Random(key)
        state = game.new(7)
        for _ in range(12):
            legal = game.actions(state)
            if not legal:
                break
            before, action = state, rng.choice(legal)
            state = game.apply(before, action)
            back = game.load(json.loads(json.dumps(game.dump(state))))
            # each check on a new copy of the state, whose events nobody has read yet
            assert game.apply(before, action) == back and back == game.apply(before, action)
            assert hash(game.apply(before, action)) == hash(back)
            assert repr(game.apply(before, action)) == repr(back)
            assert pickle.loads(pickle.dumps(game.apply(before, action))) == back
            assert dataclasses.replace(game.apply(before, action), seed=back.seed) == back
            assert game.dump(game.apply(before, action)) == game.dump(back)
            assert game.view(game.apply(before, action))["events"] == list(back.events)
            events = game.apply(before, action).events
            assert type(events) is tuple and events == back.events
            assert all(type(e) is Phrase for e in events)
            assert [e.message for e in events] == [e.message for e in back.events]


def test_counted_words_are_plural_phrases() -> None:
    from rules.words import plural

    assert plural(1, "card") == "1 card" and plural(3, "card") == "3 cards"
    assert said(plural(3, "card"), _french) == "3 cartes"
    assert plural(2, "goblin") == "2 goblins"  # a word the catalogs do not count stays English


def test_a_phrase_said_in_one_language_then_another_speaks_each() -> None:
    """What a phrase said last is kept on it: said again in another language, it is said in
    that one, and back."""
    from rules.words import english

    phrase = Phrase(N_("You drink {card} and heal {n} HP."), card=Phrase(N_("Queen")), n=3)
    for _ in range(2):
        assert said(phrase, _french) == "Tu bois Dame et regagnes 3 PV."
        assert said(phrase, english) == "You drink Queen and heal 3 HP."
    assert Message("{what}", {"what": phrase}).render(_french) == "Tu bois Dame et regagnes 3 PV."
