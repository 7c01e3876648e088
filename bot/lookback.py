"""How a closed day's look back reads (``core.lookback``): the "Yesterday: …" line atop the next
``/daily``, the field under a replay, and the ``/stats day:`` embed. Nothing here talks to
Discord or the database.
"""

from __future__ import annotations

import discord

from bot.boards.common import add_field, clip
from core.lookback import LookBack

COLOUR = discord.Colour.dark_teal()


def turn_part(back: LookBack) -> str:
    """The turning point, or where to find it while it has not been worked out."""
    return back.turn_text or f"turning point: /replay run:{back.run_id}"


def yesterday_line(back: LookBack) -> str:
    """``Yesterday: 92% of par · better than 71% · best won with 14 HP · turning point move 7``."""
    parts = back.parts()
    if back.turn is None:
        parts.append(turn_part(back))
    return "Yesterday: " + " · ".join(parts)


def replay_field(embed: discord.Embed, back: LookBack) -> None:
    """The run's look back under its replay (the turning point has a field of its own)."""
    parts = [p for p in back.parts() if p != back.turn_text]
    add_field(embed, f"Look back at {back.name}", " · ".join(parts), inline=False)


def day_embed(name: str, backs: list[LookBack]) -> discord.Embed:
    """``/stats day:``: the look back of each of the player's dailies of that day."""
    first = backs[0]
    embed = discord.Embed(title=clip(f"{name}'s {first.name}", 256), colour=COLOUR)
    for back in backs:
        lines = [
            f"Score: **{back.score_text}**",
            f"Against par: **{back.against_par or 'par not solved yet'}**"
            + (f" ({back.par.score_text})" if back.par is not None else ""),
            f"Among {back.ranked} ranked: **{back.percentile_text}**",
        ]
        if back.best_text is not None:
            lines.append(f"The day's best: **{back.best_text}**")
        if back.turn is not None:
            lines.append(f"Turning point: {back.turn.text}")
        lines.append(f"Replay: /replay run:{back.run_id}")
        title = back.variant if len(backs) > 1 else "Look back"
        add_field(embed, title, "\n".join(lines), inline=False)
    embed.set_footer(text="Percentile: the share of the day's other ranked players scoring "
                     "lower (a tie beats nobody it ties with). % of par: the /stats average's "
                     "part of the score.")
    return embed
