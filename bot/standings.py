"""What the daily shows: leaderboards, a player's stats, /verify, and a finished daily's
standing. Pure rendering of the core's answers into embeds and buttons; no Discord calls.

Every function takes the :class:`~bot.i18n.Language` to speak (English by default): the
reader's for what only they see, the server's for a public board. English keeps its ISO
dates and plain numbers; another language gets its own (``1 234``, ``1 décembre 2026``).
"""

from __future__ import annotations

import functools
from datetime import date, datetime
from typing import Any

import discord
from babel.numbers import format_decimal, format_percent

from bot.boards.common import clip
from bot.buttons import ButtonRows, button, make_id
from bot.i18n import ENGLISH, Language
from bot.timestamps import at, clock, countdown
from core import rankings
from core.clock import utc
from core.daily import closes_at, day_number, next_deal_at
from core.errors import N_, Nn_
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


#: The units the games count their /stats average in (the engines' words, marked here too so
#: a board says them in its language even before the engines' own phrases).
UNITS = (N_("cards"), N_("points"), N_("monsters slain"))


def english_like(language: Language) -> bool:
    """Whether ``language`` writes numbers and days as the English boards always have
    (``1234``, ``2026-12-01``): English and its pseudo-locale."""
    return language.locale.language == "en"


def number(language: Language, value: int) -> str:
    """A count or total: ``1234`` in English, ``1 234`` in French, ``1.234`` in German."""
    return str(value) if english_like(language) else language.number(value)


def one_decimal(language: Language, value: float) -> str:
    """``12.5`` (``12,5`` in French and German)."""
    if english_like(language):
        return f"{value:.1f}"
    return format_decimal(value, format="#,##0.0", locale=language.locale)


def percent(language: Language, value: float) -> str:
    """A whole percentage: ``50%`` (``50 %`` in French and German)."""
    if english_like(language):
        return f"{value:.0f}%"
    return format_percent(value / 100, locale=language.locale)


def day_text(language: Language, day: str) -> str:
    """A day as a board names it: ``2026-12-01`` in English, ``1 décembre 2026`` in French."""
    if english_like(language):
        return day
    return language.day(date.fromisoformat(day))


def month_text(language: Language, month: str) -> str:
    """A month (``2026-12``): as it is in English, ``décembre 2026`` in French."""
    if english_like(language):
        return month
    return language.day(date.fromisoformat(f"{month}-01"), "LLLL y")


DAYS = Nn_("{count} day", "{count} days")


def counted(language: Language, forms: tuple[str, str], count: int, **fields: object) -> str:
    """A sentence with a plural (``forms`` marked with ``Nn_``, ``{count}`` in each form)
    for ``count``, its other fields filled."""
    return language.ngettext(*forms, count).format(count=number(language, count), **fields)


def days_text(language: Language, days: int) -> str:
    """``1 day``, ``3 days``."""
    return language.ngettext(*DAYS, days).format(count=number(language, days))


GAME_DAY = N_("{game} #{number}")


def game_day(game: str, day: str, language: Language = ENGLISH) -> str:
    """``Donsol #12`` (``Donsol n° 12``)."""
    return language.format(GAME_DAY, game=GAMES[game].title, number=day_number(day))


def listed_name(line: BoardLine | PeriodLine | RatingLine, language: Language = ENGLISH) -> str:
    """The name a board line shows (``core.rankings.listed_name``), markdown escaped."""
    return discord.utils.escape_markdown(language.render(rankings.listed_name(line)))


def score_shown(line: BoardLine, language: Language) -> str:
    """A line's score text, and "(resigned)" after a resigned run's."""
    return language.render(rankings.score_shown(line))


def line_text(line: BoardLine, language: Language = ENGLISH) -> str:
    name = listed_name(line, language)
    return f"`#{line.rank:>3}` **{clip(name, 40)}** — {score_shown(line, language)}"


def short_commitment(commitment: str) -> str:
    """The commitment's first characters, enough to compare with the whole one in /verify."""
    return f"{commitment[:SHORT_COMMITMENT]}…"


def play_daily_id(game: str, variant: str) -> str:
    """A board's "Play today's deal": starts or resumes the clicker's daily (``bot.cogs.daily``)."""
    return make_id(PLAY_DAILY, game, variant)


PLAY_TODAYS_DEAL = N_("Play today's deal")


def play_daily_button(rows: ButtonRows, game: str, variant: str, row: int = 2,
                      language: Language = ENGLISH) -> None:
    rows.add(button(play_daily_id(game, variant), label=language.gettext(PLAY_TODAYS_DEAL),
                    emoji="📅", style=discord.ButtonStyle.primary, row=row))


PREVIOUS = N_("Previous")
NEXT = N_("Next")


def page_buttons(rows: ButtonRows, previous_id: str, next_id: str, page: int, pages: int,
                 language: Language, row: int | None = 0) -> None:
    """A board's ◀️ Previous and ▶️ Next."""
    rows.add(button(previous_id, label=language.gettext(PREVIOUS), emoji="◀️",
                    disabled=page == 0, row=row))
    rows.add(button(next_id, label=language.gettext(NEXT), emoji="▶️",
                    disabled=page >= pages - 1, row=row))


def viewer_of(lines: list[Any], own: Any, viewer_id: int | None) -> Any:
    """The viewer's line on a board (on its page, or ``own`` below it), or None."""
    if viewer_id is None:
        return None
    return next((line for line in lines if line.owner_id == viewer_id), own)


NO_RUN_YET = N_("You have no ranked run on this board yet.")
NO_RUN = N_("You have no ranked run on this board.")
YOU = N_("You: **#{rank}** of {size} · {score}")


def your_line(board: Leaderboard, viewer_id: int | None, language: Language = ENGLISH) -> str:
    """What only the caller of a public day's board is told: their own place on it."""
    line = viewer_of(board.lines, board.own, viewer_id)
    if line is None:
        return language.gettext(NO_RUN_YET if not board.closed else NO_RUN)
    return language.format(YOU, rank=line.rank, size=number(language, board.size),
                           score=score_shown(line, language))


# ----- leaderboards -------------------------------------------------------------------------


def board_page_id(board: Leaderboard, page: int) -> str:
    scope = "g" if board.guild_id is None else "s"
    return make_id(BOARD_PAGE, board.game, board.variant, board.day, scope, board.guild_id or 0,
                   page)


THIS_SERVER = N_("this server")
EVERYONE = N_("everyone")
DAY_TITLE = N_("{game_day} · {variant} · {where}")
NO_RANKED_RUNS = N_("No ranked runs yet. Play today's deal with `/daily`.")
YOUNG_ACCOUNTS = N_("*Accounts younger than {days} days are not ranked on this server's board.*")
FINAL_SEED = N_("Final. Seed `{seed}` (revealed): check it with /verify.")
OPEN_UNTIL = N_("Open: runs may rank until {time} ({countdown}). Commitment `{commitment}`: "
                "check it with /verify.")
RANKED_RUNS = N_("Ranked runs")
RANKING_UNTIL = N_("Ranking until")
PAR = N_("Par")
DAY_FOOTER = Nn_("{count} ranked · page {page}/{pages}", "{count} ranked · page {page}/{pages}")
REPLAY_RANK = N_("Replay #{rank}")


def where_text(guild_id: int | None, guild_name: str | None, language: Language) -> str:
    """Whose board: the server's name (or "this server"), or "everyone"."""
    if guild_id is None:
        return language.gettext(EVERYONE)
    return guild_name or language.gettext(THIS_SERVER)


def leaderboard(board: Leaderboard, *, viewer_id: int | None, now: datetime,
                guild_name: str | None = None, par: ParStanding | None = None,
                language: Language = ENGLISH) -> tuple[discord.Embed, ButtonRows | None]:
    """A page of a day's board as everyone reading it sees it (no line marked: the caller
    hears their own place privately, :func:`your_line`), paging buttons, and while the day is
    open "Play today's deal"; once closed, its par (``par``) and a button to replay each of
    the page's first :data:`REPLAY_BUTTONS` runs. ``viewer_id`` is not shown: it is kept for
    callers that still pass it."""
    del viewer_id
    where = where_text(board.guild_id, guild_name, language)
    title = language.format(DAY_TITLE, game_day=game_day(board.game, board.day, language),
                            variant=language.render(board.variant), where=where)
    lines = [line_text(line, language) for line in board.lines]
    if not board.lines:
        lines = [language.gettext(NO_RANKED_RUNS)]
    if board.min_account_age:
        lines.append("\n" + language.format(YOUNG_ACCOUNTS, days=board.min_account_age))
    embed = discord.Embed(title=clip(title, 256), description="\n".join(lines), colour=COLOUR)
    if board.closed:
        state = language.format(FINAL_SEED, seed=board.seed)
    else:
        final = closes_at(board.day)
        state = language.format(OPEN_UNTIL, time=clock(final), countdown=countdown(final),
                                commitment=short_commitment(board.commitment))
    embed.add_field(name=language.gettext(RANKED_RUNS if board.closed else RANKING_UNTIL),
                    value=state, inline=False)
    if par is not None:
        embed.add_field(name=language.gettext(PAR), value=par_field(par, language), inline=False)
    embed.set_footer(text=clip(counted(language, DAY_FOOTER, board.size, page=board.page + 1,
                                       pages=board.pages), 2048))
    replays = board.lines[:REPLAY_BUTTONS] if board.closed else []
    rows = ButtonRows()
    if not board.closed and board.day == next_deal_day(now):
        play_daily_button(rows, board.game, board.variant, language=language)
    if board.pages > 1:
        page_buttons(rows, board_page_id(board, board.page - 1),
                     board_page_id(board, board.page + 1), board.page, board.pages, language)
    for line in replays:
        rows.add(button(replay_open_id(line.run_id),
                        label=language.format(REPLAY_RANK, rank=line.rank), emoji="🎞️", row=1))
    return embed, (rows if rows.buttons else None)


def next_deal_day(now: datetime) -> str:
    """Today's UTC day at ``now``: the day whose deal "Play today's deal" plays."""
    return utc(now).date().isoformat()


def replay_open_id(run_id: int) -> str:
    """A button that opens a run's replay in a new message (``bot.cogs.replays``)."""
    return make_id(REPLAY, run_id, 0, "o")


PAR_EXACT = N_("Par: {score} (exact)")
PAR_BOUND = N_("Par: {score}")
PAR_REACHED = Nn_("Reached by **{reached}** of {count} ranked player.",
                  "Reached by **{reached}** of {count} ranked players.")


def par_text(par: ParStanding, language: Language = ENGLISH) -> str:
    """``Par: won with 14 HP (exact)``, or ``Par: at least 48/54 cards``."""
    row = par.par
    return language.format(PAR_EXACT if row.exact else PAR_BOUND,
                           score=language.render(row.score_text))


def par_field(par: ParStanding, language: Language = ENGLISH) -> str:
    """``Par: won with 14 HP (exact)`` and how many of the board reached it."""
    reached = language.ngettext(*PAR_REACHED, par.ranked).format(
        reached=number(language, par.reached), count=number(language, par.ranked))
    return f"{par_text(par, language)}\n{reached}"


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


PERIOD_LINE = N_("{score} ({days})")


def total_text(engine: Game[Any], total: int, language: Language) -> str:
    """A week's or month's total with its unit in the right plural form: ``1 card``."""
    return language.render(engine.stat_text(total, shown=number(language, total)))


def period_line_text(line: PeriodLine, engine: Game[Any], language: Language = ENGLISH) -> str:
    name = listed_name(line, language)
    total = language.format(PERIOD_LINE, score=total_text(engine, line.total, language),
                            days=days_text(language, line.days))
    return f"`#{line.rank:>3}` **{clip(name, 40)}** — {total}"


NO_PERIOD_DAILY = N_("You have no ranked daily on this board.")
YOU_PERIOD = N_("You: **#{rank}** of {size} · {score} ({days})")


def your_period_line(board: PeriodBoard, viewer_id: int | None,
                     language: Language = ENGLISH) -> str:
    """What only the caller of a public week's or month's board is told: their place."""
    line = viewer_of(board.lines, board.own, viewer_id)
    if line is None:
        return language.gettext(NO_PERIOD_DAILY)
    return language.format(YOU_PERIOD, rank=line.rank, size=number(language, board.size),
                           score=total_text(GAMES[board.game], line.total, language),
                           days=days_text(language, line.days))


WEEK_TITLE = N_("{game} · week of {first} to {last} · {variant} · {where}")
MONTH_TITLE = N_("{game} · month of {month} · {variant} · {where}")
NO_DAILIES_THIS_WEEK = N_("No ranked dailies this week yet. Play today's deal with `/daily`.")
NO_DAILIES_THIS_MONTH = N_("No ranked dailies this month yet. Play today's deal with `/daily`.")
NOBODY_RANKED_IN_IT = N_("Nobody ranked a daily in it.")
YOUNG_ON_MONDAY = N_("*Accounts younger than {days} days on Monday are not ranked on this "
                     "server's board.*")
YOUNG_ON_THE_FIRST = N_("*Accounts younger than {days} days on the 1st are not ranked on this "
                        "server's board.*")
MONTH_FINAL = N_("Final: the month's last day has closed.")
MONTH_OPEN = N_("Open: final at {when}.")
RANKED_DAILIES = N_("Ranked dailies")
WEEK_FOOTER = Nn_("Each player's ranked daily {unit}, added up Monday to Sunday (UTC) · "
                  "{count} player · page {page}/{pages}",
                  "Each player's ranked daily {unit}, added up Monday to Sunday (UTC) · "
                  "{count} players · page {page}/{pages}")
MONTH_FOOTER = Nn_("Each player's ranked daily {unit}, added up {first} to {last} (UTC) · "
                   "{count} player · page {page}/{pages}",
                   "Each player's ranked daily {unit}, added up {first} to {last} (UTC) · "
                   "{count} players · page {page}/{pages}")


def period_board(board: PeriodBoard, *, viewer_id: int | None, now: datetime | None = None,
                 guild_name: str | None = None, language: Language = ENGLISH,
                 ) -> tuple[discord.Embed, ButtonRows | None]:
    """A page of a week's or a month's board: each player's daily points added up, no line
    marked (:func:`your_period_line` is the caller's, said privately), and while it is open
    "Play today's deal"."""
    del viewer_id
    engine = GAMES[board.game]
    _, unit = engine.stat
    where = where_text(board.guild_id, guild_name, language)
    variant = language.render(board.variant)
    week = board.span == "week"
    if week:
        title = language.format(WEEK_TITLE, game=engine.title,
                                first=day_text(language, board.first),
                                last=day_text(language, board.last), variant=variant,
                                where=where)
    else:
        title = language.format(MONTH_TITLE, game=engine.title,
                                month=month_text(language, board.month), variant=variant,
                                where=where)
    lines = [period_line_text(line, engine, language) for line in board.lines]
    if not board.lines:
        lines = [language.gettext(NOBODY_RANKED_IN_IT if board.closed else
                                  NO_DAILIES_THIS_WEEK if week else NO_DAILIES_THIS_MONTH)]
    if board.min_account_age:
        lines.append("\n" + language.format(YOUNG_ON_MONDAY if week else YOUNG_ON_THE_FIRST,
                                            days=board.min_account_age))
    embed = discord.Embed(title=clip(title, 256), description="\n".join(lines), colour=COLOUR)
    if not week:
        final = closes_at(board.last)
        state = (language.gettext(MONTH_FINAL) if board.closed else
                 language.format(MONTH_OPEN, when=at(final)))
        embed.add_field(name=language.gettext(RANKED_DAILIES), value=state, inline=False)
    pages = {"page": board.page + 1, "pages": board.pages, "unit": language.render(unit)}
    footer = (counted(language, WEEK_FOOTER, board.size, **pages) if week else
              counted(language, MONTH_FOOTER, board.size, first=day_text(language, board.first),
                      last=day_text(language, board.last), **pages))
    embed.set_footer(text=clip(footer, 2048))
    rows = ButtonRows()
    if board.pages > 1:
        page_buttons(rows, period_page_id(board, board.page - 1),
                     period_page_id(board, board.page + 1), board.page, board.pages, language)
    if (not board.closed and now is not None
            and board.first <= next_deal_day(now) <= board.last):
        play_daily_button(rows, board.game, board.variant, row=1, language=language)
    return embed, (rows if rows.buttons else None)


# ----- the rating board --------------------------------------------------------------------


def rating_page_id(board: RatingBoard, page: int) -> str:
    scope = "g" if board.guild_id is None else "s"
    return make_id(RATING_PAGE, board.game, board.variant, scope, board.guild_id or 0, page)


RATING_LINE = N_("{rating} ({days})")
RATING_LINE_PROVISIONAL = N_("{rating} ({days} provisional)")


def rating_line_text(line: RatingLine, language: Language = ENGLISH) -> str:
    name = listed_name(line, language)
    template = RATING_LINE_PROVISIONAL if line.days < ESTABLISHED_DAYS else RATING_LINE
    shown = language.format(template, rating=number(language, line.rating),
                            days=days_text(language, line.days))
    return f"`#{line.rank:>3}` **{clip(name, 40)}** — {shown}"


NOT_RATED = N_("You are not rated on this board yet.")
YOU_RATED = N_("You: **#{rank}** of {size} · rating {rating} ({days})")


def your_rating_line(board: RatingBoard, viewer_id: int | None,
                     language: Language = ENGLISH) -> str:
    """What only the caller of a public rating board is told: their place on it."""
    line = viewer_of(board.lines, board.own, viewer_id)
    if line is None:
        return language.gettext(NOT_RATED)
    return language.format(YOU_RATED, rank=line.rank, size=number(language, board.size),
                           rating=number(language, line.rating),
                           days=days_text(language, line.days))


RATING_TITLE = N_("{game} · rating · {variant} · {where}")
NOBODY_RATED = N_("Nobody is rated yet: ratings come from the daily boards once a day's boards "
                  "are final.")
RATED_TO = N_("rated to {day}")
NO_DAY_RATED = N_("no day rated yet")
RATING_FOOTER = Nn_(
    "Each closed day's global board is one match (openskill); the rating is μ − 3σ, shown as "
    "1000 + 40×, provisional under {established} days · {rated} · {count} rated · page "
    "{page}/{pages}",
    "Each closed day's global board is one match (openskill); the rating is μ − 3σ, shown as "
    "1000 + 40×, provisional under {established} days · {rated} · {count} rated · page "
    "{page}/{pages}")


def rating_board(board: RatingBoard, *, viewer_id: int | None, guild_name: str | None = None,
                 language: Language = ENGLISH) -> tuple[discord.Embed, ButtonRows | None]:
    """A page of a rating board: each player's rating from the closed days' global boards, no
    line marked (:func:`your_rating_line` is the caller's, said privately)."""
    del viewer_id
    engine = GAMES[board.game]
    where = where_text(board.guild_id, guild_name, language)
    title = language.format(RATING_TITLE, game=engine.title,
                            variant=language.render(board.variant), where=where)
    lines = [rating_line_text(line, language) for line in board.lines]
    if not board.lines:
        lines = [language.gettext(NOBODY_RATED)]
    if board.min_account_age:
        lines.append("\n" + language.format(YOUNG_ACCOUNTS, days=board.min_account_age))
    embed = discord.Embed(title=clip(title, 256), description="\n".join(lines), colour=COLOUR)
    rated = (language.format(RATED_TO, day=day_text(language, board.last_day))
             if board.last_day else language.gettext(NO_DAY_RATED))
    embed.set_footer(text=clip(counted(
        language, RATING_FOOTER, board.size, established=ESTABLISHED_DAYS, rated=rated,
        page=board.page + 1, pages=board.pages), 2048))
    if board.pages <= 1:
        return embed, None
    rows = ButtonRows()
    page_buttons(rows, rating_page_id(board, board.page - 1),
                 rating_page_id(board, board.page + 1), board.page, board.pages, language,
                 row=None)
    return embed, rows


# ----- stats --------------------------------------------------------------------------------


def mark(record_mark: Any, engine: Game[Any]) -> str:
    if record_mark is None:
        return MARKS["none"]
    if record_mark.status == "resigned":
        return MARKS["resigned"]
    return MARKS[engine.outcomes.get(record_mark.outcome or "", "loss")]


CHALLENGES = N_("Challenges: played **{played}** · won **{won}**")
SERIES_BEST = Nn_("{count} run **{best}**", "{count} runs **{best}**")
BEST_SERIES = N_("Best series: {best}")


def contest_lines(contests: ContestRecord | None, language: Language = ENGLISH) -> list[str]:
    """Challenges played and won, and the best series total per length (when there are any)."""
    if contests is None:
        return []
    lines = []
    played, won = contests.challenges.played, contests.challenges.won
    if played:
        lines.append(language.format(CHALLENGES, played=number(language, played),
                                     won=number(language, won)))
    if contests.series_best:
        best = " · ".join(language.ngettext(*SERIES_BEST, b.length).format(
            count=b.length, best=number(language, b.best)) for b in contests.series_best)
        lines.append(language.format(BEST_SERIES, best=best))
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


NO_DAILIES = N_("Dailies: none yet (`/daily` to play today's deal).")
LAST_DAYS = Nn_("Last {count} day:", "Last {count} days:")
SINCE_FIRST = Nn_("Since the first daily ({count} day):", "Since the first daily ({count} days):")


def strip_line(record: GameRecord, engine: Game[Any], language: Language = ENGLISH) -> str:
    """``Last 14 days:`` (or fewer, since the first daily) and the strip below it."""
    days = len(strip_days(record))
    if not days:
        return language.gettext(NO_DAILIES)
    forms = LAST_DAYS if days == len(record.recent) else SINCE_FIRST
    heading = language.ngettext(*forms, days).format(count=days)
    return f"{heading}\n{strip(record, engine)}"


FREEZES = N_("Freezes held: **{held}** of {most} · days frozen: {frozen}")


def freeze_line(record: GameRecord, language: Language = ENGLISH) -> str:
    """``Freezes held: 1 of 2 · days frozen: 3`` (a freeze every 7 days played in a row)."""
    return language.format(FREEZES, held=record.freezes, most=MAX_FREEZES,
                           frozen=number(language, len(record.frozen)))


UNCHANGED_THIS_MONTH = N_("unchanged this month")
UP_THIS_MONTH = N_("▲ {change} this month")
DOWN_THIS_MONTH = N_("▼ {change} this month")


def month_trend(change: int | None, language: Language = ENGLISH) -> str:
    """`` ▲ 56 this month`` (or ▼, or unchanged); nothing without a rated day this month."""
    if change is None:
        return ""
    if change == 0:
        return " " + language.gettext(UNCHANGED_THIS_MONTH)
    return " " + language.format(UP_THIS_MONTH if change > 0 else DOWN_THIS_MONTH,
                                 change=number(language, abs(change)))


RATED_PROVISIONAL = N_("**{rating}**{trend} ({variant}, provisional, {days} of {established} "
                       "days)")
RATED = N_("**{rating}**{trend} ({variant}, {days})")
RATING = N_("Rating: {ratings}")


def rating_line(ratings: list[PlayerRating] | None, language: Language = ENGLISH) -> str | None:
    """``Rating: **1234** ▲ 56 this month (standard, 12 days) · **1010** (hard,
    provisional, 3 of 10 days)``."""
    if not ratings:
        return None
    parts = []
    for r in ratings:
        common = {"rating": number(language, r.rating), "variant": language.render(r.variant),
                  "trend": month_trend(r.month_change, language)}
        if r.provisional:
            parts.append(language.format(RATED_PROVISIONAL, days=r.days,
                                         established=ESTABLISHED_DAYS, **common))
        else:
            parts.append(language.format(RATED, days=days_text(language, r.days), **common))
    return language.format(RATING, ratings=" · ".join(parts))


RECORD_TITLE = N_("{name}'s record")
NO_FINISHED_RUNS = N_("No finished runs yet.")
RUNS_LINE = N_("Runs **{finished}** · wins **{wins}** ({rate}) · dailies {dailies}")
BEST_LINE = N_("Best: **{best}** · average {average} {unit}")
STREAK_LINE = N_("Daily streak: **{current}** (longest {longest})")
HINTED_LINE = N_("Runs with hints: {count}")
PAR_LINE = N_("Par reached: **{reached}** of {played} solved dailies")
STATS_FOOTER = N_("🟩 won · 🟨 out alive · 🟥 lost · ⬜ resigned · {none} not played · ❄️ frozen "
                  "(a freeze for every 7 days in a row) · a week a row")


def stats(name: str, records: list[GameRecord],
          contests: dict[str, ContestRecord] | None = None,
          pars: dict[str, ParRecord] | None = None,
          ratings: dict[str, list[PlayerRating]] | None = None,
          language: Language = ENGLISH) -> discord.Embed:
    """A player's record per game: runs, wins, best and average, streaks, the last 14 days,
    and (``contests``, by game) challenges played and won and the best series totals."""
    embed = discord.Embed(title=clip(language.format(RECORD_TITLE, name=name), 256),
                          colour=COLOUR)
    for record in records:
        s = record.stats
        engine = GAMES[s.game]
        if s.finished == 0:
            embed.add_field(name=engine.title, value=language.gettext(NO_FINISHED_RUNS),
                            inline=False)
            continue
        rate = 100 * s.wins / s.finished
        _, unit = engine.stat
        lines = [
            language.format(RUNS_LINE, finished=number(language, s.finished),
                            wins=number(language, s.wins), rate=percent(language, rate),
                            dailies=number(language, s.dailies)),
            language.format(BEST_LINE, best=language.render(s.best_text),
                            average=one_decimal(language, s.average_points or 0),
                            unit=language.render(unit)),
            language.format(STREAK_LINE, current=number(language, record.current_streak),
                            longest=number(language, record.longest_streak)),
            freeze_line(record, language),
            strip_line(record, engine, language),
        ]
        rated = rating_line((ratings or {}).get(s.game), language)
        if rated is not None:
            lines.append(rated)
        if s.hinted:
            lines.append(language.format(HINTED_LINE, count=number(language, s.hinted)))
        par = (pars or {}).get(s.game)
        if par is not None and par.played:
            lines.append(language.format(PAR_LINE, reached=number(language, par.reached),
                                         played=number(language, par.played)))
        lines += contest_lines((contests or {}).get(s.game), language)
        embed.add_field(name=engine.title, value="\n".join(lines), inline=False)
    embed.set_footer(text=language.format(STATS_FOOTER, none=MARKS["none"]))
    return embed


# ----- a finished daily ---------------------------------------------------------------------

NOT_RANKED = N_("This run is not ranked (finished after its day's boards closed).")
ON_THIS_SERVER = N_("#{rank} of {size} on this server")
WORLDWIDE = N_("#{rank} of {size} worldwide")
NOT_ON_A_BOARD = N_("Not on a board.")
NEXT_DEAL = N_("Next deal {countdown} (at {time}).")


def standing_text(run: Run, standing: Standing, now: datetime,
                  language: Language = ENGLISH) -> str:
    """Where a finished daily stands, and when the next deal comes."""
    parts = []
    if not run.ranked:
        parts.append(language.gettext(NOT_RANKED))
    if standing.server is not None:
        parts.append(language.format(ON_THIS_SERVER, rank=standing.server.rank,
                                     size=number(language, standing.server_size)))
    if standing.world is not None:
        parts.append(language.format(WORLDWIDE, rank=standing.world.rank,
                                     size=number(language, standing.world_size)))
    assert run.day is not None
    nxt = next_deal_at(utc(now).date().isoformat())
    text = " · ".join(parts) if parts else language.gettext(NOT_ON_A_BOARD)
    return f"{text}\n" + language.format(NEXT_DEAL, countdown=countdown(nxt), time=clock(nxt))


DEAL_OF = N_("Deal of {game_day}")
COMMITMENT_FIELD = N_("Commitment `{commitment}`: the seed is revealed when the day's boards "
                      "close, {when}; check both with /verify.")


def commitment_field(embed: discord.Embed, run: Run, commitment: str,
                     language: Language = ENGLISH) -> None:
    assert run.day is not None
    name, value = _commitment_words(run.game, run.day, commitment, language)
    embed.add_field(name=name, value=value, inline=False)


@functools.lru_cache(maxsize=256)
def _commitment_words(game: str, day: str, commitment: str,
                      language: Language) -> tuple[str, str]:
    # Said once per game, day and language: it is on every click's board of a daily, and
    # its date words (Babel) cost more than the rest of the field.
    return (language.format(DEAL_OF, game_day=game_day(game, day, language)),
            language.format(COMMITMENT_FIELD, commitment=short_commitment(commitment),
                            when=at(closes_at(day))))


# ----- /verify ------------------------------------------------------------------------------

VERIFY_TITLE = N_("{game_day} · {variant} · {day}")
COMMITMENT = N_("Commitment: `{commitment}`")
SEED_LATER = N_("The seed is revealed when the day's boards close: {when}.")
SEED = N_("Seed: `{seed}`")
CHECK_YOURSELF = N_("Check it yourself (see docs/deal.md in the project):")
HOW_COMMITTED = N_("The commitment is the SHA-256 of the seed as 8 bytes, big-endian. Replay "
                   "any ranked run: `/verify` with its `run` gives its moves, then")
CHECK_PAR = N_("Check it: `{command}`")
PAR_NOT_SOLVED = N_("Par (the best score this deal allows): not solved. The bot solves the "
                    "latest three closed days, within minutes of their close.")


def verify(game: str, variant: str, day: str, commitment: str, seed: int | None,
           now: datetime, par: ParStanding | None = None,
           language: Language = ENGLISH) -> discord.Embed:
    """The day's commitment, and once closed its seed and how to check both, and its par
    (``par``) once solved."""
    title = language.format(VERIFY_TITLE, game_day=game_day(game, day, language),
                            variant=language.render(variant), day=day_text(language, day))
    lines = [language.format(COMMITMENT, commitment=commitment)]
    if seed is None:
        lines.append(language.format(SEED_LATER, when=at(closes_at(day))))
    else:
        lines += [
            language.format(SEED, seed=seed),
            "",
            language.gettext(CHECK_YOURSELF),
            f"```\npython -m rules deal {game} --variant {variant} --seed {seed} --verbose\n```",
            language.gettext(HOW_COMMITTED),
            f"```\npython -m rules replay {game} --variant {variant} --seed {seed} "
            "--actions run.txt\n```",
        ]
        if par is not None:
            lines += ["", par_field(par, language),
                      language.format(CHECK_PAR, command=f"python -m rules solve {game} "
                                      f"--variant {variant} --seed {seed}")]
        else:
            lines += ["", language.gettext(PAR_NOT_SOLVED)]
    return discord.Embed(title=clip(title, 256), description="\n".join(lines), colour=COLOUR)

def transcript(run: Run, moves: list[str]) -> str:
    """A run's moves in the terminal's transcript format (``python -m rules replay``)."""
    head = (f"# {run.title} ({run.variant}), seed {run.seed}, run #{run.id}: "
            f"{run.view['score_text']}\n"
            f"# python -m rules replay {run.game} --variant {run.variant} --seed {run.seed} "
            f"--actions run-{run.id}.txt\n")
    return head + "".join(f"{move}\n" for move in moves)
