"""What every board shares: the board types, the embed's frame, Discord's limits, button rows.

A board is one embed plus button specs. Each game's module fills in the fields and buttons;
this module gives every board the same title, colour, description (notice, outcome, events,
prompt) and footer, and keeps it within Discord's limits whatever the view holds.

A playing board comes in two forms: in full (the game's fields and the footer), for a board
shown without its table picture, where the text must hold the whole table; and pictured
(:class:`Pictured`), for a board with its picture, which carries the table: the text keeps
what happened, one status line and the prompt, so nothing is said twice.

Every board is drawn in one :class:`~bot.i18n.Language` (docs/languages.md): the frame's and
the games' own words are marked here and in each game's module (``N_``, ``Nn_``) and
translated as they are drawn; the engines' words (view values, events, labels, prompts, score
texts) go through ``language.render``, which says an engine's phrase in that language.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import ENGLISH, Language
from bot.pictures.canvas import Canvas
from core.daily import day_number
from rules import GAMES
from rules.cards import display
from rules.words import (  # noqa: F401 (the boards import them from here)
    N_,
    Message,
    Nn_,
    bar,
    plural,
    scaled_bar,
)

# ----- Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-
# embed-limits and the component docs); the adapter owns row 4 of the message's buttons.

MAX_BUTTONS = 20
BUTTON_ROWS = 4
PER_ROW = 5
LABEL_MAX = 80
CUSTOM_ID_MAX = 100
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000

# The events of one action can be long (a Tomb turn lists every card turned): the description
# keeps the most recent ones within this many characters, so the embed stays far below 6000.
EVENTS_BUDGET = 2400
NOTICE_MAX = 300


@dataclass(frozen=True)
class ButtonSpec:
    """One button: what it says, how it looks, where it sits and the action it sends."""

    label: str
    style: discord.ButtonStyle
    row: int
    action: str
    disabled: bool = False
    emoji: str | None = None
    #: Set on a first step's button (a board that asks for a choice before the move): the
    #: moves the board it opens offers. Such a button plays nothing: its ``action`` is the
    #: choice it opens (e.g. a card), sent as a ``pick`` control that only redraws.
    opens: tuple[str, ...] = ()


@dataclass(frozen=True)
class Choice:
    """The second step of a two-step move: the board's prompt and its buttons for one choice
    made on the first step (each a move)."""

    prompt: str
    buttons: tuple[ButtonSpec, ...]


@dataclass(frozen=True)
class Finish:
    """What a game says about a finished run beyond its score, for the result card
    (:mod:`bot.boards.result`): ``near_miss``, a sentence when the run lost but came close
    (the card is then not styled like a wipe-out), and ``notes``, lines a player needs to
    read the score right."""

    near_miss: str | None = None
    notes: tuple[str, ...] = ()


def no_finish(view: dict[str, Any], language: Language = ENGLISH) -> Finish:
    """A game that says nothing more about its finished runs."""
    return Finish()


@dataclass(frozen=True)
class GameBoard:
    """What a game's module under :mod:`bot.games` provides: how its board and its table
    picture look.

    Every word goes out in the board's ``language`` (the reader's for an ephemeral board, the
    server's for a public one: :mod:`bot.presenter` chooses).
    ``render(view, actions, embed, language)`` adds the game's fields and buttons to the
    shared frame; ``status(view, language)`` is the one compact line that stands for those
    fields on a playing board shown with its picture (``❤️ 11/21 · 🛡️ 6♦ · 46 left``);
    ``headings`` names how outcome words read atop a finished board, marked English
    (translated where shown; a word left out reads as its kind: Victory, Defeat, Out alive);
    ``scene(view, last_action)`` picks exactly what the
    picture shows (JSON-safe) and ``draw(scene)`` draws it on a canvas; ``banners`` names the
    picture's banner words per outcome (else its kind's: VICTORY, DEFEAT, OUT ALIVE);
    ``choose(view, actions, choice, language)``, for a game whose board picks in two steps, is
    the second step for ``choice`` (None when that is not a choice the board offers now);
    ``finish(view, language)`` says what the result card adds for a finished run
    (:class:`Finish`).
    """

    render: Callable[[dict[str, Any], list[str], discord.Embed, Language], Board]
    status: Callable[[dict[str, Any], Language], str]
    headings: Mapping[str, str]
    scene: Callable[[dict[str, Any], str | None], dict[str, Any]]
    draw: Callable[[dict[str, Any]], Canvas]
    banners: Mapping[str, str] = dataclasses.field(default_factory=dict)
    choose: Callable[[dict[str, Any], list[str], str, Language], Choice | None] | None = None
    finish: Callable[[dict[str, Any], Language], Finish] = no_finish


@dataclass(frozen=True)
class Pictured:
    """How a playing board's full embed reads once its table picture goes with it: this
    description (events, the status line, the prompt), without the game's first ``fields``
    fields and without the footer. Fields added after the game's (a daily's commitment, a
    challenge's deadline) stay."""

    description: str
    fields: int

    def apply(self, embed: discord.Embed) -> None:
        """Turn ``embed`` (the board's full form) into the pictured form, in place."""
        embed.description = self.description
        for _ in range(min(self.fields, len(embed.fields))):
            embed.remove_field(0)
        embed.remove_footer()


@dataclass(frozen=True)
class Board:
    """One board: the embed and at most 20 buttons in rows 0..3, at most 5 per row; and
    for a playing board, how it reads with its picture (``pictured``)."""

    embed: discord.Embed
    buttons: tuple[ButtonSpec, ...]
    pictured: Pictured | None = None


# ----- colours and outcomes --------------------------------------------------------------

COLOUR_PLAYING = discord.Colour.blurple()
COLOUR_WON = discord.Colour.green()
COLOUR_LOST = discord.Colour.red()
# Tomb's "escaped" (out alive without all four Kings) is neither a win nor a loss: it scores.
# It gets its own colour so that a player sees at once that the run counted.
COLOUR_OUT_ALIVE = discord.Colour.gold()

#: How a finished run's kind of end reads at the top of its board, unless the game's board
#: module names its own outcome words (``HEADINGS``); marked English, translated where shown.
HEADINGS_BY_KIND: dict[str, str] = {
    "win": N_("🏆 Victory"), "loss": N_("💀 Defeat"), "out": N_("🚪 Out alive"),
}
#: A finished run whose outcome word no game names.
GAME_OVER = N_("Game over")


def colour(view: dict[str, Any]) -> discord.Colour:
    """Blurple while playing, green for a win, red for a loss, gold for ending alive."""
    if not view["over"]:
        return COLOUR_PLAYING
    if view["won"]:
        return COLOUR_WON
    if GAMES[view["game"]].outcomes.get(view["outcome"] or "") == "loss":
        return COLOUR_LOST
    return COLOUR_OUT_ALIVE


def outcome_heading(view: dict[str, Any], headings: Mapping[str, str] | None = None,
                    language: Language = ENGLISH) -> str:
    """The finished board's headline in ``language``: the game's heading for its outcome
    word, else the heading of that kind of end (a win beats the outcome word)."""
    engine = GAMES[view["game"]]
    outcome = view["outcome"] or ""
    if headings and outcome in headings:
        return language.gettext(headings[outcome])
    kind = engine.outcomes.get(outcome)
    if kind is not None:
        return language.gettext(HEADINGS_BY_KIND[kind])
    return outcome.replace("_", " ").capitalize() or language.gettext(GAME_OVER)


# ----- text helpers ----------------------------------------------------------------------


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cards(codes: Sequence[str], empty: str = "—") -> str:
    """Cards with suit symbols, separated by spaces, or ``empty``."""
    return " ".join(display(c) for c in codes) if codes else empty


EARLIER_EVENTS = Nn_("… {count} earlier event", "… {count} earlier events")


def events_text(events: Sequence[str], budget: int = EVENTS_BUDGET,
                language: Language = ENGLISH) -> str:
    """The last action's events in ``language`` (each an engine's phrase), one per line, the
    most recent kept within ``budget``."""
    lines = [f"▸ {clip(language.render(e), 400)}" for e in events]
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        if used + len(line) + 1 > budget - 40:  # room for the "earlier events" line
            break
        kept.append(line)
        used += len(line) + 1
    kept.reverse()
    dropped = len(lines) - len(kept)
    if dropped:
        one, many = EARLIER_EVENTS
        kept.insert(0, f"▸ {language.ngettext(one, many, dropped).format(count=dropped)}")
    return "\n".join(kept)


# ----- the embed's frame -----------------------------------------------------------------


#: The words of a board's title and frame (marked here, translated where shown).
DAY_TITLE = N_("{game} #{number}")
RUN_NUMBER = N_("run #{id}")
OWNERS_RUN = N_("{owner}'s run")
FOOTER = N_("Score: {score} · move {moves}")
FINAL_SCORE = N_("Final score: {score}")
#: Each kind of run as a title names it (a practice run is not named).
KIND_WORDS: dict[str, str] = {
    "daily": N_("daily"), "practice": N_("practice"), "challenge": N_("challenge"),
    "series": N_("series"),
}


def kind_word(kind: str, language: Language = ENGLISH) -> str:
    """A kind of run's word (``daily``) in ``language``."""
    return language.gettext(KIND_WORDS[kind]) if kind in KIND_WORDS else kind


def board_title(
    game_title: str, variant: str, run_id: int, kind: str, day: str | None,
    language: Language = ENGLISH,
) -> str:
    """``Donsol · normal · run #42``; a daily run reads ``Donsol #12 · normal · daily``
    (its day number: 2026-12-01 is #1)."""
    shown = language.render(variant)
    parts = [game_title, shown]
    if kind == "daily":
        name = (language.format(DAY_TITLE, game=game_title, number=day_number(day)) if day
                else game_title)
        parts = [name, shown, kind_word(kind, language)]
    elif kind != "practice":
        parts.append(kind_word(kind, language))
    parts.append(language.format(RUN_NUMBER, id=run_id))
    return clip(" · ".join(parts), TITLE_MAX)


def frame(
    view: dict[str, Any],
    game_title: str,
    *,
    run_id: int,
    kind: str,
    day: str | None,
    owner: str | None,
    notice: str | Message | None,
    headings: Mapping[str, str] | None = None,
    language: Language = ENGLISH,
) -> discord.Embed:
    """The embed every game starts from: title, colour, description and footer, in
    ``language``.

    The description holds, in order: the notice, the outcome and score once the run is over,
    what the last action did (``events``), and the prompt. The game adds its own fields.
    """
    embed = discord.Embed(
        title=board_title(game_title, view["variant"], run_id, kind, day, language),
        description=description(view, notice=notice, headings=headings, language=language),
        colour=colour(view),
    )
    if owner:
        embed.set_author(name=clip(language.format(OWNERS_RUN, owner=owner), AUTHOR_MAX))
    embed.set_footer(text=clip(language.format(
        FOOTER, score=language.render(view["score_text"]), moves=view["moves"]), FOOTER_MAX))
    return embed


def description(
    view: dict[str, Any], *, notice: str | Message | None,
    headings: Mapping[str, str] | None = None, language: Language = ENGLISH,
) -> str:
    """The board's description: the notice, the outcome once over, the events, and the
    prompt."""
    parts: list[str] = []
    if notice:
        parts.append(f"*{clip(language.render(notice), NOTICE_MAX)}*")
    if view["over"]:
        heading = outcome_heading(view, headings, language)
        score = f"**{language.render(view['score_text'])}**"
        parts.append(f"**{heading}**\n{language.format(FINAL_SCORE, score=score)}")
    events = view.get("events") or []
    if events:
        parts.append(events_text(events, language=language))
    if view.get("prompt"):
        parts.append(f"**{clip(language.render(view['prompt']), 300)}**")
    return clip("\n\n".join(parts), DESCRIPTION_MAX)


def pictured(view: dict[str, Any], status: str, fields: int, shown: str) -> Pictured | None:
    """How a playing board reads with its table picture: its description as ``shown``
    (the game may have set its own prompt, as a two-step board's), the ``status`` line above
    the prompt that closes it. None once the run is over: the finished board keeps its own
    form."""
    if view["over"]:
        return None
    head, last = shown, ""
    if view.get("prompt"):
        head, _, last = shown.rpartition("\n\n")
    parts = [p for p in (head, clip(status, 300), last) if p]
    return Pictured(clip("\n\n".join(parts), DESCRIPTION_MAX), fields)


def status_line(*parts: str) -> str:
    """A pictured board's status line: its parts joined by `` · ``, empty ones left out."""
    return " · ".join(p for p in parts if p)


def add_field(embed: discord.Embed, name: str, value: str, *, inline: bool = True) -> None:
    """Add a field, cut to Discord's limits (an empty value would be refused: it shows —)."""
    embed.add_field(
        name=clip(name, FIELD_NAME_MAX), value=clip(value or "—", FIELD_VALUE_MAX), inline=inline
    )


# ----- buttons ---------------------------------------------------------------------------


def button(
    label: str,
    style: discord.ButtonStyle,
    action: str,
    *,
    disabled: bool = False,
    emoji: str | None = None,
    row: int = 0,
) -> ButtonSpec:
    """A button spec with its label cut to Discord's 80 characters."""
    return ButtonSpec(
        label=clip(label, LABEL_MAX), style=style, row=row, action=action,
        disabled=disabled, emoji=emoji,
    )


def arrange(groups: Sequence[Sequence[ButtonSpec]]) -> tuple[ButtonSpec, ...]:
    """Give the buttons their rows: each group on rows of its own while that fits in rows 0..3,
    otherwise one after the other, five a row.

    Raises ``ValueError`` for more than 20 buttons (no game's rules allow that many actions).
    """
    groups = [g for g in groups if g]
    flat = [b for g in groups for b in g]
    if len(flat) > MAX_BUTTONS:
        raise ValueError(f"{len(flat)} buttons do not fit in {BUTTON_ROWS} rows")
    placed: list[ButtonSpec] = []
    if sum(math.ceil(len(g) / PER_ROW) for g in groups) <= BUTTON_ROWS:
        row = 0
        for group in groups:
            for i, b in enumerate(group):
                placed.append(_on_row(b, row + i // PER_ROW))
            row += math.ceil(len(group) / PER_ROW)
    else:
        placed = [_on_row(b, i // PER_ROW) for i, b in enumerate(flat)]
    return tuple(placed)


def _on_row(spec: ButtonSpec, row: int) -> ButtonSpec:
    # Specs are frozen: one already on its row is used as it is (no copy).
    return spec if spec.row == row else dataclasses.replace(spec, row=row)
