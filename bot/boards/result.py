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

from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.boards.common import (
    AUTHOR_MAX,
    COLOUR_LOST,
    COLOUR_OUT_ALIVE,
    COLOUR_WON,
    DAY_TITLE,
    DESCRIPTION_MAX,
    FOOTER_MAX,
    NOTICE_MAX,
    TITLE_MAX,
    GameBoard,
    add_field,
    clip,
    events_text,
    kind_word,
    outcome_heading,
)
from bot.i18n import ENGLISH, Language
from core.daily import day_number
from core.model import Run, RunKind, RunStatus
from core.rankings import PersonalBest
from rules import GAMES
from rules.words import N_, Message, Nn_

COLOUR_RESIGNED = discord.Colour.dark_grey()
#: The field that holds the share line on the player's own card.
SHARE_FIELD = N_("Your share line")
MEANING_FIELD = N_("What it means")
RESIGNED_AT = N_("🏳️ Resigned at move {moves}")
FOOTER = N_("run #{id} · move {moves}")
NEW_BEST = N_("🌟 **New personal best** at {game} (was {previous}).")
EQUALS_BEST = N_("🌟 Equals your best at {game}.")
YOUR_BEST = Nn_("Your best at {game}: {previous} ({count} run finished).",
                "Your best at {game}: {previous} ({count} runs finished).")
FIRST_RUN = N_("Your first {game} run finished: the score to beat next time.")
STREAK = Nn_("🔥 Daily streak: **{count}** day.", "🔥 Daily streak: **{count}** days.")


@dataclass(frozen=True)
class Facts:
    """What a finished run means for its player, looked up once it is over (all optional:
    a board drawn without them still reads as a result)."""

    best: PersonalBest | None = None
    #: A daily's standing on the day's boards and when the next deal comes (bot.standings).
    standing: str | Callable[[Language], str] | None = None
    #: The player's current daily streak in the game, in days (dailies only).
    streak: int | None = None
    #: A daily's share line, as it is posted (``core.recap``: a phrase, said in the card's
    #: language).
    share: str | None = None


def heading(run: Run, board: GameBoard, language: Language = ENGLISH) -> str:
    """The card's title: the game's heading of its outcome, or the resignation."""
    if run.status is RunStatus.RESIGNED:
        return language.format(RESIGNED_AT, moves=run.moves)
    return outcome_heading(run.view, board.headings, language)


def score_text(run: Run, language: Language = ENGLISH) -> str:
    """The score the run finished with: a resigned run's is the one it ranks with."""
    if run.status is RunStatus.RESIGNED:
        return language.render(run.engine.resigned(run.state)[1])
    return language.render(run.view["score_text"])


def colour(run: Run, board: GameBoard) -> discord.Colour:
    """Green for a win, grey for a resignation, gold for a near miss or an end alive, red
    for any other end."""
    view = run.view
    if run.status is RunStatus.RESIGNED:
        return COLOUR_RESIGNED
    if view["won"]:
        return COLOUR_WON
    lost = GAMES[run.game].outcomes.get(view["outcome"] or "") == "loss"
    if lost and board.finish(view, ENGLISH).near_miss is None:
        return COLOUR_LOST
    return COLOUR_OUT_ALIVE


def card(
    run: Run,
    board: GameBoard,
    *,
    owner: str | None,
    notice: str | Message | None,
    facts: Facts | None,
    language: Language = ENGLISH,
) -> discord.Embed:
    """The result card of the finished (or resigned) ``run``, in ``language``."""
    view = run.view
    finish = board.finish(view, language) if run.status is not RunStatus.RESIGNED else None
    parts: list[str] = [f"*{clip(language.render(notice), NOTICE_MAX)}*"] if notice else []
    score = f"**{clip(score_text(run, language), 300)}**"
    if finish is not None and finish.near_miss:
        score += f"\n{finish.near_miss}"
    parts.append(score)
    events = view.get("events") or []
    if events and run.status is not RunStatus.RESIGNED:
        parts.append(events_text(events, budget=1200, language=language))
    embed = discord.Embed(
        title=clip(heading(run, board, language), TITLE_MAX),
        description=clip("\n\n".join(parts), DESCRIPTION_MAX),
        colour=colour(run, board),
    )
    embed.set_author(name=clip(_about(run, owner, language), AUTHOR_MAX))
    meaning = _meaning(run, facts, language)
    if finish is not None:
        meaning = [*finish.notes, *meaning]
    if meaning:
        add_field(embed, language.gettext(MEANING_FIELD), "\n".join(meaning), inline=False)
    if facts is not None and facts.share:
        add_field(embed, language.gettext(SHARE_FIELD), language.render(facts.share),
                  inline=False)
    embed.set_footer(text=clip(language.format(FOOTER, id=run.id, moves=run.moves), FOOTER_MAX))
    return embed


def _about(run: Run, owner: str | None, language: Language) -> str:
    """``alice · Donsol #5 · normal · daily``: whose run, of which deal."""
    title = GAMES[run.game].title
    variant = language.render(run.variant)
    if run.kind is RunKind.DAILY and run.day is not None:
        parts = [language.format(DAY_TITLE, game=title, number=day_number(run.day)), variant,
                 kind_word("daily", language)]
    else:
        parts = [title, variant, kind_word(run.kind.value, language)]
    return " · ".join([owner, *parts] if owner else parts)


def _meaning(run: Run, facts: Facts | None, language: Language) -> list[str]:
    if facts is None:
        return []
    lines: list[str] = []
    best = facts.best
    game = f"{GAMES[run.game].title} ({language.render(run.variant)})"
    if best is not None:
        previous = language.render(best.previous) if best.previous is not None else None
        if best.new:
            lines.append(language.format(NEW_BEST, game=game, previous=previous))
        elif best.equal:
            lines.append(language.format(EQUALS_BEST, game=game))
        elif best.previous is not None and run.status is not RunStatus.RESIGNED:
            count = best.runs + 1
            lines.append(language.ngettext(*YOUR_BEST, count).format(
                game=game, previous=previous, count=count))
        elif run.status is not RunStatus.RESIGNED:
            lines.append(language.format(FIRST_RUN, game=game))
    if facts.standing:
        said = (facts.standing(language) if callable(facts.standing)
                else language.render(facts.standing))
        lines.append(f"🏅 {said}")
    if facts.streak:
        lines.append(language.ngettext(*STREAK, facts.streak).format(count=facts.streak))
    return lines


def share_of(embed: discord.Embed, language: Language = ENGLISH) -> str | None:
    """The share line a result card in ``language`` shows, if any (what Share posts)."""
    for field in embed.fields:
        if field.name == language.gettext(SHARE_FIELD):
            return field.value
    return None


__all__ = ["Facts", "card", "colour", "heading", "score_text", "share_of"]


