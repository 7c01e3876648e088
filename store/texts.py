"""Engine sentences kept in text columns: a run's score text, a par's, a turning point's.

The engines' sentences are phrases (``rules.words.Phrase``: an English ``str`` that remembers
its message), and a column written with the bare ``str`` would keep only the English. So a
phrase is written as the JSON of its message (``{"t": template, "p": fields, ...}``, the
data of ``rules.words.dump_text``) and read back as the same phrase, which the adapter then
says in each reader's language. A plain ``str`` is written as it is, so rows written before
(plain English) read as they always did, and no migration is needed.

The JSON always starts with :data:`MARK`, which no score text or sentence of a game starts
with; a plain text that did would be written as a message of its own (``{"t": text}``, read
back as a phrase equal to it), so a stored value is never mistaken for the other kind.

The store does not import the engines (``store`` and ``rules`` are independent layers), so
the core hands it the two functions that turn a phrase into data and back
(:func:`speak_with`, called once when ``core`` is imported). Until then phrases are written
as their English, and marked rows read as the text they hold.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson

#: How every stored message begins (``json.dumps`` of a dict whose first key is ``"t"``).
MARK = '{"t":'

Dump = Callable[[str], Any]
Load = Callable[[Any], str]


def _english(text: str) -> Any:
    return str(text)


def _as_is(data: Any) -> str:
    return data if isinstance(data, str) else str(data.get("t", ""))


_dump: Dump = _english
_load: Load = _as_is


def speak_with(dump: Dump, load: Load) -> None:
    """Use ``dump`` (a phrase to JSON-safe data; a plain ``str`` back as itself) and
    ``load`` (the inverse) for every stored sentence: ``rules.words.dump_text`` and
    ``load_text``, handed over by the core."""
    global _dump, _load
    _dump, _load = dump, load


def stored(text: str) -> str:
    """``text`` as its column keeps it: a phrase as the JSON of its message, a plain ``str``
    as it is (unless it starts with :data:`MARK`: then as a message of its own)."""
    data = _dump(text)
    if isinstance(data, str):
        if not data.startswith(MARK):
            return data
        data = {"t": data}
    try:
        return to_json(data)
    except (TypeError, ValueError):  # a field JSON cannot hold: keep the English at least
        return stored(str.__str__(text))


def to_json(value: Any) -> str:
    """The compact JSON the JSON columns (and the stored messages) hold: orjson's text, which
    for the values stored (dicts with text keys, lists, text, integers, booleans, null) is
    character for character ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``
    at a fifth of its cost (``tests/core/test_model.py``, ``tests/core/test_stored_texts.py``);
    what orjson refuses (an integer past 64 bits, a key that is not text) is written by the
    standard library as before."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def said(value: str) -> str:
    """A column's text read back: the phrase it stores, or the plain text as it is."""
    if not value.startswith(MARK):
        return value
    try:
        data = json.loads(value)
        return _load(data) if isinstance(data, dict) else value
    except (AttributeError, KeyError, TypeError, ValueError):  # not ours: merely looks it
        return value
