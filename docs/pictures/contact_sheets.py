"""Redraw the contact sheets of the card faces in this folder, as Discord shows them.

    .venv/bin/python docs/pictures/contact_sheets.py

Every face at 22 pixels (a button: the 128×128 emoji scaled down) and at 128, on Discord's
dark theme (#313338) and light theme (#FFFFFF), in four colours (the default) and two. The
22-pixel sheets are also drawn 4× larger (each pixel a 4×4 block) to look at closely. Also
writes the four faces ``card-*.png`` at 128 and the back, as uploaded.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.pictures.emoji import DARK_THEME, LIGHT_THEME, contact_sheet
from bot.pictures.faces import face_png, png_bytes

FOLDER = Path(__file__).resolve().parent

SHEETS = {
    "faces-22px-dark.png": (22, DARK_THEME, "four", 1),
    "faces-22px-dark-x4.png": (22, DARK_THEME, "four", 4),
    "faces-22px-light-x4.png": (22, LIGHT_THEME, "four", 4),
    "faces-22px-two-colours-dark-x4.png": (22, DARK_THEME, "two", 4),
    "faces-128px-dark.png": (128, DARK_THEME, "four", 1),
    "faces-128px-light.png": (128, LIGHT_THEME, "four", 1),
}


def main() -> None:
    for name, (size, background, colours, zoom) in SHEETS.items():
        data = png_bytes(contact_sheet(size, background, colours, zoom))  # type: ignore[arg-type]
        (FOLDER / name).write_bytes(data)
        print(f"{name}  {len(data):>7} bytes")
    for code in ("AS", "10H", "RJ", "back"):
        (FOLDER / f"card-{code}.png").write_bytes(face_png(code))


if __name__ == "__main__":
    main()
