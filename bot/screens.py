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
from bot.boards.common import Pictured
from bot.buttons import HINT_MARK, ButtonRows, PlainButton, button, control_id, move_id
from bot.games import BOARDS, choose, render_board
from core import Run, RunKind, RunStatus
from core.clock import parse_timestamp
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
    #: How a playing board reads with its table picture (``bot.presenter`` applies it).
    pictured: Pictured | None = None

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send_message`` and ``edit_message`` alike."""
        return {"embed": self.embed, "view": self.buttons}


def board(
    run: Run,
    *,
    owner: str | None = None,
    notice: str | None = None,
    hinted: str | None = None,
    choice: str | None = None,
    facts: result.Facts | None = None,
) -> Screen:
    """The run's board: the game's buttons, then Undo/Resign while playing; once over, its
    result card (:func:`finished`).

    A daily's board also shows its deal's commitment; once over, ``facts`` says what the
    result means (where it stands on the day's boards, a best, the streak). ``hinted`` is the
    move a hint suggests: its button (or the first step's button that leads to it) carries
    :data:`HINT_MARK`. ``choice`` draws a two-step board's second step (``can_choose`` says
    whether the board offers it), with Back to the first."""
    if run.over:
        return finished(run, owner=owner, notice=notice, facts=facts)
    view = run.view
    drawn = render_board(
        view, run.actions, run_id=run.id, kind=run.kind, day=run.day, owner=owner,
        notice=notice, choice=choice,
    )
    if run.kind is RunKind.DAILY:
        standings.commitment_field(drawn.embed, run, commitment(run.seed))
    rows = ButtonRows()
    for spec in drawn.buttons:
        if spec.opens:  # a first step: the click only redraws, offering these moves
            custom_id = control_id("pick", run.id, run.version, spec.action)
            marked = hinted in spec.opens
        else:
            custom_id = move_id(run.id, run.version, spec.action)
            marked = hinted == spec.action
        rows.add(button(
            custom_id, label=spec.label, style=spec.style, row=spec.row,
            disabled=spec.disabled, emoji=HINT_MARK if marked else spec.emoji,
        ))
    if choice is not None:
        rows.add(_control("board", run, label="Back", emoji="◀️"))
    if run.kind is RunKind.PRACTICE and run.moves > 0:
        rows.add(_control("undo", run, label="Undo", emoji="↩️"))
    if run.kind is RunKind.PRACTICE:  # never on dailies, challenges or series
        rows.add(_control("hint", run, label="Hint", emoji=HINT_MARK))
    rows.add(_control("resign", run, label="Resign", emoji="🏳️"))
    return Screen(drawn.embed, rows, run, drawn.pictured)


def can_choose(run: Run, choice: str) -> bool:
    """Whether the run's board offers ``choice`` as a first step now."""
    return run.status is RunStatus.PLAYING and choose(run.view, run.actions, choice) is not None


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
    """The line a hint adds atop the board: the move in the engine's words, and why (its
    button, or the button that leads to it, is marked with :data:`HINT_MARK`)."""
    label = run.engine.label(run.view, action)
    return f"{HINT_MARK} Hint: **{label}** — {reason}"


def confirm_resign(run: Run, *, owner: str | None = None) -> Screen:
    """The board without its game buttons, the question as its prompt (the move it asked
    for is not the question now)."""
    embed = render_board(
        {**run.view, "prompt": CONFIRM_RESIGN}, [], run_id=run.id, kind=run.kind, day=run.day,
        owner=owner, notice=None,
    ).embed
    rows = ButtonRows()
    rows.add(_control("confirm", run, label="Yes, resign", row=0,
                      style=discord.ButtonStyle.danger))
    rows.add(_control("board", run, label="No, keep playing", row=0,
                      style=discord.ButtonStyle.primary))
    return Screen(embed, rows)


def unfinished(run: Run, *, variant: str | None, owner: str | None = None) -> Screen:
    """An unfinished run found by /play: one line about it (not its board), and Resume, or
    Abandon to start ``variant`` anew."""
    embed = discord.Embed(
        title=f"Your unfinished {run.title} run",
        description=f"{unfinished_line(run)}\n\nResume it, or abandon it and start anew.",
        colour=discord.Colour.blurple(),
    )
    if owner:
        embed.set_author(name=f"{owner}'s run")
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


def unfinished_line(run: Run) -> str:
    """``**Donsol** (normal, practice) · move 12 · 14 HP · started <t:…:R>, last played
    <t:…:R>``: Discord shows each moment in the reader's time, as a countdown."""
    kind = f"daily {run.day}" if run.kind is RunKind.DAILY else run.kind.value
    started = int(parse_timestamp(run.created_at).timestamp())
    played = int(parse_timestamp(run.updated_at).timestamp())
    when = f"started <t:{started}:R>"
    if played != started:
        when += f", last played <t:{played}:R>"
    return (
        f"**{run.title}** ({run.variant}, {kind}) · move {run.moves} · "
        f"{run.view['score_text']} · {when}"
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
