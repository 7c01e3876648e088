"""The Clear the Dungeon board: the four piles, the hand, the reserve and the power deck.

The moves form a grid: a row per card that can be played (the hand's cards in slot order,
then the reserve's top when it fits a monster), a column per target (piles 1–4, then "to
reserve" for a hand card). A pile that does not take that card now keeps its place as a
disabled button, so every column always means the same pile — a player reads the grid
like the table. The reserve's top only gets a row when it fits some monster: it can never
go back to the hand or the reserve, so an all-disabled row would only be noise.

Colours by row and target: a hand card onto a pile blurple, the reserve's top onto a pile
green, a hand card to the reserve grey, a pile that does not take the card grey and
disabled. A put that slays the monster (its third card) carries ⚔️.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.boards.common import Board, ButtonSpec, add_field, button
from rules.clear import (
    CLEAR,
    hand_text,
    pile_text,
    power_deck_text,
    reserve_text,
    slain_text,
)

_FROM_HAND = discord.ButtonStyle.primary
_FROM_RESERVE = discord.ButtonStyle.success
_TO_RESERVE = discord.ButtonStyle.secondary
_CLOSED = discord.ButtonStyle.secondary


#: How each of the game's outcome words reads at the top of a finished board.
HEADINGS: dict[str, str] = {"won": "🏆 Victory", "stuck": "🧱 Stuck"}


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed) -> Board:
    """The Clear the Dungeon board for ``view``, its moves laid out as a grid."""
    # ``embed`` is the shared frame (title, description, footer); the game adds its fields.
    # The words come from rules.clear, so the terminal board says the same.
    add_field(
        embed, "Monsters",
        "\n".join(f"**{i}** {pile_text(p)}" for i, p in enumerate(view["piles"], start=1)),
        inline=False,
    )
    add_field(embed, "Hand", hand_text(view["hand"]))
    add_field(embed, "Reserve", reserve_text(view["reserve"]))
    add_field(embed, "Power deck", power_deck_text(view["talon"]))
    add_field(embed, "Slain", slain_text(view["slain"]))
    return Board(embed=embed, buttons=_grid(view, actions))


def _grid(view: dict[str, Any], actions: list[str]) -> tuple[ButtonSpec, ...]:
    if view["over"]:
        return ()
    legal = set(actions)
    rows: list[list[ButtonSpec]] = []
    for card in (c for c in view["hand"] if c):
        row = _put_buttons(view, card, legal, _FROM_HAND)
        row.append(
            button(
                CLEAR.label(view, f"reserve {card}"), _TO_RESERVE, f"reserve {card}",
                disabled=f"reserve {card}" not in legal,
            )
        )
        rows.append(row)
    if view["reserve"]:
        top = view["reserve"][-1]
        row = _put_buttons(view, top, legal, _FROM_RESERVE)
        if any(not b.disabled for b in row):
            rows.append(row)
    placed = tuple(
        ButtonSpec(b.label, b.style, r, b.action, b.disabled, b.emoji)
        for r, row in enumerate(rows)
        for b in row
    )
    missing = legal - {b.action for b in placed if not b.disabled}
    if missing:
        raise ValueError(f"Clear the Dungeon actions off the grid: {sorted(missing)}")
    return placed


def _put_buttons(
    view: dict[str, Any], card: str, legal: set[str], style: discord.ButtonStyle
) -> list[ButtonSpec]:
    row: list[ButtonSpec] = []
    for p, pile in enumerate(view["piles"], start=1):
        action = f"put {card} {p}"
        enabled = action in legal
        slays = enabled and len(pile["attack"]) == 2
        row.append(
            button(
                CLEAR.label(view, action), style if enabled else _CLOSED, action,
                disabled=not enabled, emoji="⚔️" if slays else None,
            )
        )
    return row
