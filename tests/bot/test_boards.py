"""What a player sees on a Donsol board, on every finished board, and in the rulebook."""

from __future__ import annotations

import dataclasses

import discord
import pytest

from bot.boards.common import Board
from bot.boards.rulebook import RULEBOOK
from bot.games import render_board
from rules import GAMES
from rules.donsol.engine import DECK as DONSOL_DECK
from rules.donsol.engine import DONSOL, DonsolState

RED = discord.ButtonStyle.danger
BLUE = discord.ButtonStyle.primary
GREEN = discord.ButtonStyle.success
GREY = discord.ButtonStyle.secondary


def board(state: DonsolState, **kwargs: object) -> Board:
    kwargs.setdefault("run_id", 42)
    return render_board(DONSOL.view(state), DONSOL.actions(state), **kwargs)  # type: ignore[arg-type]


def field(b: Board, name: str) -> str:
    values = [f.value for f in b.embed.fields if f.name == name]
    assert values, f"no field {name!r} in {[f.name for f in b.embed.fields]}"
    return values[0] or ""


def deck(*top: str) -> list[str]:
    """A full Donsol deck with ``top`` first."""
    return [*top, *(c for c in DONSOL_DECK if c not in top)]


# ----- Donsol ------------------------------------------------------------------------------


def test_first_room_of_seed_0_shows_the_cards_with_symbols_and_full_health() -> None:
    b = board(DONSOL.new(0), owner="alice")

    assert b.embed.title == "Donsol · normal · run #42"
    assert field(b, "Room") == "🛡️ 3♦ (3)  ⚔️ J♣ (11)  ⚔️ 8♣ (8)  🧪 4♥ (4)"
    assert field(b, "Health") == "❤️ 21/21 ▰▰▰▰▰▰▰▰▰▰"
    assert field(b, "Shield") == "None: monsters hit in full"
    assert "50 cards left" in field(b, "Dungeon")
    assert "The first room: 3♦ J♣ 8♣ 4♥." in (b.embed.description or "")
    assert "Take a card from the room, or escape." in (b.embed.description or "")
    assert b.embed.footer.text == "Score: 0/54 cards, 21 HP · move 0"
    assert b.embed.author.name == "alice's run"
    assert b.embed.colour == discord.Colour.blurple()


def test_buttons_follow_the_room_and_are_coloured_by_role() -> None:
    b = board(DONSOL.new(0))

    assert [(s.label, s.style, s.action, s.disabled) for s in b.buttons] == [
        ("Equip 3♦ (3)", BLUE, "take 3D", False),
        ("Fight J♣ (11)", RED, "take JC", False),
        ("Fight 8♣ (8)", RED, "take 8C", False),
        ("Drink 4♥ (4)", GREEN, "take 4H", False),
        ("Escape", GREY, "escape", False),
    ]
    assert {s.row for s in b.buttons} == {0}


def test_refused_escape_is_a_disabled_button_with_the_reason_in_the_embed() -> None:
    state = DONSOL.apply(DONSOL.new(0), "escape")
    assert "escape" not in DONSOL.actions(state)

    b = board(state)

    escape = [s for s in b.buttons if s.action == "escape"]
    assert len(escape) == 1 and escape[0].disabled
    assert field(b, "Escape") == (
        "🚫 You came into this room by escaping: clear it before you escape again."
    )
    assert all(not s.disabled for s in b.buttons if s.action != "escape")


def test_allowed_escape_has_no_reason_field() -> None:
    b = board(DONSOL.new(0))
    assert "Escape" not in [f.name for f in b.embed.fields]


def test_hard_variant_refusal_reads_the_hard_rule() -> None:
    state = DONSOL.new(0, "hard", deck("2D", "3D", "4D", "5D", "7C", "6H", "8H", "9H"))
    for card in ("2D", "3D", "4D", "5D"):
        state = DONSOL.apply(state, f"take {card}")

    b = board(state)

    assert b.embed.title == "Donsol · hard · run #42"
    assert "only escape once no monster is left" in field(b, "Escape")
    assert [s.action for s in b.buttons if s.disabled] == ["escape"]


def test_health_bar_and_a_worn_shield_with_its_last_monster() -> None:
    state = DONSOL.new(0, deck=deck("8D", "10C", "6S", "JS"))
    state = DONSOL.apply(state, "take 8D")
    assert field(board(state), "Shield") == "🛡️ 8♦ (8), fresh: blocks 8 of any monster's damage"

    state = DONSOL.apply(dataclasses.replace(state, hp=17), "take 10C")

    b = board(state)
    assert field(b, "Health") == "❤️ 15/21 ▰▰▰▰▰▰▰▱▱▱"
    assert field(b, "Shield") == "🛡️ 8♦ (8), last monster 10♣ (10): breaks on 10 or more"
    assert "your 8♦ blocks 8, you take 2 damage" in (b.embed.description or "")


def test_sickness_is_shown() -> None:
    state = DONSOL.apply(DONSOL.new(0), "take 4H")
    assert field(board(state), "Sickness") == "🤢 Sick: the next potion heals nothing"
    assert field(board(DONSOL.new(0)), "Sickness") == "Not sick"


def test_daily_title_notice_and_footer() -> None:
    state = DONSOL.apply(DONSOL.new(0), "take JC")
    b = board(state, run_id=7, kind="daily", day="2026-12-01", notice="The board was behind.")

    assert b.embed.title == "Donsol #1 · normal · daily · run #7"
    assert (b.embed.description or "").startswith("*The board was behind.*")
    assert b.embed.footer.text == "Score: 1/54 cards, 10 HP · move 1"


def test_a_death_shows_outcome_and_score_and_offers_no_button() -> None:
    state = DONSOL.new(0)
    while not state.outcome:
        monsters = [a for a in DONSOL.actions(state) if a[-1] in "CSJ"]
        state = DONSOL.apply(state, monsters[0] if monsters else DONSOL.actions(state)[0])

    b = board(state)

    assert state.outcome == "dead"
    assert b.buttons == ()
    assert (b.embed.description or "").startswith(
        f"**💀 Dead**\nFinal score: **died after {state.xp}/54 cards**"
    )
    assert field(b, "Health").startswith("❤️ 0/21 ▱▱▱")
    assert b.embed.colour == discord.Colour.red()
    assert "Escape" not in [f.name for f in b.embed.fields]


def test_a_win_shows_outcome_and_score_and_offers_no_button() -> None:
    # G10 of donsol.md: the partial last room [2♥, 3♣], HP 4.
    state = DonsolState(
        variant="normal", seed=0, stream=0, dungeon=(), room=("2H", "3C"), hp=4,
        first_room=False, xp=52, moves=60,
    )
    state = DONSOL.apply(DONSOL.apply(state, "take 3C"), "take 2H")

    b = board(state)

    assert b.buttons == ()
    assert (b.embed.description or "").startswith("**🏆 Victory**\nFinal score: **won with 3 HP**")
    assert b.embed.colour == discord.Colour.green()
    assert b.embed.footer.text == "Score: won with 3 HP · move 62"


def test_unknown_game_is_refused() -> None:
    view = DONSOL.view(DONSOL.new(0)) | {"game": "chess"}
    with pytest.raises(ValueError, match="chess"):
        render_board(view, [], run_id=1)


# ----- the rulebook ------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_has_rules_that_fit_one_embed_and_name_its_variants(key: str) -> None:
    text = RULEBOOK[key]
    assert 800 < len(text) <= 4096
    assert GAMES[key].title.split(":")[0] in text
    for variant in GAMES[key].variants:
        assert f"**{variant}**" in text


def test_donsol_rules_tell_the_three_escape_rules_apart() -> None:
    text = RULEBOOK["donsol"]
    assert "• **normal**: not if you came into this room by escaping." in text
    assert "• **easy** (the official rule)" in text and "unless no monster" in text
    assert "• **hard**: only once no monster is left in this room." in text
    assert "the first room may always be escaped" in text and "the last room" in text


@pytest.mark.parametrize(("key", "line"), [
    ("donsol", "❤️ 21/21 · 🛡️ none · 50 left"),
    ("tomb", "❤️ 8 left · 🔥 4 torches · 44 in the deck · ⬇️ at the entrance"),
    ("clear", "⚔️ 0/12 slain · 39 to deal · reserve empty"),
    ("scoundrel", "❤️ 20/20 · 🗡️ none · 40 left"),
])
def test_each_game_says_its_table_in_one_status_line_beside_the_picture(key, line):
    """A board shown with its picture reads: the status line, then the prompt; the game's
    fields and the footer go (the full board keeps them)."""
    from rules import GAMES

    game = GAMES[key]
    state = game.new(1)
    board = render_board(game.view(state), game.actions(state), run_id=1)
    assert board.embed.fields and board.embed.footer.text  # the full form
    assert board.pictured is not None
    board.pictured.apply(board.embed)
    assert board.embed.fields == [] and board.embed.footer.text is None
    assert board.embed.description.endswith(f"\n\n{line}\n\n**{game.view(state)['prompt']}**")


def test_a_finished_board_has_no_pictured_form():
    state = DONSOL.new(1)
    while DONSOL.actions(state):
        state = DONSOL.apply(state, DONSOL.actions(state)[0])
    assert render_board(DONSOL.view(state), [], run_id=1).pictured is None
