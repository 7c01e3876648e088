"""What a replay shows: one step of a finished daily, with buttons to page through it.

A step is the run's board at that point, drawn by ``bot.boards`` with no actions (so no move
buttons), the move that led there as its button read and that move's events, the run's
turning point when it is known, and the run's look back (``bot.lookback``). Buttons carry
the run and the step they lead to (``dd.rp:<run>:<step>:<tag>``), so a replay posted before
a restart pages on after it; the tag tells the buttons apart (Discord wants one id per
button), and ``o`` opens a replay in a new message (from a leaderboard or a finished daily's
board). Nothing here talks to Discord or the database. A replay is drawn in a
:class:`~bot.i18n.Language`: the server's for one posted in a channel, the reader's for one
only they see.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.boards.common import add_field
from bot.buttons import ButtonRows, button, make_id
from bot.games import render_board
from bot.i18n import ENGLISH, Language
from bot.lookback import replay_field
from bot.standings import REPLAY
from core.errors import N_
from core.lookback import LookBack
from core.replays import Step

#: The tags of a replay's buttons; ``o`` opens the replay in a new message.
FIRST, BACK, FORWARD, LAST, TURN, OPEN = "f", "b", "n", "l", "t", "o"
TAGS = (FIRST, BACK, FORWARD, LAST, TURN, OPEN)

THE_DEAL = N_("Replay of run #{run}: the deal, before the first move.")
THE_MOVE = N_("Move {number} of {total}: {move}")
TURNING_POINT = N_("Turning point")
TAKES_YOU_THERE = N_("Move {step}: ⚠️ takes you there.")
FOOTER = N_("Step {number} of {total} · final score {score}")
FIRST_LABEL, BACK_LABEL, FORWARD_LABEL, LAST_LABEL = (
    N_("First"), N_("Back"), N_("Forward"), N_("Last"))
#: Whether the boards' renderer takes the board's language yet (``bot.games`` gains it).


def replay_id(run_id: int, step: int, tag: str) -> str:
    return make_id(REPLAY, run_id, step, tag)


def step_screen(
    step: Step, *, owner: str | None = None, lookback: LookBack | None = None,
    language: Language = ENGLISH,
) -> tuple[discord.Embed, ButtonRows]:
    """The embed and buttons of one step of a replay in ``language``, with the run's look
    back when given (``core.lookback``: par, percentile and the day's best)."""
    say = language.format
    run = step.run
    if step.number == 0:
        notice = "🎞️ " + say(THE_DEAL, run=run.id)
    else:
        move = language.render(step.label or "")
        notice = "🎞️ " + say(THE_MOVE, number=step.number, total=step.total, move=move)
    view = {**step.view, "prompt": ""}
    embed = render_board(
        view, [], run_id=run.id, kind=run.kind, day=run.day, owner=owner, notice=notice,
        language=language,
    ).embed
    turn = step.turn
    turning = language.render(TURNING_POINT)
    if turn is not None and step.is_turning_point:
        add_field(embed, f"⚠️ {turning}", language.render(turn.text), inline=False)
    elif turn is not None and turn.step is not None:
        add_field(embed, turning, say(TAKES_YOU_THERE, step=turn.step), inline=False)
    elif turn is not None:
        add_field(embed, turning, language.render(turn.text), inline=False)
    if lookback is not None:
        replay_field(embed, lookback, language)
    embed.set_footer(text=say(FOOTER, number=step.number, total=step.total,
                              score=language.render(run.view["score_text"])))
    return embed, _buttons(step, language)


def _buttons(step: Step, language: Language = ENGLISH) -> ButtonRows:
    run_id, here, last = step.run.id, step.number, step.total
    rows = ButtonRows()
    specs: list[tuple[str, int, str, str, bool]] = [
        (FIRST, 0, FIRST_LABEL, "⏮️", here == 0),
        (BACK, max(0, here - 1), BACK_LABEL, "◀️", here == 0),
        (FORWARD, min(last, here + 1), FORWARD_LABEL, "▶️", here >= last),
        (LAST, last, LAST_LABEL, "⏭️", here >= last),
    ]
    turn = step.turn
    if turn is not None and turn.step is not None:
        specs.append((TURN, turn.step, TURNING_POINT, "⚠️", here == turn.step))
    for tag, target, marked, emoji, disabled in specs:
        label = language.render(marked)
        style = discord.ButtonStyle.danger if tag == TURN else discord.ButtonStyle.secondary
        rows.add(button(replay_id(run_id, target, tag), label=label, emoji=emoji,
                        disabled=disabled, style=style, row=0))
    return rows


def kwargs(embed: discord.Embed, rows: ButtonRows) -> dict[str, Any]:
    return {"embed": embed, "view": rows}
