"""The words the boards and the terminal show a player, said in full."""

from __future__ import annotations

import io
import sys

from rules.__main__ import main
from rules.donsol.engine import room_text, shield_text
from rules.tomb.engine import torches_text


def test_the_burnt_scroll_says_what_it_burnt_instead_of() -> None:
    view = {"torches": ["AS", "AH", "AD", "RJ"], "hand": []}
    assert torches_text(view).endswith("📜 The Scroll of Light burnt instead of a 4th Ace")


def test_a_fresh_shield_says_how_much_it_blocks() -> None:
    view = {"shield": "2D", "shield_last": None, "shield_monsters": []}
    assert shield_text(view) == "🛡️ 2♦ (2), fresh: blocks 2 of any monster's damage"


def test_the_room_line_tells_the_two_jokers_apart() -> None:
    line = room_text(["RJ", "BJ", "3D"])
    assert "red joker" in line and "black joker" in line
    assert line.count("(21)") == 2 and "🛡️ 3♦ (3)" in line


def test_tomb_help_names_only_the_joker_tomb_has(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nq\n"))
    assert main(["play", "tomb", "--seed", "0"]) == 0
    how = " ".join(capsys.readouterr().out.split("HOW TO TYPE YOUR MOVES", 1)[1].split())
    assert "BJ" not in how and "the joker as RJ or 🃏" in how
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nq\n"))
    assert main(["play", "donsol", "--seed", "0"]) == 0
    assert "jokers as RJ, BJ or 🃏" in " ".join(capsys.readouterr().out.split())
