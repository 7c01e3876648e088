"""What a player sees on a Clear the Dungeon board: the piles, the hand, and the move in two
steps (a card, then its target)."""

from __future__ import annotations

import random

import discord

from bot.boards.common import Board, Choice
from bot.games import choose, render_board
from rules.cards import CANONICAL, display
from rules.clear.engine import CLEAR, ClearState

BLUE = discord.ButtonStyle.primary
GREEN = discord.ButtonStyle.success
GREY = discord.ButtonStyle.secondary

# Piles bottom to top: the face cards in the order they are met (dealing.md).
MONSTERS = ["QS", "JS", "KS", "QC", "JH", "QH", "KD", "QD", "JD", "JC", "KH", "KC"]
FIRST_CARDS = ["AH", "3C", "RJ", "5D", "9S", "2H"]


def deal() -> ClearState:
    """Piles topped by K♠, Q♥, J♦, K♣; first hand A♥ 3♣ 🃏, then 5♦ 9♠ 2♥."""
    rest = [c for c in CANONICAL if c not in MONSTERS and c not in FIRST_CARDS]
    return CLEAR.new(0, deck=[*MONSTERS, *FIRST_CARDS, *rest])


def board(state: ClearState) -> Board:
    return render_board(CLEAR.view(state), CLEAR.actions(state), run_id=11)


def field(b: Board, name: str) -> str:
    values = [f.value for f in b.embed.fields if f.name == name]
    assert values, f"no field {name!r} in {[f.name for f in b.embed.fields]}"
    return values[0] or ""


def test_the_table_at_the_start() -> None:
    b = board(deal())

    assert b.embed.title == "Clear the Dungeon · standard · run #11"
    assert field(b, "Monsters") == (
        "**1** K♠ (13) ⟵ no attack yet · next: 3 or more · 2 hidden\n"
        "**2** Q♥ (12) ⟵ no attack yet · next: 2 or more · 2 hidden\n"
        "**3** J♦ (11) ⟵ no attack yet · next: any card · 2 hidden\n"
        "**4** K♣ (13) ⟵ no attack yet · next: 3 or more · 2 hidden"
    )
    assert field(b, "Hand") == "A♥  3♣  🃏"
    assert field(b, "Reserve") == "empty"
    assert field(b, "Power deck") == "39 cards (13 deals)"
    assert field(b, "Slain") == "⚔️ 0/12"


def labels(buttons) -> list[tuple[str, str]]:
    return [(s.label, s.action) for s in buttons]


def second(state: ClearState, card: str) -> Choice:
    chosen = choose(CLEAR.view(state), CLEAR.actions(state), card)
    assert chosen is not None
    return chosen


def test_the_first_step_is_a_button_per_card_and_nothing_disabled() -> None:
    b = board(deal())

    # Was: 3 rows of 5 (15 buttons, 6 disabled), every label ``A♥ → K♠``.
    assert labels(b.buttons) == [("A♥", "AH"), ("3♣", "3C"), ("🃏", "RJ")]
    assert {s.row for s in b.buttons} == {0} and not any(s.disabled for s in b.buttons)
    assert [s.style for s in b.buttons] == [BLUE, BLUE, BLUE]
    # Each card's button leads to exactly its legal moves.
    assert b.buttons[0].opens == ("put AH 3", "reserve AH")
    assert len(b.buttons[1].opens) == 5
    assert (b.embed.description or "").endswith(
        "**Play a card onto a monster, or put one on the reserve.**")


def test_the_second_step_names_only_the_targets_and_asks_where() -> None:
    chosen = second(deal(), "AH")
    assert chosen.prompt == "Where does A♥ go?"
    assert labels(chosen.buttons) == [("Onto J♦", "put AH 3"), ("To the reserve", "reserve AH")]
    assert [s.style for s in chosen.buttons] == [BLUE, GREY]
    assert not any(s.disabled for s in chosen.buttons)

    drawn = render_board(CLEAR.view(deal()), CLEAR.actions(deal()), run_id=11, choice="AH")
    assert (drawn.embed.description or "").endswith("**Where does A♥ go?**")
    assert drawn.buttons == chosen.buttons
    # A card that cannot be played now is no choice.
    assert choose(CLEAR.view(deal()), CLEAR.actions(deal()), "5D") is None


def test_the_reserve_top_gets_a_button_when_it_fits_a_monster() -> None:
    state = CLEAR.apply(deal(), "reserve AH")

    b = board(state)

    assert field(b, "Hand") == "—  3♣  🃏"
    assert field(b, "Reserve") == "top A♥ · 1 card"
    assert labels(b.buttons) == [("3♣", "3C"), ("🃏", "RJ"), ("Reserve: A♥", "AH")]
    assert b.buttons[-1].style == GREEN and b.buttons[-1].opens == ("put AH 3",)
    chosen = second(state, "AH")
    assert chosen.prompt == "Where does Reserve: A♥ go?"
    assert [(s.label, s.style) for s in chosen.buttons] == [("Onto J♦", GREEN)]


def test_an_attack_in_progress_and_the_slaying_move() -> None:
    state = CLEAR.apply(deal(), "reserve AH")
    state = CLEAR.apply(state, "put 3C 3")
    state = CLEAR.apply(state, "put RJ 3")  # the hand is empty: 5♦ 9♠ 2♥ are dealt

    b = board(state)

    assert "**3** J♦ (11) ⟵ 3♣ 🃏 · next: a ♦ or 🃏 slays it · 2 hidden" in field(b, "Monsters")
    assert field(b, "Hand") == "5♦  9♠  2♥"
    (slay,) = [s for s in second(state, "5D").buttons if s.action == "put 5D 3"]
    assert slay.label == "Slay J♦" and slay.emoji == "⚔️"
    # The reserve's A♥ fits no monster now (J♦ needs a diamond): no button for it.
    assert [s.label for s in b.buttons] == ["5♦", "9♠", "2♥"]

    b = board(CLEAR.apply(state, "put 5D 3"))

    assert field(b, "Slain") == "⚔️ 1/12"
    assert "**3** Q♦ (12) ⟵ no attack yet · next: 2 or more · 1 hidden" in field(b, "Monsters")


def test_one_card_to_play_shows_its_targets_at_once() -> None:
    """With the hand empty and the reserve's top fitting, there is nothing to choose first."""
    rng = random.Random(3)
    found = 0
    for seed in range(60):
        state = CLEAR.new(seed)
        while (actions := CLEAR.actions(state)) and found < 3:
            view = CLEAR.view(state)
            cards = {a.split(" ")[1] for a in actions}
            if len(cards) == 1:
                b = board(state)
                assert not any(s.opens for s in b.buttons)
                assert sorted(s.action for s in b.buttons) == sorted(actions)
                assert all(s.label.startswith(("Onto ", "Slay ", "To the reserve"))
                           for s in b.buttons)
                (card,) = cards
                shown = "Reserve: " if card not in view["hand"] else ""
                assert (b.embed.description or "").endswith(
                    f"**Where does {shown}{display(card)} go?**")
                found += 1
            state = CLEAR.apply(state, rng.choice(actions))
    assert found


def test_no_board_has_a_disabled_button_or_more_than_one_row() -> None:
    """Over random play: no disabled button, one row of at most 4 cards or 5 targets."""
    rng = random.Random(11)
    most = 0
    for seed in range(40):
        state = CLEAR.new(seed)
        while actions := CLEAR.actions(state):
            view = CLEAR.view(state)
            b = board(state)
            steps = [b.buttons] + [second(state, s.action).buttons for s in b.buttons if s.opens]
            for buttons in steps:
                assert buttons and not any(s.disabled for s in buttons)
                assert {s.row for s in buttons} == {0} and len(buttons) <= 5
                most = max(most, len(buttons))
            assert view["over"] is False
            state = CLEAR.apply(state, rng.choice(actions))
    assert most == 5  # four piles and the reserve


def test_a_stuck_run_shows_outcome_and_score_and_no_button() -> None:
    rng = random.Random(5)
    state = CLEAR.new(5)
    while CLEAR.actions(state):
        state = CLEAR.apply(state, rng.choice(CLEAR.actions(state)))
    view = CLEAR.view(state)
    assert view["outcome"] == "stuck"

    b = board(state)

    assert b.buttons == ()
    assert (b.embed.description or "").startswith(
        f"**🧱 Stuck**\nFinal score: **{view['score_text']}**"
    )
    assert b.embed.colour == discord.Colour.red()
