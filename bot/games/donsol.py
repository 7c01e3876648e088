"""Donsol in Discord: the board (health, shield, sickness, the room and the dungeon; a button
per room card) and the table picture's scene.

Buttons are coloured by the card's role: a monster red, a shield blurple, a potion green,
escape grey. Escape is always on the board while the run goes on; when the rules refuse it,
it is disabled and the embed says why (the view's ``escape_reason``).
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
    Nn_,
    add_field,
    arrange,
    button,
    status_line,
)
from bot.pictures.canvas import (
    BIG_LABEL,
    CARD_W,
    GOLD,
    TEXT,
    WIDTH,
    Canvas,
    action_cards,
)
from rules.cards import display
from rules.donsol.engine import (
    DONSOL,
    MAX_HP,
    ROLE_EMOJI,
    dungeon_text,
    health_text,
    role,
    room_text,
    shield_text,
    sickness_text,
)
from rules.words import N_, Phrase

_STYLE = {
    "monster": discord.ButtonStyle.danger,
    "shield": discord.ButtonStyle.primary,
    "potion": discord.ButtonStyle.success,
}


#: How each of the game's outcome words reads at the top of a finished board.
HEADINGS: dict[str, str] = {"won": N_("🏆 Victory"), "dead": N_("💀 Dead")}

HEALTH, SHIELD, SICKNESS = N_("Health"), N_("Shield"), N_("Sickness")
ROOM, DUNGEON, ESCAPE = N_("Room"), N_("Dungeon"), N_("Escape")
NO_SHIELD, SICK = N_("🛡️ none"), N_("🤢 sick")
LEFT = Nn_("{count} left", "{count} left")
SO_CLOSE = Nn_("So close: {count} card from the end of the dungeon.",
               "So close: {count} cards from the end of the dungeon.")


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed,
           language: Language = ENGLISH) -> Board:
    """The Donsol board for ``view`` with a button per legal action (``actions``)."""
    # ``embed`` is the shared frame (title, description, footer); the game adds its fields.
    # The words come from rules.donsol, so the terminal board says the same.
    say, word = language.render, language.gettext
    add_field(embed, word(HEALTH), say(health_text(view["hp"])))
    add_field(embed, word(SHIELD), say(shield_text(view)))
    add_field(embed, word(SICKNESS), say(sickness_text(view["sick"])))
    add_field(embed, word(ROOM), say(room_text(view["room"])), inline=False)
    add_field(embed, word(DUNGEON), say(dungeon_text(view)), inline=False)
    if not view["over"] and not view["can_escape"]:
        add_field(embed, word(ESCAPE), f"🚫 {say(view['escape_reason'])}", inline=False)
    return Board(embed=embed, buttons=arrange([_buttons(view, actions, language)]))


def status(view: dict[str, Any], language: Language = ENGLISH) -> str:
    """The line that stands for the fields beside the picture: ``❤️ 11/21 · 🛡️ 6♦ · 46 left``
    (and why escape is refused, which the picture cannot say)."""
    shield = view["shield"]
    line = status_line(
        f"❤️ {view['hp']}/{MAX_HP}",
        f"🛡️ {display(shield)}" if shield else language.gettext(NO_SHIELD),
        language.gettext(SICK) if view["sick"] else "",
        language.ngettext(*LEFT, view["dungeon"]).format(count=view["dungeon"]),
    )
    if not view["over"] and not view["can_escape"]:
        line += f"\n🚫 {language.render(view['escape_reason'])}"
    return line


def _buttons(view: dict[str, Any], actions: list[str],
             language: Language = ENGLISH) -> list[ButtonSpec]:
    buttons: list[ButtonSpec] = []
    escape = language.gettext(ESCAPE)
    for action in actions:
        verb, _, card = action.partition(" ")
        if verb == "take":
            kind = role(card)
            buttons.append(button(language.render(DONSOL.label(view, action)), _STYLE[kind],
                                  action, emoji=ROLE_EMOJI[kind]))
        elif action == "escape":
            buttons.append(button(escape, discord.ButtonStyle.secondary, action, emoji="🏃"))
        else:  # an action this board does not know yet still gets a plain button
            buttons.append(button(action, discord.ButtonStyle.secondary, action))
    if not view["over"] and "escape" not in actions:
        # The player looks for escape: it stays on the board, disabled; the embed says why.
        buttons.append(
            button(escape, discord.ButtonStyle.secondary, "escape", disabled=True, emoji="🏃")
        )
    return buttons


# ----- the table picture ----------------------------------------------------------------


def scene(view: dict[str, Any], last_action: str | None) -> dict[str, Any]:
    taken = action_cards(last_action) if (last_action or "").startswith("take ") else []
    return {
        "room": view["room"], "dungeon": view["dungeon"], "hp": view["hp"],
        "max_hp": view["max_hp"], "shield": view["shield"], "shield_last": view["shield_last"],
        "shield_monsters": view["shield_monsters"], "sick": view["sick"], "xp": view["xp"],
        "last": taken, "escaped": last_action == "escape",
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
    if s["last"]:
        t.card(s["last"][0], 448, 16)
        # TRANSLATORS: Under the card the last move took, on the table picture (a short word).
        t.label((448 + CARD_W // 2, 106), N_("LAST"), anchor="ma", width=90)
    elif s["escaped"]:
        # TRANSLATORS: On the table picture, where the last card taken goes, after an escape.
        t.label((440, 46), N_("ESCAPED"), GOLD, BIG_LABEL)

    if s["shield"]:
        t.card(s["shield"], 16, 150)
        t.fan(s["shield_monsters"], 16 + CARD_W + 16, 150, 230, step=36)
        hold = (Phrase(N_("fresh shield")) if s["shield_last"] is None
                else Phrase(N_("breaks on {value}+"), value=s["shield_last"]))
        t.label((16, 244), hold, TEXT, width=304)
    else:
        t.slot(16, 150, "—")
        t.label((16, 244), N_("no shield"), TEXT, width=304)

    x0 = 336  # HP as a bar, on the right under the dungeon
    t.health(x0, WIDTH - 16, 184, s["hp"], s["max_hp"])
    if s["sick"]:
        t.label((x0, 216), N_("SICK: no healing"), GOLD)
    t.banner(s["banner"], WIDTH - 16, 266, width=WIDTH - 16 - x0)
    return t


# ----- the result card ------------------------------------------------------------------

#: A death with at most this many cards left in the dungeon and the room came close.
NEAR_MISS_CARDS = 6


def finish(view: dict[str, Any], language: Language = ENGLISH) -> Finish:
    """A death in the dungeon's last cards is a near miss."""
    left = view["dungeon"] + len(view["room"])
    if view["outcome"] == "dead" and 0 < left <= NEAR_MISS_CARDS:
        return Finish(near_miss=language.ngettext(*SO_CLOSE, left).format(count=left))
    return Finish()


#: Donsol in Discord: the registry line in :mod:`bot.games` names it.
BOARD = GameBoard(
    render=render, status=status, headings=HEADINGS, scene=scene, draw=draw,
    banners={"dead": N_("DEAD")}, finish=finish,
)
