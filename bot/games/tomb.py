"""Tomb of Four Kings in Discord: the board (hit points, torches, hand, the turn and the way in
and out) and the table picture's scene.

Buttons by role: going on (``flip``: turn a card, delve deeper, start a retreat turn) is
blurple; turning back is grey; playing a skill or dodging a blow is green; the costly
choices (taking a blow, taking a door's discards, a treasure drop) are red; choosing which
treasure marks the turn is grey. Rows: going on / turning back, then skills and blows, then
treasure drops, then treasure to leave.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.boards.common import (
    ENGLISH,
    Board,
    ButtonSpec,
    GameBoard,
    Language,
    Nn_,
    add_field,
    arrange,
    button,
    status_line,
)
from bot.pictures.canvas import (
    BIG_LABEL,
    CARD_W,
    DIM,
    GOLD,
    HP_EMPTY,
    HP_FULL,
    TEXT,
    WIDTH,
    Canvas,
    action_cards,
)
from rules.cards import CANONICAL, display
from rules.tomb.engine import (
    SURVIVABLE,
    TOMB,
    TORCHES,
    hand_text,
    hit_points_text,
    progress_text,
    torches_text,
    turn_text,
)
from rules.words import N_, Phrase

_GO = discord.ButtonStyle.primary
_BACK = discord.ButtonStyle.secondary
_HELP = discord.ButtonStyle.success
_COST = discord.ButtonStyle.danger


#: How each of the game's outcome words reads at the top of a finished board.
HEADINGS: dict[str, str] = {
    "won": N_("🏆 Victory"), "escaped": N_("🚪 Out alive"), "dead": N_("💀 Dead"),
    "lost_in_dark": N_("🌑 Lost in the dark"),
}

HIT_POINTS, TORCHES_FIELD, DECK = N_("Hit points"), N_("Torches"), N_("Deck")
PROGRESS, THIS_TURN, HAND = N_("Progress"), N_("This turn"), N_("Hand")
CARDS = Nn_("{count} card", "{count} cards")
DELVED = N_("⬇️ {count} delved")
AT_ENTRANCE = N_("⬇️ at the entrance")
OUT_IN = Nn_("↩️ out in {count} turn", "↩️ out in {count} turns")
HP_LEFT = N_("❤️ {count} left")
TORCHES_LEFT = Nn_("🔥 {count} torch", "🔥 {count} torches")
IN_DECK = N_("{count} in the deck")


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed,
           language: Language = ENGLISH) -> Board:
    """The Tomb board for ``view`` with a button per legal action (``actions``)."""
    # ``embed`` is the shared frame (title, description, footer); the game adds its fields.
    # The words come from rules.tomb, so the terminal board says the same.
    say, word = language.render, language.gettext
    add_field(embed, word(HIT_POINTS), say(hit_points_text(view)))
    add_field(embed, word(TORCHES_FIELD), say(torches_text(view)))
    add_field(embed, word(DECK), language.ngettext(*CARDS, view["deck"]).format(
        count=view["deck"]))
    add_field(embed, word(PROGRESS), say(progress_text(view)), inline=False)
    if view["turn"]:
        add_field(embed, word(THIS_TURN), say(turn_text(view)), inline=False)
    add_field(embed, word(HAND), say(hand_text(view["hand"])), inline=False)
    return Board(embed=embed, buttons=arrange(_buttons(view, actions, language)))


def status(view: dict[str, Any], language: Language = ENGLISH) -> str:
    """The line that stands for the fields beside the picture: ``❤️ 7 left · 🔥 3 torches ·
    33 in the deck · ⬇️ 4 delved``."""
    left = max(0, SURVIVABLE - view["damage"]) if view["hp_card"] else 0
    burnt = sum(1 for c in view["torches"] if c.startswith("A"))
    delved, needed = view["delve_turns"], view["retreat_needed"]
    if view["phase"] == "delve":
        way = (language.format(DELVED, count=delved) if delved
               else language.gettext(AT_ENTRANCE))
    else:
        turns = max(0, (needed or 0) - view["retreat_turns"])
        way = language.ngettext(*OUT_IN, turns).format(count=turns)
    torches = max(0, TORCHES - burnt)
    return status_line(
        language.format(HP_LEFT, count=left),
        language.ngettext(*TORCHES_LEFT, torches).format(count=torches),
        language.format(IN_DECK, count=view["deck"]), way,
    )


#: One emoji per kind of move; none is one the controls use (Undo is ↩️, so turning back is
#: 🔙).
_EMOJI = {
    "retreat": "🔙", "skill": "✨", "dodge": "🤸", "endure": "💥", "discard": "🚪", "drop": "💰",
}


def _flip_emoji(view: dict[str, Any]) -> str:
    if view["turn"] or view["phase"] == "retreat" or view["delve_turns"] == 0:
        return "🎴"
    return "⬇️"


def _buttons(view: dict[str, Any], actions: list[str],
             language: Language = ENGLISH) -> list[list[ButtonSpec]]:
    go: list[ButtonSpec] = []
    choices: list[ButtonSpec] = []
    drops: list[ButtonSpec] = []
    leaves: list[ButtonSpec] = []
    other: list[ButtonSpec] = []
    for action in actions:
        verb = action.partition(" ")[0]
        label = language.render(TOMB.label(view, action))
        emoji = _EMOJI.get(verb)
        if action == "flip":
            go.append(button(label, _GO, action, emoji=_flip_emoji(view)))
        elif action == "retreat":
            go.append(button(label, _BACK, action, emoji=emoji))
        elif verb in ("skill", "dodge"):
            choices.append(button(label, _HELP, action, emoji=emoji))
        elif verb in ("endure", "discard"):
            choices.append(button(label, _COST, action, emoji=emoji))
        elif verb == "drop":
            drops.append(button(label, _COST, action, emoji=emoji))
        elif verb == "leave":
            leaves.append(button(label, _BACK, action))
        else:  # an action this board does not know yet still gets a plain button
            other.append(button(label, discord.ButtonStyle.secondary, action))
    return [go, choices, drops, leaves, other]


# ----- the table picture ----------------------------------------------------------------


_CODE_OF_SHOWN = {display(c): c for c in CANONICAL if c not in ("RJ", "BJ")}
#: How Tomb's events tell a card turned: "You turn <card>: …", or for the card drawn to fight
#: an encounter, "Your <card> …". A turn that ended is shown as the "last turn", since the
#: view's ``turn`` is already empty then.
_TURNED = re.compile(r"^(?:You turn (\S+):|Your (\S+) )")


def turned_cards(events: list[str]) -> list[str]:
    """The cards a Tomb action turned, in order, read from its events (Tomb's only joker is
    the red one)."""
    cards = []
    for event in events:
        match = _TURNED.match(event)
        if match:
            shown = match.group(1) or match.group(2)
            cards.append("RJ" if shown == "🃏" else _CODE_OF_SHOWN.get(shown, ""))
    return [c for c in cards if c]


def scene(view: dict[str, Any], last_action: str | None) -> dict[str, Any]:
    turned = turned_cards(view["events"])
    row, row_is_last = view["turn"], False
    if not row and turned:
        row, row_is_last = turned, True
    return {
        "turn": row, "turn_is_last": row_is_last, "hand": view["hand"],
        "encounter": view["encounter"] if not view["over"] else None,
        "torches": view["torches"], "damage": view["damage"], "hp_card": view["hp_card"],
        "deck": view["deck"], "delve_turns": view["delve_turns"],
        "retreat_turns": view["retreat_turns"], "retreat_needed": view["retreat_needed"],
        "last": sorted(set(turned) | set(action_cards(last_action))),
    }


def draw(s: dict[str, Any]) -> Canvas:
    # Few words, large enough for a phone: the cards' faces say what they are.
    # Each label has its room (``width``): a longer translation shrinks or wraps in it.
    t = Canvas(330, s["last"], s["lang"])
    deck = WIDTH - 40 - CARD_W
    t.label((16, 8), N_("LAST TURN") if s["turn_is_last"] else N_("THIS TURN"),
            width=deck - 24)
    if s["turn"]:
        step = t.fan(s["turn"], 16, 36, 500)
        if s["encounter"] in s["turn"]:
            x = 16 + s["turn"].index(s["encounter"]) * step
            # TRANSLATORS: Under the card the player fights, on Tomb's table picture.
            t.label((x + 4, 124), N_("▲ fight"), GOLD, width=deck - 8 - x - 4)
    else:
        t.slot(16, 36, "—")
    t.pile(deck, 36, s["deck"])

    t.label((16, 156), N_("HAND"), width=296)
    if s["hand"]:
        t.fan(s["hand"], 16, 184, 280)
    else:
        t.slot(16, 184, "—")

    burnt = sum(1 for c in s["torches"] if c != "RJ")
    t.label((320, 156), Phrase(N_("TORCHES {left}/{all}"), left=max(0, 4 - burnt), all=4),
            width=deck - 8 - 320 - 2 * 8)
    if s["torches"]:
        t.fan(s["torches"], 320, 184, 170, step=36)
    else:
        t.slot(320, 184, "—")

    x = deck
    t.label((x + CARD_W // 2, 156), N_("HP"), anchor="ma", width=CARD_W + 16)
    if s["hp_card"]:
        t.card(s["hp_card"], x, 184, mark=False)
    else:
        t.slot(x, 184, "—")
    # The damage as nine pips: lit ones are hit points left.
    for i in range(9):
        px = 320 + i * 22
        hit = i < s["damage"]
        t.draw.ellipse((px, 296, px + 16, 312), fill=HP_EMPTY if hit else HP_FULL,
                       outline=DIM if hit else TEXT, width=1)
    t.label((320 + 9 * 22 + 8, 304), Phrase(N_("{damage}/{all} hurt"), damage=s["damage"],
                                             all=9), TEXT, anchor="lm")
    if s["retreat_needed"] is None:
        # TRANSLATORS: Tomb's table picture: how many turns the player has delved so far.
        way = Phrase(N_("delved {turns}"), turns=s["delve_turns"])
    elif s["retreat_needed"] == 0:
        way = Phrase(N_("out at once"))
    else:
        # TRANSLATORS: Tomb's table picture: turns of the way back done, of those needed.
        way = Phrase(N_("back {done}/{needed}"), done=s["retreat_turns"],
                     needed=s["retreat_needed"])
    t.label((16, 304), way, TEXT, BIG_LABEL, "lm", width=320 - 16 - 12)
    t.banner(s["banner"], WIDTH // 2 + 60, 140)
    return t


#: Tomb of Four Kings in Discord: the registry line in :mod:`bot.games` names it.
BOARD = GameBoard(
    render=render, status=status, headings=HEADINGS, scene=scene, draw=draw,
    banners={"dead": N_("DEAD"), "lost_in_dark": N_("LOST IN THE DARK")},
)
