"""What the daily shows: leaderboards, a player's stats, /verify, and a finished daily's
standing. Pure rendering of the core's answers into embeds and buttons; no Discord calls."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord

from bot.boards.common import clip
from bot.buttons import ButtonRows, button, make_id
from bot.timestamps import at, clock, countdown
from core.clock import utc
from core.daily import closes_at, day_number, next_deal_at
from core.errors import N_
from core.freezes import MAX_FREEZES
from core.model import Run
from core.par import ParStanding
from core.rankings import ContestRecord, GameRecord, Leaderboard, PeriodBoard, Standing
from core.ratings import PlayerRating, RatingBoard
from core.skill import ESTABLISHED_DAYS
from rules import GAMES, Game
from store.base import BoardLine, ParRecord, PeriodLine, RatingLine

#: The custom id kind of a leaderboard page button.
BOARD_PAGE = "lb"
#: The custom id kind of a rating board's page button.
RATING_PAGE = "rt"
#: The custom id kind of a replay's buttons (``bot.cogs.replays``).
REPLAY = "rp"
#: The custom id kind of a board's "Play today's deal" (``bot.cogs.daily``).
PLAY_DAILY = "dy"
#: The characters of a commitment a daily board shows: enough to compare with /verify.
SHORT_COMMITMENT = 12
#: A closed day's board offers a replay of its page's first runs.
REPLAY_BUTTONS = 3
COLOUR = discord.Colour.dark_gold()

#: The last days of dailies at a glance, one square a day, a week a row.
#: The 14-day strip's mark of each kind of end (``Game.outcomes``), a resignation and a day not
#: played (a mark that shows on Discord's dark theme, where ⬛ vanishes).
MARKS = {"win": "🟩", "out": "🟨", "loss": "🟥", "resigned": "⬜", "none": "➖"}
#: Days in a row of the strip: a week, so it keeps its shape at phone width.
STRIP_ROW = 7
#: A day not played that a streak freeze stood in for.
FROZEN = "❄️"
#: Said in /help and docs: how equal scores are ordered.
TIE_BREAK = N_(
    "Scores compare part by part, higher first. Equal scores share a rank (1, 2, 2, 4) and are "
    "listed by player name — never by who finished first."
)


def game_day(game: str, day: str) -> str:
    """``Donsol #12``."""
    return f"{GAMES[game].title} #{day_number(day)}"


#: How a global board lists a player who chose ``/preferences global-board:off``.
HIDDEN_NAME = "a player"


def listed_name(line: BoardLine | PeriodLine | RatingLine) -> str:
    """The name a board line shows (markdown escaped): "a player" for one who chose not to
    be named on the global boards, ``player <id>`` for one the bot has no name for."""
    if line.hidden:
        return HIDDEN_NAME
    return discord.utils.escape_markdown(line.name or f"player {line.owner_id}")


def line_text(line: BoardLine) -> str:
    name = listed_name(line)
    status = " (resigned)" if line.status == "resigned" else ""
    return f"`#{line.rank:>3}` **{clip(name, 40)}** — {line.score_text or line.score}{status}"


def short_commitment(commitment: str) -> str:
    """The commitment's first characters, enough to compare with the whole one in /verify."""
    return f"{commitment[:SHORT_COMMITMENT]}…"


def play_daily_id(game: str, variant: str) -> str:
    """A board's "Play today's deal": starts or resumes the clicker's daily (``bot.cogs.daily``)."""
    return make_id(PLAY_DAILY, game, variant)


def play_daily_button(rows: ButtonRows, game: str, variant: str, row: int = 2) -> None:
    rows.add(button(play_daily_id(game, variant), label="Play today's deal", emoji="📅",
                    style=discord.ButtonStyle.primary, row=row))


def viewer_of(lines: list[Any], own: Any, viewer_id: int | None) -> Any:
    """The viewer's line on a board (on its page, or ``own`` below it), or None."""
    if viewer_id is None:
        return None
    return next((line for line in lines if line.owner_id == viewer_id), own)


def your_line(board: Leaderboard, viewer_id: int | None) -> str:
    """What only the caller of a public day's board is told: their own place on it."""
    line = viewer_of(board.lines, board.own, viewer_id)
    if line is None:
        return ("You have no ranked run on this board yet." if not board.closed
                else "You have no ranked run on this board.")
    status = " (resigned)" if line.status == "resigned" else ""
    return (f"You: **#{line.rank}** of {board.size} · {line.score_text or line.score}{status}")


# ----- leaderboards -------------------------------------------------------------------------


def board_page_id(board: Leaderboard, page: int) -> str:
    scope = "g" if board.guild_id is None else "s"
    return make_id(BOARD_PAGE, board.game, board.variant, board.day, scope, board.guild_id or 0,
                   page)


def leaderboard(board: Leaderboard, *, viewer_id: int | None, now: datetime,
                guild_name: str | None = None, par: ParStanding | None = None,
                ) -> tuple[discord.Embed, ButtonRows | None]:
    """A page of a day's board as everyone reading it sees it (no line marked: the caller
    hears their own place privately, :func:`your_line`), paging buttons, and while the day is
    open "Play today's deal"; once closed, its par (``par``) and a button to replay each of
    the page's first :data:`REPLAY_BUTTONS` runs. ``viewer_id`` is not shown: it is kept for
    callers that still pass it."""
    del viewer_id
    where = f"{guild_name or 'this server'}" if board.guild_id is not None else "everyone"
    title = f"{game_day(board.game, board.day)} · {board.variant} · {where}"
    lines = [line_text(line) for line in board.lines]
    if not board.lines:
        lines = ["No ranked runs yet. Play today's deal with `/daily`."]
    if board.min_account_age:
        lines.append(f"\n*Accounts younger than {board.min_account_age} days are not ranked "
                     "on this server's board.*")
    embed = discord.Embed(title=clip(title, 256), description="\n".join(lines), colour=COLOUR)
    if board.closed:
        state = f"Final. Seed `{board.seed}` (revealed): check it with /verify."
    else:
        final = closes_at(board.day)
        state = (f"Open: runs may rank until {clock(final)} ({countdown(final)}). Commitment "
                 f"`{short_commitment(board.commitment)}`: check it with /verify.")
    embed.add_field(name="Ranked runs" if board.closed else "Ranking until", value=state,
                    inline=False)
    if par is not None:
        embed.add_field(name="Par", value=par_field(par), inline=False)
    embed.set_footer(text=clip(f"{board.size} ranked · page {board.page + 1}/{board.pages}",
                               2048))
    replays = board.lines[:REPLAY_BUTTONS] if board.closed else []
    rows = ButtonRows()
    if not board.closed and board.day == next_deal_day(now):
        play_daily_button(rows, board.game, board.variant)
    if board.pages > 1:
        rows.add(button(board_page_id(board, board.page - 1), label="Previous",
                        emoji="◀️", disabled=board.page == 0, row=0))
        rows.add(button(board_page_id(board, board.page + 1), label="Next", emoji="▶️",
                        disabled=board.page >= board.pages - 1, row=0))
    for line in replays:
        rows.add(button(replay_open_id(line.run_id), label=f"Replay #{line.rank}",
                        emoji="🎞️", row=1))
    return embed, (rows if rows.buttons else None)


def next_deal_day(now: datetime) -> str:
    """Today's UTC day at ``now``: the day whose deal "Play today's deal" plays."""
    return utc(now).date().isoformat()


def replay_open_id(run_id: int) -> str:
    """A button that opens a run's replay in a new message (``bot.cogs.replays``)."""
    return make_id(REPLAY, run_id, 0, "o")


def par_field(par: ParStanding) -> str:
    """``Par: won with 14 HP (exact)`` and how many of the board reached it."""
    players = "player" if par.ranked == 1 else "players"
    return f"{par.text}\nReached by **{par.reached}** of {par.ranked} ranked {players}."


# ----- the week's and the month's boards ----------------------------------------------------

#: Said in /help and the README: how a week's or a month's points add up.
PERIOD_RULE = N_(
    "A week's board (Monday to Sunday) and a month's board (calendar months), all UTC, add up "
    "each player's points over their ranked dailies of the game and variant: the number the "
    "game's /stats average counts, a day not played adds nothing. Equal totals share a rank. "
    "A month's board is final once its last day has closed."
)
#: The day part of a period page's custom id: ``w<Monday>`` or ``m<the 1st>``.
SPAN_MARKS = {"week": "w", "month": "m"}


def period_page_id(board: PeriodBoard, page: int) -> str:
    """A period's page button: the day part is ``w<Monday>`` or ``m<the 1st>``, so a page
    stays on its week or month."""
    scope = "g" if board.guild_id is None else "s"
    return make_id(BOARD_PAGE, board.game, board.variant,
                   f"{SPAN_MARKS[board.span]}{board.first}", scope, board.guild_id or 0, page)


def period_line_text(line: PeriodLine, unit: str) -> str:
    name = listed_name(line)
    days = "day" if line.days == 1 else "days"
    return f"`#{line.rank:>3}` **{clip(name, 40)}** — {line.total} {unit} ({line.days} {days})"


def your_period_line(board: PeriodBoard, viewer_id: int | None) -> str:
    """What only the caller of a public week's or month's board is told: their place."""
    line = viewer_of(board.lines, board.own, viewer_id)
    if line is None:
        return "You have no ranked daily on this board."
    _, unit = GAMES[board.game].stat
    days = "day" if line.days == 1 else "days"
    return f"You: **#{line.rank}** of {board.size} · {line.total} {unit} ({line.days} {days})"


def period_board(board: PeriodBoard, *, viewer_id: int | None, now: datetime | None = None,
                 guild_name: str | None = None) -> tuple[discord.Embed, ButtonRows | None]:
    """A page of a week's or a month's board: each player's daily points added up, no line
    marked (:func:`your_period_line` is the caller's, said privately), and while it is open
    "Play today's deal"."""
    del viewer_id
    engine = GAMES[board.game]
    _, unit = engine.stat
    where = f"{guild_name or 'this server'}" if board.guild_id is not None else "everyone"
    if board.span == "week":
        period, span_words, this = (f"week of {board.first} to {board.last}", "Monday to Sunday",
                                    "this week")
    else:
        period, span_words, this = (f"month of {board.month}",
                                    f"{board.first} to {board.last}", "this month")
    title = f"{engine.title} · {period} · {board.variant} · {where}"
    lines = [period_line_text(line, unit) for line in board.lines]
    if not board.lines:
        lines = [f"No ranked dailies {this} yet. Play today's deal with `/daily`."
                 if not board.closed else "Nobody ranked a daily in it."]
    if board.min_account_age:
        first_day = "on Monday" if board.span == "week" else "on the 1st"
        lines.append(f"\n*Accounts younger than {board.min_account_age} days {first_day} are "
                     "not ranked on this server's board.*")
    embed = discord.Embed(title=clip(title, 256), description="\n".join(lines), colour=COLOUR)
    if board.span == "month":
        final = closes_at(board.last)
        state = ("Final: the month's last day has closed." if board.closed else
                 f"Open: final at {at(final)}.")
        embed.add_field(name="Ranked dailies", value=state, inline=False)
    embed.set_footer(text=clip(
        f"Each player's ranked daily {unit}, added up {span_words} (UTC) · "
        f"{board.size} players · page {board.page + 1}/{board.pages}", 2048))
    rows = ButtonRows()
    if board.pages > 1:
        rows.add(button(period_page_id(board, board.page - 1), label="Previous", emoji="◀️",
                        disabled=board.page == 0, row=0))
        rows.add(button(period_page_id(board, board.page + 1), label="Next", emoji="▶️",
                        disabled=board.page >= board.pages - 1, row=0))
    if (not board.closed and now is not None
            and board.first <= next_deal_day(now) <= board.last):
        play_daily_button(rows, board.game, board.variant, row=1)
    return embed, (rows if rows.buttons else None)


# ----- the rating board --------------------------------------------------------------------


def rating_page_id(board: RatingBoard, page: int) -> str:
    scope = "g" if board.guild_id is None else "s"
    return make_id(RATING_PAGE, board.game, board.variant, scope, board.guild_id or 0, page)


def rating_line_text(line: RatingLine) -> str:
    name = listed_name(line)
    days = "day" if line.days == 1 else "days"
    note = " provisional" if line.days < ESTABLISHED_DAYS else ""
    return f"`#{line.rank:>3}` **{clip(name, 40)}** — {line.rating} ({line.days} {days}{note})"


def your_rating_line(board: RatingBoard, viewer_id: int | None) -> str:
    """What only the caller of a public rating board is told: their place on it."""
    line = viewer_of(board.lines, board.own, viewer_id)
    if line is None:
        return "You are not rated on this board yet."
    days = "day" if line.days == 1 else "days"
    return f"You: **#{line.rank}** of {board.size} · rating {line.rating} ({line.days} {days})"


def rating_board(board: RatingBoard, *, viewer_id: int | None,
                 guild_name: str | None = None) -> tuple[discord.Embed, ButtonRows | None]:
    """A page of a rating board: each player's rating from the closed days' global boards, no
    line marked (:func:`your_rating_line` is the caller's, said privately)."""
    del viewer_id
    engine = GAMES[board.game]
    where = f"{guild_name or 'this server'}" if board.guild_id is not None else "everyone"
    title = f"{engine.title} · rating · {board.variant} · {where}"
    lines = [rating_line_text(line) for line in board.lines]
    if not board.lines:
        lines = ["Nobody is rated yet: ratings come from the daily boards once a day's boards "
                 "are final."]
    if board.min_account_age:
        lines.append(f"\n*Accounts younger than {board.min_account_age} days are not ranked "
                     "on this server's board.*")
    embed = discord.Embed(title=clip(title, 256), description="\n".join(lines), colour=COLOUR)
    rated = f"rated to {board.last_day}" if board.last_day else "no day rated yet"
    embed.set_footer(text=clip(
        f"Each closed day's global board is one match (openskill); the rating is μ − 3σ, "
        f"shown as 1000 + 40×, provisional under {ESTABLISHED_DAYS} days · {rated} · "
        f"{board.size} rated · page {board.page + 1}/{board.pages}", 2048))
    if board.pages <= 1:
        return embed, None
    rows = ButtonRows()
    rows.add(button(rating_page_id(board, board.page - 1), label="Previous", emoji="◀️",
                    disabled=board.page == 0))
    rows.add(button(rating_page_id(board, board.page + 1), label="Next", emoji="▶️",
                    disabled=board.page >= board.pages - 1))
    return embed, rows


# ----- stats --------------------------------------------------------------------------------


def mark(record_mark: Any, engine: Game[Any]) -> str:
    if record_mark is None:
        return MARKS["none"]
    if record_mark.status == "resigned":
        return MARKS["resigned"]
    return MARKS[engine.outcomes.get(record_mark.outcome or "", "loss")]


def contest_lines(contests: ContestRecord | None) -> list[str]:
    """Challenges played and won, and the best series total per length (when there are any)."""
    if contests is None:
        return []
    lines = []
    played, won = contests.challenges.played, contests.challenges.won
    if played:
        lines.append(f"Challenges: played **{played}** · won **{won}**")
    if contests.series_best:
        best = " · ".join(f"{b.length} runs **{b.best}**" for b in contests.series_best)
        lines.append(f"Best series: {best}")
    return lines


def strip_days(record: GameRecord) -> list[tuple[str, Any]]:
    """The strip's days: the last 14, from the player's first daily on (fewer when new)."""
    first = record.first_daily
    if first is None:
        return []
    return [(day, m) for day, m in record.recent if day >= first]


def strip(record: GameRecord, engine: Game[Any]) -> str:
    """The last days at a glance from the player's first daily on: a mark a day, ❄️ for a day
    a freeze stood in for, a week a row (oldest first); empty before any daily."""
    marks = [FROZEN if m is None and day in record.frozen else mark(m, engine)
             for day, m in strip_days(record)]
    return "\n".join("".join(marks[k:k + STRIP_ROW]) for k in range(0, len(marks), STRIP_ROW))


def strip_line(record: GameRecord, engine: Game[Any]) -> str:
    """``Last 14 days:`` (or fewer, since the first daily) and the strip below it."""
    days = len(strip_days(record))
    if not days:
        return "Dailies: none yet (`/daily` to play today's deal)."
    heading = (f"Last {days} days:" if days == len(record.recent)
               else f"Since the first daily ({days} {'day' if days == 1 else 'days'}):")
    return f"{heading}\n{strip(record, engine)}"


def freeze_line(record: GameRecord) -> str:
    """``Freezes held: 1 of 2 · days frozen: 3`` (a freeze every 7 days played in a row)."""
    return (f"Freezes held: **{record.freezes}** of {MAX_FREEZES} · days frozen: "
            f"{len(record.frozen)}")


def month_trend(change: int | None) -> str:
    """`` ▲ 56 this month`` (or ▼, or unchanged); nothing without a rated day this month."""
    if change is None:
        return ""
    if change == 0:
        return " unchanged this month"
    return f" {'▲' if change > 0 else '▼'} {abs(change)} this month"


def rating_line(ratings: list[PlayerRating] | None) -> str | None:
    """``Rating: **1234** ▲ 56 this month (standard, 12 days) · **1010** (hard,
    provisional, 3 of 10 days)``."""
    if not ratings:
        return None
    parts = []
    for r in ratings:
        note = (f"provisional, {r.days} of {ESTABLISHED_DAYS} days" if r.provisional
                else f"{r.days} days")
        parts.append(f"**{r.rating}**{month_trend(r.month_change)} ({r.variant}, {note})")
    return "Rating: " + " · ".join(parts)


def stats(name: str, records: list[GameRecord],
          contests: dict[str, ContestRecord] | None = None,
          pars: dict[str, ParRecord] | None = None,
          ratings: dict[str, list[PlayerRating]] | None = None) -> discord.Embed:
    """A player's record per game: runs, wins, best and average, streaks, the last 14 days,
    and (``contests``, by game) challenges played and won and the best series totals."""
    embed = discord.Embed(title=clip(f"{name}'s record", 256), colour=COLOUR)
    for record in records:
        s = record.stats
        engine = GAMES[s.game]
        if s.finished == 0:
            embed.add_field(name=engine.title, value="No finished runs yet.", inline=False)
            continue
        rate = 100 * s.wins / s.finished
        _, unit = engine.stat
        lines = [
            f"Runs **{s.finished}** · wins **{s.wins}** ({rate:.0f}%) · dailies {s.dailies}",
            f"Best: **{s.best_text}** · average {s.average_points or 0:.1f} {unit}",
            f"Daily streak: **{record.current_streak}** (longest {record.longest_streak})",
            freeze_line(record),
            strip_line(record, engine),
        ]
        rated = rating_line((ratings or {}).get(s.game))
        if rated is not None:
            lines.append(rated)
        if s.hinted:
            lines.append(f"Runs with hints: {s.hinted}")
        par = (pars or {}).get(s.game)
        if par is not None and par.played:
            lines.append(f"Par reached: **{par.reached}** of {par.played} solved dailies")
        lines += contest_lines((contests or {}).get(s.game))
        embed.add_field(name=engine.title, value="\n".join(lines), inline=False)
    embed.set_footer(text=f"🟩 won · 🟨 out alive · 🟥 lost · ⬜ resigned · {MARKS['none']} not "
                     "played · ❄️ frozen (a freeze for every 7 days in a row) · a week a row")
    return embed


# ----- a finished daily ---------------------------------------------------------------------


def standing_text(run: Run, standing: Standing, now: datetime) -> str:
    """Where a finished daily stands, and when the next deal comes."""
    parts = []
    if not run.ranked:
        parts.append("This run is not ranked (finished after its day's boards closed).")
    if standing.server is not None:
        parts.append(f"#{standing.server.rank} of {standing.server_size} on this server")
    if standing.world is not None:
        parts.append(f"#{standing.world.rank} of {standing.world_size} worldwide")
    assert run.day is not None
    nxt = next_deal_at(utc(now).date().isoformat())
    text = " · ".join(parts) if parts else "Not on a board."
    return f"{text}\nNext deal {countdown(nxt)} (at {clock(nxt)})."


def commitment_field(embed: discord.Embed, run: Run, commitment: str) -> None:
    assert run.day is not None
    embed.add_field(
        name=f"Deal of {game_day(run.game, run.day)}",
        value=f"Commitment `{short_commitment(commitment)}`: the seed is revealed when the "
        f"day's boards close, {at(closes_at(run.day))}; check both with /verify.",
        inline=False,
    )


# ----- /verify ------------------------------------------------------------------------------


def verify(game: str, variant: str, day: str, commitment: str, seed: int | None,
           now: datetime, par: ParStanding | None = None) -> discord.Embed:
    """The day's commitment, and once closed its seed and how to check both, and its par
    (``par``) once solved."""
    title = f"{game_day(game, day)} · {variant} · {day}"
    lines = [f"Commitment: `{commitment}`"]
    if seed is None:
        when = closes_at(day)
        lines.append(f"The seed is revealed when the day's boards close: {at(when)}.")
    else:
        lines += [
            f"Seed: `{seed}`",
            "",
            "Check it yourself (see docs/deal.md in the project):",
            f"```\npython -m rules deal {game} --variant {variant} --seed {seed} --verbose\n```",
            "The commitment is the SHA-256 of the seed as 8 bytes, big-endian. Replay any ranked "
            "run: `/verify` with its `run` gives its moves, then",
            f"```\npython -m rules replay {game} --variant {variant} --seed {seed} "
            "--actions run.txt\n```",
        ]
        if par is not None:
            lines += ["", par_field(par),
                      f"Check it: `python -m rules solve {game} --variant {variant} "
                      f"--seed {seed}`"]
        else:
            lines += ["", "Par (the best score this deal allows): not solved. The bot solves "
                      "the latest three closed days, within minutes of their close."]
    return discord.Embed(title=clip(title, 256), description="\n".join(lines), colour=COLOUR)


def transcript(run: Run, moves: list[str]) -> str:
    """A run's moves in the terminal's transcript format (``python -m rules replay``)."""
    head = (f"# {run.title} ({run.variant}), seed {run.seed}, run #{run.id}: "
            f"{run.view['score_text']}\n"
            f"# python -m rules replay {run.game} --variant {run.variant} --seed {run.seed} "
            f"--actions run-{run.id}.txt\n")
    return head + "".join(f"{move}\n" for move in moves)
