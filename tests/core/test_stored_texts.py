"""Engine sentences kept in the database (``store/texts.py``): a run's score text, a par's and
a turning point's are written as their messages and read back as phrases that a French reader
reads in French, on SQLite and PostgreSQL alike; rows written before (plain English) read as
they always did, and nothing that sorts, ranks or compares runs sees a difference.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import catalogs
from core import Core
from rules import GAMES
from rules.words import N_, Message, Phrase, dump_text, load_text
from store.base import ParRow, TurnRow, Tx
from store.texts import MARK, said, speak_with, stored
from tests.core.conftest import Clock, execute, query
from tests.core.test_act import play_out

ALICE, BOB, GUILD = 101, 202, 303
TODAY = "2026-12-01"

#: The plural phrase the tests' score texts are made of: a template the French catalog has.
CARDS = ("{count} card", "{count} cards")


def cards(count: int) -> Phrase:
    return Phrase(N_(CARDS[0]), plural=CARDS[1], count=count)


def french() -> Any:
    return catalogs().resolve("fr")


@pytest.fixture
def phrased(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Donsol's score texts as phrases (the engines' own, once theirs are), counting the
    score's first part: every view's and every given-up run's."""
    engine = type(GAMES["donsol"])
    resigned = engine.resigned
    monkeypatch.setattr(engine, "score_text", lambda self, s: cards(self.score(s)[0]))
    monkeypatch.setattr(engine, "resigned",
                        lambda self, s: (resigned(self, s)[0], cards(resigned(self, s)[0][0])))
    yield


async def daily(core: Core, clock: Clock, owner: int, rng: int) -> Any:
    clock.advance(minutes=1)
    started = await core.daily.start(owner, "donsol", guild_id=GUILD)
    return await play_out(core, started.run, random.Random(rng))


# ----- the codec --------------------------------------------------------------------------


def test_a_phrase_is_kept_as_its_message_and_read_back_as_the_same_phrase() -> None:
    phrase = Phrase(N_("best {score}"), score=cards(31))
    text = stored(phrase)
    assert text.startswith(MARK) and "best {score}" in text
    back = said(text)
    assert isinstance(back, Phrase) and back == "best 31 cards"
    assert back.message == phrase.message
    assert french().render(back) == "meilleur 31 cartes"
    assert said(stored(cards(1))) == "1 card" and french().render(said(stored(cards(1)))) == (
        "1 carte")


def test_plain_text_is_kept_as_it_is_and_never_taken_for_a_message() -> None:
    for plain in ("", "won with 14 HP", "48/54 cards, 0 HP", "{not json", "{}"):
        assert stored(plain) == plain
        assert said(plain) == plain and type(said(plain)) is str
    # A plain text that looks like a stored message is kept as a message of its own.
    lookalike = '{"t":"x"} is not a score'
    assert stored(lookalike) != lookalike and said(stored(lookalike)) == lookalike
    assert said('{"t": broken') == '{"t": broken'
    assert said('{"t":"x", "p": 3}') == '{"t":"x", "p": 3}'  # not a message's data


def test_a_stored_sentence_is_the_standard_librarys_json_of_its_message() -> None:
    # Written by orjson, as the standard library would write it: rows written before read the
    # same, and the text a column holds does not depend on which library wrote it.
    rng = random.Random(11)
    seen = 0
    for engine in GAMES.values():
        state = engine.new(rng.getrandbits(64), engine.variants[0])
        while actions := engine.actions(state):
            state = engine.apply(state, rng.choice(actions))
            view = engine.view(state)
            for text in (view["score_text"], *view["events"], 'é "quoted" {braces} \\'):
                data = dump_text(text)
                if isinstance(data, str):
                    continue
                assert stored(text) == json.dumps(data, separators=(",", ":"),
                                                  ensure_ascii=False)
                seen += 1
    assert seen > 100


def test_a_field_json_cannot_hold_keeps_the_english() -> None:
    odd = Phrase.of(Message(N_("{count} card"), {"count": object()}, "{count} cards", 2))
    assert said(stored(odd)) == str(odd)


def test_without_the_cores_codec_a_phrase_is_kept_as_its_english() -> None:
    try:
        speak_with(str, lambda data: data["t"])
        assert stored(cards(3)) == "3 cards"
    finally:
        speak_with(dump_text, load_text)


# ----- through the core, on both databases ----------------------------------------------------


async def test_a_finished_runs_phrase_reads_back_in_french_on_every_board_and_record(
    core: Core, clock: Clock, db_path: Path, phrased: None
) -> None:
    alice = await daily(core, clock, ALICE, 1)
    await daily(core, clock, BOB, 2)
    (raw,) = query(db_path, "SELECT score_text FROM runs WHERE id = ?", (alice.id,))
    assert raw[0].startswith(MARK)

    for guild in (GUILD, None):
        board = await core.rankings.board("donsol", day=TODAY, guild_id=guild)
        line = next(line for line in board.lines if line.owner_id == ALICE)
        assert isinstance(line.score_text, Phrase)
        assert line.score_text == alice.view["score_text"]  # the English, as before
        assert french().render(line.score_text) == f"{alice.score[0]} cartes"

    record = await core.rankings.record(ALICE, "donsol")
    assert french().render(record.stats.best_text) == f"{alice.score[0]} cartes"
    (mark,) = [m for _, m in record.recent if m is not None]
    assert french().render(mark.score_text) == f"{alice.score[0]} cartes"

    clock.advance(minutes=1)
    run = await core.runs.start(ALICE, "donsol", seed=5)
    run = await core.runs.resign(run.id, ALICE, run.version)
    best = await core.rankings.personal_best(run)
    assert french().render(best.previous) == f"{alice.score[0]} cartes"
    assert french().render(best.previous) == french().render(
        (await core.rankings.record(ALICE, "donsol")).stats.best_text)


async def test_old_plain_rows_read_as_they_always_did(
    core: Core, clock: Clock, db_path: Path
) -> None:
    alice = await daily(core, clock, ALICE, 1)
    execute(db_path, "UPDATE runs SET score_text = ? WHERE id = ?", ("12/54 cards, 3 HP",
                                                                      alice.id))
    board = await core.rankings.board("donsol", day=TODAY, guild_id=GUILD)
    (line,) = board.lines
    assert line.score_text == "12/54 cards, 3 HP" and type(line.score_text) is str
    assert french().render(line.score_text) == "12/54 cards, 3 HP"
    assert (await core.rankings.record(ALICE, "donsol")).stats.best_text == "12/54 cards, 3 HP"


async def test_the_score_ranks_the_same_whatever_the_text(
    core: Core, clock: Clock, phrased: None
) -> None:
    runs = [await daily(core, clock, owner, owner) for owner in (1, 2, 3, 4)]
    board = await core.rankings.board("donsol", day=TODAY)
    assert [line.score for line in board.lines] == sorted((r.score for r in runs), reverse=True)
    assert all(r.ranked for r in runs)  # replaying each run still gives its stored state


async def test_a_pars_and_a_turning_points_sentences_read_back_as_phrases(
    core: Core, clock: Clock, db_path: Path
) -> None:
    alice = await daily(core, clock, ALICE, 1)
    par = ParRow(game="donsol", variant="normal", day=TODAY, rules="donsol/1", score=[54, 3],
                 score_text=Phrase(N_("best {score}"), score=cards(54)), won=True, exact=True,
                 actions=["take 3D"], nodes=10, seconds=0.5, solved_at="2026-12-02T01:00:00Z")
    turn = TurnRow(alice.id, 3, Phrase(N_("best {score}"), score=cards(40)), 99,
                   "2026-12-02T01:00:00Z")

    def write(tx: Tx) -> None:
        tx.insert_par(par)
        tx.insert_turn(turn)

    def read(tx: Tx) -> tuple[ParRow | None, TurnRow | None]:
        return tx.par("donsol", "normal", TODAY), tx.turn(alice.id)

    await core.store.write(write)
    kept_par, kept_turn = await core.store.read(read)
    assert kept_par is not None and kept_turn is not None
    assert kept_par.score_text == "best 54 cards" and kept_turn.text == "best 40 cards"
    assert french().render(kept_par.score_text) == "meilleur 54 cartes"
    assert french().render(kept_turn.text) == "meilleur 40 cartes"
    assert query(db_path, "SELECT text FROM run_turns")[0][0].startswith(MARK)


async def test_the_engines_own_score_text_reads_back_as_the_phrase_it_was(
    core: Core, clock: Clock
) -> None:
    alice = await daily(core, clock, ALICE, 1)
    shown = alice.view["score_text"]
    assert isinstance(shown, Phrase)
    (line,) = (await core.rankings.board("donsol", day=TODAY)).lines
    assert isinstance(line.score_text, Phrase) and line.score_text.message == shown.message
    assert french().render(line.score_text) == french().render(shown) != shown
