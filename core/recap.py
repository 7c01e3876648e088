"""The spoiler-free result line of a finished run: game, day, outcome, score, a row of emoji.

A daily's result is posted where everyone can read it, while others may still be playing
the same deal, so the line names no card: one symbol per room (Donsol), turn (Tomb of Four
Kings) or hand (Clear the Dungeon), like a Wordle grid. The symbols come from replaying the
run's moves with its engine and comparing the engine's views before and after each move;
nothing here knows the rules beyond what those views say.

The symbols, most telling first when one room, turn or hand could claim several (the same
table is :data:`LEGEND`, for ``/help`` and the docs):

- **Donsol**, per room: 💀 died here; 🏃 escaped (left by escaping, whatever was taken
  before); 🟥 took damage; 💚 healed (a potion restored HP) and took no damage; 🛡️ no damage
  and no healing (every monster blocked, or none fought).
- **Tomb of Four Kings**, per turn: 💀 died; 🌑 lost in the dark (the last torch, or an empty
  deck); 💸 a treasure dropped to buy off a monster; 🟥 turn lost (failed trap or door); 🟩 turn
  won. ↩️ follows the delve turn after which the player turned back: the turns after it are
  the retreat.
- **Clear the Dungeon**, per hand of three: the number of monsters slain while that hand was
  held, as 1️⃣ … 🔟 (⬛ none, ⏫ more than ten, only possible with a long reserve).
- Every game: 🏳️ the room, turn or hand a run was resigned in, unfinished. A room, turn or
  hand counts once a move was made in it: a room just dealt when the run ended has no symbol.

The line is at most 2,000 characters (Discord's limit for a message), counted in UTF-16 code
units, never fewer than the characters Discord counts: rows of :data:`ROW` symbols, and past
the limit the row stops with "… and N more" (Donsol's easy and hard variants let a player
escape monster-free rooms without end, so a run's rooms have no upper bound).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules import IllegalAction, find_game

#: Symbols per line of the row.
ROW = 10
#: The longest message Discord accepts.
LIMIT = 2000

RESIGNED = "🏳️"
TURNED_BACK = "↩️"

DIED = "💀"
ESCAPED = "🏃"
HURT = "🟥"
HEALED = "💚"
UNHARMED = "🛡️"

TOMB_DIED = "💀"
IN_THE_DARK = "🌑"
DROPPED = "💸"
TURN_LOST = "🟥"
TURN_WON = "🟩"

NONE_SLAIN = "⬛"
SLAIN = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
OVER_TEN = "⏫"

#: Per game, each symbol and what it means, most telling first (``/help``, docs).
LEGEND: dict[str, tuple[tuple[str, str], ...]] = {
    "donsol": (
        (DIED, "died in this room"),
        (ESCAPED, "escaped the room"),
        (HURT, "took damage"),
        (HEALED, "healed, no damage"),
        (UNHARMED, "no damage: every monster blocked, or none fought"),
        (RESIGNED, "resigned in this room"),
    ),
    "tomb": (
        (TOMB_DIED, "died in this turn"),
        (IN_THE_DARK, "lost in the dark"),
        (DROPPED, "treasure dropped to buy off a monster"),
        (TURN_LOST, "turn lost: a trap or a door got the better of you"),
        (TURN_WON, "turn won"),
        (TURNED_BACK, "turned back after this turn: the retreat follows"),
        (RESIGNED, "resigned in this turn"),
    ),
    "clear": (
        (f"{SLAIN[0]} … {SLAIN[-1]}", "monsters slain while that hand was held"),
        (NONE_SLAIN, "no monster slain with that hand"),
        (OVER_TEN, "more than ten slain with one hand"),
        (RESIGNED, "resigned with this hand"),
    ),
}

#: How each engine outcome opens the line (``lost`` is how the core records a resignation).
OUTCOME_MARKS: dict[str, str] = {
    "won": "🏆",
    "dead": "💀",
    "escaped": "🚪",
    "lost_in_dark": "🌑",
    "stuck": "🧱",
    "lost": RESIGNED,
}
UNFINISHED_MARK = "⏳"


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
) -> str:
    """``Donsol #12 (normal) — 💀 died after 31/54 cards`` and the symbols, 10 to a line.

    ``outcome`` is the engine's outcome word (``view["outcome"]``, or the core's ``lost``)
    and ``score_text`` its ``view["score_text"]``. A resigned run says ``resigned`` whatever
    its outcome. The variant is named only for games that have more than one. Never longer
    than :data:`LIMIT`.
    """
    engine = find_game(game)
    name = f"{engine.title} #{day_number}"
    if len(engine.variants) > 1:
        name += f" ({variant})"
    if resigned:
        head = f"{name} — {RESIGNED} resigned · {score_text}"
    else:
        mark = OUTCOME_MARKS.get(outcome or "", UNFINISHED_MARK)
        head = f"{name} — {mark} {score_text}"
    head = _clip(head, LIMIT // 2)
    rows = _rows(list(symbols), LIMIT - _width(head) - 1)
    return f"{head}\n{rows}" if rows else head


def run_result_line(
    game: str,
    variant: str | None,
    day_number: int,
    seed: int,
    actions: Sequence[str],
    *,
    deck: Sequence[str] | None = None,
    resigned: bool = False,
) -> str:
    """The result line of a run from its deal and moves: one replay gives the symbols, the
    outcome and the score text. Raises like :func:`recap`."""
    symbols, view = _replay(game, variant, seed, actions, deck)
    return result_line(
        game, view["variant"], day_number, view["outcome"], view["score_text"], symbols,
        resigned=resigned,
    )


def legend_text(game: str) -> str:
    """The symbols of ``game``'s result line, one per line: ``🟥 took damage``."""
    return "\n".join(f"{symbol} {meaning}" for symbol, meaning in LEGEND[find_game(game).key])


# ----- following a run, move by move -------------------------------------------------------


class _Tally:
    """Symbols of the rooms, turns or hands finished so far, and whether one is under way."""

    def __init__(self) -> None:
        self.symbols: list[str] = []
        self.open = False

    def close(self, symbol: str) -> None:
        self.symbols.append(symbol)
        self.open = False

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        raise NotImplementedError

    def finish(self) -> list[str]:
        if self.open:  # the run stopped part-way through: resigned (or not finished yet)
            self.close(RESIGNED)
        return self.symbols


class _DonsolRooms(_Tally):
    """A room ends when the player escapes it, when the engine deals the next room (the
    dungeon shrinks) or when the game ends; HP going down or up on a move is damage or
    healing."""

    def __init__(self) -> None:
        super().__init__()
        self.hurt = self.healed = False

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        self.open = True
        change = after["hp"] - before["hp"]
        self.hurt |= change < 0
        self.healed |= change > 0
        if after["outcome"] == "dead":
            self.close(DIED)
        elif action == "escape":
            self.close(ESCAPED)
        elif after["over"] or after["dungeon"] < before["dungeon"]:
            self.close(HURT if self.hurt else HEALED if self.healed else UNHARMED)

    def close(self, symbol: str) -> None:
        super().close(symbol)
        self.hurt = self.healed = False


class _TombTurns(_Tally):
    """A turn starts with a ``flip`` between turns (no encounter out) and ends when the
    engine counts one more finished turn, or with the game. How it ended: a ``drop`` buys
    the monster off; a lost turn is the one where the engine says "The turn is lost" (the
    view has no key for it); any other finished turn was won."""

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        if action == "retreat":
            if self.symbols:  # always: turning back needs a finished delve turn
                self.symbols[-1] += TURNED_BACK
            return
        if action == "flip" and before["encounter"] is None:
            self.open = True
        if _turns(after) > _turns(before):
            if action.startswith("drop "):
                self.close(DROPPED)
            elif any(event.startswith("The turn is lost") for event in after["events"]):
                self.close(TURN_LOST)
            else:
                self.close(TURN_WON)
        elif after["outcome"] == "dead":
            self.close(TOMB_DIED)
        elif after["outcome"] == "lost_in_dark":
            self.close(IN_THE_DARK)


class _ClearHands(_Tally):
    """A hand is held from its deal until the engine deals the next (the power deck
    shrinks) or the game ends; reserve plays count for the hand held at the time."""

    def __init__(self) -> None:
        super().__init__()
        self.slain = 0

    def step(self, before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
        self.open = True
        self.slain += after["slain"] - before["slain"]
        if after["over"] or after["talon"] < before["talon"]:
            self.close(slain_symbol(self.slain))
            self.slain = 0


def slain_symbol(count: int) -> str:
    """``⬛`` for none, ``1️⃣`` … ``🔟``, ``⏫`` past ten."""
    if count <= 0:
        return NONE_SLAIN
    return SLAIN[count - 1] if count <= len(SLAIN) else OVER_TEN


_TALLIES: dict[str, type[_Tally]] = {
    "donsol": _DonsolRooms,
    "tomb": _TombTurns,
    "clear": _ClearHands,
}


def _replay(
    game: str,
    variant: str | None,
    seed: int,
    actions: Sequence[str],
    deck: Sequence[str] | None,
) -> tuple[list[str], dict[str, Any]]:
    """The symbols and the final view."""
    engine = find_game(game)
    tally = _TALLIES[engine.key]()
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


def _turns(view: dict[str, Any]) -> int:
    return view["delve_turns"] + view["retreat_turns"]


def _width(text: str) -> int:
    """Length as Discord counts it (UTF-16 code units), never less than ``len``."""
    return len(text.encode("utf-16-le")) // 2


def _clip(text: str, width: int) -> str:
    if _width(text) <= width:
        return text
    while _width(text) > width - 1:
        text = text[:-1]
    return text + "…"


def _rows(symbols: list[str], budget: int) -> str:
    """The symbols ``ROW`` to a line within ``budget``; past it, "… and N more"."""
    full = _join(symbols)
    if _width(full) <= budget:
        return full
    more = f"\n… and {len(symbols)} more"
    room = budget - _width(more)
    used, kept = 0, 0
    for i, symbol in enumerate(symbols):
        cost = _width(symbol) + (1 if i and i % ROW == 0 else 0)
        if used + cost > room:
            break
        used += cost
        kept += 1
    return _join(symbols[:kept]) + f"\n… and {len(symbols) - kept} more"


def _join(symbols: list[str]) -> str:
    return "\n".join("".join(symbols[i : i + ROW]) for i in range(0, len(symbols), ROW))
