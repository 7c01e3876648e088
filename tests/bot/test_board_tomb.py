"""What a player sees on a Tomb of Four Kings board (decks from tomb.md's worked examples)."""

from __future__ import annotations

import discord

from bot.boards.common import Board
from bot.games import render_board
from rules.tomb.engine import TOMB, TombState


def board(state: TombState) -> Board:
    return render_board(TOMB.view(state), TOMB.actions(state), run_id=9)


def field(b: Board, name: str) -> str:
    values = [f.value for f in b.embed.fields if f.name == name]
    assert values, f"no field {name!r} in {[f.name for f in b.embed.fields]}"
    return values[0] or ""


def buttons(b: Board) -> list[tuple[str, discord.ButtonStyle, int, str]]:
    return [(s.label, s.style, s.row, s.action) for s in b.buttons]


def test_the_entrance() -> None:
    b = board(TOMB.new(0))

    assert b.embed.title == "Tomb of Four Kings · standard · run #9"
    assert field(b, "Hit points") == "❤️ 10♥ showing · 0 damage\n▰▰▰▰▰▰▰▰ 8 more survivable"
    assert field(b, "Torches") == "🔥 0/4 burnt out"
    assert field(b, "Deck") == "44 cards"
    assert field(b, "Hand") == "💰 Treasure: none yet\n✨ Skills: none"
    assert "This turn" not in [f.name for f in b.embed.fields]
    assert buttons(b) == [("Enter the tomb", discord.ButtonStyle.primary, 0, "flip")]


def test_mid_fight_shows_the_encounter_the_damage_and_the_dodge_choice() -> None:
    # E6: J♥ then the 9♠ monster; 8♣ falls short by 1, endured; 3♣ falls short by 6.
    state = TOMB.apply(TOMB.new(0, deck=["JH", "9S", "8C", "3C", "9D"]), "flip")
    state = TOMB.apply(state, "endure")

    b = board(state)

    assert field(b, "This turn") == "Encounter: **9♠** monster\nCards: 9♠ 8♣ 3♣"
    assert field(b, "Hit points") == "❤️ 9♥ showing · 1 damage\n▰▰▰▰▰▰▰▱ 7 more survivable"
    assert field(b, "Hand") == "💰 Treasure: none yet\n✨ Skills: J♥ Dodge Blow"
    assert field(b, "Progress").startswith("⬇️ Delving: turn 1")
    assert "Your 3♣ falls short: the monster hits you for 6." in (b.embed.description or "")
    assert buttons(b) == [
        ("Dodge the blow (J♥)", discord.ButtonStyle.success, 0, "dodge"),
        ("Take the blow (6 damage)", discord.ButtonStyle.danger, 0, "endure"),
    ]


def test_between_turns_delve_deeper_or_turn_back() -> None:
    state = TOMB.apply(TOMB.new(0, deck=["7D", "10C", "KS", "7S", "2C", "2S"]), "flip")

    b = board(state)

    assert field(b, "Hand") == "💰 Treasure: 7♦\n✨ Skills: none"
    assert field(b, "Progress") == "⬇️ Delved 1 turn · turning back now: out at once"
    assert buttons(b) == [
        ("Delve deeper (turn 2)", discord.ButtonStyle.primary, 0, "flip"),
        ("Turn back (out at once)", discord.ButtonStyle.secondary, 0, "retreat"),
    ]
    assert b.embed.footer.text == "Score: 0 Kings, 7 points · move 1"


def test_a_treasure_drop_is_a_red_button_on_its_own_row() -> None:
    # E7: the 7♦ collected in turn 1 can buy off the 7♠ monster of turn 2.
    state = TOMB.apply(TOMB.new(0, deck=["7D", "10C", "KS", "7S", "2C", "2S"]), "flip")
    state = TOMB.apply(state, "flip")

    b = board(state)

    assert field(b, "This turn") == "Encounter: **7♠** monster\nCards: K♠ 7♠"
    assert buttons(b) == [
        ("Turn the next card", discord.ButtonStyle.primary, 0, "flip"),
        ("Drop 7♦ (7)", discord.ButtonStyle.danger, 1, "drop 7D"),
    ]


def test_a_failed_door_offers_pick_lock_or_the_discards() -> None:
    # E10: J♣ drawn mid-door: the door waits for the choice; 3♦ then fails against the 8♣.
    state = TOMB.apply(TOMB.new(0, deck=["8C", "JC", "KH", "3D"]), "flip")
    assert [(s.label, s.row, s.action) for s in board(state).buttons] == [
        ("Turn the next card", 0, "flip"),
        ("J♣ Pick Lock", 1, "skill JC"),
    ]

    b = board(TOMB.apply(TOMB.apply(state, "flip"), "flip"))  # K♥ waits in the turn, then 3♦

    assert [(s.label, s.style, s.action) for s in b.buttons] == [
        ("J♣ Pick Lock", discord.ButtonStyle.success, "skill JC"),
        ("Discard 5 cards from the deck", discord.ButtonStyle.danger, "discard"),
    ]


def test_an_all_treasure_turn_asks_which_card_to_leave() -> None:
    # E3: K♣, the 3♦ trap and the 7♦ that beats it are all treasure.
    state = TOMB.apply(TOMB.new(0, deck=["KC", "3D", "7D"]), "flip")

    b = board(state)

    assert [s.action for s in b.buttons] == ["leave KC", "leave 3D", "leave 7D"]
    assert b.buttons[0].label == "Leave K♣ to mark the turn"


def test_out_alive_shows_outcome_and_score_and_no_button() -> None:
    # E2: the 4♦ trap won, then turn back after turn 1: out at once with 0/4.
    state = TOMB.apply(TOMB.apply(TOMB.new(0, deck=["4D", "9S"]), "flip"), "retreat")

    b = board(state)

    assert b.buttons == ()
    assert (b.embed.description or "").startswith(
        "**🚪 Out alive**\nFinal score: **0 Kings, 4 points**"
    )
    assert b.embed.colour == discord.Colour.gold()


def test_death_shows_outcome_and_score_and_no_button() -> None:
    # E5b: 8 damage from the 10♠, then 1 more.
    state = TOMB.new(0, deck=["10S", "2C", "9C"])
    while TOMB.actions(state):
        state = TOMB.apply(state, TOMB.actions(state)[0])

    b = board(state)

    assert b.buttons == ()
    assert (b.embed.description or "").startswith("**💀 Dead**\nFinal score: **dead — 0**")
    assert field(b, "Hit points") == "💀 9 damage: the 2♥ is turned"
    assert b.embed.colour == discord.Colour.red()


def test_torches_and_the_scroll_of_light() -> None:
    # E9's first cards: two Aces burn before the K♠ treasure.
    state = TOMB.apply(TOMB.new(0, deck=["AS", "AH", "KS", "4C", "8S", "AD", "3S", "AC"]), "flip")

    assert field(board(state), "Torches") == "🔥 2/4 burnt out: A♠ A♥"
