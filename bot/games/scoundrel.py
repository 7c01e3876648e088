"""Scoundrel in Discord: the board (health, the weapon and its last kill, the room of four, the
dungeon; a button per move) and the table picture's scene.

Buttons by what they do: equipping a weapon blurple, drinking a potion green, fighting a
monster with the weapon red (the HP it costs in the label), fighting barehanded red with a
fist, avoiding the room grey. A monster the weapon may slay has both its buttons side by side.
Avoid stays on the board while the run goes on; when the rules refuse it, it is disabled and
the embed says why (the view's ``avoid_reason``).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.boards.common import (
    Board,
    ButtonSpec,
    Finish,
    GameBoard,
    add_field,
    arrange,
    button,
)
from bot.pictures.canvas import CARD_W, GOLD, TEXT, WIDTH, Canvas, action_cards
from rules.scoundrel.engine import (
    AVOID,
    MONSTER,
    POTION,
    ROLE,
    ROLE_EMOJI,
    SCOUNDREL,
    VALUE,
    WEAPON,
    dungeon_text,
    health_text,
    potion_text,
    room_text,
    weapon_text,
)
from rules.words import plural

#: How each of the game's outcome words reads at the top of a finished board.
HEADINGS: dict[str, str] = {"won": "🏆 Victory", "dead": "💀 Dead"}

_TAKE_STYLE = {WEAPON: discord.ButtonStyle.primary, POTION: discord.ButtonStyle.success}


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed) -> Board:
    """The Scoundrel board for ``view`` with a button per legal action (``actions``)."""
    # The words come from rules.scoundrel, so the terminal board says the same.
    add_field(embed, "Health", health_text(view["hp"]))
    add_field(embed, "Weapon", weapon_text(view))
    add_field(embed, "Potions", potion_text(view["potions_taken"]))
    add_field(embed, "Room", room_text(view["room"]), inline=False)
    add_field(embed, "Dungeon", dungeon_text(view), inline=False)
    if not view["over"] and not view["can_avoid"]:
        add_field(embed, "Avoid", f"🚫 {view['avoid_reason']}", inline=False)
    return Board(embed=embed, buttons=arrange(_buttons(view, actions)))


def _buttons(view: dict[str, Any], actions: list[str]) -> list[list[ButtonSpec]]:
    cards: list[ButtonSpec] = []
    leave: list[ButtonSpec] = []
    for action in actions:
        verb, _, card = action.partition(" ")
        label = SCOUNDREL.label(view, action)
        if action == AVOID:
            leave.append(button(label, discord.ButtonStyle.secondary, action, emoji="🏃"))
        elif verb == "take":
            cards.append(button(label, _TAKE_STYLE[ROLE[card]], action,
                                emoji=ROLE_EMOJI[ROLE[card]]))
        elif verb == "fight":
            # ⚔️ as a monster's (the room's field), not the weapon's 🗡️: that is equipping.
            cards.append(button(label, discord.ButtonStyle.danger, action,
                                emoji=ROLE_EMOJI[MONSTER]))
        elif verb == "fist":
            cards.append(button(label, discord.ButtonStyle.danger, action, emoji="👊"))
        else:  # an action this board does not know yet still gets a plain button
            cards.append(button(action, discord.ButtonStyle.secondary, action))
    if not view["over"] and AVOID not in actions:
        # The player looks for avoid: it stays on the board, disabled; the embed says why.
        leave.append(button("Avoid the room", discord.ButtonStyle.secondary, AVOID,
                            disabled=True, emoji="🏃"))
    return [cards, leave]


# ----- the table picture ----------------------------------------------------------------


def scene(view: dict[str, Any], last_action: str | None) -> dict[str, Any]:
    return {
        "room": view["room"], "dungeon": view["dungeon"], "hp": view["hp"],
        "max_hp": view["max_hp"], "weapon": view["weapon"], "weapon_last": view["weapon_last"],
        "slain": view["slain"], "potions_taken": view["potions_taken"],
        "monsters_left": view["monster_value_left"],
        "last": action_cards(last_action), "avoided": last_action == AVOID,
    }


def _what(code: str) -> str:
    """What a card is, in the fewest words a phone can still read: ``monster 11``."""
    return f"{ROLE[code]} {VALUE[code]}"


def draw(s: dict[str, Any]) -> Canvas:
    t = Canvas(316, s["last"])
    t.label((16, 12), "ROOM")
    for i in range(4):
        x = 16 + i * (CARD_W + 12)
        if i < len(s["room"]):
            code = s["room"][i]
            t.card(code, x, 32)
            t.label((x + CARD_W // 2, 124), _what(code), TEXT, 12, "ma")
        else:
            t.slot(x, 32)
    t.pile(336, 32, s["dungeon"], "in the dungeon")
    if s["last"] and s["last"][0] not in s["room"]:
        t.label((440, 12), "LAST TAKEN")
        t.card(s["last"][0], 448, 32)
        t.label((448 + CARD_W // 2, 124), _what(s["last"][0]), TEXT, 12, "ma")
    elif s["avoided"]:
        t.label((440, 12), "AVOIDED", GOLD)

    t.label((16, 154), "WEAPON")
    if s["weapon"]:
        t.card(s["weapon"], 16, 174)
        t.fan(s["slain"], 16 + CARD_W + 16, 174, 230, step=36)
        may = ("fresh: slays any monster" if s["weapon_last"] is None
               else f"slays monsters up to {s['weapon_last']}")
        t.label((16, 266), may, TEXT)
    else:
        t.slot(16, 174, "none")
        t.label((16, 266), "no weapon: monsters hit in full", TEXT)

    x0 = 336  # HP as a bar, on the right under the dungeon
    t.health(x0, WIDTH - 16, 192, s["hp"], s["max_hp"])
    potions = "a potion now heals nothing" if s["potions_taken"] else "a potion heals"
    t.label((x0, 228), potions, TEXT)
    t.label((x0, 250), f"{s['monsters_left']} in monsters left", TEXT)
    t.banner(s["banner"], WIDTH - 16, 290)
    return t


# ----- the result card ------------------------------------------------------------------

#: A death with at most this many cards left in the dungeon and the room came close.
NEAR_MISS_CARDS = 4


def finish(view: dict[str, Any]) -> Finish:
    """A death in the dungeon's last cards is a near miss."""
    left = view["dungeon"] + len(view["room"])
    if view["outcome"] == "dead" and 0 < left <= NEAR_MISS_CARDS:
        return Finish(near_miss=f"So close: {plural(left, 'card')} from the end of the dungeon.")
    return Finish()


#: Scoundrel in Discord: the registry line in :mod:`bot.games` names it.
BOARD = GameBoard(
    render=render, headings=HEADINGS, scene=scene, draw=draw, banners={"dead": "DEAD"},
    finish=finish,
)
