"""What challenges and series show: a challenge's public card, the list of a player's open
challenges, and what a challenge or series run's board adds to the board itself.

Pure rendering of the core's answers; no Discord calls. A card never shows a card code: only
names, outcomes and scores as a person reads them, and the seed once the challenge is closed.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.boards.common import clip
from bot.buttons import ButtonRows, button, control_id, link, make_id
from bot.timestamps import at
from core.challenges import Card, CardLine, Challenge, OpenChallenge
from core.clock import parse_timestamp
from core.model import Run
from core.series import SeriesView, counted
from rules import GAMES

#: Custom id kinds: a challenge's buttons (``dd.ch:<verb>:<challenge id>``) and a series'
#: (``dd.se:next:<series id>:<run number>``, ``dd.se:new:<length>``).
CHALLENGE = "ch"
SERIES = "se"
#: The card's colour, open or closed: the boards' own (red read as a loss before anyone played).
COLOUR = discord.Colour.dark_gold()
LISTED_LINES = 50



def when(stamp: str) -> str:
    """A stored moment as a Discord timestamp: the reader's local time and a countdown."""
    return at(parse_timestamp(stamp))


def name_of(line: CardLine) -> str:
    return discord.utils.escape_markdown(line.name or f"player {line.owner_id}")


def card_line(line: CardLine, game: str) -> str:
    """``#1 alice — 12 HP (escaped)``; a run still being played has no rank yet."""
    name = clip(name_of(line), 40)
    if line.playing:
        return f"`  …` **{name}** — still playing"
    if line.unfinished:
        state = "unfinished"
    elif line.status == "resigned":
        state = "resigned"
    else:
        state = GAMES[game].outcome_text(line.outcome) if line.outcome else ""
    suffix = f" ({state})" if state else ""
    return f"`#{line.rank:>3}` **{name}** — {line.score_text or line.score}{suffix}"


def accept_id(challenge_id: int) -> str:
    return make_id(CHALLENGE, "acc", challenge_id)


def close_id(challenge_id: int) -> str:
    return make_id(CHALLENGE, "close", challenge_id)


def card(card: Card) -> tuple[discord.Embed, ButtonRows | None]:
    """The public card: who plays, the order so far (final once closed), and while open the
    Accept and Close buttons; the seed only once closed."""
    c = card.challenge
    title = f"⚔️ Challenge #{c.id} · {c.title} · {c.variant}"
    # Mentions in an embed show the names and ping nobody.
    who = f"<@{c.owner_id}> challenges " + (
        f"<@{c.opponent_id}>" if c.opponent_id is not None else "anyone here"
    )
    lines = [
        who + ": the same deal for everyone who accepts, one run each, best score wins.",
    ]
    if c.closed:
        assert c.closed_at is not None
        lines.append(f"**Closed** {when(c.closed_at)}: the final order.")
    else:
        lines.append(f"Open until **{when(c.deadline)}**. Your run is private to you.")
    # The players go in the description (4,096 characters; a field holds 1,024).
    shown = [card_line(line, card.challenge.game) for line in card.lines[:LISTED_LINES]]
    if len(card.lines) > LISTED_LINES:
        shown.append(f"…and {len(card.lines) - LISTED_LINES} more.")
    lines += ["", "**Players**", *shown]
    embed = discord.Embed(title=clip(title, 256), description=clip("\n".join(lines), 4096),
                          colour=COLOUR)
    seed = c.revealed_seed
    if seed is None:
        embed.set_footer(text="The deal's seed is revealed when the challenge closes.")
        rows = ButtonRows()
        rows.add(button(accept_id(c.id), label="Accept", emoji="⚔️",
                        style=discord.ButtonStyle.primary))
        rows.add(button(close_id(c.id), label="Close", emoji="🔒"))
        return embed, rows
    embed.add_field(
        name="Deal",
        value=f"Seed `{seed}`. Check or replay it:\n```\npython -m rules deal {c.game} "
        f"--variant {c.variant} --seed {seed} --verbose\n```",
        inline=False,
    )
    return embed, None


def challenge_field(embed: discord.Embed, challenge: Challenge,
                    card: Card | None = None, run: Run | None = None) -> None:
    """What a challenge run's board says about its challenge; once the run is over (``card``
    and ``run`` given), where it stands among the challenge's players."""
    if challenge.closed:
        text = "Closed: the card in the channel shows the final order."
    else:
        text = (f"Open until {when(challenge.deadline)}. Everyone who accepts plays this same "
                "deal; the card in the channel ranks you as you finish.")
    place = rank_text(card, run) if card is not None and run is not None and run.over else None
    if place is not None:
        text = f"{place}\n{text}"
    embed.add_field(name=f"Challenge #{challenge.id}", value=text, inline=False)


def rank_text(card: Card, run: Run) -> str | None:
    """``You are **#2** of 3 who finished (1 still playing)`` (``final`` once closed)."""
    mine = next((line for line in card.lines if line.run_id == run.id), None)
    if mine is None or mine.rank is None:
        return None
    finished = len(card.finished)
    playing = len(card.lines) - finished
    if card.challenge.closed:
        return f"Final: you are **#{mine.rank}** of {finished}."
    still = f" ({playing} still playing)" if playing else ""
    return f"You are **#{mine.rank}** of {finished} who finished so far{still}."


def open_list(found: list[OpenChallenge]) -> tuple[str, ButtonRows | None]:
    """/challenges: one line per open challenge, with a button for the player's board (or
    Accept, for one naming them that they have not accepted yet) and a link to the card."""
    if not found:
        return "You have no open challenges. Make one with `/challenge`.", None
    lines = ["Your open challenges:"]
    rows = ButtonRows()
    for i, item in enumerate(found[:12]):
        c = item.challenge
        state = "not accepted yet" if item.run is None else (
            "your run is over" if item.run.over else f"your run: move {item.run.moves}")
        lines.append(f"**{i + 1}.** Challenge #{c.id} · {c.title} ({c.variant}) · {state} · "
                     f"closes {when(c.deadline)}")
        row = i // 2
        if item.run is None:
            rows.add(button(accept_id(c.id), label=f"{i + 1}. Accept", row=row,
                            style=discord.ButtonStyle.primary))
        else:
            rows.add(button(control_id("show", item.run.id, item.run.version, "p"),
                            label=f"{i + 1}. Board", row=row))
        url = card_url(c)
        if url is not None:
            rows.add(link(url, label=f"{i + 1}. Card", row=row))
    return "\n".join(lines), rows


def card_url(c: Challenge) -> str | None:
    if c.channel_id is None or c.message_id is None:
        return None
    return f"https://discord.com/channels/{c.guild_id or '@me'}/{c.channel_id}/{c.message_id}"


# ----- series -------------------------------------------------------------------------------


def next_id(series: SeriesView, number: int) -> str:
    return make_id(SERIES, "next", series.id, number)


def new_series_id(length: int) -> str:
    return make_id(SERIES, "new", length)


def series_field(embed: discord.Embed, series: SeriesView, run: Run) -> None:
    """Which run of the series this is and the running total; the whole series at its end."""
    number = series.number_of(run.id)
    if series.finished:
        parts = [f"Run {e.number}: {e.score_text} → **{counted(e)}**" for e in series.entries]
        embed.add_field(
            name=f"Series of {series.length} over · total {series.total} points",
            value=clip("\n".join(parts), 1024), inline=False,
        )
        return
    done = [e for e in series.entries if e.status != "playing"]
    so_far = " · ".join(f"{e.number}: {counted(e)}" for e in done) or "no run finished yet"
    embed.add_field(
        name=f"Series · run {number} of {series.length}",
        value=f"Total so far: **{series.total}** points ({so_far}). A death, getting lost in "
        "the dark or resigning scores 0.",
        inline=False,
    )


def series_buttons(rows: ButtonRows, series: SeriesView, run: Run) -> None:
    """Between runs "Next run" instead of "Play again"; after the last, "New series"."""
    if not run.over or series.number_of(run.id) != len(series.entries):
        return
    rows.remove("dd.c:again:")
    if series.finished:
        rows.add(button(new_series_id(series.length), label=f"New series of {series.length}",
                        emoji="🔁", style=discord.ButtonStyle.primary, row=4))
    else:
        rows.add(button(next_id(series, len(series.entries)), label="Next run", emoji="⏭️",
                        style=discord.ButtonStyle.primary, row=4))


def kwargs(embed: discord.Embed, rows: ButtonRows | None) -> dict[str, Any]:
    """``edit``/``send`` keyword arguments; no rows clears a message's buttons."""
    return {"embed": embed, "view": rows}
