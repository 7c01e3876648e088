"""The Tomb of Four Kings board: hit points, torches, hand, the turn and the way in and out.

Buttons by role: going on (``flip``: turn a card, delve deeper, start a retreat turn) is
blurple; turning back is grey; playing a skill or dodging a blow is green; the costly
choices (taking a blow, taking a door's discards, a treasure drop) are red; choosing which
treasure marks the turn is grey. Rows: going on / turning back, then skills and blows, then
treasure drops, then treasure to leave.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.boards.common import Board, ButtonSpec, add_field, arrange, button, plural
from rules.tomb import (
    TOMB,
    hand_text,
    hit_points_text,
    progress_text,
    torches_text,
    turn_text,
)

_GO = discord.ButtonStyle.primary
_BACK = discord.ButtonStyle.secondary
_HELP = discord.ButtonStyle.success
_COST = discord.ButtonStyle.danger


#: How each of the game's outcome words reads at the top of a finished board.
HEADINGS: dict[str, str] = {
    "won": "🏆 Victory", "escaped": "🚪 Out alive", "dead": "💀 Dead",
    "lost_in_dark": "🌑 Lost in the dark",
}


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed) -> Board:
    """The Tomb board for ``view`` with a button per legal action (``actions``)."""
    # ``embed`` is the shared frame (title, description, footer); the game adds its fields.
    # The words come from rules.tomb, so the terminal board says the same.
    add_field(embed, "Hit points", hit_points_text(view))
    add_field(embed, "Torches", torches_text(view))
    add_field(embed, "Deck", plural(view["deck"], "card"))
    add_field(embed, "Progress", progress_text(view), inline=False)
    if view["turn"]:
        add_field(embed, "This turn", turn_text(view), inline=False)
    add_field(embed, "Hand", hand_text(view["hand"]), inline=False)
    return Board(embed=embed, buttons=arrange(_buttons(view, actions)))


_EMOJI = {
    "retreat": "↩️", "skill": "✨", "dodge": "🤸", "endure": "💥", "discard": "🚪", "drop": "💰",
}


def _flip_emoji(view: dict[str, Any]) -> str:
    if view["turn"] or view["phase"] == "retreat" or view["delve_turns"] == 0:
        return "🎴"
    return "⬇️"


def _buttons(view: dict[str, Any], actions: list[str]) -> list[list[ButtonSpec]]:
    go: list[ButtonSpec] = []
    choices: list[ButtonSpec] = []
    drops: list[ButtonSpec] = []
    leaves: list[ButtonSpec] = []
    other: list[ButtonSpec] = []
    for action in actions:
        verb = action.partition(" ")[0]
        label = TOMB.label(view, action)
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
