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

from bot.boards.common import (
    Board,
    ButtonSpec,
    add_field,
    arrange,
    bar,
    button,
    cards,
    plural,
)
from rules.cards import display
from rules.tomb import DEADLY_DAMAGE, KIND_NAMES, SKILL_NAMES, TORCHES, TREASURE_VALUE

#: Damage a player survives: the hit point counter runs 10♥ … 2♥, the 2♥ turned is death.
SURVIVABLE = DEADLY_DAMAGE - 1

_GO = discord.ButtonStyle.primary
_BACK = discord.ButtonStyle.secondary
_HELP = discord.ButtonStyle.success
_COST = discord.ButtonStyle.danger


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed) -> Board:
    """The Tomb board for ``view`` with a button per legal action (``actions``)."""
    # ``embed`` is the shared frame (title, description, footer); the game adds its fields.
    add_field(embed, "Hit points", _hit_points(view))
    add_field(embed, "Torches", _torches(view))
    add_field(embed, "Deck", plural(view["deck"], "card"))
    add_field(embed, "Progress", _progress(view), inline=False)
    if view["turn"]:
        add_field(embed, "This turn", _turn(view), inline=False)
    add_field(embed, "Hand", _hand(view["hand"]), inline=False)
    return Board(embed=embed, buttons=arrange(_buttons(view, actions)))


def _hit_points(view: dict[str, Any]) -> str:
    damage = view["damage"]
    if view["hp_card"] is None:
        return f"💀 {damage} damage: the 2♥ is turned"
    left = max(0, SURVIVABLE - damage)
    return (
        f"❤️ {display(view['hp_card'])} showing · {damage} damage\n"
        f"{bar(left, SURVIVABLE)} {left} more survivable"
    )


def _torches(view: dict[str, Any]) -> str:
    aces = [c for c in view["torches"] if c.startswith("A")]
    text = f"🔥 {len(aces)}/{TORCHES} burnt out"
    if aces:
        text += f": {cards(aces)}"
    if "RJ" in view["torches"]:
        text += "\n📜 The Scroll of Light burnt instead of a 4th"
    elif "RJ" in view["hand"]:
        text += "\n📜 Scroll of Light in hand: it saves you from the 4th Ace"
    return text


def _progress(view: dict[str, Any]) -> str:
    delved, back, needed = view["delve_turns"], view["retreat_turns"], view["retreat_needed"]
    between = not view["turn"]
    if view["phase"] == "delve":
        if not between:
            return f"⬇️ Delving: turn {delved + 1} (deeper turns cost retreat turns)"
        if delved == 0:
            return "⬇️ At the entrance: no turn played yet"
        out = "out at once" if delved == 1 else plural(delved - 1, "retreat turn")
        return f"⬇️ Delved {plural(delved, 'turn')} · turning back now: {out}"
    if view["phase"] == "retreat":
        if not between:
            return f"↩️ Retreating: turn {back + 1} of {needed} on the way out"
        return f"↩️ Retreating: {back} of {plural(needed or 0, 'retreat turn')} done"
    text = f"Delved {plural(delved, 'turn')}"
    if needed is not None:
        text += f", retreated {back} of {needed}"
    return text


def _turn(view: dict[str, Any]) -> str:
    encounter = view["encounter"]
    if encounter:
        kind = KIND_NAMES.get(encounter[-1], "encounter")
        head = f"Encounter: **{display(encounter)}** {kind}"
    else:
        head = "No encounter yet"
    return f"{head}\nCards: {cards(view['turn'])}"


def _hand(hand: list[str]) -> str:
    treasure = [c for c in hand if c in TREASURE_VALUE]
    skills = [c for c in hand if c in SKILL_NAMES]
    lines = [f"💰 Treasure: {cards(treasure, 'none yet')}"]
    if skills:
        lines.append("✨ Skills: " + ", ".join(f"{display(c)} {SKILL_NAMES[c]}" for c in skills))
    else:
        lines.append("✨ Skills: none")
    return "\n".join(lines)


def _flip_label(view: dict[str, Any]) -> tuple[str, str]:
    if view["turn"]:
        return "Turn the next card", "🎴"
    if view["phase"] == "retreat":
        return f"Retreat turn {view['retreat_turns'] + 1} of {view['retreat_needed']}", "🎴"
    if view["delve_turns"] == 0:
        return "Enter the tomb", "🎴"
    return f"Delve deeper (turn {view['delve_turns'] + 1})", "⬇️"


def _buttons(view: dict[str, Any], actions: list[str]) -> list[list[ButtonSpec]]:
    go: list[ButtonSpec] = []
    choices: list[ButtonSpec] = []
    drops: list[ButtonSpec] = []
    leaves: list[ButtonSpec] = []
    other: list[ButtonSpec] = []
    for action in actions:
        verb, _, arg = action.partition(" ")
        if action == "flip":
            label, emoji = _flip_label(view)
            go.append(button(label, _GO, action, emoji=emoji))
        elif action == "retreat":
            delved = view["delve_turns"]
            out = "out at once" if delved <= 1 else plural(delved - 1, "retreat turn")
            go.append(button(f"Turn back ({out})", _BACK, action, emoji="↩️"))
        elif verb == "skill":
            choices.append(
                button(
                    f"{display(arg)} {SKILL_NAMES.get(arg, 'skill')}", _HELP, action, emoji="✨"
                )
            )
        elif action == "dodge":
            choices.append(button(f"Dodge the blow ({display('JH')})", _HELP, action, emoji="🤸"))
        elif action == "endure":
            owed = view.get("owed")  # the blow's size: this engine's extra view key
            label = f"Take the blow ({owed} damage)" if owed else "Take the blow"
            choices.append(button(label, _COST, action, emoji="💥"))
        elif action == "discard":
            owed = view.get("owed")  # how many cards the failed door throws away
            label = f"Discard {plural(owed, 'card')} from the deck" if owed else "Discard cards"
            choices.append(button(label, _COST, action, emoji="🚪"))
        elif verb == "drop":
            worth = TREASURE_VALUE.get(arg, 0)
            drops.append(button(f"Drop {display(arg)} ({worth})", _COST, action, emoji="💰"))
        elif verb == "leave":
            leaves.append(button(f"Leave {display(arg)} to mark the turn", _BACK, action))
        else:  # an action this board does not know yet still gets a plain button
            other.append(button(action, discord.ButtonStyle.secondary, action))
    return [go, choices, drops, leaves, other]
