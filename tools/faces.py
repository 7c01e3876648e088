"""``python -m tools.faces [DIR]``: the card faces the browser table shows, as PNG files.

Writes every face the engines use (the 52 cards, both jokers and the back: the same
``bot.pictures.faces.FACE_NAMES`` the emoji export uploads) as ``DIR/<code>.png``, default
``web/dist/faces``. They are the portrait faces of the table pictures (``card_image``), drawn
at ``WIDTH``×``HEIGHT``: the page shows a card at most about 84 CSS pixels wide, so these stay
sharp on a phone's 2x screen. A file whose bytes are already right is left alone (the build
is repeatable and ``make`` stays quiet); the drawing is deterministic, so equal faces give
equal bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bot.pictures.faces import FACE_NAMES, card_image, png_bytes

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FOLDER = ROOT / "web" / "dist" / "faces"
#: The cards' 5:7 portrait (the table pictures' 60×84), three times over.
WIDTH, HEIGHT = 180, 252


def write_faces(folder: Path = DEFAULT_FOLDER) -> list[Path]:
    """Write every face into ``folder`` (made if missing); return the files written anew."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for code in FACE_NAMES:
        path = folder / f"{code}.png"
        data = png_bytes(card_image(code, WIDTH, HEIGHT))
        if path.exists() and path.read_bytes() == data:
            continue
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else DEFAULT_FOLDER
    written = write_faces(folder)
    print(f"{len(FACE_NAMES)} faces in {folder} ({len(written)} written)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
