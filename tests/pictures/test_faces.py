"""Card faces: one for each of the 55 names, all different, square, small enough for an
emoji, and the same bytes every time."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from bot.pictures import faces
from bot.pictures.emoji import emoji_command, write_faces
from tests.pictures.references import CASES, HASHES, pixel_hash

DISCORD_EMOJI_MAX_BYTES = 256 * 1024


def test_there_are_55_faces_all_different() -> None:
    assert len(faces.FACE_NAMES) == 55
    assert {"RJ", "BJ", "back", "10H", "AS"} <= set(faces.FACE_NAMES)
    pictures = [faces.face_png(code) for code in faces.FACE_NAMES]
    assert len({pixel_hash(p) for p in pictures}) == 55


def test_faces_are_emoji_sized_png() -> None:
    for code in faces.FACE_NAMES:
        png = faces.face_png(code)
        assert png.startswith(b"\x89PNG")
        assert len(png) < DISCORD_EMOJI_MAX_BYTES
        with Image.open(io.BytesIO(png)) as image:
            assert image.size == (128, 128)


def test_the_same_face_gives_the_same_bytes() -> None:
    first = {code: faces.face_png(code) for code in faces.FACE_NAMES}
    faces.face_png.cache_clear()
    faces.card_image.cache_clear()
    assert {code: faces.face_png(code) for code in faces.FACE_NAMES} == first


def test_red_and_black_differ_beyond_colour() -> None:
    """In grey, as a player who cannot tell red from black sees them, a red card's paper is
    darker than a black card's, and a red card has the second border line."""

    def grey(code: str) -> Image.Image:
        return faces.card_image(code, 128, 128).convert("L")

    # The paper in the middle of the left edge, between border and ink.
    red_paper, black_paper = grey("7H").getpixel((14, 64)), grey("7S").getpixel((14, 64))
    assert black_paper - red_paper >= 20
    assert grey("RJ").getpixel((14, 64)) == red_paper
    assert grey("BJ").getpixel((14, 64)) == black_paper
    # A scan inwards from the left edge crosses two dark lines on red cards, one on black.
    def lines(code: str) -> int:
        row = [grey(code).getpixel((x, 64)) for x in range(0, 12)]
        dark = [v < 160 for v in row]
        return sum(1 for a, b in zip([False, *dark], dark, strict=False) if b and not a)

    assert lines("7H") == 2 and lines("RJ") == 2
    assert lines("7S") == 1 and lines("BJ") == 1


def test_unknown_names_have_no_face() -> None:
    with pytest.raises(ValueError, match="no face"):
        faces.card_image("ZZ", 128, 128)


def test_write_faces_writes_every_face(tmp_path) -> None:
    written = write_faces(tmp_path / "faces")
    assert sorted(p.name for p in written) == sorted(f"dd_{c}.png" for c in faces.FACE_NAMES)
    assert (tmp_path / "faces" / "dd_10H.png").read_bytes() == faces.face_png("10H")


@pytest.mark.parametrize("name", sorted(CASES))
def test_reference_pictures_are_unchanged(name: str) -> None:
    expected = json.loads(HASHES.read_text())
    assert set(expected) == set(CASES), "run: python -m tests.pictures.regenerate"
    assert pixel_hash(CASES[name]()) == expected[name], (
        f"{name} looks different. If the design changed on purpose, run "
        "`.venv/bin/python -m tests.pictures.regenerate` and look at tests/pictures/reference/"
    )


def test_emoji_dry_run_writes_the_faces_and_says_where(tmp_path, capsys) -> None:
    assert emoji_command(tmp_path / "out", dry_run=True) == 0
    assert len(list((tmp_path / "out").glob("dd_*.png"))) == 55
    assert f"55 card faces written to {tmp_path / 'out'}" in capsys.readouterr().out


def test_emoji_without_dry_run_explains_and_fails(tmp_path, capsys) -> None:
    assert emoji_command(tmp_path / "out", dry_run=False) == 2
    assert "--dry-run" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_python_m_bot_emoji_dry_run(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "bot", "emoji", "--dry-run", "--out", str(tmp_path / "faces")],
        cwd=root, capture_output=True, text=True, timeout=120,
        env={"PATH": "", "DATABASE_PATH": str(tmp_path / "db.sqlite3")},
    )
    assert done.returncode == 0, done.stderr
    assert "55 card faces written" in done.stdout
    assert (tmp_path / "faces" / "dd_back.png").read_bytes() == faces.face_png("back")


def test_card_colours_setting() -> None:
    from bot.config import ConfigError, Settings

    assert Settings.from_env({}).card_colours == "four"
    assert Settings.from_env({"CARD_COLOURS": "Two"}).card_colours == "two"
    with pytest.raises(ConfigError, match="CARD_COLOURS must be four or two"):
        Settings.from_env({"CARD_COLOURS": "three"})
