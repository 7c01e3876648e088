"""The Donsol board: health, shield, sickness, the room and the dungeon; a button per room card.

Buttons are coloured by the card's role: a monster red, a shield blurple, a potion green,
escape grey. Escape is always on the board while the run goes on; when the rules refuse it,
it is disabled and the embed says why (the view's ``escape_reason``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.boards.common import Board, ButtonSpec, add_field, arrange, button, plural
from bot.boards.common import scaled_bar as hp_bar
from rules.cards import display
from rules.donsol import DECK_SIZE, role, value

_STYLE = {
    "monster": discord.ButtonStyle.danger,
    "shield": discord.ButtonStyle.primary,
    "potion": discord.ButtonStyle.success,
}
_EMOJI = {"monster": "⚔️", "shield": "🛡️", "potion": "🧪"}
_VERB = {"monster": "Fight", "shield": "Equip", "potion": "Drink"}


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed) -> Board:
    """The Donsol board for ``view`` with a button per legal action (``actions``)."""
    # ``embed`` is the shared frame (title, description, footer); the game adds its fields.
    hp, max_hp = view["hp"], view["max_hp"]
    add_field(embed, "Health", f"❤️ {hp}/{max_hp} {hp_bar(hp, max_hp)}")
    add_field(embed, "Shield", _shield(view))
    add_field(
        embed, "Sickness",
        "🤢 Sick: the next potion heals nothing" if view["sick"] else "Not sick",
    )
    add_field(embed, "Room", _room(view["room"]), inline=False)
    add_field(
        embed, "Dungeon",
        f"{plural(view['dungeon'], 'card')} left to deal · "
        f"{view['xp']}/{DECK_SIZE} cards taken",
        inline=False,
    )
    if not view["over"] and not view["can_escape"]:
        add_field(embed, "Escape", f"🚫 {view['escape_reason']}", inline=False)
    return Board(embed=embed, buttons=arrange([_buttons(view, actions)]))


def _shield(view: dict[str, Any]) -> str:
    shield = view["shield"]
    if not shield:
        return "None: monsters hit in full"
    text = f"🛡️ {display(shield)} ({value(shield)})"
    last = view["shield_last"]
    if last is None:
        return f"{text}, fresh: blocks any monster"
    on_it = view.get("shield_monsters") or []
    last_card = f"{display(on_it[-1])} " if on_it else ""
    return f"{text}, last monster {last_card}({last}): breaks on {last} or more"


def _room(room: list[str]) -> str:
    if not room:
        return "—"
    return "  ".join(f"{_EMOJI[role(c)]} {display(c)} ({value(c)})" for c in room)


def _buttons(view: dict[str, Any], actions: list[str]) -> list[ButtonSpec]:
    buttons: list[ButtonSpec] = []
    for action in actions:
        verb, _, card = action.partition(" ")
        if verb == "take":
            kind = role(card)
            buttons.append(
                button(
                    f"{_VERB[kind]} {display(card)} ({value(card)})", _STYLE[kind], action,
                    emoji=_EMOJI[kind],
                )
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
