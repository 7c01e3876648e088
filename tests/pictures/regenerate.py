"""Redraw the reference pictures and their hashes after an intended design change.

    .venv/bin/python -m tests.pictures.regenerate

Writes ``tests/pictures/reference/<name>.png`` and ``hashes.json``; look at the pictures,
then commit them with the change.
"""

from __future__ import annotations

import json

from tests.pictures.references import CASES, FOLDER, HASHES, pixel_hash


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    hashes = {}
    for name, draw in CASES.items():
        png = draw()
        (FOLDER / f"{name}.png").write_bytes(png)
        hashes[name] = pixel_hash(png)
        print(f"{name}.png  {len(png):>6} bytes  {hashes[name][:16]}")
    HASHES.write_text(json.dumps(hashes, indent=2, sort_keys=True) + "\n")
    print(f"wrote {len(hashes)} pictures and {HASHES}")


if __name__ == "__main__":
    main()
