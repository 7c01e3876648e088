"""Regenerate ``docs/screens/``: every screen of :mod:`tools.screens.scenarios`, rendered
(:mod:`tools.screens.render`) and screenshot at desktop and phone width
(:mod:`tools.screens.shoot`), and the folder's README.md listing them.

    python -m tools.screens                 # everything (what `make screens` runs)
    python -m tools.screens --only donsol-board clear-start
    python -m tools.screens --html build/screens   # also keep the HTML pages there
    python -m tools.screens --html-only build/screens   # no Chromium: the pages only

PNGs in the folder that no screen makes any more are removed (with ``--only``, none is).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bot.i18n import catalogs
from tools.screens.render import BACKGROUND, WIDTHS, Width, page
from tools.screens.scenarios import Screen, capture_all
from tools.screens.shoot import NoChromium, chromium, missing_fonts, screenshot
from tools.screens.trial import DECISION

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "screens"
#: Chromium runs at once (each is one process of a few hundred MB).
PARALLEL = 2


def write_pages(screens: Sequence[Screen], folder: Path) -> list[tuple[Path, Width, str]]:
    """Each screen's page at each width in ``folder``: (page, width, png name)."""
    folder.mkdir(parents=True, exist_ok=True)
    pages = []
    for screen in screens:
        for width in WIDTHS:
            path = folder / f"{screen.name}-{width}.html"
            path.write_text(page(screen.message, width), encoding="utf-8")
            pages.append((path, width, f"{screen.name}-{width}.png"))
    return pages


def index(screens: Sequence[Screen], lang: str | None = None) -> str:
    """docs/screens/README.md (or ``<lang>/README.md``): every screen, what it shows, at both
    widths."""
    where = (f"The same story with the server and every player in `{lang}` (`/settings "
             f"language`, `/preferences language`); the captions are English."
             if lang else "The same screens in French: [fr/](fr/README.md).")
    lines = [
        "# Screens" + (f" ({lang})" if lang else ""),
        "",
        "Every screen below is the real bot's answer, captured in simcord's offline Discord on "
        "a fixed clock and daily secret, drawn as Discord's dark theme draws it "
        "(`tools/screens/render.py`) and screenshot by Chromium at desktop (1000 px) and "
        "phone (390 px) width. Do not edit these files: `make screens` regenerates them all "
        "from the current code. " + where,
        "",
    ]
    lines += [f"- [{s.title}](#{s.name})" for s in screens]
    for s in screens:
        lines += [
            "", f'<a id="{s.name}"></a>', "", f"## {s.title}", "", s.about, "",
            f'<img src="{s.name}-desktop.png" alt="{s.title}, desktop" width="600"> '
            f'<img src="{s.name}-phone.png" alt="{s.title}, phone" width="260">',
        ]
    if any(s.name.startswith("trial-") for s in screens):
        lines += ["", DECISION.rstrip()]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.screens", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="where the PNGs go (default: docs/screens, "
                        "or docs/screens/<lang> with --lang)")
    parser.add_argument("--lang", metavar="CODE",
                        help="the server and every player in this offered language (fr, de...)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these screens only")
    parser.add_argument("--html", type=Path, help="keep the HTML pages in this folder")
    parser.add_argument("--html-only", type=Path, metavar="FOLDER",
                        help="write the HTML pages there and take no screenshot")
    args = parser.parse_args(argv)
    if args.lang is not None and not catalogs().known(args.lang):
        print(f"{args.lang} is not an offered language (offered: {', '.join(catalogs().codes)})",
              file=sys.stderr)
        return 2
    if args.out is None:
        args.out = OUT / args.lang if args.lang else OUT
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")

    if args.html_only is None:
        try:
            chromium()
        except NoChromium as exc:
            print(exc, file=sys.stderr)
            return 2
        if (packages := missing_fonts()):
            print(f"warning: the screens will not use Discord-like fonts: "
                  f"`sudo apt-get install {' '.join(packages)}`", file=sys.stderr)
    screens = asyncio.run(capture_all(language=args.lang))
    known = {s.name for s in screens}
    if args.only:
        unknown = sorted(set(args.only) - known)
        if unknown:
            print(f"No such screen: {', '.join(unknown)} (known: {', '.join(sorted(known))})",
                  file=sys.stderr)
            return 2
        screens = [s for s in screens if s.name in args.only]
    if args.html_only is not None:
        write_pages(screens, args.html_only)
        print(f"{len(screens) * len(WIDTHS)} pages in {args.html_only}")
        return 0

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="screens-html-") as scratch:
        pages = write_pages(screens, args.html or Path(scratch))
        with ThreadPoolExecutor(PARALLEL) as pool:
            shots = list(pool.map(
                lambda job: screenshot(job[0], args.out / job[2], WIDTHS[job[1]], BACKGROUND),
                pages))
    if not args.only:
        made = {shot.name for shot in shots}
        for old in args.out.glob("*.png"):
            if old.name not in made:
                old.unlink()
        (args.out / "README.md").write_text(index(screens, args.lang), encoding="utf-8")
    print(f"{len(shots)} screenshots in {args.out}")
    return 0
