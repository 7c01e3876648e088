"""A refusal made of an engine's sentence (a Phrase) is said in the reader's language."""

from __future__ import annotations

import pytest

from core import Core
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


async def test_an_illegal_move_keeps_the_engines_phrase_through_the_core(core: Core) -> None:
    """``str(IllegalAction)`` is the engine's Phrase itself, so the core's refusal of a move
    keeps the template the adapter says in the reader's language."""
    run = await core.runs.start(1001, "donsol", seed=0)  # room 3♦ J♣ 8♣ 4♥
    with pytest.raises(IllegalMove) as refused:
        await core.runs.act(run.id, 1001, 0, "take QS")
    assert str(refused.value) == "Q♠ is not in this room."
    assert refused.value.message.render(_french) == "Q♠ n'est pas dans cette salle."
