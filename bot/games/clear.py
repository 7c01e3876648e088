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

from bot.boards.common import Board, ButtonSpec, Finish, GameBoard, add_field, button
from bot.pictures.canvas import (
    CARD_H,
    CARD_W,
    DIM,
    LABEL,
    RESERVE_EDGE,
    TEXT,
    WIDTH,
    Canvas,
    action_cards,
)
from bot.pictures.faces import BACK, card_image
from rules.clear.engine import (
    CLEAR,
    MONSTERS,
    hand_text,
    pile_text,
    power_deck_text,
    reserve_text,
    slain_text,
)
from rules.words import plural

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


# ----- the table picture ----------------------------------------------------------------


def scene(view: dict[str, Any], last_action: str | None) -> dict[str, Any]:
    return {
        "piles": [
            {"monster": p["monster"], "hidden": p["hidden"], "attack": p["attack"],
             # Beyond the spec, when the engine gives it: "3rd card: a heart or a joker".
             "needs": _short_need(p.get("needs") or "")}
            for p in view["piles"]
        ],
        "hand": view["hand"], "reserve_top": view["reserve"][-1] if view["reserve"] else None,
        "reserve": len(view["reserve"]), "talon": view["talon"], "slain": view["slain"],
        "last": action_cards(last_action),
    }


_NEED_WORDS = {
    "a spade": "♠", "a heart": "♥", "a diamond": "♦", "a club": "♣", "a joker": "joker",
    "a 10": "10",
}


def _short_need(needs: str) -> str:
    """``3rd card: a heart or a joker`` as it fits under a pile: ``♥ or joker``."""
    text = needs.split(": ", 1)[-1]
    for words, short in _NEED_WORDS.items():
        text = text.replace(words, short)
    return text


def draw(s: dict[str, Any]) -> Canvas:
    t = Canvas(340, s["last"])
    column = 156
    for i, p in enumerate(s["piles"]):
        x = 16 + i * column
        t.label((x, 12), f"PILE {i + 1}" + (f" · {p['hidden']} below" if p["hidden"] else ""))
        if p["monster"] is None:
            t.slot(x, 40, "cleared")
            continue
        for depth in range(p["hidden"], 0, -1):  # the monsters still waiting, face down
            t.paste(card_image(BACK, CARD_W, CARD_H), x + depth * 4, 40 - depth * 4)
        t.card(p["monster"], x, 40, mark=False)
        # The attack cards fan out down and right, leaving the monster's corner in sight.
        for j, code in enumerate(p["attack"]):
            t.card(code, x + 32 * (j + 1), 40 + 16 * (j + 1))
        if p["needs"]:
            t.label((x, 162), f"needs {p['needs']}", TEXT, 13)

    y = 212
    t.label((16, y - 20), "HAND")
    for i, code in enumerate(s["hand"]):
        x = 16 + i * (CARD_W + 12)
        if code:
            t.card(code, x, y)
        else:
            t.slot(x, y)
    t.label((256, y - 20), "RESERVE")
    if s["reserve_top"]:
        for depth in range(min(3, s["reserve"] - 1), 0, -1):  # the cards under the top
            t.draw.rounded_rectangle(
                (256 + depth * 3, y + depth * 3, 256 + depth * 3 + CARD_W - 1,
                 y + depth * 3 + CARD_H - 1), 7, fill=RESERVE_EDGE, outline=DIM)
        t.card(s["reserve_top"], 256, y)
    else:
        t.slot(256, y, "empty")
    count = s["reserve"]
    t.label((256 + CARD_W // 2, y + CARD_H + 8), f"{count} card{'s' if count != 1 else ''}",
            TEXT, 13, "ma")
    t.pile(380, y, s["talon"], "to deal")
    t.label((WIDTH - 16, y + 30), f"{s['slain']} of 12", TEXT, 24, "ra")
    t.label((WIDTH - 16, y + 60), "monsters slain", LABEL, 13, "ra")
    t.banner(s["banner"], WIDTH - 16, 318)
    return t


# ----- the result card ------------------------------------------------------------------

#: Stuck with at most this many monsters left came close.
NEAR_MISS_MONSTERS = 2


def finish(view: dict[str, Any]) -> Finish:
    """Stuck one or two monsters short is a near miss. A win's "cards to spare" are the
    power deck and the hand left unplayed (the score, rules.md): cards put on the reserve were
    played there, so a note says so when the reserve still holds some."""
    if view["outcome"] == "stuck":
        left = MONSTERS - view["slain"]
        if 0 < left <= NEAR_MISS_MONSTERS:
            return Finish(near_miss=f"So close: {plural(left, 'monster')} short of clearing "
                          "the dungeon.")
    if view["won"] and view["reserve"]:
        n = len(view["reserve"])
        kept = "the card left on the reserve was played there, so it does" if n == 1 else (
            f"the {n} cards left on the reserve were played there, so they do")
        return Finish(notes=(f"Spare cards are those never played: {kept} not count.",))
    return Finish()


#: Clear the Dungeon in Discord: the registry line in :mod:`bot.games` names it.
BOARD = GameBoard(
    render=render, headings=HEADINGS, scene=scene, draw=draw, banners={"stuck": "STUCK"},
    finish=finish,
)
