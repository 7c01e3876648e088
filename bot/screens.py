"""What the bot shows: a run's board with its buttons, and the small screens around it.

Each function turns a core ``Run`` into a :class:`Screen` (one embed and its rows of
buttons). The board itself (embed and game buttons) is drawn by ``bot.games`` from the
engine's view of the state (``Run.view``); this module adds the adapter's controls in row 4.
Every button carries the run's version, so a board acts only on the run as it showed it.
Nothing here talks to Discord or the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import standings
from bot.boards import result
from bot.buttons import ButtonRows, PlainButton, button, control_id, move_id
from bot.games import BOARDS, render_board
from core import Run, RunKind
from rules import GAMES
from rules.deal import commitment

CONTROL_ROW = 4
#: A message holds at most 25 buttons; /games keeps one row's worth of room for a summary.
GAMES_LISTED = 20

STALE = "That button was on an older board, so nothing was played. This is the board now."
RUN_OVER = "This run is over."
CONFIRM_RESIGN = "Resign this run? It ends here and cannot be resumed."


@dataclass(frozen=True)
class Screen:
    """One message's content: an embed and its buttons."""

    embed: discord.Embed
    buttons: ButtonRows
    #: The run whose board this is (its table picture goes with it); None for the screens
    #: around a board (a confirmation, a choice), which show no picture.
    run: Run | None = None

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send_message`` and ``edit_message`` alike."""
        return {"embed": self.embed, "view": self.buttons}


def board(
    run: Run,
    *,
    owner: str | None = None,
    notice: str | None = None,
    standing: str | None = None,
    facts: result.Facts | None = None,
) -> Screen:
    """The run's board: the game's buttons, then Undo/Resign while playing; once over, its
    result card (:func:`finished`).

    A daily's board also shows its deal's commitment, and once over, ``standing``: where the
    run stands on the day's boards (``facts`` holds it too, and more)."""
    if run.over:
        if facts is None and standing:
            facts = result.Facts(standing=standing)
        return finished(run, owner=owner, notice=notice, facts=facts)
    view = run.view
    drawn = render_board(
        view, run.actions, run_id=run.id, kind=run.kind, day=run.day, owner=owner,
        notice=notice,
    )
    if run.kind is RunKind.DAILY:
        standings.commitment_field(drawn.embed, run, commitment(run.seed))
    rows = ButtonRows()
    for spec in drawn.buttons:
        rows.add(button(
            move_id(run.id, run.version, spec.action), label=spec.label, style=spec.style,
            row=spec.row, disabled=spec.disabled, emoji=spec.emoji,
        ))
    if run.kind is RunKind.PRACTICE and run.moves > 0:
        rows.add(_control("undo", run, label="Undo", emoji="↩️"))
    if run.kind is RunKind.PRACTICE:  # never on dailies, challenges or series
        rows.add(_control("hint", run, label="Hint", emoji="💡"))
    rows.add(_control("resign", run, label="Resign", emoji="🏳️"))
    return Screen(drawn.embed, rows, run)


def finished(
    run: Run, *, owner: str | None = None, notice: str | None = None,
    facts: result.Facts | None = None,
) -> Screen:
    """A finished or resigned run's result card (:mod:`bot.boards.result`) and its next
    steps: Share (a daily's share line), Practice <Game> (a new practice run of the game and
    variant, on a new deal) and Stats (the player's /stats for the game, privately)."""
    embed = result.card(run, BOARDS[run.game], owner=owner, notice=notice, facts=facts)
    if run.kind is RunKind.DAILY:
        standings.commitment_field(embed, run, commitment(run.seed))
    rows = ButtonRows()
    if run.kind is RunKind.DAILY:
        rows.add(_control("share", run, label="Share", emoji="📣",
                          style=discord.ButtonStyle.success))
    title = GAMES[run.game].title
    rows.add(_control("again", run, label=f"Practice {title}", emoji="🔁",
                      style=discord.ButtonStyle.primary))
    rows.add(_control("stats", run, label="Stats", emoji="📊"))
    return Screen(embed, rows, run)


def hint_notice(run: Run, action: str, reason: str) -> str:
    """The line a hint adds atop the board: the move as its button reads, and why."""
    label = run.engine.label(run.view, action)
    return f"💡 Hint: **{label}** — {reason}"


def confirm_resign(run: Run, *, owner: str | None = None) -> Screen:
    """The board without its game buttons, asking whether to resign."""
    embed = _still(run, owner=owner, notice=CONFIRM_RESIGN)
    rows = ButtonRows()
    rows.add(_control("confirm", run, label="Yes, resign", row=0,
                      style=discord.ButtonStyle.danger))
    rows.add(_control("board", run, label="No, keep playing", row=0,
                      style=discord.ButtonStyle.primary))
    return Screen(embed, rows)


def unfinished(run: Run, *, variant: str | None, owner: str | None = None) -> Screen:
    """An unfinished run found by /play: resume it, or abandon it and start ``variant``."""
    title = GAMES[run.game].title
    embed = _still(
        run, owner=owner,
        notice=f"You have an unfinished {title} run (move {run.moves}). "
        "Resume it, or abandon it and start anew.",
    )
    rows = ButtonRows()
    rows.add(_control("resume", run, label="Resume", emoji="▶️", row=0,
                      style=discord.ButtonStyle.primary))
    rows.add(_control("abandon", run, variant or run.variant, row=0,
                      label="Abandon and start anew", emoji="🗑️",
                      style=discord.ButtonStyle.danger))
    return Screen(embed, rows)


def games_list(runs: Sequence[Run], *, private: bool) -> tuple[str, ButtonRows | None]:
    """/games: one line and one button per unfinished run (newest first)."""
    if not runs:
        return "You have no unfinished runs. Start one with `/play` or `/daily`.", None
    shown = runs[:GAMES_LISTED]
    lines = ["Your unfinished runs (a button brings its board back):"]
    rows = ButtonRows()
    for i, run in enumerate(shown):
        lines.append(f"**{i + 1}.** {describe(run)}")
        rows.add(_control("show", run, "p" if private else "",
                          label=f"{i + 1}. {run.title}", row=i // 5))
    if len(runs) > len(shown):
        lines.append(f"…and {len(runs) - len(shown)} older ones.")
    return "\n".join(lines), rows


def describe(run: Run) -> str:
    """One line about a run: game, variant, kind, progress."""
    kind = f"daily {run.day}" if run.kind is RunKind.DAILY else run.kind.value
    return (
        f"{run.title} ({run.variant}, {kind}) · move {run.moves} · {run.view['score_text']} · "
        f"run #{run.id}"
    )


# ----- helpers ------------------------------------------------------------------------------


def _control(
    verb: str,
    run: Run,
    arg: str = "",
    *,
    label: str,
    emoji: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int = CONTROL_ROW,
) -> PlainButton:
    return button(control_id(verb, run.id, run.version, arg), label=label, emoji=emoji,
                  style=style, row=row)


def _still(run: Run, *, owner: str | None, notice: str) -> discord.Embed:
    """The board's embed alone, drawn with no actions so it offers no buttons."""
    return render_board(
        run.view, [], run_id=run.id, kind=run.kind, day=run.day, owner=owner, notice=notice
    ).embed
