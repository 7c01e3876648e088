"""The Donsol board: health, shield, sickness, the room and the dungeon; a button per room card.

Buttons are coloured by the card's role: a monster red, a shield blurple, a potion green,
escape grey. Escape is always on the board while the run goes on; when the rules refuse it,
it is disabled and the embed says why (the view's ``escape_reason``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.boards.common import Board, ButtonSpec, add_field, arrange, button
from rules.donsol import (
    DONSOL,
    ROLE_EMOJI,
    dungeon_text,
    health_text,
    role,
    room_text,
    shield_text,
    sickness_text,
)

_STYLE = {
    "monster": discord.ButtonStyle.danger,
    "shield": discord.ButtonStyle.primary,
    "potion": discord.ButtonStyle.success,
}


#: How each of the game's outcome words reads at the top of a finished board.
HEADINGS: dict[str, str] = {"won": "🏆 Victory", "dead": "💀 Dead"}


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed) -> Board:
    """The Donsol board for ``view`` with a button per legal action (``actions``)."""
    # ``embed`` is the shared frame (title, description, footer); the game adds its fields.
    # The words come from rules.donsol, so the terminal board says the same.
    add_field(embed, "Health", health_text(view["hp"]))
    add_field(embed, "Shield", shield_text(view))
    add_field(embed, "Sickness", sickness_text(view["sick"]))
    add_field(embed, "Room", room_text(view["room"]), inline=False)
    add_field(embed, "Dungeon", dungeon_text(view), inline=False)
    if not view["over"] and not view["can_escape"]:
        add_field(embed, "Escape", f"🚫 {view['escape_reason']}", inline=False)
    return Board(embed=embed, buttons=arrange([_buttons(view, actions)]))


def _buttons(view: dict[str, Any], actions: list[str]) -> list[ButtonSpec]:
    buttons: list[ButtonSpec] = []
    for action in actions:
        verb, _, card = action.partition(" ")
        if verb == "take":
            kind = role(card)
            buttons.append(
                button(DONSOL.label(view, action), _STYLE[kind], action, emoji=ROLE_EMOJI[kind])
            )
        elif action == "escape":
            buttons.append(button("Escape", discord.ButtonStyle.secondary, action, emoji="🏃"))
        else:  # an action this board does not know yet still gets a plain button
            buttons.append(button(action, discord.ButtonStyle.secondary, action))
    if not view["over"] and "escape" not in actions:
        # The player looks for escape: it stays on the board, disabled; the embed says why.
        buttons.append(
            button("Escape", discord.ButtonStyle.secondary, "escape", disabled=True, emoji="🏃")
        )
    return buttons
