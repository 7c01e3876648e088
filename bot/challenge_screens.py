"""What challenges and series show: a challenge's public card, the list of a player's open
challenges, and what a challenge or series run's board adds to the board itself.

Pure rendering of the core's answers; no Discord calls. A card never shows a card code: only
names, outcomes and scores as a person reads them, and the seed once the challenge is closed.
Each screen is drawn in a :class:`~bot.i18n.Language`: the public card in the server's, the
list and the boards' additions in the reader's.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.boards.common import clip
from bot.buttons import ButtonRows, button, control_id, link, make_id
from bot.i18n import ENGLISH, Language
from bot.timestamps import at
from core.challenges import Card, CardLine, Challenge, OpenChallenge
from core.clock import parse_timestamp
from core.errors import N_, Message, Nn_
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

PLAYER = N_("player {id}")
STILL_PLAYING = N_("**{name}** — still playing")
UNFINISHED = N_("unfinished")
RESIGNED = N_("resigned")
TITLE = N_("⚔️ Challenge #{id} · {game} · {variant}")
CHALLENGES_ONE = N_(
    "{challenger} challenges {opponent}: the same deal for everyone who accepts, one run "
    "each, best score wins.")
CHALLENGES_ANYONE = N_(
    "{challenger} challenges anyone here: the same deal for everyone who accepts, one run "
    "each, best score wins.")
CLOSED_AT = N_("**Closed** {when}: the final order.")
OPEN_UNTIL = N_("Open until **{when}**. Your run is private to you.")
MORE = Nn_("…and {count} more.", "…and {count} more.")
PLAYERS = N_("Players")
SEED_LATER = N_("The deal's seed is revealed when the challenge closes.")
ACCEPT = N_("Accept")
CLOSE = N_("Close")
DEAL = N_("Deal")
CHECK_SEED = N_("Seed `{seed}`. Check or replay it:")
FIELD_CLOSED = N_("Closed: the card in the channel shows the final order.")
FIELD_OPEN = N_(
    "Open until {when}. Everyone who accepts plays this same deal; the card in the channel "
    "ranks you as you finish.")
FIELD_NAME = N_("Challenge #{id}")
FINAL_RANK = N_("Final: you are **#{rank}** of {finished}.")
RANK_SO_FAR = N_("You are **#{rank}** of {finished} who finished so far.")
RANK_PLAYING = N_(
    "You are **#{rank}** of {finished} who finished so far ({playing} still playing).")
NO_CHALLENGES = N_("You have no open challenges. Make one with `/challenge`.")
YOUR_CHALLENGES = N_("Your open challenges:")
NOT_ACCEPTED = N_("not accepted yet")
RUN_OVER = N_("your run is over")
RUN_AT = N_("your run: move {moves}")
LISTED = N_("**{n}.** Challenge #{id} · {game} ({variant}) · {state} · closes {when}")
LIST_ACCEPT = N_("{n}. Accept")
LIST_BOARD = N_("{n}. Board")
LIST_CARD = N_("{n}. Card")
SERIES_RUN = N_("Run {number}: {score} → **{points}**")
SERIES_OVER = N_("Series of {length} over · total {total} points")
NONE_FINISHED = N_("no run finished yet")
SERIES_AT = N_("Series · run {number} of {length}")
SERIES_SO_FAR = N_(
    "Total so far: **{total}** points ({so_far}). A death, getting lost in the dark or "
    "resigning scores 0.")
NEW_SERIES = N_("New series of {length}")
NEXT_RUN = N_("Next run")



def screen_language(screen: Any) -> Language:
    """The language a board is drawn in, for what a challenge or series adds to it: the
    screen's own ``language`` once boards carry one, English until then."""
    language = getattr(screen, "language", None)
    return language if isinstance(language, Language) else ENGLISH


def when(stamp: str) -> str:
    """A stored moment as a Discord timestamp: the reader's local time and a countdown."""
    return at(parse_timestamp(stamp))


def name_of(line: CardLine, language: Language = ENGLISH) -> str:
    return discord.utils.escape_markdown(
        line.name or language.format(PLAYER, id=line.owner_id))


def card_line(line: CardLine, game: str, language: Language = ENGLISH) -> str:
    """``#1 alice — 12 HP (escaped)``; a run still being played has no rank yet."""
    name = clip(name_of(line, language), 40)
    if line.playing:
        return f"`  …` {language.format(STILL_PLAYING, name=name)}"
    if line.unfinished:
        state = language.render(UNFINISHED)
    elif line.status == "resigned":
        state = language.render(RESIGNED)
    else:
        state = language.render(GAMES[game].outcome_text(line.outcome)) if line.outcome else ""
    suffix = f" ({state})" if state else ""
    score = language.render(line.score_text) if line.score_text else line.score
    return f"`#{line.rank:>3}` **{name}** — {score}{suffix}"


def accept_id(challenge_id: int) -> str:
    return make_id(CHALLENGE, "acc", challenge_id)


def close_id(challenge_id: int) -> str:
    return make_id(CHALLENGE, "close", challenge_id)


def card(card: Card, language: Language = ENGLISH) -> tuple[discord.Embed, ButtonRows | None]:
    """The public card in ``language`` (the server's): who plays, the order so far (final
    once closed), and while open the Accept and Close buttons; the seed only once closed."""
    say = language.format
    c = card.challenge
    title = say(TITLE, id=c.id, game=c.title, variant=GAMES[c.game].variant_name(c.variant))
    # Mentions in an embed show the names and ping nobody.
    if c.opponent_id is not None:
        who = say(CHALLENGES_ONE, challenger=f"<@{c.owner_id}>", opponent=f"<@{c.opponent_id}>")
    else:
        who = say(CHALLENGES_ANYONE, challenger=f"<@{c.owner_id}>")
    lines = [who]
    if c.closed:
        assert c.closed_at is not None
        lines.append(say(CLOSED_AT, when=when(c.closed_at)))
    else:
        lines.append(say(OPEN_UNTIL, when=when(c.deadline)))
    # The players go in the description (4,096 characters; a field holds 1,024).
    shown = [card_line(line, card.challenge.game, language)
             for line in card.lines[:LISTED_LINES]]
    if len(card.lines) > LISTED_LINES:
        more = len(card.lines) - LISTED_LINES
        shown.append(language.render(Message(MORE[0], {}, plural=MORE[1], count=more)))
    lines += ["", f"**{language.render(PLAYERS)}**", *shown]
    embed = discord.Embed(title=clip(title, 256), description=clip("\n".join(lines), 4096),
                          colour=COLOUR)
    seed = c.revealed_seed
    if seed is None:
        embed.set_footer(text=language.render(SEED_LATER))
        rows = ButtonRows()
        rows.add(button(accept_id(c.id), label=language.render(ACCEPT), emoji="⚔️",
                        style=discord.ButtonStyle.primary))
        rows.add(button(close_id(c.id), label=language.render(CLOSE), emoji="🔒"))
        return embed, rows
    embed.add_field(
        name=language.render(DEAL),
        value=f"{say(CHECK_SEED, seed=seed)}\n```\npython -m rules deal {c.game} "
        f"--variant {c.variant} --seed {seed} --verbose\n```",
        inline=False,
    )
    return embed, None


def challenge_field(embed: discord.Embed, challenge: Challenge,
                    card: Card | None = None, run: Run | None = None,
                    language: Language = ENGLISH) -> None:
    """What a challenge run's board says about its challenge, in ``language``; once the run
    is over (``card`` and ``run`` given), where it stands among the challenge's players."""
    if challenge.closed:
        text = language.render(FIELD_CLOSED)
    else:
        text = language.format(FIELD_OPEN, when=when(challenge.deadline))
    place = (rank_text(card, run, language)
             if card is not None and run is not None and run.over else None)
    if place is not None:
        text = f"{place}\n{text}"
    embed.add_field(name=language.format(FIELD_NAME, id=challenge.id), value=text,
                    inline=False)


def rank_text(card: Card, run: Run, language: Language = ENGLISH) -> str | None:
    """``You are **#2** of 3 who finished (1 still playing)`` (``final`` once closed)."""
    mine = next((line for line in card.lines if line.run_id == run.id), None)
    if mine is None or mine.rank is None:
        return None
    finished = len(card.finished)
    playing = len(card.lines) - finished
    if card.challenge.closed:
        return language.format(FINAL_RANK, rank=mine.rank, finished=finished)
    if playing:
        return language.format(RANK_PLAYING, rank=mine.rank, finished=finished,
                               playing=playing)
    return language.format(RANK_SO_FAR, rank=mine.rank, finished=finished)


def open_list(found: list[OpenChallenge],
              language: Language = ENGLISH) -> tuple[str, ButtonRows | None]:
    """/challenges in ``language``: one line per open challenge, with a button for the
    player's board (or Accept, for one naming them that they have not accepted yet) and a
    link to the card."""
    say = language.format
    if not found:
        return language.render(NO_CHALLENGES), None
    lines = [language.render(YOUR_CHALLENGES)]
    rows = ButtonRows()
    for i, item in enumerate(found[:12]):
        c = item.challenge
        state = language.render(NOT_ACCEPTED) if item.run is None else (
            language.render(RUN_OVER) if item.run.over
            else say(RUN_AT, moves=item.run.moves))
        lines.append(say(LISTED, n=i + 1, id=c.id, game=c.title,
                         variant=GAMES[c.game].variant_name(c.variant),
                         state=state, when=when(c.deadline)))
        row = i // 2
        if item.run is None:
            rows.add(button(accept_id(c.id), label=say(LIST_ACCEPT, n=i + 1), row=row,
                            style=discord.ButtonStyle.primary))
        else:
            rows.add(button(control_id("show", item.run.id, item.run.version, "p"),
                            label=say(LIST_BOARD, n=i + 1), row=row))
        url = card_url(c)
        if url is not None:
            rows.add(link(url, label=say(LIST_CARD, n=i + 1), row=row))
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


def series_field(embed: discord.Embed, series: SeriesView, run: Run,
                 language: Language = ENGLISH) -> None:
    """Which run of the series this is and the running total, in ``language``; the whole
    series at its end."""
    say = language.format
    number = series.number_of(run.id)
    if series.finished:
        parts = [say(SERIES_RUN, number=e.number, score=language.render(e.score_text),
                     points=counted(e)) for e in series.entries]
        embed.add_field(
            name=say(SERIES_OVER, length=series.length, total=series.total),
            value=clip("\n".join(parts), 1024), inline=False,
        )
        return
    done = [e for e in series.entries if e.status != "playing"]
    so_far = (" · ".join(f"{e.number}: {counted(e)}" for e in done)
              or language.render(NONE_FINISHED))
    embed.add_field(
        name=say(SERIES_AT, number=number, length=series.length),
        value=say(SERIES_SO_FAR, total=series.total, so_far=so_far),
        inline=False,
    )


def series_buttons(rows: ButtonRows, series: SeriesView, run: Run,
                   language: Language = ENGLISH) -> None:
    """Between runs "Next run" instead of "Play again"; after the last, "New series"."""
    if not run.over or series.number_of(run.id) != len(series.entries):
        return
    rows.remove("dd.c:again:")
    if series.finished:
        rows.add(button(new_series_id(series.length),
                        label=language.format(NEW_SERIES, length=series.length),
                        emoji="🔁", style=discord.ButtonStyle.primary, row=4))
    else:
        rows.add(button(next_id(series, len(series.entries)),
                        label=language.render(NEXT_RUN), emoji="⏭️",
                        style=discord.ButtonStyle.primary, row=4))


def kwargs(embed: discord.Embed, rows: ButtonRows | None) -> dict[str, Any]:
    """``edit``/``send`` keyword arguments; no rows clears a message's buttons."""
    return {"embed": embed, "view": rows}
