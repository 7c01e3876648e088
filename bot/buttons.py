"""Buttons: their custom ids, the message views that carry them, and the click router.

Custom ids carry everything a click needs, so nothing is kept in memory per board and boards
posted before a restart keep working. Every id is ``dd.<kind>:<part>:<part>...``:

- a move: ``dd.m:<run id>:<version>:<action>``, e.g. ``dd.m:12:7:take 10H``;
- a control: ``dd.c:<verb>:<run id>:<version>:<argument>``, e.g. ``dd.c:undo:12:7:`` (the
  argument is a variant or a flag; see :data:`CONTROLS`);
- other kinds belong to other features (leaderboard pages, replays, challenges), each
  registered with the router by the cog that answers it.

Every id is read by :func:`bot.custom_ids.parse`, which checks every field of every kind; a
click whose id fails a check never reaches a handler.

``version`` is the run's write count when the board was drawn: it only goes up, so a board
that is out of date can never become live again. Ids of the first release
(``dd:<run>:<move>:<action>``, ``ddc:<verb>:<run>:<arg>``) parse as ``legacy``: they are
answered like a stale board, with the run as it is now.

Clicks are routed by :class:`ClickRouter` from discord.py's ``on_interaction`` event, not
through ``DynamicItem``: discord.py rebuilds the clicked message's whole view before it calls
a dynamic item, a cost that grows with the buttons on a board, and our ids already say
everything. So the buttons sent here are plain component JSON (:class:`ButtonRows`), never
stored in discord.py's view store, and any ``dd`` id no kind claims gets a polite refusal
instead of "This interaction failed".
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot import metrics, replies
from bot.custom_ids import (  # noqa: F401 - read here by the cogs and tests
    CONTROL,
    CONTROLS,
    CUSTOM_ID_MAX,
    LEGACY,
    MOVE,
    Click,
    parse,
)
from core.errors import N_

log = logging.getLogger(__name__)

GARBLED = N_("That button is damaged or not one of mine, so nothing was changed.")
#: What marks a hinted move's button (and the Hint button that asks for one); card faces
#: never replace it.
HINT_MARK = "💡"


def make_id(kind: str, *parts: object) -> str:
    """A custom id of ``kind``; ``ValueError`` past Discord's 100 characters."""
    custom_id = f"dd.{kind}:" + ":".join(str(p) for p in parts)
    if len(custom_id) > CUSTOM_ID_MAX:
        raise ValueError(f"custom id too long ({len(custom_id)}): {custom_id[:40]}...")
    return custom_id


def move_id(run_id: int, version: int, action: str) -> str:
    """The custom id of a move button."""
    return make_id(MOVE, run_id, version, action)


def control_id(verb: str, run_id: int, version: int, arg: str = "") -> str:
    """The custom id of a control button."""
    if verb not in CONTROLS:
        raise ValueError(f"unknown control {verb!r}")
    return make_id(CONTROL, verb, run_id, version, arg)


# ----- what is sent -------------------------------------------------------------------------

ROWS = 5
PER_ROW = 5


@dataclass(frozen=True, slots=True)
class PlainButton:
    """One button as sent: a ``custom_id`` (or a link's ``url``), its label, style, row (None:
    the first row with room, as discord.py places buttons), and an emoji (text or custom)."""

    custom_id: str | None
    label: str | None = None
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    row: int | None = None
    disabled: bool = False
    emoji: str | discord.PartialEmoji | None = None
    url: str | None = None

    def with_emoji(self, emoji: str | discord.PartialEmoji | None) -> PlainButton:
        """This button with ``emoji`` (``dataclasses.replace`` without its field walk: a
        board's card faces go on up to 16 buttons a click)."""
        return PlainButton(self.custom_id, self.label, self.style, self.row, self.disabled,
                           emoji, self.url)

    def to_dict(self) -> dict[str, Any]:
        """The button as Discord's JSON (a message component of type 2)."""
        found: dict[str, Any] = {"type": 2, "style": int(self.style.value),
                                 "disabled": self.disabled}
        if self.label:
            found["label"] = self.label
        if self.url is not None:
            found["url"] = self.url
        else:
            found["custom_id"] = self.custom_id
        emoji = self.emoji
        if isinstance(emoji, str) and emoji.startswith("<"):  # a custom emoji as text
            emoji = discord.PartialEmoji.from_str(emoji)
        if isinstance(emoji, discord.PartialEmoji):
            found["emoji"] = emoji.to_dict()
        elif emoji:
            found["emoji"] = {"id": None, "name": emoji}
        return found


class ButtonRows(discord.ui.View):
    """The buttons of one message, sent as plain component JSON.

    It is a ``View`` only because discord.py's send and edit calls accept nothing else. It
    holds no ``discord.ui`` items: clicks reach :class:`ClickRouter` by their custom ids, so
    nothing about a message has to live in memory. It tells discord.py that it is already
    finished and not dispatchable, so no call ever stores it: discord.py would otherwise keep
    the view of every new board (``InteractionResponse.send_message`` stores views without
    asking ``is_dispatchable``) and, for an ephemeral one, a 15-minute timeout task with it.
    Building ``discord.ui.Button`` objects for every board was also a click's single largest
    cost in the adapter (they form reference cycles, so only the garbage collector frees
    them).
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.buttons: list[PlainButton] = []

    def add(self, item: PlainButton) -> None:
        """Add a button (``ValueError`` past Discord's 25; a full row is refused by
        :meth:`layout`)."""
        if len(self.buttons) >= ROWS * PER_ROW:
            raise ValueError("a message holds at most 25 buttons")
        if item.row is not None and not 0 <= item.row < ROWS:
            raise ValueError(f"row {item.row} is not one of Discord's 5 rows")
        self.buttons.append(item)

    def remove(self, custom_id_prefix: str) -> None:
        """Take out the buttons whose custom id starts with ``custom_id_prefix``."""
        self.buttons = [b for b in self.buttons
                        if not (b.custom_id or "").startswith(custom_id_prefix)]

    def replace(self, index: int, item: PlainButton) -> None:
        self.buttons[index] = item

    def layout(self) -> list[list[PlainButton]]:
        """The buttons by row: a button with a row goes there, one without goes to the first
        row with room when it is added; ``ValueError`` when a row would hold more than 5."""
        rows: list[list[PlainButton]] = [[] for _ in range(ROWS)]
        for item in self.buttons:
            if item.row is not None:
                index = item.row
            else:
                index = next((i for i, row in enumerate(rows) if len(row) < PER_ROW), ROWS)
            if index >= ROWS or len(rows[index]) >= PER_ROW:
                raise ValueError("no room for another button in that row")
            rows[index].append(item)
        return [row for row in rows if row]

    # What discord.py asks of a view it sends:

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": [b.to_dict() for b in row]} for row in self.layout()]

    def has_components_v2(self) -> bool:
        return False

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True


def button(
    custom_id: str,
    *,
    label: str | None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int | None = None,
    disabled: bool = False,
    emoji: str | discord.PartialEmoji | None = None,
) -> PlainButton:
    return PlainButton(custom_id, label, style, row, disabled, emoji)


def link(url: str, *, label: str, row: int | None = None) -> PlainButton:
    """A button that opens ``url`` (it sends Discord no click)."""
    return PlainButton(None, label, discord.ButtonStyle.link, row, url=url)


# ----- the router ---------------------------------------------------------------------------

#: Answers one click of a kind: ``handler(interaction, click)``.
Handler = Callable[[discord.Interaction[Any], Click], Awaitable[None]]


class ClickRouter:
    """Sends each ``dd`` click to the handler registered for its kind, inside a guard that
    turns any unexpected exception into an ephemeral error id."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}

    def register(self, kind: str, handler: Handler) -> None:
        self._handlers[kind] = handler

    def unregister(self, kind: str) -> None:
        self._handlers.pop(kind, None)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        custom_id = data.get("custom_id")
        if not isinstance(custom_id, str) or not custom_id.startswith("dd"):
            return
        click = parse(custom_id)
        # Every click is timed with what it came to (ok, stale, refused, error).
        with metrics.click_timer() as timer:
            try:
                handler = self._handlers.get(click.kind)
                if handler is None:
                    log.info("refused: garbled custom id %r from user %s", custom_id[:100],
                             interaction.user.id)
                    timer.outcome = "refused"
                    await replies.notice(interaction, GARBLED)
                    return
                await handler(interaction, click)
            except Exception as exc:
                timer.outcome = "error"
                await replies.unexpected(interaction, exc, run_id=click.run_id, context=custom_id)
