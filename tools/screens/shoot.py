"""Screenshots of HTML pages with Debian's Chromium, headless, cropped to their content.

:func:`screenshot` loads a page at a width with a generous height, then cuts off the page's
background below the last thing drawn, and keeps 256 colours (Pillow). A page taller than the
window is shot again with a window twice as tall, so nothing is ever cut.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

#: Where Debian's ``chromium`` package puts the browser.
CHROMIUM = "/usr/bin/chromium"
#: The flags that work headless here (as root, in a container, offline).
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1")
#: The first window height tried; doubled while the page fills it.
START_HEIGHT = 2400
MAX_HEIGHT = 20_000


#: The fonts the pages ask for (Debian packages): Discord's gg sans is not free.
FONTS = {"Noto Sans": "fonts-noto-core", "Noto Color Emoji": "fonts-noto-color-emoji"}


def missing_fonts() -> list[str]:
    """The Debian packages of :data:`FONTS` whose font fontconfig does not know."""
    try:
        listed = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True,
                                timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return sorted(FONTS.values())
    families = {name.strip() for line in listed.splitlines() for name in line.split(",")}
    return [package for family, package in FONTS.items() if family not in families]


class NoChromium(RuntimeError):
    """Chromium is not installed."""


def chromium() -> str:
    """The Chromium binary, or :class:`NoChromium` saying what to install."""
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not found:
        raise NoChromium("Chromium is not installed: `sudo apt-get install chromium` "
                         "(Debian's package; `make screens` does it when run as root).")
    return found


def _shoot(page: Path, out: Path, width: int, height: int) -> None:
    with tempfile.TemporaryDirectory(prefix="screens-chromium-") as profile:
        command = [chromium(), *FLAGS, f"--user-data-dir={profile}",
                   f"--screenshot={out}", f"--window-size={width},{height}", page.as_uri()]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if done.returncode != 0 or not out.exists():
        raise RuntimeError(f"Chromium failed ({done.returncode}): {done.stderr[-2000:]}")


def content_height(image: Image.Image, background: str) -> int:
    """The height down to the last row that is not all ``background``."""
    plain = Image.new("RGB", image.size, background)
    box = ImageChops.difference(image.convert("RGB"), plain).getbbox()
    return 0 if box is None else box[3]


def screenshot(page: Path, out: Path, width: int, background: str, margin: int = 16) -> Path:
    """``out``: ``page`` at ``width`` CSS pixels, as tall as its content plus ``margin``."""
    height = START_HEIGHT
    while True:
        _shoot(page, out, width, height)
        with Image.open(out) as shot:
            shot.load()
        bottom = content_height(shot, background)
        if bottom < height - margin or height >= MAX_HEIGHT:
            break
        height *= 2
    cropped = shot.convert("RGB").crop((0, 0, width, min(height, bottom + margin)))
    # 256 colours, undithered: the same to the eye, a third of the bytes in git.
    cropped.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        out, optimize=True)
    return out
