"""What a replay shows: one step of a finished daily, with buttons to page through it.

A step is the run's board at that point, drawn by ``bot.boards`` with no actions (so no move
buttons), the move that led there as its button read and that move's events, the run's
turning point when it is known, and the run's look back (``bot.lookback``). Buttons carry
the run and the step they lead to (``dd.rp:<run>:<step>:<tag>``), so a replay posted before
a restart pages on after it; the tag tells the buttons apart (Discord wants one id per
button), and ``o`` opens a replay in a new message (from a leaderboard or a finished daily's
board). Nothing here talks to Discord or the database.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.boards.common import add_field
from bot.buttons import ButtonRows, button, make_id
from bot.games import render_board
from bot.lookback import replay_field
from bot.standings import REPLAY
from core.lookback import LookBack
from core.replays import Step

#: The tags of a replay's buttons; ``o`` opens the replay in a new message.
FIRST, BACK, FORWARD, LAST, TURN, OPEN = "f", "b", "n", "l", "t", "o"
TAGS = (FIRST, BACK, FORWARD, LAST, TURN, OPEN)


def replay_id(run_id: int, step: int, tag: str) -> str:
    return make_id(REPLAY, run_id, step, tag)


def step_screen(
    step: Step, *, owner: str | None = None, lookback: LookBack | None = None
) -> tuple[discord.Embed, ButtonRows]:
    """The embed and buttons of one step of a replay, with the run's look back when given
    (``core.lookback``: par, percentile and the day's best)."""
    run = step.run
    if step.number == 0:
        notice = f"🎞️ Replay of run #{run.id}: the deal, before the first move."
    else:
        notice = f"🎞️ Move {step.number} of {step.total}: {step.label}"
    view = {**step.view, "prompt": ""}
    embed = render_board(
        view, [], run_id=run.id, kind=run.kind, day=run.day, owner=owner, notice=notice
    ).embed
    turn = step.turn
    if turn is not None and step.is_turning_point:
        add_field(embed, "⚠️ Turning point", turn.text, inline=False)
    elif turn is not None and turn.step is not None:
        add_field(embed, "Turning point", f"Move {turn.step}: ⚠️ takes you there.",
                  inline=False)
    elif turn is not None:
        add_field(embed, "Turning point", turn.text, inline=False)
    if lookback is not None:
        replay_field(embed, lookback)
    embed.set_footer(text=f"Step {step.number} of {step.total} · final score "
                     f"{run.view['score_text']}")
    return embed, _buttons(step)


def _buttons(step: Step) -> ButtonRows:
    run_id, here, last = step.run.id, step.number, step.total
    rows = ButtonRows()
    specs: list[tuple[str, int, str, str, bool]] = [
        (FIRST, 0, "First", "⏮️", here == 0),
        (BACK, max(0, here - 1), "Back", "◀️", here == 0),
        (FORWARD, min(last, here + 1), "Forward", "▶️", here >= last),
        (LAST, last, "Last", "⏭️", here >= last),
    ]
    turn = step.turn
    if turn is not None and turn.step is not None:
        specs.append((TURN, turn.step, "Turning point", "⚠️", here == turn.step))
    for tag, target, label, emoji, disabled in specs:
        style = discord.ButtonStyle.danger if tag == TURN else discord.ButtonStyle.secondary
        rows.add(button(replay_id(run_id, target, tag), label=label, emoji=emoji,
                        disabled=disabled, style=style, row=0))
    return rows


def kwargs(embed: discord.Embed, rows: ButtonRows) -> dict[str, Any]:
    return {"embed": embed, "view": rows}
