"""The spoiler-free share line of a finished daily: who, which deal, the score, a grid.

A daily's result is posted where everyone can read it, while others may still be playing
the same deal, so the line names no card: one coloured square per room (Donsol, Scoundrel),
turn (Tomb of Four Kings) or hand (Clear the Dungeon), like a Wordle grid. A room, turn or
hand is the unit a player decides in (a move is too small: a Donsol run is about 54 takes,
four rows of squares that mostly say "took a card"), so a run is one or two rows of ten. The
squares come from replaying the run's moves with its engine and comparing the engine's views
before and after each move; nothing here knows the rules beyond what those views say.

The squares are each game's (``rules/<key>/recap.py``: its tally, its legend, and the mark
each outcome opens the score with). Every game: 🟫 the room, turn or hand a run was resigned
in, unfinished; a room, turn or hand counts once a move was made in it, so a room just dealt
when the run ended has no square. Under the grid a one-line legend names the squares it
shows, and the last line invites whoever reads it to play the same deal.

The line is at most 2,000 characters (Discord's limit for a message), counted in UTF-16 code
units, never fewer than the characters Discord counts: rows of :data:`ROW` squares, and past
the limit the grid stops with "… and N more" (Donsol's easy and hard variants let a player
escape monster-free rooms without end, so a run's rooms have no upper bound).

The core never translates: the line is a :class:`~rules.words.Phrase` (the English line, as
it always was, that remembers a :class:`ShareLine` message), which an adapter says in a
language (``language.render(line)``): the public line in the server's, the copy handed to the
player in theirs. The message puts the line together, and keeps it within the limit, in the
language it is said in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules import IllegalAction, find_game, plugin
from rules.words import N_, Lookup, Message, Nn_, Phrase, english, said

#: Symbols per line of the row.
ROW = 10
#: The longest message Discord accepts.
LIMIT = 2000
#: How a run still being played opens the line.
UNFINISHED_MARK = "⏳"
#: How a resigned run's score opens (its last square is :data:`rules.recap.RESIGNED`).
RESIGNED_MARK = "🏳️"
#: The share line's last line: where whoever reads it plays the same deal (the command stays
#: as it is in every language).
INVITE_TEMPLATE = N_("Play today's deal: {command}")
INVITE_COMMAND = "/daily"
INVITE = INVITE_TEMPLATE.format(command=INVITE_COMMAND)
#: The deal's name on the line's first line (French writes ``n° 12``).
DAY_NAME = N_("{game} #{number}")
DAY_NAME_VARIANT = N_("{game} #{number} ({variant})")
RESIGNED_SCORE = N_("{mark} resigned · {score}")
MORE = Nn_("… and {count} more", "… and {count} more")


def recap(
    game: str,
    variant: str | None,
    seed: int,
    actions: Sequence[str],
    deck: Sequence[str] | None = None,
) -> list[str]:
    """One symbol per room, turn or hand played, replaying ``actions`` with the engine.

    Raises ``ValueError`` for an unknown game or variant and ``IllegalAction`` (its
    ``index`` set) at the first move the engine refuses.
    """
    return _replay(game, variant, seed, actions, deck)[0]


def result_line(
    game: str,
    variant: str,
    day_number: int,
    outcome: str | None,
    score_text: str,
    symbols: Sequence[str],
    *,
    resigned: bool = False,
    player: str | None = None,
) -> str:
    """The share line, five short lines that read at phone width::

        Donsol #12 (normal) · alice
        💀 died after 31/54 cards
        🟩🟩🟨🟦🟧🟥
        🟩 unhurt · 🟨 hurt · 🟧 heavy hit · 🟦 escaped · 🟥 died
        Play today's deal: /daily

    ``outcome`` is the engine's outcome word (``view["outcome"]``, or the core's ``lost``)
    and ``score_text`` its ``view["score_text"]``; ``player`` the name the boards list the
    player by. A resigned run says ``resigned`` whatever its outcome. The variant is named
    only for games that have more than one. The legend names only the squares the grid shows
    (none when it is empty). Never longer than :data:`LIMIT`, in any language. The line is a
    phrase: English, said in another language by ``language.render``.
    """
    engine = find_game(game)
    if len(engine.variants) > 1:
        name = Message(DAY_NAME_VARIANT, {"game": engine.title, "number": day_number,
                                          "variant": Message(variant)})
    else:
        name = Message(DAY_NAME, {"game": engine.title, "number": day_number})
    score_said = score_text if isinstance(score_text, Phrase) else Message(score_text)
    if resigned:
        score = Message(RESIGNED_SCORE, {"mark": RESIGNED_MARK, "score": score_said})
    else:
        mark = plugin(engine.key).recap.marks.get(outcome or "", UNFINISHED_MARK)
        score = Message("{mark} {score}", {"mark": mark, "score": score_said})
    return Phrase.of(ShareLine("", {"name": name, "player": player, "score": score,
                                    "game": engine.key, "symbols": tuple(symbols)}))


@dataclass(frozen=True)
class ShareLine(Message):
    """A share line as a message: its parts (``name``, ``player``, ``score``, the ``game``'s
    legend and its ``symbols``) put together in the language it is said in, within
    :data:`LIMIT`."""

    def render(self, lookup: Lookup) -> str:
        p = self.params
        name = said(p["name"], lookup)  # type: ignore[arg-type]
        if p["player"]:
            name += f" · {p['player']}"
        symbols: list[str] = list(p["symbols"])  # type: ignore[call-overload]
        head = (_clip(name, LIMIT // 4) + "\n"
                + _clip(said(p["score"], lookup), LIMIT // 4))  # type: ignore[arg-type]
        invite = lookup(INVITE_TEMPLATE, None, None).format(command=INVITE_COMMAND)
        legend = _clip(legend_line(str(p["game"]), symbols, lookup), LIMIT // 4)
        tail = [line for line in (legend, invite) if line]
        budget = LIMIT - _width(head) - sum(_width(line) + 1 for line in tail) - 1
        rows = _rows(symbols, budget, lookup)
        return "\n".join([head, *([rows] if rows else []), *tail])


def legend_line(game: str, symbols: Sequence[str], lookup: Lookup = english) -> str:
    """``🟩 unhurt · 🟨 hurt · 🟥 died``: the squares among ``symbols``, in the legend's order
    (empty when none is); each meaning is the engine's word, said through ``lookup``."""
    shown = set(symbols)
    legend = plugin(find_game(game).key).recap.legend
    return " · ".join(f"{square} {said(meaning, lookup)}" for square, meaning in legend
                      if square in shown)


def run_result_line(
    game: str,
    variant: str | None,
    day_number: int,
    seed: int,
    actions: Sequence[str],
    *,
    deck: Sequence[str] | None = None,
    resigned: bool = False,
    player: str | None = None,
) -> str:
    """The result line of a run from its deal and moves: one replay gives the symbols, the
    outcome and the score text. Raises like :func:`recap`."""
    symbols, view = _replay(game, variant, seed, actions, deck)
    return result_line(
        game, view["variant"], day_number, view["outcome"], view["score_text"], symbols,
        resigned=resigned, player=player,
    )


def legend_text(game: str, lookup: Lookup = english) -> str:
    """The squares of ``game``'s result line, one per line: ``🟨 hurt``."""
    legend = plugin(find_game(game).key).recap.legend
    return "\n".join(f"{symbol} {said(meaning, lookup)}" for symbol, meaning in legend)


def _replay(
    game: str,
    variant: str | None,
    seed: int,
    actions: Sequence[str],
    deck: Sequence[str] | None,
) -> tuple[list[str], dict[str, Any]]:
    """The symbols and the final view."""
    engine = find_game(game)
    tally = plugin(engine.key).recap.tally()
    state = engine.new(seed, variant, deck)
    before = engine.view(state)
    for i, action in enumerate(actions):
        try:
            state = engine.apply(state, action)
        except IllegalAction as exc:
            raise IllegalAction(f"move {i + 1} ({action!r}): {exc}", index=i) from exc
        after = engine.view(state)
        tally.step(before, action, after)
        before = after
    return tally.finish(), before


# Helpers


def _width(text: str) -> int:
    """Length as Discord counts it (UTF-16 code units), never less than ``len``."""
    return len(text.encode("utf-16-le")) // 2


def _clip(text: str, width: int) -> str:
    if _width(text) <= width:
        return text
    while _width(text) > width - 1:
        text = text[:-1]
    return text + "…"


def _rows(symbols: list[str], budget: int, lookup: Lookup = english) -> str:
    """The symbols ``ROW`` to a line within ``budget``; past it, "… and N more"."""
    full = _join(symbols)
    if _width(full) <= budget:
        return full

    def more(count: int) -> str:
        return "\n" + lookup(MORE[0], MORE[1], count).format(count=count)

    room = budget - _width(more(len(symbols)))
    used, kept = 0, 0
    for i, symbol in enumerate(symbols):
        cost = _width(symbol) + (1 if i and i % ROW == 0 else 0)
        if used + cost > room:
            break
        used += cost
        kept += 1
    return _join(symbols[:kept]) + more(len(symbols) - kept)


def _join(symbols: list[str]) -> str:
    return "\n".join("".join(symbols[i : i + ROW]) for i in range(0, len(symbols), ROW))
