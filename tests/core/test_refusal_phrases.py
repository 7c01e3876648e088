"""A refusal made of an engine's sentence (a Phrase) is said in the reader's language."""

from __future__ import annotations

from core.errors import IllegalMove, Refusal
from rules.words import N_, Phrase


def _french(singular: str, plural: str | None, count: int | None) -> str:
    words = {"{card} is not in this room.": "{card} n'est pas dans cette salle.",
             "Queen": "Dame"}
    return words.get(singular, singular)


def test_a_refusal_made_of_an_engine_phrase_keeps_its_template() -> None:
    reason = Phrase(N_("{card} is not in this room."), card=Phrase(N_("Queen")))
    for refusal in (Refusal(reason), IllegalMove(None, reason)):  # type: ignore[arg-type]
        assert str(refusal) == "Queen is not in this room."
        assert refusal.message.render(_french) == "Dame n'est pas dans cette salle."
