"""The reference pictures: a few faces and one table per game at fixed deals and moves.

Each is compared by a hash of its pixels (not of the PNG's bytes, which could change with the
zlib underneath) against ``reference/hashes.json``. When the design changes on purpose,
regenerate them and look at the new PNGs in ``tests/pictures/reference/`` before committing:

    .venv/bin/python -m tests.pictures.regenerate
"""

from __future__ import annotations

import hashlib
import io
import random
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from bot.pictures.faces import face_png
from bot.pictures.table import render_table
from rules import GAMES

FOLDER = Path(__file__).with_name("reference")
HASHES = FOLDER / "hashes.json"


def played(key: str, seed: int, moves: int, variant: str | None = None) -> bytes:
    """The table of ``key`` dealt from ``seed`` after ``moves`` random legal moves (the
    move chooser is seeded too), the last move framed."""
    game = GAMES[key]
    rng = random.Random(seed)
    state, last = game.new(seed, variant), None
    for _ in range(moves):
        legal = game.actions(state)
        if not legal:
            break
        last = rng.choice(legal)
        state = game.apply(state, last)
    return render_table(game.view(state), last)


#: name -> how to draw it.
CASES: dict[str, Callable[[], bytes]] = {
    "face_AS": lambda: face_png("AS"),
    "face_10H": lambda: face_png("10H"),
    "face_RJ": lambda: face_png("RJ"),
    "face_BJ": lambda: face_png("BJ"),
    "face_back": lambda: face_png("back"),
    "donsol_start": lambda: played("donsol", 2026, 0),
    "donsol_shield": lambda: played("donsol", 12, 7),
    "donsol_dead": lambda: played("donsol", 86, 5, "easy"),
    "tomb_last_turn": lambda: played("tomb", 4, 3),
    "tomb_dodge": lambda: played("tomb", 1, 6),
    "clear_mid": lambda: played("clear", 8, 14),
    "scoundrel_weapon": lambda: played("scoundrel", 7, 9),
}


def pixel_hash(png: bytes) -> str:
    """A hash of what a PNG shows: its size and the colour of every pixel."""
    with Image.open(io.BytesIO(png)) as image:
        pixels = image.convert("RGBA")
        header = f"{pixels.size[0]}x{pixels.size[1]}\n".encode()
        return hashlib.sha256(header + pixels.tobytes()).hexdigest()
