"""What the API says about a run: the engine's view with every sentence in the player's
language, its legal moves with their labels and the cards they touch, and the last move.

Card codes stay as the engines write them (``7C``, ``QS``, ``RJ``); only sentences (the
engines' :class:`~rules.words.Phrase` and :class:`~rules.words.Message` values) are rendered.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import Run, RunKind, RunStatus
from core.daily import day_number
from language import Language
from rules.cards import is_card
from rules.words import Message, Phrase


def rendered(value: Any, language: Language) -> Any:
    """``value`` (a view, or part of one) with every sentence in ``language``."""
    if isinstance(value, Phrase | Message):
        return language.render(value)
    if isinstance(value, dict):
        return {str(k): rendered(v, language) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rendered(v, language) for v in value]
    return value


def cards_of(action: str | None) -> list[str]:
    """The card codes an action string names (``put 6D 1`` -> ``["6D"]``; ``escape`` -> [])."""
    if not action:
        return []
    return [word.upper() for word in action.split() if is_card(word.upper())]


def summary(run: Run, language: Language) -> dict[str, Any]:
    """The run's own facts (the ``run`` of a payload, and a line of ``/api/me``'s runs)."""
    engine = run.engine
    view = run.view
    return {
        "id": run.id,
        "game": run.game,
        "title": engine.title,
        "variant": run.variant,
        "variant_name": language.render(engine.variant_name(run.variant)),
        "kind": run.kind.value,
        "day": run.day if run.kind is RunKind.DAILY else None,
        "number": day_number(run.day) if run.kind is RunKind.DAILY and run.day else None,
        "version": run.version,
        "status": run.status.value,
        "outcome": run.outcome,
        "outcome_text": (language.render(engine.outcome_text(run.outcome))
                         if run.outcome else None),
        "won": engine.is_win(run.outcome),
        "score": list(run.score),
        "score_text": rendered(view.get("score_text"), language),
        "prompt": rendered(view.get("prompt"), language),
        "moves": run.moves,
    }


def run_payload(run: Run, language: Language, *, last: str | None = None,
                moves: Sequence[str] | None = None) -> dict[str, Any]:
    """The whole payload of docs/web-api.md. ``last`` is the move just made; else the last
    of ``moves`` (the run's log), when given."""
    engine = run.engine
    view = run.view
    if last is None and moves:
        last = moves[: run.moves][-1] if run.moves else None
    playing = run.status is RunStatus.PLAYING
    practice = run.kind is RunKind.PRACTICE
    return {
        "run": summary(run, language),
        "view": rendered(view, language),
        "actions": [
            {"action": action, "label": language.render(engine.label(view, action)),
             "cards": cards_of(action)}
            for action in run.actions
        ],
        "last": {"action": last, "cards": cards_of(last)},
        "can": {"undo": playing and practice and run.moves > 0, "resign": playing,
                "hint": playing and practice},
    }
