"""What the bot shows: a run's board with its buttons, and the small screens around it.

Each function turns a service ``Run`` into a :class:`Screen` (one embed and one view of
persistent buttons). The board itself (embed and game buttons) is drawn by ``bot.boards``;
this module adds the adapter's controls in row 4 and builds the discord view. Nothing here
talks to Discord or the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.boards import render_board
from bot.buttons import ControlButton, MoveButton
from bot.service import Run
from rules import GAMES

CONTROL_ROW = 4
#: A message holds at most 25 buttons; /games keeps one row's worth of room for a summary.
GAMES_LISTED = 20

STALE = "That button was on an older board, so nothing was played. This is the board now."
RESIGNED = "You resigned this run."
RUN_OVER = "This run is over."
CONFIRM_RESIGN = "Resign this run? It ends here and cannot be resumed."


@dataclass(frozen=True)
class Screen:
    """One message's content: an embed and its buttons."""

    embed: discord.Embed
    view: discord.ui.View

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send_message`` and ``edit_message`` alike."""
        return {"embed": self.embed, "view": self.view}


def board(run: Run, *, owner: str | None = None, notice: str | None = None) -> Screen:
    """The run's board: the game's buttons, then Undo/Resign while playing or Play again."""
    view = run.view
    if run.status == "resigned":
        # The engine's state does not know about resigning: its prompt would still ask for a
        # move, so the board closes on the resignation instead.
        view = {**view, "prompt": RESIGNED}
    drawn = render_board(
        view, run.actions, run_id=run.id, kind=run.kind, day=run.day, owner=owner,
        notice=notice,
    )
    buttons = _view()
    move = view["moves"]
    # A resigned run's state is not over, so the board may still draw (disabled) buttons.
    for spec in drawn.buttons if run.status == "playing" else ():
        buttons.add_item(
            MoveButton.make(
                run.id, move, spec.action, label=spec.label, style=spec.style, row=spec.row,
                disabled=spec.disabled, emoji=spec.emoji,
            )
        )
    if run.status == "playing":
        if run.kind == "practice" and run.moves > 0:
            buttons.add_item(ControlButton.make("undo", run.id, run.moves, label="Undo",
                                                emoji="↩️", row=CONTROL_ROW))
        buttons.add_item(ControlButton.make("resign", run.id, run.moves, label="Resign",
                                            emoji="🏳️", row=CONTROL_ROW))
    else:
        buttons.add_item(ControlButton.make("again", run.id, label="Play again", emoji="🔁",
                                            style=discord.ButtonStyle.primary, row=CONTROL_ROW))
    return Screen(drawn.embed, buttons)


def confirm_resign(run: Run, *, owner: str | None = None) -> Screen:
    """The board without its game buttons, asking whether to resign."""
    embed = _still(run, owner=owner, notice=CONFIRM_RESIGN)
    view = _view()
    view.add_item(ControlButton.make("confirm", run.id, run.moves, label="Yes, resign",
                                     style=discord.ButtonStyle.danger, row=0))
    view.add_item(ControlButton.make("board", run.id, run.moves, label="No, keep playing",
                                     style=discord.ButtonStyle.primary, row=0))
    return Screen(embed, view)


def unfinished(run: Run, *, variant: str | None, owner: str | None = None) -> Screen:
    """An unfinished run found by /play: resume it, or abandon it and start ``variant``."""
    title = GAMES[run.game].title
    embed = _still(
        run, owner=owner,
        notice=f"You have an unfinished {title} run (move {run.moves}). "
        "Resume it, or abandon it and start anew.",
    )
    view = _view()
    view.add_item(ControlButton.make("resume", run.id, label="Resume", emoji="▶️",
                                     style=discord.ButtonStyle.primary, row=0))
    view.add_item(ControlButton.make("abandon", run.id, variant or run.variant,
                                     label="Abandon and start anew", emoji="🗑️",
                                     style=discord.ButtonStyle.danger, row=0))
    return Screen(embed, view)


def games_list(runs: Sequence[Run], *, private: bool) -> tuple[str, discord.ui.View | None]:
    """/games: one line and one button per unfinished run (newest first)."""
    if not runs:
        return "You have no unfinished runs. Start one with `/play`.", None
    shown = runs[:GAMES_LISTED]
    lines = ["Your unfinished runs (a button brings its board back):"]
    view = _view()
    for i, run in enumerate(shown):
        lines.append(f"**{i + 1}.** {describe(run)}")
        view.add_item(ControlButton.make("show", run.id, "p" if private else "",
                                         label=f"{i + 1}. {run.title}", row=i // 5))
    if len(runs) > len(shown):
        lines.append(f"…and {len(runs) - len(shown)} older ones.")
    return "\n".join(lines), view


def describe(run: Run) -> str:
    """One line about a run: game, variant, kind, progress."""
    kind = f"daily {run.day}" if run.kind == "daily" else "practice"
    return (
        f"{run.title} ({run.variant}, {kind}) · move {run.moves} · {run.view['score_text']} · "
        f"run #{run.id}"
    )


# ----- helpers ------------------------------------------------------------------------------


def _view() -> discord.ui.View:
    # No timeout: a timed-out view would unregister the dynamic item classes it holds
    # (ViewStore.remove_view), and only persistent items are used anyway.
    return discord.ui.View(timeout=None)


def _still(run: Run, *, owner: str | None, notice: str) -> discord.Embed:
    """The board's embed alone, drawn with no actions so it offers no buttons."""
    return render_board(
        run.view, [], run_id=run.id, kind=run.kind, day=run.day, owner=owner, notice=notice
    ).embed
