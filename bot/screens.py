"""What the bot shows: a run's board with its buttons, and the small screens around it.

Each function turns a core ``Run`` into a :class:`Screen` (one embed and its rows of
buttons). The board itself (embed and game buttons) is drawn by ``bot.games`` from the
engine's view of the state (``Run.view``); this module adds the adapter's controls in row 4.
Every button carries the run's version, so a board acts only on the run as it showed it.
Nothing here talks to Discord or the database.

Each screen is drawn in a language (``language=``, English by default) and can redraw itself
in another (:meth:`Screen.speak`): the presenter chooses whose (``bot.presenter``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot import standings
from bot.boards import result
from bot.boards.common import OWNERS_RUN, RUN_NUMBER, Pictured, kind_word
from bot.buttons import HINT_MARK, ButtonRows, PlainButton, button, control_id, move_id
from bot.games import BOARDS, choose, render_board
from bot.i18n import ENGLISH, Language
from core import IllegalMove, Run, RunKind, RunStatus
from core.clock import parse_timestamp
from rules import GAMES
from rules.deal import commitment as deal_commitment
from rules.words import N_, Message, Nn_, Phrase

#: A daily's commitment: on each of its boards, the same for everyone playing that deal.
_commitment = functools.lru_cache(maxsize=64)(deal_commitment)

CONTROL_ROW = 4
#: A message holds at most 25 buttons; /games keeps one row's worth of room for a summary.
GAMES_LISTED = 20

STALE = N_("That button was on an older board, so nothing was played. This is the board now.")
RUN_OVER = N_("This run is over.")
CONFIRM_RESIGN = N_("Resign this run? It ends here and cannot be resumed.")
HINT = N_("{mark} Hint: **{move}** — {reason}")
ILLEGAL = N_("That move is not possible: {reason}")

#: The controls' labels (row 4 and the result card's next steps).
BACK, UNDO, HINT_LABEL, RESIGN = N_("Back"), N_("Undo"), N_("Hint"), N_("Resign")
SHARE, PRACTICE, STATS = N_("Share"), N_("Practice {game}"), N_("Stats")
YES_RESIGN, KEEP_PLAYING = N_("Yes, resign"), N_("No, keep playing")
RESUME, ABANDON = N_("Resume"), N_("Abandon and start anew")
UNFINISHED_TITLE = N_("Your unfinished {game} run")
RESUME_OR_ABANDON = N_("Resume it, or abandon it and start anew.")
NO_UNFINISHED = N_("You have no unfinished runs. Start one with `/play` or `/daily`.")
UNFINISHED_LIST = N_("Your unfinished runs (a button brings its board back):")
OLDER = Nn_("…and {count} older one.", "…and {count} older ones.")
DESCRIBED = N_("{game} ({variant}, {kind}) · move {moves} · {score} · {run}")
DAILY_OF = N_("daily {day}")
STARTED = N_("started {when}")
STARTED_PLAYED = N_("started {when}, last played {last}")
UNFINISHED_LINE = N_("**{game}** ({variant}, {kind}) · move {moves} · {score} · {when}")


@dataclass(frozen=True)
class Screen:
    """One message's content: an embed and its buttons."""

    embed: discord.Embed
    buttons: ButtonRows
    #: The run whose board this is (its table picture goes with it); None for the screens
    #: around a board (a confirmation, a choice), which show no picture.
    run: Run | None = None
    #: How a playing board reads with its table picture (``bot.presenter`` applies it).
    pictured: Pictured | None = None
    #: The language its words are in (a board extra adds its own in the same).
    language: Language = ENGLISH
    #: The same screen drawn in another language: the presenter chooses whose language a
    #: board speaks (the reader's when ephemeral, the server's when public) as it sends it.
    redraw: Callable[[Language], Screen] | None = None
    #: What the clicker is also told privately, in their own language, when the board speaks
    #: another (a hint on a public board: the board shows it in the server's language).
    whisper: str | Message | None = None

    def speak(self, language: Language) -> Screen:
        """This screen in ``language`` (itself when it is in it, or cannot be redrawn)."""
        if self.redraw is None or language is self.language:
            return self
        return self.redraw(language)

    def kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``send_message`` and ``edit_message`` alike."""
        return {"embed": self.embed, "view": self.buttons}


def board(
    run: Run,
    *,
    owner: str | None = None,
    notice: str | None = None,
    hinted: str | None = None,
    choice: str | None = None,
    facts: result.Facts | None = None,
    language: Language = ENGLISH,
) -> Screen:
    """The run's board in ``language``: the game's buttons, then Undo/Resign while playing;
    once over, its result card (:func:`finished`). The screen redraws itself in another
    language (:meth:`Screen.speak`), which the presenter chooses.

    A daily's board also shows its deal's commitment; once over, ``facts`` says what the
    result means (where it stands on the day's boards, a best, the streak). ``hinted`` is the
    move a hint suggests: its button (or the first step's button that leads to it) carries
    :data:`HINT_MARK`. ``choice`` draws a two-step board's second step (``can_choose`` says
    whether the board offers it), with Back to the first."""
    if run.over:
        return finished(run, owner=owner, notice=notice, facts=facts, language=language)
    view = run.view
    drawn = render_board(
        view, run.actions, run_id=run.id, kind=run.kind, day=run.day, owner=owner,
        notice=notice, choice=choice, language=language,
    )
    if run.kind is RunKind.DAILY:
        standings.commitment_field(drawn.embed, run, _commitment(run.seed), language)
    rows = ButtonRows()
    for spec in drawn.buttons:
        if spec.opens:  # a first step: the click only redraws, offering these moves
            custom_id = control_id("pick", run.id, run.version, spec.action)
            marked = hinted in spec.opens
        else:
            custom_id = move_id(run.id, run.version, spec.action)
            marked = hinted == spec.action
        rows.add(button(
            custom_id, label=spec.label, style=spec.style, row=spec.row,
            disabled=spec.disabled, emoji=HINT_MARK if marked else spec.emoji,
        ))
    word = language.gettext
    if choice is not None:
        rows.add(_control("board", run, label=word(BACK), emoji="◀️"))
    if run.kind is RunKind.PRACTICE and run.moves > 0:
        rows.add(_control("undo", run, label=word(UNDO), emoji="↩️"))
    if run.kind is RunKind.PRACTICE:  # never on dailies, challenges or series
        rows.add(_control("hint", run, label=word(HINT_LABEL), emoji=HINT_MARK))
    rows.add(_control("resign", run, label=word(RESIGN), emoji="🏳️"))

    def redraw(other: Language) -> Screen:
        return board(run, owner=owner, notice=notice, hinted=hinted, choice=choice,
                     facts=facts, language=other)

    return Screen(drawn.embed, rows, run, drawn.pictured, language, redraw,
                  whisper=notice if hinted is not None else None)


def can_choose(run: Run, choice: str) -> bool:
    """Whether the run's board offers ``choice`` as a first step now."""
    return run.status is RunStatus.PLAYING and choose(run.view, run.actions, choice) is not None


def finished(
    run: Run, *, owner: str | None = None, notice: str | Message | None = None,
    facts: result.Facts | None = None, language: Language = ENGLISH,
) -> Screen:
    """A finished or resigned run's result card (:mod:`bot.boards.result`) and its next
    steps: Share (a daily's share line), Practice <Game> (a new practice run of the game and
    variant, on a new deal) and Stats (the player's /stats for the game, privately)."""
    word = language.gettext
    embed = result.card(run, BOARDS[run.game], owner=owner, notice=notice, facts=facts,
                        language=language)
    if run.kind is RunKind.DAILY:
        standings.commitment_field(embed, run, _commitment(run.seed), language)
    rows = ButtonRows()
    if run.kind is RunKind.DAILY:
        rows.add(_control("share", run, label=word(SHARE), emoji="📣",
                          style=discord.ButtonStyle.success))
    title = GAMES[run.game].title
    rows.add(_control("again", run, label=language.format(PRACTICE, game=title), emoji="🔁",
                      style=discord.ButtonStyle.primary))
    rows.add(_control("stats", run, label=word(STATS), emoji="📊"))

    def redraw(other: Language) -> Screen:
        return finished(run, owner=owner, notice=notice, facts=facts, language=other)

    return Screen(embed, rows, run, language=language, redraw=redraw)


def hint_notice(run: Run, action: str, reason: str) -> str:
    """The line a hint adds atop the board: the move in the engine's words, and why (its
    button, or the button that leads to it, is marked with :data:`HINT_MARK`). A phrase:
    the board says it in its own language (the label and the reason are the engine's)."""
    label = run.engine.label(run.view, action)
    # A plain str field is filled as it is: the engine's words are looked up (a marked one
    # is translated) until they are all phrases.
    return Phrase(HINT, mark=HINT_MARK, move=_said(label), reason=_said(reason))


def _said(text: str) -> Message | str:
    return text if isinstance(text, Phrase) else Message(text)


def illegal(refusal: IllegalMove) -> Message:
    """The notice of a move the engine refused, with the engine's reason (its phrase, said in
    the clicker's language by ``replies.notice``)."""
    return Message(ILLEGAL, {"reason": _said(refusal.reason)})


def confirm_resign(run: Run, *, owner: str | None = None,
                   language: Language = ENGLISH) -> Screen:
    """The board without its game buttons, the question as its prompt (the move it asked
    for is not the question now)."""
    embed = render_board(
        {**run.view, "prompt": CONFIRM_RESIGN}, [], run_id=run.id, kind=run.kind, day=run.day,
        owner=owner, notice=None, language=language,
    ).embed
    rows = ButtonRows()
    rows.add(_control("confirm", run, label=language.gettext(YES_RESIGN), row=0,
                      style=discord.ButtonStyle.danger))
    rows.add(_control("board", run, label=language.gettext(KEEP_PLAYING), row=0,
                      style=discord.ButtonStyle.primary))

    def redraw(other: Language) -> Screen:
        return confirm_resign(run, owner=owner, language=other)

    return Screen(embed, rows, language=language, redraw=redraw)


def unfinished(run: Run, *, variant: str | None, owner: str | None = None,
               language: Language = ENGLISH) -> Screen:
    """An unfinished run found by /play: one line about it (not its board), and Resume, or
    Abandon to start ``variant`` anew."""
    embed = discord.Embed(
        title=language.format(UNFINISHED_TITLE, game=run.title),
        description=(f"{unfinished_line(run, language)}\n\n"
                     f"{language.gettext(RESUME_OR_ABANDON)}"),
        colour=discord.Colour.blurple(),
    )
    if owner:
        embed.set_author(name=language.format(OWNERS_RUN, owner=owner))
    rows = ButtonRows()
    rows.add(_control("resume", run, label=language.gettext(RESUME), emoji="▶️", row=0,
                      style=discord.ButtonStyle.primary))
    rows.add(_control("abandon", run, variant or run.variant, row=0,
                      label=language.gettext(ABANDON), emoji="🗑️",
                      style=discord.ButtonStyle.danger))

    def redraw(other: Language) -> Screen:
        return unfinished(run, variant=variant, owner=owner, language=other)

    return Screen(embed, rows, language=language, redraw=redraw)


def games_list(runs: Sequence[Run], *, private: bool,
               language: Language = ENGLISH) -> tuple[str, ButtonRows | None]:
    """/games: one line and one button per unfinished run (newest first)."""
    if not runs:
        return language.gettext(NO_UNFINISHED), None
    shown = runs[:GAMES_LISTED]
    lines = [language.gettext(UNFINISHED_LIST)]
    rows = ButtonRows()
    for i, run in enumerate(shown):
        lines.append(f"**{i + 1}.** {describe(run, language)}")
        rows.add(_control("show", run, "p" if private else "",
                          label=f"{i + 1}. {run.title}", row=i // 5))
    if len(runs) > len(shown):
        older = len(runs) - len(shown)
        lines.append(language.ngettext(*OLDER, older).format(count=older))
    return "\n".join(lines), rows


def _kind(run: Run, language: Language) -> str:
    if run.kind is RunKind.DAILY:
        return language.format(DAILY_OF, day=run.day)
    return kind_word(run.kind.value, language)


def describe(run: Run, language: Language = ENGLISH) -> str:
    """One line about a run: game, variant, kind, progress."""
    return language.format(
        DESCRIBED, game=run.title, variant=language.render(run.variant),
        kind=_kind(run, language), moves=run.moves,
        score=language.render(run.view["score_text"]),
        run=language.format(RUN_NUMBER, id=run.id),
    )


def unfinished_line(run: Run, language: Language = ENGLISH) -> str:
    """``**Donsol** (normal, practice) · move 12 · 14 HP · started <t:…:R>, last played
    <t:…:R>``: Discord shows each moment in the reader's time, as a countdown."""
    started = int(parse_timestamp(run.created_at).timestamp())
    played = int(parse_timestamp(run.updated_at).timestamp())
    if played != started:
        when = language.format(STARTED_PLAYED, when=f"<t:{started}:R>", last=f"<t:{played}:R>")
    else:
        when = language.format(STARTED, when=f"<t:{started}:R>")
    return language.format(
        UNFINISHED_LINE, game=run.title, variant=language.render(run.variant),
        kind=_kind(run, language), moves=run.moves,
        score=language.render(run.view["score_text"]), when=when,
    )


# ----- helpers ------------------------------------------------------------------------------


def _control(
    verb: str,
    run: Run,
    arg: str = "",
    *,
    label: str,
    emoji: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int = CONTROL_ROW,
) -> PlainButton:
    return button(control_id(verb, run.id, run.version, arg), label=label, emoji=emoji,
                  style=style, row=row)
