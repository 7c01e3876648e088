"""The Clear the Dungeon board: the four piles, the hand, the reserve and the power deck.

A move is chosen in two steps, so that no button is ever disabled and each label says one
thing. The first board has a button per card that can be played: the hand's cards in slot
order (blurple), then the reserve's top when it fits a monster (green). Its click only
redraws (a ``pick`` control carrying the card, checked like every id): the second board
offers only that card's legal targets, named by what they are ("Onto K♠", "Slay J♦" for the
third card, which slays; "To the reserve" grey), and Back. The move itself is the second
click, the usual version-checked write. When only one card can be played (the hand is
empty and the reserve's top fits), its targets come at once.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.boards.common import (
    ENGLISH,
    Board,
    ButtonSpec,
    Choice,
    Finish,
    GameBoard,
    Language,
    Nn_,
    add_field,
    button,
    clip,
    status_line,
)
from bot.pictures.canvas import (
    CARD_H,
    CARD_W,
    DIM,
    LABEL,
    LEFT,
    RESERVE_EDGE,
    TEXT,
    WIDTH,
    Canvas,
    action_cards,
)
from bot.pictures.faces import BACK, card_image
from rules.cards import display
from rules.clear.engine import (
    MONSTERS,
    hand_text,
    pile_text,
    power_deck_text,
    reserve_text,
    slain_text,
)
from rules.words import N_, Phrase

_FROM_HAND = discord.ButtonStyle.primary
_FROM_RESERVE = discord.ButtonStyle.success
_TO_RESERVE = discord.ButtonStyle.secondary


#: How each of the game's outcome words reads at the top of a finished board.
HEADINGS: dict[str, str] = {"won": N_("🏆 Victory"), "stuck": N_("🧱 Stuck")}

MONSTERS_FIELD, HAND, RESERVE = N_("Monsters"), N_("Hand"), N_("Reserve")
POWER_DECK, SLAIN = N_("Power deck"), N_("Slain")
SLAIN_COUNT = N_("⚔️ {slain}/{total} slain")
TO_DEAL = N_("{count} to deal")
RESERVE_COUNT = N_("reserve {count}")
RESERVE_EMPTY = N_("reserve empty")
FROM_RESERVE = N_("Reserve: {card}")
TO_THE_RESERVE = N_("To the reserve")
SLAY = N_("Slay {monster}")
ONTO = N_("Onto {monster}")
WHERE = N_("Where does {card} go?")
SO_CLOSE = Nn_("So close: {count} monster short of clearing the dungeon.",
               "So close: {count} monsters short of clearing the dungeon.")
SPARE_ONE = N_("Spare cards are those never played: the card left on the reserve was played "
               "there, so it does not count.")
#: Only ever said of 2 cards or more, yet plural, so that a language with several plural
#: forms (Russian, Polish) words 2 and 5 apart.
SPARE_MANY = Nn_("Spare cards are those never played: the {count} card left on the reserve "
                 "was played there, so it does not count.",
                 "Spare cards are those never played: the {count} cards left on the reserve "
                 "were played there, so they do not count.")


def render(view: dict[str, Any], actions: list[str], embed: discord.Embed,
           language: Language = ENGLISH) -> Board:
    """The Clear the Dungeon board for ``view``: the table's fields and the first step's
    buttons (a card each; its targets at once when only one card can be played)."""
    # ``embed`` is the shared frame (title, description, footer); the game adds its fields.
    # The words come from rules.clear, so the terminal board says the same.
    say, word = language.render, language.gettext
    add_field(
        embed, word(MONSTERS_FIELD),
        "\n".join(f"**{i}** {say(pile_text(p))}"
                  for i, p in enumerate(view["piles"], start=1)),
        inline=False,
    )
    add_field(embed, word(HAND), say(hand_text(view["hand"])))
    add_field(embed, word(RESERVE), say(reserve_text(view["reserve"])))
    add_field(embed, word(POWER_DECK), say(power_deck_text(view["talon"])))
    add_field(embed, word(SLAIN), say(slain_text(view["slain"])))
    buttons = _first_step(view, actions, language)
    only = _only_card(view, actions)
    if only is not None:
        # Nothing to choose first: the board asks where the one playable card goes, as the
        # second step would (the frame ends the description with the engine's prompt).
        chosen = choose(view, actions, only, language)
        assert chosen is not None
        text = (embed.description or "").removesuffix(
            f"**{clip(say(view['prompt']), 300)}**")
        embed.description = f"{text}**{say(chosen.prompt)}**"
    return Board(embed=embed, buttons=buttons)


def status(view: dict[str, Any], language: Language = ENGLISH) -> str:
    """The line that stands for the fields beside the picture: ``⚔️ 3/12 slain · 36 to deal ·
    reserve 2``."""
    reserve = len(view["reserve"])
    return status_line(
        language.format(SLAIN_COUNT, slain=view["slain"], total=MONSTERS),
        language.format(TO_DEAL, count=view["talon"]),
        language.format(RESERVE_COUNT, count=reserve) if reserve
        else language.gettext(RESERVE_EMPTY),
    )


def _only_card(view: dict[str, Any], actions: list[str]) -> str | None:
    """The card to play when only one can be (and the board is not already its second
    step, whose prompt is set)."""
    if view["over"]:
        return None
    by_card = _moves_by_card(view, actions)
    if len(by_card) != 1:
        return None
    ((card, _),) = by_card.items()
    return None if view["prompt"].startswith("Where does ") else card


def _moves_by_card(view: dict[str, Any], actions: list[str]) -> dict[str, list[str]]:
    """Each card that can be played and its legal moves, the hand's first, in slot order."""
    by_card: dict[str, list[str]] = {}
    for card in [*(c for c in view["hand"] if c), *view["reserve"][-1:]]:
        moves = [a for a in actions if a.split(" ")[1] == card]
        if moves:
            by_card[card] = moves
    if sum(len(m) for m in by_card.values()) != len(actions):
        raise ValueError(f"Clear the Dungeon actions without a card: {actions}")
    return by_card


def _first_step(view: dict[str, Any], actions: list[str],
                language: Language = ENGLISH) -> tuple[ButtonSpec, ...]:
    if view["over"]:
        return ()
    by_card = _moves_by_card(view, actions)
    if len(by_card) == 1:
        ((card, _),) = by_card.items()
        chosen = choose(view, actions, card, language)
        assert chosen is not None
        return chosen.buttons
    return tuple(
        ButtonSpec(language.render(_card_label(view, card)),
                   _FROM_RESERVE if _from_reserve(view, card) else _FROM_HAND, 0, card,
                   opens=tuple(moves))
        for card, moves in by_card.items()
    )


def _from_reserve(view: dict[str, Any], card: str) -> bool:
    return card not in view["hand"]


def _card_label(view: dict[str, Any], card: str) -> str:
    """The card as its button names it (a phrase: English, said in the board's language)."""
    return (Phrase(FROM_RESERVE, card=display(card)) if _from_reserve(view, card)
            else display(card))


def choose(view: dict[str, Any], actions: list[str], card: str,
           language: Language = ENGLISH) -> Choice | None:
    """The second step for ``card``: its legal targets, one row; None when ``card`` cannot
    be played now. Its prompt is a phrase (English that remembers its message), said in the
    board's language by the frame."""
    moves = _moves_by_card(view, actions).get(card)
    if not moves:
        return None
    put = _FROM_RESERVE if _from_reserve(view, card) else _FROM_HAND
    buttons: list[ButtonSpec] = []
    for action in moves:
        words = action.split(" ")
        if words[0] == "reserve":
            buttons.append(button(language.gettext(TO_THE_RESERVE), _TO_RESERVE, action))
            continue
        pile = view["piles"][int(words[2]) - 1]
        monster = display(pile["monster"])
        if len(pile["attack"]) == 2:  # the third card slays
            buttons.append(button(language.format(SLAY, monster=monster), put, action,
                                  emoji="⚔️"))
        else:
            buttons.append(button(language.format(ONTO, monster=monster), put, action))
    return Choice(prompt=Phrase(WHERE, card=_card_label(view, card)), buttons=tuple(buttons))


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
_SUIT_OR_JOKER = re.compile(r"^(10|[♠♥♦♣]) or joker$")
_OR_MORE = re.compile(r"^(\d+) or more$")


def _short_need(needs: str) -> str:
    """``3rd card: a heart or a joker`` as it fits under a pile: ``♥ or joker``, a phrase
    the picture says in its language (the engine's English is read, whatever its language)."""
    text = needs.split(": ", 1)[-1]
    for words, short in _NEED_WORDS.items():
        text = text.replace(words, short)
    if text == "any card":
        return Phrase(N_("any card"))
    if found := _SUIT_OR_JOKER.match(text):
        # TRANSLATORS: Under a pile on Clear's table picture: a suit (♠) or 10, or a joker.
        return Phrase(N_("{card} or joker"), card=found.group(1))
    if found := _OR_MORE.match(text):
        # TRANSLATORS: Under a pile on Clear's table picture: a card of this value or more.
        return Phrase(N_("{value} or more"), value=int(found.group(1)))
    return text


def draw(s: dict[str, Any]) -> Canvas:
    # Few words, large enough for a phone: the face-down cards show how many wait below.
    # Each label has its room (``width``): a longer translation shrinks or wraps in it.
    t = Canvas(340, s["last"], s["lang"])
    column = 156
    for i, p in enumerate(s["piles"]):
        x = 16 + i * column
        t.label((x, 8), Phrase(N_("PILE {number}"), number=i + 1), width=column - 8)
        if p["monster"] is None:
            t.slot(x, 40, "✓")
            continue
        for depth in range(p["hidden"], 0, -1):  # the monsters still waiting, face down
            t.paste(card_image(BACK, CARD_W, CARD_H), x + depth * 4, 40 - depth * 4)
        t.card(p["monster"], x, 40, mark=False)
        # The attack cards fan out down and right, leaving the monster's corner in sight.
        for j, code in enumerate(p["attack"]):
            t.card(code, x + 32 * (j + 1), 40 + 16 * (j + 1))
        if p["needs"]:
            t.label((x, 162), p["needs"], TEXT, width=column - 8)

    y = 222
    t.label((16, y - 28), N_("HAND"), width=256 - 16 - 8)
    for i, code in enumerate(s["hand"]):
        x = 16 + i * (CARD_W + 12)
        if code:
            t.card(code, x, y)
        else:
            t.slot(x, y)
    t.label((256, y - 28), N_("RESERVE"), width=400 - 256 - 8)
    if s["reserve_top"]:
        for depth in range(min(3, s["reserve"] - 1), 0, -1):  # the cards under the top
            t.draw.rounded_rectangle(
                (256 + depth * 3, y + depth * 3, 256 + depth * 3 + CARD_W - 1,
                 y + depth * 3 + CARD_H - 1), 7, fill=RESERVE_EDGE, outline=DIM)
        t.card(s["reserve_top"], 256, y)
        t.label((256 + CARD_W + 14, y + CARD_H // 2), Phrase("×{count}", count=s["reserve"]),
                TEXT, anchor="lm")
    else:
        t.slot(256, y, "—")
    # Once the run is over its banner takes the corner, the talon's count line with it: the
    # slain counter says how far the run went, and a longer translation of the banner fits.
    over = s["banner"] is not None
    t.pile(400, y, s["talon"], None if over else LEFT, width=2 * (430 - 324))
    t.label((WIDTH - 16, y + 20), Phrase("{slain}/{all}", slain=s["slain"], all=12), TEXT, 32,
            "ra")
    # TRANSLATORS: Under "5/12" on Clear's table picture: how many monsters are slain.
    t.label((WIDTH - 16, y + 60), N_("slain"), LABEL, anchor="ra", width=WIDTH - 16 - 468)
    t.banner(s["banner"], WIDTH - 16, 320, width=WIDTH - 16 - 400)
    return t


# ----- the result card ------------------------------------------------------------------

#: Stuck with at most this many monsters left came close.
NEAR_MISS_MONSTERS = 2


def finish(view: dict[str, Any], language: Language = ENGLISH) -> Finish:
    """Stuck one or two monsters short is a near miss. A win's "cards to spare" are the
    power deck and the hand left unplayed (the score, rules.md): cards put on the reserve were
    played there, so a note says so when the reserve still holds some."""
    if view["outcome"] == "stuck":
        left = MONSTERS - view["slain"]
        if 0 < left <= NEAR_MISS_MONSTERS:
            return Finish(near_miss=language.ngettext(*SO_CLOSE, left).format(count=left))
    if view["won"] and view["reserve"]:
        n = len(view["reserve"])
        # Two sentences, not one plural: English words the two cases differently.
        note = (language.gettext(SPARE_ONE) if n == 1
                else language.ngettext(*SPARE_MANY, n).format(count=n))
        return Finish(notes=(note,))
    return Finish()


#: Clear the Dungeon in Discord: the registry line in :mod:`bot.games` names it.
BOARD = GameBoard(
    render=render, status=status, headings=HEADINGS, scene=scene, draw=draw,
    banners={"stuck": N_("STUCK")}, choose=choose, finish=finish,
)
