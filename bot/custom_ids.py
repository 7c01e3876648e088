"""The one strict reader of the custom ids the bot sends (``dd.<kind>:<field>:<field>...``).

A click can carry any string: a modified client or a forged message sends what it likes. Each
kind of id has a fixed list of fields, and each field one meaning and one check: numbers are
ASCII digits only (``"²".isdigit()`` is true in Python, ``int("²")`` raises) and within the
range the field's column can hold (SQLite's and PostgreSQL's 64-bit signed integers, Discord
snowflakes below 2**63, PostgreSQL's 32-bit ``INTEGER`` for versions and counts); words are
one of a fixed set or match a short pattern. An id that fails any check, has a field too many
or too few, or is of a kind nobody sends is ``garbled``, and the router answers it with the
calm "damaged button" sentence (``bot.buttons``) before any handler sees it.

The kinds, their fields, and the values they are read as (``Click.fields``):

- ``m`` (a move): run id, version, action;
- ``c`` (a control): verb, run id, version, argument (a card's code for ``pick``, else a
  short word);
- ``lb`` (a leaderboard page): game, variant, day (``w<Monday>`` for a week's board,
  ``m<the 1st>`` for a month's), scope
  (``s`` this server, ``g`` everyone), guild (kept for ids already posted; never used: the
  server is the interaction's), page;
- ``rt`` (a rating board's page): game, variant, scope, guild (never used, as ``lb``'s), page;
- ``rp`` (a replay step): run id, step, tag;
- ``ch`` (a challenge): ``acc`` or ``close``, challenge id;
- ``se`` (a series): ``next``, series id, run number; or ``new``, length;
- ``dy`` (a board's "Play today's deal"): game, variant;
- ``hp`` (a /help topic): ``intro`` or a topic's key (``bot.cogs.info.TOPICS``);
- ``tb`` (a board's "Open table", when the Activity is on): the run id of the board it is on
  (for the log: the Activity opens on the clicker's own runs).

Ids of the first release (``dd:<run>:<move>:<action>``, ``ddc:<verb>:<run>:<arg>``) are read
as ``legacy`` with their run id, answered like a stale board.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

CUSTOM_ID_MAX = 100

#: The largest value of a 64-bit signed integer column (SQLite's INTEGER, PostgreSQL's
#: BIGINT); Discord snowflakes are below it too.
INT64_MAX = 2**63 - 1
#: The largest value of PostgreSQL's INTEGER (versions, page and step numbers).
INT32_MAX = 2**31 - 1

MOVE = "m"
CONTROL = "c"
BOARD_PAGE = "lb"
REPLAY = "rp"
RATING_PAGE = "rt"
CHALLENGE = "ch"
SERIES = "se"
DAILY = "dy"
HELP = "hp"
TABLE = "tb"
#: The /help topics a button may open (``bot.cogs.info.TOPICS``, and ``intro``).
HELP_TOPICS = ("intro", "play", "daily", "boards", "friends", "settings")
LEGACY = "legacy"
GARBLED = "garbled"

#: Control verbs and what their argument holds.
CONTROLS: dict[str, str] = {
    "undo": "",  # take back the last move (practice runs)
    "resign": "",  # ask to confirm resigning
    "confirm": "",  # resign for real
    "board": "",  # back to the board (from the confirmation)
    "resume": "",  # show an unfinished run's board
    "abandon": "variant",  # resign the unfinished run and start anew in this variant
    "again": "",  # a new practice run of the same game and variant (Practice <Game>)
    "share": "",  # post a finished daily's share line (its result card's Share)
    "stats": "",  # the owner's /stats for the run's game, privately (a result card's Stats)
    "show": "flag",  # bring a board back from /games ("p" = privately)
    "hint": "",  # a suggested move, with why (practice runs)
    "pick": "card",  # a two-step board's first step: redraw offering this card's moves
}
#: The tags of a replay's buttons (``bot.replay_screens.TAGS``); ``o`` opens a new message.
REPLAY_TAGS = ("f", "b", "n", "l", "t", "o")

Value = int | str
#: A field's check: its value, or None when the text is not one.
Field = Callable[[str], Value | None]

_DIGITS = re.compile(r"[0-9]{1,19}")


def number(low: int, high: int) -> Field:
    """ASCII digits (no sign, no space, no other script's digits) for a value in
    ``low..high``."""

    def read(text: str) -> int | None:
        if not _DIGITS.fullmatch(text):
            return None
        value = int(text)
        return value if low <= value <= high else None

    return read


def one_of(*words: str) -> Field:
    allowed = frozenset(words)
    return lambda text: text if text in allowed else None


def matching(pattern: str) -> Field:
    compiled = re.compile(pattern)
    return lambda text: text if compiled.fullmatch(text) else None


ROW_ID = number(1, INT64_MAX)  # a run, challenge or series id
VERSION = number(0, 999_999_999)
SNOWFLAKE_OR_ZERO = number(0, INT64_MAX)
PAGE = number(0, 999_999)
STEP = number(0, 99_999)
COUNT = number(0, 999)  # a series' run number or length
ACTION = matching(r"[a-z]{1,20}(?: [0-9A-Za-z]{1,10}){0,4}")
ARG = matching(r"[0-9a-z_-]{0,40}")
GAME = matching(r"[a-z]{1,20}")
VARIANT = matching(r"[0-9a-z_-]{1,40}")
DAY = matching(r"[wm]?[0-9]{4}-[0-9]{2}-[0-9]{2}")
#: A card's code (deal.md): a rank and a suit, or a joker.
CARD = matching(r"(?:[2-9]|10|[AJQK])[SHDC]|[RB]J")

#: Each kind's fields, or (for kinds whose first field says which) each verb's fields after it.
LAYOUTS: dict[str, tuple[Field, ...] | dict[str, tuple[Field, ...]]] = {
    MOVE: (ROW_ID, VERSION, ACTION),
    CONTROL: {verb: (ROW_ID, VERSION, CARD if verb == "pick" else ARG) for verb in CONTROLS},
    BOARD_PAGE: (GAME, VARIANT, DAY, one_of("s", "g"), SNOWFLAKE_OR_ZERO, PAGE),
    RATING_PAGE: (GAME, VARIANT, one_of("s", "g"), SNOWFLAKE_OR_ZERO, PAGE),
    REPLAY: (ROW_ID, STEP, one_of(*REPLAY_TAGS)),
    CHALLENGE: {"acc": (ROW_ID,), "close": (ROW_ID,)},
    SERIES: {"next": (ROW_ID, COUNT), "new": (COUNT,)},
    DAILY: (GAME, VARIANT),
    HELP: (one_of(*HELP_TOPICS),),
    TABLE: (ROW_ID,),
}

_ID = re.compile(r"dd\.([a-z]{1,8}):(.*)", re.S)
_LEGACY = re.compile(
    r"dd:(?P<run>[0-9]{1,19}):[0-9]{1,9}:.*|ddc:[a-z]{1,12}:(?P<crun>[0-9]{1,19}):.*", re.S
)


@dataclass(frozen=True)
class Click:
    """One parsed click: its ``kind`` and its checked ``fields`` (for kinds with a verb, the
    verb first), as the list in the module's docstring.

    Moves and controls are also read into ``run_id`` and ``version``; a move into its
    ``action`` (the engine's), a control into its ``verb`` and ``arg``. A malformed id has
    kind ``garbled``.
    """

    custom_id: str
    kind: str
    fields: tuple[Value, ...] = ()
    run_id: int | None = None
    version: int | None = None
    action: str = ""
    verb: str = ""
    arg: str = ""


def parse(custom_id: str) -> Click:
    """Read a custom id; anything malformed or out of range is ``garbled``."""
    garbled = Click(custom_id, GARBLED)
    if len(custom_id) > CUSTOM_ID_MAX:
        return garbled
    if m := _ID.fullmatch(custom_id):
        kind, parts = m.group(1), m.group(2).split(":")
        fields = _read(LAYOUTS.get(kind), parts)
        if fields is None:
            return garbled
        if kind == MOVE:
            run, version, action = fields
            return Click(custom_id, kind, fields, int(run), int(version), action=str(action))
        if kind == CONTROL:
            verb, run, version, arg = fields
            return Click(custom_id, kind, fields, int(run), int(version), verb=str(verb),
                         arg=str(arg))
        return Click(custom_id, kind, fields)
    if m := _LEGACY.fullmatch(custom_id):
        run_id = ROW_ID(m["run"] or m["crun"])
        return Click(custom_id, LEGACY, (run_id,), run_id=run_id) if run_id else garbled
    return garbled


def _read(
    layout: tuple[Field, ...] | dict[str, tuple[Field, ...]] | None, parts: list[str]
) -> tuple[Value, ...] | None:
    if layout is None:
        return None
    head: tuple[Value, ...] = ()
    if isinstance(layout, dict):
        verb, parts = parts[0], parts[1:]
        if verb not in layout:
            return None
        head, layout = (verb,), layout[verb]
    if len(parts) != len(layout):
        return None
    values = [check(part) for check, part in zip(layout, parts, strict=True)]
    if any(value is None for value in values):
        return None
    return head + tuple(v for v in values if v is not None)
