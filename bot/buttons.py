"""The persistent buttons: their custom ids, and the ``DynamicItem`` classes that receive clicks.

Custom ids carry everything a click needs, so nothing is kept in memory per board and boards
posted before a restart keep working:

- a move: ``dd:<run id>:<move number>:<action>``, e.g. ``dd:12:7:take 10H``;
- a control: ``ddc:<verb>:<run id>:<argument>``, e.g. ``ddc:undo:12:7`` (the argument is the
  move number the board showed, a variant, or a flag; see :data:`CONTROLS`);
- anything else that starts with ``dd`` (a garbled or forged id) still reaches
  :class:`GarbledButton`, so the clicker gets a polite refusal instead of "This interaction
  failed" (discord.py silently drops a custom id no template matches).

Each class's callback hands a parsed :class:`Click` to the bot's click handler (the ``Play``
cog) inside a guard that turns any unexpected exception into an ephemeral error id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot import replies

#: The cog whose ``on_click`` answers every click.
CLICK_HANDLER = "Play"

CUSTOM_ID_MAX = 100

_RUN = r"(?P<run>[0-9]{1,19})"
_ACTION = r"[a-z]{1,20}(?: [0-9A-Za-z]{1,10}){0,4}"  # a verb and up to four arguments
MOVE_TEMPLATE = rf"dd:{_RUN}:(?P<move>[0-9]{{1,9}}):(?P<arg>{_ACTION})"

#: Control verbs and what their argument holds.
CONTROLS: dict[str, str] = {
    "undo": "move",  # take back the last move (practice runs)
    "resign": "move",  # ask to confirm resigning
    "confirm": "move",  # resign for real
    "board": "move",  # back to the board (from the confirmation)
    "resume": "",  # show an unfinished run's board
    "abandon": "variant",  # resign the unfinished run and start anew in this variant
    "again": "",  # a new practice run of the same game and variant
    "show": "flag",  # bring a board back from /games ("p" = privately)
}
CONTROL_TEMPLATE = (
    rf"ddc:(?P<verb>{'|'.join(CONTROLS)}):{_RUN}:(?P<arg>[0-9a-z_-]{{0,40}})"
)
# Everything starting with "dd" that neither template above matches; templates are matched
# with ``fullmatch`` and every matching class is dispatched, so they must not overlap.
_VALID = re.sub(r"\(\?P<\w+>", "(?:", f"{MOVE_TEMPLATE}|{CONTROL_TEMPLATE}")
GARBLED_TEMPLATE = rf"(?s)(?!(?:{_VALID})\Z)dd.*"


@dataclass(frozen=True)
class Click:
    """One parsed click: ``verb`` is ``move``, a control verb, or ``garbled``."""

    custom_id: str
    verb: str
    run_id: int | None = None
    move: int | None = None
    arg: str = ""


class ClickHandler(Protocol):
    async def on_click(self, interaction: discord.Interaction[Any], click: Click) -> None: ...


def move_id(run_id: int, move: int, action: str) -> str:
    """The custom id of a move button."""
    return f"dd:{run_id}:{move}:{action}"


def control_id(verb: str, run_id: int, arg: str | int = "") -> str:
    """The custom id of a control button."""
    if verb not in CONTROLS:
        raise ValueError(f"unknown control {verb!r}")
    return f"ddc:{verb}:{run_id}:{arg}"


def parse(custom_id: str) -> Click:
    """Read a custom id; anything that is not a well-formed move or control is ``garbled``."""
    if m := re.fullmatch(MOVE_TEMPLATE, custom_id):
        return Click(custom_id, "move", int(m["run"]), int(m["move"]), m["arg"])
    if m := re.fullmatch(CONTROL_TEMPLATE, custom_id):
        verb, arg = m["verb"], m["arg"]
        move = int(arg) if CONTROLS[verb] == "move" and arg.isdigit() else None
        if CONTROLS[verb] == "move" and move is None:
            return Click(custom_id, "garbled")
        return Click(custom_id, verb, int(m["run"]), move, arg)
    return Click(custom_id, "garbled")


class _ClickButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """What the three button classes share: parse on dispatch, answer through the handler."""

    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.click = parse(button.custom_id or "")

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> _ClickButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py only logs exceptions raised here; the clicker would see "This
        # interaction failed". The guard answers with an error id instead.
        try:
            handler: ClickHandler | None = interaction.client.get_cog(CLICK_HANDLER)
            if handler is None:
                raise RuntimeError(f"the {CLICK_HANDLER} cog is not loaded")
            await handler.on_click(interaction, self.click)
        except Exception as exc:
            await replies.unexpected(
                interaction, exc, run_id=self.click.run_id, context=self.click.custom_id
            )


class MoveButton(_ClickButton, template=MOVE_TEMPLATE):
    """A game action on a board."""

    @classmethod
    def make(
        cls,
        run_id: int,
        move: int,
        action: str,
        *,
        label: str,
        style: discord.ButtonStyle,
        row: int,
        disabled: bool = False,
        emoji: str | None = None,
    ) -> MoveButton:
        return cls(
            discord.ui.Button(
                label=label,
                style=style,
                row=row,
                disabled=disabled,
                emoji=emoji,
                custom_id=move_id(run_id, move, action),
            )
        )


class ControlButton(_ClickButton, template=CONTROL_TEMPLATE):
    """Undo, resign, resume, abandon, play again, show: the adapter's own buttons."""

    @classmethod
    def make(
        cls,
        verb: str,
        run_id: int,
        arg: str | int = "",
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        emoji: str | None = None,
    ) -> ControlButton:
        return cls(
            discord.ui.Button(
                label=label,
                style=style,
                row=row,
                emoji=emoji,
                custom_id=control_id(verb, run_id, arg),
            )
        )


class GarbledButton(_ClickButton, template=GARBLED_TEMPLATE):
    """Any other ``dd`` custom id: refused politely by the handler."""


#: Registered once in ``setup_hook``.
DYNAMIC_ITEMS: tuple[type[_ClickButton], ...] = (MoveButton, ControlButton, GarbledButton)
