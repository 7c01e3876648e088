"""How a closed day's look back reads (``core.lookback``): the "Yesterday: …" line atop the next
``/daily``, the field under a replay, and the ``/stats day:`` embed, each in the reader's
:class:`~bot.i18n.Language` (the core's parts are phrases). Nothing here talks to Discord or
the database.
"""

from __future__ import annotations

import discord

from bot.boards.common import add_field, clip
from bot.i18n import ENGLISH, Language
from core.errors import N_, Nn_
from core.lookback import LookBack

COLOUR = discord.Colour.dark_teal()

TURNING_POINT_REPLAY = N_("turning point: /replay run:{run}")
YESTERDAY = N_("Yesterday: {parts}")
LOOK_BACK_AT = N_("Look back at {name}")
DAY_TITLE = N_("{player}'s {name}")
SCORE = N_("Score: **{score}**")
AGAINST_PAR = N_("Against par: **{against}**")
AGAINST_PAR_OF = N_("Against par: **{against}** ({par})")
AMONG_RANKED = Nn_("Among {count} ranked: **{percentile}**",
                   "Among {count} ranked: **{percentile}**")
DAYS_BEST = N_("The day's best: **{score}**")
TURNING_POINT = N_("Turning point: {turn}")
REPLAY = N_("Replay: /replay run:{run}")
LOOK_BACK = N_("Look back")
FOOTER = N_("Percentile: the share of the day's other ranked players scoring lower (a tie "
            "beats nobody it ties with). Against par: the /stats average's part of the score.")
PAR_NOT_SOLVED_YET = N_("par not solved yet")


def turn_part(back: LookBack, language: Language = ENGLISH) -> str:
    """The turning point, or where to find it while it has not been worked out."""
    if back.turn_text:
        return language.render(back.turn_text)
    return language.format(TURNING_POINT_REPLAY, run=back.run_id)


def joined(parts: list[str], language: Language) -> str:
    return " · ".join(language.render(part) for part in parts)


def yesterday_line(back: LookBack, language: Language = ENGLISH) -> str:
    """``Yesterday: 92% of par · better than 71% · best won with 14 HP · turning point move 7``."""
    parts = [language.render(part) for part in back.parts()]
    if back.turn is None:
        parts.append(turn_part(back, language))
    return language.format(YESTERDAY, parts=" · ".join(parts))


def replay_field(embed: discord.Embed, back: LookBack, language: Language = ENGLISH) -> None:
    """The run's look back under its replay (the turning point has a field of its own)."""
    parts = [p for p in back.parts() if p != back.turn_text]
    add_field(embed, language.format(LOOK_BACK_AT, name=back.name), joined(parts, language),
              inline=False)


def day_embed(name: str, backs: list[LookBack], language: Language = ENGLISH) -> discord.Embed:
    """``/stats day:``: the look back of each of the player's dailies of that day."""
    first = backs[0]
    embed = discord.Embed(title=clip(language.format(DAY_TITLE, player=name, name=first.name),
                                     256), colour=COLOUR)
    for back in backs:
        against = language.render(back.against_par or PAR_NOT_SOLVED_YET)
        lines = [
            language.format(SCORE, score=language.render(back.score_text)),
            language.format(AGAINST_PAR_OF, against=against,
                            par=language.render(back.par.score_text))
            if back.par is not None else language.format(AGAINST_PAR, against=against),
            language.ngettext(*AMONG_RANKED, back.ranked).format(
                count=back.ranked, percentile=language.render(back.percentile_text)),
        ]
        if back.best_text is not None:
            lines.append(language.format(DAYS_BEST, score=language.render(back.best_text)))
        if back.turn is not None:
            lines.append(language.format(TURNING_POINT, turn=language.render(back.turn.text)))
        lines.append(language.format(REPLAY, run=back.run_id))
        title = language.render(back.variant) if len(backs) > 1 else language.gettext(LOOK_BACK)
        add_field(embed, title, "\n".join(lines), inline=False)
    embed.set_footer(text=language.gettext(FOOTER))
    return embed
