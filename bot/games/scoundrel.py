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
    ENGLISH,
    Board,
    ButtonSpec,
    Finish,
    GameBoard,
    Language,
    add_field,
    arrange,
    button,
    status_line,
)
from bot.games.donsol import LEFT, SO_CLOSE
from bot.pictures.canvas import BIG_LABEL, CARD_W, GOLD, TEXT, WIDTH, Canvas, action_cards
from rules.cards import display
from rules.scoundrel.engine import (
    AVOID,
    MONSTER,
    POTION,
    ROLE,
    ROLE_EMOJI,
    SCOUNDREL,
    WEAPON,
    dungeon_text,
    health_text,
    potion_text,
    room_text,
    weapon_text,
)
from rules.words import N_, Phrase

#: How each of the game's outcome words reads at the top of a finished board.
HEADINGS: dict[str, str] = {"won": N_("🏆 Victory"), "dead": N_("💀 Dead")}

HEALTH, WEAPON_FIELD, POTIONS = N_("Health"), N_("Weapon"), N_("Potions")
ROOM, DUNGEON, AVOID_FIELD = N_("Room"), N_("Dungeon"), N_("Avoid")
NO_WEAPON, POTIONS_SPENT = N_("🗡️ none"), N_("🧪 spent")
AVOID_LABEL = N_("Avoid the room")

_TAKE_STYLE = {WEAPON: discord.ButtonStyle.primary, POTION: discord.ButtonStyle.success}


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed,
           language: Language = ENGLISH) -> Board:
    """The Scoundrel board for ``view`` with a button per legal action (``actions``)."""
    # The words come from rules.scoundrel, so the terminal board says the same.
    say, word = language.render, language.gettext
    add_field(embed, word(HEALTH), say(health_text(view["hp"])))
    add_field(embed, word(WEAPON_FIELD), say(weapon_text(view)))
    add_field(embed, word(POTIONS), say(potion_text(view["potions_taken"])))
    add_field(embed, word(ROOM), say(room_text(view["room"])), inline=False)
    add_field(embed, word(DUNGEON), say(dungeon_text(view)), inline=False)
    if not view["over"] and not view["can_avoid"]:
        add_field(embed, word(AVOID_FIELD), f"🚫 {say(view['avoid_reason'])}", inline=False)
    return Board(embed=embed, buttons=arrange(_buttons(view, actions, language)))


def status(view: dict[str, Any], language: Language = ENGLISH) -> str:
    """The line that stands for the fields beside the picture: ``❤️ 14/20 · 🗡️ 9♦ ≤7 ·
    37 left`` (and why avoiding is refused, which the picture cannot say)."""
    weapon = view["weapon"]
    if not weapon:
        held = language.gettext(NO_WEAPON)
    elif view["weapon_last"] is None:
        held = f"🗡️ {display(weapon)}"
    else:
        held = f"🗡️ {display(weapon)} ≤{view['weapon_last']}"
    line = status_line(
        f"❤️ {view['hp']}/{view['max_hp']}", held,
        language.gettext(POTIONS_SPENT) if view["potions_taken"] else "",
        language.ngettext(*LEFT, view["dungeon"]).format(count=view["dungeon"]),
    )
    if not view["over"] and not view["can_avoid"]:
        line += f"\n🚫 {language.render(view['avoid_reason'])}"
    return line


def _buttons(view: dict[str, Any], actions: list[str],
             language: Language = ENGLISH) -> list[list[ButtonSpec]]:
    cards: list[ButtonSpec] = []
    leave: list[ButtonSpec] = []
    for action in actions:
        verb, _, card = action.partition(" ")
        label = language.render(SCOUNDREL.label(view, action))
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
        leave.append(button(language.gettext(AVOID_LABEL), discord.ButtonStyle.secondary, AVOID,
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


def draw(s: dict[str, Any]) -> Canvas:
    # Few words, large enough for a phone: the cards' faces say their values and the buttons
    # what taking each does.
    # Each label has its room (``width``): a longer translation shrinks or wraps in it.
    t = Canvas(292, s["last"], s["lang"])
    for i in range(4):
        x = 16 + i * (CARD_W + 12)
        if i < len(s["room"]):
            t.card(s["room"][i], x, 16)
        else:
            t.slot(x, 16)
    t.pile(336, 16, s["dungeon"], width=130)  # under the dungeon, beside LAST
    if s["last"] and s["last"][0] not in s["room"]:
        t.card(s["last"][0], 448, 16)
        t.label((448 + CARD_W // 2, 106), N_("LAST"), anchor="ma", width=90)
    elif s["avoided"]:
        # TRANSLATORS: On Scoundrel's table picture, after the player avoided the room.
        t.label((440, 46), N_("AVOIDED"), GOLD, BIG_LABEL)

    if s["weapon"]:
        t.card(s["weapon"], 16, 150)
        t.fan(s["slain"], 16 + CARD_W + 16, 150, 230, step=36)
        may = (Phrase(N_("fresh weapon")) if s["weapon_last"] is None
               else Phrase(N_("slays up to {value}"), value=s["weapon_last"]))
        t.label((16, 244), may, TEXT, width=304)
    else:
        t.slot(16, 150, "—")
        t.label((16, 244), N_("barehanded"), TEXT, width=304)

    x0 = 336  # HP as a bar, on the right under the dungeon
    t.health(x0, WIDTH - 16, 184, s["hp"], s["max_hp"])
    if s["potions_taken"]:
        t.label((x0, 216), N_("potions spent"), GOLD)
    t.label((x0, 244), Phrase(N_("{value} in monsters"), value=s["monsters_left"]), TEXT)
    t.banner(s["banner"], WIDTH - 16, 266, width=WIDTH - 16 - x0)
    return t


# ----- the result card ------------------------------------------------------------------

#: A death with at most this many cards left in the dungeon and the room came close.
NEAR_MISS_CARDS = 4


def finish(view: dict[str, Any], language: Language = ENGLISH) -> Finish:
    """A death in the dungeon's last cards is a near miss."""
    left = view["dungeon"] + len(view["room"])
    if view["outcome"] == "dead" and 0 < left <= NEAR_MISS_CARDS:
        return Finish(near_miss=language.ngettext(*SO_CLOSE, left).format(count=left))
    return Finish()


#: Scoundrel in Discord: the registry line in :mod:`bot.games` names it.
BOARD = GameBoard(
    render=render, status=status, headings=HEADINGS, scene=scene, draw=draw,
    banners={"dead": N_("DEAD")}, finish=finish,
)
