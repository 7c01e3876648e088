"""The result card: how a finished run's board reads, whatever kind of run it was.

The run's outcome is the card's title (big), its score is said once (the description's first
line), then what the run's last move did (the ▸ lines), what the run means for the player
(a personal best, a daily's rank on the server and worldwide, the daily streak), and, for a
daily, its share line as others will see it. The playing fields (health, the room, the
reserve...) are gone: nothing is left to decide. How it looks follows the engine's facts:
a win (``GAMES[key].is_win``) green, a resignation grey and said ("Resigned at move 12"),
a near miss (the game's :attr:`~bot.boards.common.GameBoard.finish` hook) or an end alive
gold, any other end red.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.boards.common import (
    AUTHOR_MAX,
    COLOUR_LOST,
    COLOUR_OUT_ALIVE,
    COLOUR_WON,
    DESCRIPTION_MAX,
    FOOTER_MAX,
    NOTICE_MAX,
    TITLE_MAX,
    GameBoard,
    add_field,
    clip,
    events_text,
    outcome_heading,
)
from core.daily import day_number
from core.model import Run, RunKind, RunStatus
from core.rankings import PersonalBest
from rules import GAMES

COLOUR_RESIGNED = discord.Colour.dark_grey()
#: The field that holds the share line on the player's own card.
SHARE_FIELD = "Your share line"
MEANING_FIELD = "What it means"


@dataclass(frozen=True)
class Facts:
    """What a finished run means for its player, looked up once it is over (all optional:
    a board drawn without them still reads as a result)."""

    best: PersonalBest | None = None
    #: A daily's standing on the day's boards and when the next deal comes (bot.standings).
    standing: str | None = None
    #: The player's current daily streak in the game, in days (dailies only).
    streak: int | None = None
    #: A daily's share line, as it is posted.
    share: str | None = None


def heading(run: Run, board: GameBoard) -> str:
    """The card's title: the game's heading of its outcome, or the resignation."""
    if run.status is RunStatus.RESIGNED:
        return f"🏳️ Resigned at move {run.moves}"
    return outcome_heading(run.view, board.headings)


def score_text(run: Run) -> str:
    """The score the run finished with: a resigned run's is the one it ranks with."""
    if run.status is RunStatus.RESIGNED:
        return run.engine.resigned(run.state)[1]
    return str(run.view["score_text"])


def colour(run: Run, board: GameBoard) -> discord.Colour:
    """Green for a win, grey for a resignation, gold for a near miss or an end alive, red
    for any other end."""
    view = run.view
    if run.status is RunStatus.RESIGNED:
        return COLOUR_RESIGNED
    if view["won"]:
        return COLOUR_WON
    lost = GAMES[run.game].outcomes.get(view["outcome"] or "") == "loss"
    if lost and board.finish(view).near_miss is None:
        return COLOUR_LOST
    return COLOUR_OUT_ALIVE


def card(
    run: Run,
    board: GameBoard,
    *,
    owner: str | None,
    notice: str | None,
    facts: Facts | None,
) -> discord.Embed:
    """The result card of the finished (or resigned) ``run``."""
    view = run.view
    finish = board.finish(view) if run.status is not RunStatus.RESIGNED else None
    parts: list[str] = [f"*{clip(notice, NOTICE_MAX)}*"] if notice else []
    score = f"**{clip(score_text(run), 300)}**"
    if finish is not None and finish.near_miss:
        score += f"\n{finish.near_miss}"
    parts.append(score)
    events = view.get("events") or []
    if events and run.status is not RunStatus.RESIGNED:
        parts.append(events_text(events, budget=1200))
    embed = discord.Embed(
        title=clip(heading(run, board), TITLE_MAX),
        description=clip("\n\n".join(parts), DESCRIPTION_MAX),
        colour=colour(run, board),
    )
    embed.set_author(name=clip(_about(run, owner), AUTHOR_MAX))
    meaning = _meaning(run, facts)
    if finish is not None:
        meaning = [*finish.notes, *meaning]
    if meaning:
        add_field(embed, MEANING_FIELD, "\n".join(meaning), inline=False)
    if facts is not None and facts.share:
        add_field(embed, SHARE_FIELD, facts.share, inline=False)
    embed.set_footer(text=clip(f"run #{run.id} · move {run.moves}", FOOTER_MAX))
    return embed


def _about(run: Run, owner: str | None) -> str:
    """``alice · Donsol #5 · normal · daily``: whose run, of which deal."""
    title = GAMES[run.game].title
    if run.kind is RunKind.DAILY and run.day is not None:
        parts = [f"{title} #{day_number(run.day)}", run.variant, "daily"]
    else:
        parts = [title, run.variant, run.kind.value]
    return " · ".join([owner, *parts] if owner else parts)


def _meaning(run: Run, facts: Facts | None) -> list[str]:
    if facts is None:
        return []
    lines: list[str] = []
    best = facts.best
    variant = f"{GAMES[run.game].title} ({run.variant})"
    if best is not None:
        if best.new:
            lines.append(f"🌟 **New personal best** at {variant} (was {best.previous}).")
        elif best.equal:
            lines.append(f"🌟 Equals your best at {variant}.")
        elif best.previous is not None and run.status is not RunStatus.RESIGNED:
            lines.append(f"Your best at {variant}: {best.previous} "
                         f"({best.runs + 1} runs finished).")
        elif run.status is not RunStatus.RESIGNED:
            lines.append(f"Your first {variant} run finished: the score to beat next time.")
    if facts.standing:
        lines.append(f"🏅 {facts.standing}")
    if facts.streak:
        days = "day" if facts.streak == 1 else "days"
        lines.append(f"🔥 Daily streak: **{facts.streak}** {days}.")
    return lines


def share_of(embed: discord.Embed) -> str | None:
    """The share line a result card shows, if any (what Share posts)."""
    for field in embed.fields:
        if field.name == SHARE_FIELD:
            return field.value
    return None


__all__ = ["Facts", "card", "colour", "heading", "score_text", "share_of"]


