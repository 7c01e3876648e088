"""``python -m rules``: play, deal and replay as a terminal user sees them."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules import GAMES
from rules.__main__ import main


def random_transcript(key: str, seed: int, rng: random.Random) -> tuple[list[str], dict]:
    game = GAMES[key]
    state = game.new(seed)
    actions: list[str] = []
    while legal := game.actions(state):
        action = rng.choice(legal)
        state = game.apply(state, action)
        actions.append(action)
    return actions, game.view(state)


@pytest.mark.parametrize("key", list(GAMES))
def test_replay_reproduces_a_finished_game(key: str, tmp_path: Path, capsys) -> None:
    actions, final = random_transcript(key, 42, random.Random(7))
    transcript = tmp_path / "moves.txt"
    transcript.write_text("# a finished game\n" + "\n".join(actions) + "\n\n")
    assert main(["replay", key, "--seed", "42", "--actions", str(transcript)]) == 0
    assert json.loads(capsys.readouterr().out) == final
    assert final["over"]


def test_replay_stops_at_an_illegal_line_with_its_number(tmp_path: Path, capsys) -> None:
    transcript = tmp_path / "moves.txt"
    transcript.write_text("take 3D\ntake 3D\ntake JC\n")
    assert main(["replay", "donsol", "--seed", "0", "--actions", str(transcript)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == "line 2 ('take 3D'): 3♦ is not in this room."


def test_replay_reads_standard_input() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", "donsol", "--seed", "0"],
        input="take 3D\ntake JC\n", capture_output=True, text=True, check=True,
    )
    view = json.loads(done.stdout)
    assert (view["moves"], view["hp"], view["shield"]) == (2, 13, "3D")


def test_play_to_the_end_in_the_terminal(monkeypatch, capsys) -> None:
    # Always choose the first legal action; a Donsol game ends well within 400 choices.
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", "donsol", "--seed", "5", "--variant", "hard"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Dealing Donsol (hard) with seed 5.")
    assert "Final score: " in out
    assert "Choose a number or type an action" in out


def test_play_explains_a_refused_action_and_quits_on_q(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("take AS\nq\n"))
    assert main(["play", "donsol", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "Refused: A♠ is not in this room." in out
    assert "Room: 🛡️ 3♦ (3)  ⚔️ J♣ (11)  ⚔️ 8♣ (8)  🧪 4♥ (4)" in out
    assert out.rstrip().endswith("Leaving the game.")


def test_deal_prints_the_order_and_the_opening_board(capsys) -> None:
    assert main(["deal", "donsol", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "Top first: 3D JC 8C 4H 9D" in out
    assert "53 words used" in out
    assert "Room: 🛡️ 3♦ (3)  ⚔️ J♣ (11)  ⚔️ 8♣ (8)  🧪 4♥ (4)" in out


def test_a_variant_the_game_lacks_is_one_sentence(capsys) -> None:
    assert main(["deal", "donsol", "--seed", "0", "--variant", "standard"]) == 2
    assert "Donsol has no variant 'standard'" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "deal", "replay"])
def test_help_says_what_each_command_does(command: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules", command, "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert "usage: python -m rules " + command in done.stdout
    assert "--seed" in done.stdout and "--variant" in done.stdout
