"""``python -m rules``: play, deal and replay as a terminal user sees them."""

from __future__ import annotations

import io
import json
import os
import pty
import random
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules import GAMES
from rules.__main__ import LANGUAGE_VARIABLES, environment_language, main, speaker
from rules.deal import commitment
from rules.rulebook import terminal_text


@pytest.fixture(autouse=True)
def english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal follows the environment's language: these tests read English."""
    for name in LANGUAGE_VARIABLES:
        monkeypatch.delenv(name, raising=False)


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
    assert out.startswith("Dealing Donsol (hard) with seed 5. Type ? for the rules.")
    assert "Your move (1–" in out
    final = out.rstrip().splitlines()[-1]
    assert re.fullmatch(r"Final score: (won with \d+ HP|died after \d+/54 cards)\.", final)


def test_the_menu_shows_the_boards_words_and_the_moves_to_type(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "donsol", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "Room: 🛡️ 3♦ (3)  ⚔️ J♣ (11)  ⚔️ 8♣ (8)  🧪 4♥ (4)" in out
    assert "   1. Equip 3♦ (3)    take 3D\n   2. Fight J♣ (11)   take JC\n" in out
    assert "   5. Escape\n" in out


def test_a_refusal_says_what_is_accepted_and_does_not_reprint_the_board(
    monkeypatch, capsys
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("take AS\n9\nq\n"))
    assert main(["play", "donsol", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "Refused: A♠ is not in this room. Choose 1–5, or type a move such as `take 3D`." in out
    assert "Refused: There is no move 9. Choose 1–5" in out
    assert out.count("Donsol (normal) · seed 0 · move 0") == 1
    assert out.rstrip().endswith("Leaving the game.")


def test_the_terminal_in_french_says_the_events_and_refusals_in_french(
    monkeypatch, capsys
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("take AS\n1\nq\n"))
    assert main(["--lang", "fr", "play", "donsol", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Donne de Donsol (normal) avec la graine 0. Tapez ? pour les règles.")
    assert "Salle : 🛡️ 3♦ (3)  ⚔️ J♣ (11)  ⚔️ 8♣ (8)  🧪 4♥ (4)" in out
    assert "   1. Équiper 3♦ (3)" in out
    assert ("Refusé : A♠ n'est pas dans cette salle. Choisissez 1–5, ou tapez un coup comme "
            "`take 3D`.") in out
    assert "  ▸ Vous prenez 3♦ comme bouclier (3)." in out  # the event of move 1
    assert "Your move" not in out and "Refused" not in out
    assert out.rstrip().endswith("Vous quittez la partie.")


def test_the_rules_in_the_terminal_come_in_its_language(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nq\n"))
    assert main(["--lang", "fr", "play", "tomb", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert terminal_text("tomb", lang="fr") in out
    assert "Parchemin de lumière" in out and "COMMENT TAPER VOS COUPS" in out
    assert main(["rules", "donsol", "--lang", "de"]) == 0
    assert capsys.readouterr().out.strip() == terminal_text("donsol", lang="de").strip()


def test_the_terminal_follows_lang_and_lang_after_the_command(monkeypatch, capsys) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert main(["deal", "tomb", "--seed", "3"]) == 0
    assert "  ▸ Das Grab liegt vor dir: 44 Karten, vier Fackeln, 9 Lebenspunkte." in (
        capsys.readouterr().out)
    assert main(["deal", "tomb", "--seed", "3", "--lang", "fr"]) == 0  # --lang wins
    assert "Retournez la première carte pour entrer dans le tombeau." in capsys.readouterr().out


def test_the_environment_chooses_a_language_as_gettext_reads_it() -> None:
    assert environment_language({"LANG": "fr_FR.UTF-8"}) == "fr_FR"
    assert environment_language({"LANG": "de_DE.UTF-8", "LC_ALL": "fr_CA"}) == "fr_CA"
    assert environment_language({"LANGUAGE": "de:fr", "LANG": "fr_FR"}) == "de"
    assert environment_language({"LANG": "C.UTF-8"}) is None
    assert environment_language({}) is None
    assert speaker("fr_CA").code == "fr"  # the base language's catalog
    assert speaker("ja").code == "en"  # no catalog: English whole
    assert speaker(None).say(GAMES["donsol"].outcome_text("won")) == "won"
    assert speaker("de").say(GAMES["donsol"].outcome_text("won")) == "gewonnen"


def _seed_with_in_first_room(card: str) -> int:
    return next(s for s in range(1000) if card in GAMES["donsol"].new(s).room)


@pytest.mark.parametrize("typed", ["take 4♠", "take 4s", "TAKE 4S", "Take 4♠", "fight 4♠"])
def test_moves_are_read_in_any_case_with_suit_symbols_or_letters(
    typed: str, monkeypatch, capsys
) -> None:
    seed = _seed_with_in_first_room("4S")
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{typed}\nq\n"))
    assert main(["play", "donsol", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert "Refused" not in out
    assert "You fight 4♠" in out and "move 1" in out


def test_help_at_the_prompt_prints_the_rules_and_how_to_type(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nhelp\nq\n"))
    assert main(["play", "tomb", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count(terminal_text("tomb")) == 2
    assert "HOW TO TYPE YOUR MOVES" in out
    assert "move 1" not in out  # asking for help is no move


def test_the_rules_command_prints_the_rules_text(capsys) -> None:
    assert main(["rules", "clear"]) == 0
    assert capsys.readouterr().out == terminal_text("clear") + "\n"


def test_play_save_writes_a_transcript_that_replay_reads(tmp_path: Path, monkeypatch, capsys):
    saved = tmp_path / "moves.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    assert main(["play", "clear", "--seed", "9", "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    final = out.rstrip().splitlines()
    assert final[-1] == f"Moves saved to {saved}."
    text = saved.read_text()
    assert text.startswith("# Clear the Dungeon (standard), seed 9. Replay with:\n")
    assert main(["replay", "clear", "--seed", "9", "--actions", str(saved)]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["over"] and f"Final score: {view['score_text']}." in final
    assert view["moves"] == len([line for line in text.splitlines() if not line.startswith("#")])


def test_play_save_to_a_folder_is_one_sentence(tmp_path: Path, capsys) -> None:
    assert main(["play", "donsol", "--seed", "0", "--save", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot write the moves to {tmp_path}: ")
    assert len(err.strip().splitlines()) == 1


class _CtrlC(io.StringIO):
    def __iter__(self):
        raise KeyboardInterrupt


def test_ctrl_c_leaves_without_a_traceback(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", _CtrlC())
    assert main(["play", "donsol", "--seed", "0"]) == 130
    assert capsys.readouterr().err == "\nLeaving the game.\n"


def test_ctrl_c_in_a_real_terminal_process_is_quiet() -> None:
    game = subprocess.Popen(
        [sys.executable, "-m", "rules", "play", "donsol", "--seed", "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert game.stdout is not None
    seen = ""
    while not seen.endswith("q to quit): "):  # the game waits at its prompt
        seen += game.stdout.read(1)
    game.send_signal(signal.SIGINT)
    _, err = game.communicate(timeout=20)
    assert game.returncode == 130
    assert "Traceback" not in err and "Leaving the game." in err


def _binary_file(folder: Path) -> Path:
    path = folder / "moves.bin"
    path.write_bytes(b"\xff\xfe\x00take")
    return path


@pytest.mark.parametrize(
    ("make", "sentence"),
    [
        (lambda d: d / "missing.txt", "there is no file {path}"),
        (lambda d: d, "{path} is a folder, not a transcript file"),
        (_binary_file, "{path} is not a text file (UTF-8)"),
    ],
)
def test_an_unreadable_actions_file_is_one_sentence(make, sentence, tmp_path, capsys) -> None:
    path = make(tmp_path)
    assert main(["replay", "donsol", "--seed", "0", "--actions", str(path)]) == 2
    assert capsys.readouterr().err == "error: " + sentence.format(path=path) + "\n"


def test_a_bad_seed_names_no_internal_function() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "deal", "donsol", "--seed", "abc"],
        capture_output=True, text=True,
    )
    assert done.returncode == 2
    assert "argument --seed: a seed is a whole number from 0 to 2**64 - 1, not 'abc'" in done.stderr
    assert "_seed" not in done.stderr and "invalid" not in done.stderr


def test_deal_prints_the_order_and_the_opening_board(capsys) -> None:
    assert main(["deal", "donsol", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "  3D JC 8C 4H 9D" in out and "  3♦ J♣ 8♣ 4♥ 9♦" in out
    assert f"Commitment (SHA-256 of the seed): {commitment(0)}" in out
    assert "Room: 🛡️ 3♦ (3)  ⚔️ J♣ (11)  ⚔️ 8♣ (8)  🧪 4♥ (4)" in out
    assert "words" not in out and "stream" not in out.lower()


def test_deal_verbose_shows_the_stream_words_used(capsys) -> None:
    assert main(["deal", "donsol", "--seed", "0", "--verbose"]) == 0
    assert "Stream words used by the shuffle: 53" in capsys.readouterr().out


def test_a_variant_the_game_lacks_is_one_sentence(capsys) -> None:
    assert main(["deal", "donsol", "--seed", "0", "--variant", "standard"]) == 2
    assert "Donsol has no variant 'standard'" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["play", "deal", "replay"])
def test_help_says_what_each_game_command_does(command: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rules", command, "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert "usage: python -m rules " + command in done.stdout
    assert "--seed" in done.stdout and "--variant" in done.stdout


def test_ctrl_c_keeps_the_saved_moves_and_says_where(tmp_path: Path, monkeypatch, capsys):
    saved = tmp_path / "moves.txt"

    class OneMoveThenCtrlC(io.StringIO):
        def __iter__(self):
            yield "1\n"
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", OneMoveThenCtrlC())
    assert main(["play", "donsol", "--seed", "0", "--save", str(saved)]) == 130
    assert capsys.readouterr().err == f"\nLeaving the game. Moves saved to {saved}.\n"
    assert saved.read_text().splitlines()[-1] == "take 3D"


def rules_process(*args: str, **kwargs) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "rules", *args], text=True, **kwargs)


@pytest.mark.parametrize("command", [
    ["deal", "donsol", "--seed", "0"],
    ["rules", "tomb"],
    ["solve", "tomb", "--seed", "3", "--budget", "5"],
    ["replay", "donsol", "--seed", "0", "--actions", "-"],
])
def test_output_into_a_reader_that_went_away_ends_quietly(command: list[str]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # as `| head` does once it has what it wants
    try:
        done = subprocess.run([sys.executable, "-m", "rules", *command], stdout=writer,
                              stderr=subprocess.PIPE, input="take 3D\n", text=True, timeout=60)
    finally:
        os.close(writer)
    assert done.stderr == ""
    assert done.returncode == 141


#: ``python -m rules`` on the pure Python search: Donsol's native one settles every deal in a
#: few seconds at most, too soon to be interrupted.
PYTHON_SEARCH = ("import sys; from rules import native; native.available = lambda key: False; "
                 "from rules.__main__ import main; sys.exit(main(sys.argv[1:]))")


def test_ctrl_c_during_solve_prints_the_best_line_so_far(tmp_path: Path) -> None:
    saved = tmp_path / "line.txt"
    solver = subprocess.Popen(
        [sys.executable, "-c", PYTHON_SEARCH, "solve", "donsol", "--seed", "9", "--budget",
         "120", "--save", str(saved)], text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(2)  # searching: this deal takes far longer than that (about 9 s of CPU)
    solver.send_signal(signal.SIGINT)
    out, err = solver.communicate(timeout=20)

    assert solver.returncode == 130
    assert err == ""
    assert re.search(r"^Exact: no, a lower bound: interrupted after \d+\.\d s \(\d+ positions "
                     r"searched\)\.$", out, re.M), out
    moves = re.findall(r"^ +\d+\. (.+)$", out, re.M)
    assert moves and saved.read_text().splitlines()[2:] == moves
    assert out.endswith(f"The line saved to {saved}.\n")


def test_solve_save_writes_a_transcript_that_replay_reads(tmp_path: Path, capsys) -> None:
    saved = tmp_path / "line.txt"
    assert main(["solve", "tomb", "--seed", "3", "--save", str(saved)]) == 0
    out = capsys.readouterr().out
    score = re.search(r"seed 3: (.+)$", out, re.M)[1]
    assert saved.read_text().startswith("# Tomb of Four Kings (standard), seed 3. Replay with:\n")
    assert main(["replay", "tomb", "--seed", "3", "--actions", str(saved)]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["over"] and final["score_text"] in score


def test_a_transcript_is_never_written_over(tmp_path: Path, monkeypatch, capsys) -> None:
    saved = tmp_path / "moves.txt"
    saved.write_text("# a whole game\ntake 3D\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 400))
    for command in (["play", "donsol"], ["solve", "tomb"]):
        assert main([*command, "--seed", "0", "--save", str(saved)]) == 2
        assert capsys.readouterr().err == (
            f"error: {saved} exists already: choose another file (nothing is written over a "
            "saved game)\n")
    assert saved.read_text() == "# a whole game\ntake 3D\n"


def test_a_variant_is_read_in_any_case(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "donsol", "--seed", "0", "--variant", "HARD"]) == 0
    assert "Dealing Donsol (hard) with seed 0." in capsys.readouterr().out
    assert main(["deal", "donsol", "--seed", "0", "--variant", "Hard"]) == 0


def test_a_bare_verb_asks_which_card_and_a_long_line_is_not_echoed(monkeypatch, capsys):
    typed = "Fight " + "x" * 5000
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"take\n{typed}\nq\n"))
    assert main(["play", "donsol", "--seed", "0"]) == 0
    refusals = [line.split("Refused: ", 1)[1] for line in capsys.readouterr().out.splitlines()
                if "Refused: " in line]
    assert refusals[0].startswith("Take which card? Type it with the card, such as `take ")
    assert refusals[1].startswith(f"'Fight {'x' * 33}…' is not a Donsol move: take a card")
    assert len(refusals[1]) < 200


def test_arrow_keys_edit_the_line_at_a_terminal() -> None:
    pid, terminal = pty.fork()
    if pid == 0:  # the child: the game, at a terminal
        os.execv(sys.executable, [sys.executable, "-m", "rules", "play", "donsol", "--seed", "0"])
    prompt = b"q to quit): "
    seen = b""

    def until(count: int) -> None:
        nonlocal seen
        while seen.count(prompt) < count:
            ready, _, _ = select.select([terminal], [], [], 20)
            assert ready, seen.decode(errors="replace")
            seen += os.read(terminal, 4096)

    try:
        until(1)
        # "ake 3D", the left arrow six times, then the missing "t": "take 3D" when the line
        # can be edited, a refused line full of escape codes when it cannot.
        os.write(terminal, b"ake 3D" + b"\x1b[D" * 6 + b"t\r")
        until(2)
        os.write(terminal, b"q\r")
    finally:
        os.close(terminal)
        os.waitpid(pid, 0)
    answer = seen.split(prompt)[1].decode(errors="replace")
    assert "Refused" not in answer and "^[[D" not in answer
    assert "3♦" in answer
