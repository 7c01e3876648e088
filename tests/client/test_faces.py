"""The card faces the browser table shows (tools/faces.py): every face the engines use, sharp
at 2x on a phone, and a second build rewrites nothing."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bot.pictures.faces import FACE_NAMES
from rules import GAMES
from tools.faces import HEIGHT, WIDTH, write_faces


def test_every_face_is_written_once_at_the_tables_size(tmp_path: Path) -> None:
    written = write_faces(tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{code}.png" for code in FACE_NAMES)
    # Every card any engine deals has its face (and the back for what is face down).
    for game in GAMES.values():
        for code in game.deck:
            assert (tmp_path / f"{code}.png").is_file(), code
    with Image.open(tmp_path / "QH.png") as face:
        # The page shows a card at most 84 CSS pixels wide: twice that and more.
        assert face.size == (WIDTH, HEIGHT) and WIDTH >= 2 * 84
        assert face.mode == "RGBA"
    assert write_faces(tmp_path) == []


def test_a_changed_face_is_written_again(tmp_path: Path) -> None:
    write_faces(tmp_path)
    (tmp_path / "AS.png").write_bytes(b"old")
    assert [p.name for p in write_faces(tmp_path)] == ["AS.png"]
