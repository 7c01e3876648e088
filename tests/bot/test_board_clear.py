"""What a player sees on a Clear the Dungeon board: the piles, the hand, and the move grid."""

from __future__ import annotations

import random

import discord

from bot.boards.common import Board
from bot.games import render_board
from rules.cards import CANONICAL
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


def grid(b: Board) -> list[list[tuple[str, bool]]]:
    """The buttons row by row as (label, enabled)."""
    rows: list[list[tuple[str, bool]]] = [[] for _ in range(1 + max(s.row for s in b.buttons))]
    for s in b.buttons:
        rows[s.row].append((s.label, not s.disabled))
    return rows


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


def test_the_moves_form_a_grid_with_refused_piles_disabled() -> None:
    b = board(deal())

    assert grid(b) == [
        [("A♥ → K♠", False), ("A♥ → Q♥", False), ("A♥ → J♦", True), ("A♥ → K♣", False),
         ("A♥ → reserve", True)],
        [("3♣ → K♠", True), ("3♣ → Q♥", True), ("3♣ → J♦", True), ("3♣ → K♣", True),
         ("3♣ → reserve", True)],
        [("🃏 → K♠", True), ("🃏 → Q♥", True), ("🃏 → J♦", True), ("🃏 → K♣", True),
         ("🃏 → reserve", True)],
    ]
    first = [s for s in b.buttons if s.row == 0]
    assert [s.action for s in first] == ["put AH 1", "put AH 2", "put AH 3", "put AH 4",
                                         "reserve AH"]
    assert [s.style for s in first] == [GREY, GREY, BLUE, GREY, GREY]


def test_the_reserve_top_gets_its_own_row_when_it_fits_a_monster() -> None:
    state = CLEAR.apply(deal(), "reserve AH")

    b = board(state)

    assert field(b, "Hand") == "—  3♣  🃏"
    assert field(b, "Reserve") == "top A♥ · 1 card"
    last = [(s.label, s.style, s.action, s.disabled) for s in b.buttons if s.row == 2]
    assert last == [
        ("From reserve: A♥ → K♠", GREY, "put AH 1", True),
        ("From reserve: A♥ → Q♥", GREY, "put AH 2", True),
        ("From reserve: A♥ → J♦", GREEN, "put AH 3", False),
        ("From reserve: A♥ → K♣", GREY, "put AH 4", True),
    ]


def test_an_attack_in_progress_and_the_slaying_move() -> None:
    state = CLEAR.apply(deal(), "reserve AH")
    state = CLEAR.apply(state, "put 3C 3")
    state = CLEAR.apply(state, "put RJ 3")  # the hand is empty: 5♦ 9♠ 2♥ are dealt

    b = board(state)

    assert "**3** J♦ (11) ⟵ 3♣ 🃏 · next: a ♦ or 🃏 slays it · 2 hidden" in field(b, "Monsters")
    assert field(b, "Hand") == "5♦  9♠  2♥"
    slay = [s for s in b.buttons if s.action == "put 5D 3"]
    assert len(slay) == 1 and not slay[0].disabled and slay[0].emoji == "⚔️"
    # The reserve's A♥ fits no monster now (J♦ needs a diamond): no row for it.
    assert not [s for s in b.buttons if s.label.startswith("From reserve")]

    b = board(CLEAR.apply(state, "put 5D 3"))

    assert field(b, "Slain") == "⚔️ 1/12"
    assert "**3** Q♦ (12) ⟵ no attack yet · next: 2 or more · 1 hidden" in field(b, "Monsters")


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
